/**
 * The composition root: createServices assembles the Services (server/services.ts) that the
 * server, the CLI commands and the tests share.
 */
import { createGenerator, type Generator } from './answer/index.js';
import type { Config } from './config.js';
import { GraphStore } from './db/store.js';
import { createEmbedder } from './embedders/index.js';
import type { Embedder } from './embedders/types.js';
import { createExtractor } from './extractors/index.js';
import type { Extractor } from './extractors/types.js';
import { Jobs } from './jobs/index.js';
import { createLogger, type Logger } from './logger.js';
import { Retriever } from './retrieval/retriever.js';
import type { Services } from './services.js';

export interface ServiceOverrides {
  embedder?: Embedder;
  logger?: Logger;
  extractor?: () => Promise<Extractor>;
  generator?: () => Promise<Generator>;
}

/** Calls `create` once, on first use, and hands every caller the same promise. */
function lazy<T>(create: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= create());
}

export function createRetriever(store: GraphStore, config: Config, embedder: Pick<Embedder, 'cosineFloor'>): Retriever {
  return new Retriever(store, {
    timeoutMs: config.queryTimeoutMs,
    allowedRelTypes: config.traverseTypes,
    pprGraphName: config.pprGraphName,
    cosineFloor: embedder.cosineFloor,
  });
}

/**
 * Everything a request handler or a CLI command needs. Connects nothing yet
 * (the driver connects on first use: see waitForDatabase in server/db/embedded.ts); the
 * extractor and the generator are created on first use. Overrides replace the configured parts.
 */
export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const embedder = overrides.embedder ?? (await createEmbedder(config));
  const store = GraphStore.connect(config.neo4j);
  const extractor = overrides.extractor ?? lazy(() => createExtractor(config));
  return {
    config,
    store,
    retriever: createRetriever(store, config, embedder),
    embedder,
    logger,
    extractor,
    generator: overrides.generator ?? lazy(() => createGenerator(config)),
    jobs: new Jobs({ config, store, embedder, extractor, logger }),
  };
}
