import type { Generator } from './answer/types.js';
import type { Config } from './config.js';
import type { Embedder } from './embedders/types.js';
import type { Extractor } from './extractors/types.js';
import type { GraphStore } from './db/store.js';
import type { Jobs } from './jobs/index.js';
import type { Logger } from './logger.js';
import type { Retriever } from './retrieval/retriever.js';
import type { Mode } from './retrieval/params.js';

/** Per mode, whether retrieval answers: ready, planning (503 until its statement is planned) or database_down. */
export type ModeReadiness = Record<Mode, 'ready' | 'planning' | 'database_down'>;

/**
 * Everything a request handler or a CLI command needs, assembled once by
 * createServices (server/compose.ts) for the server, the CLI and the tests.
 */
export interface Services {
  config: Config;
  store: GraphStore;
  retriever: Retriever;
  embedder: Embedder;
  logger: Logger;
  /** The extractor for POST /v1/documents, created on first use. */
  extractor: () => Promise<Extractor>;
  /** The answer generator for POST /v1/answer, created on first use. */
  generator: () => Promise<Generator>;
  /** Writes as durable jobs (server/jobs); its runner is started by the server, or by the first write. */
  jobs: Jobs;
  /** The server's database watchdog found the database unreachable on its last probe (unset: unknown). */
  databaseDown?: () => boolean;
  /** The server's per-mode readiness, which GET /v1/health reports (unset outside the server). */
  readiness?: () => ModeReadiness;
}
