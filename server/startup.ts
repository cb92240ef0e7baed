/**
 * Start-up wiring: createServices assembles what the server, the CLI commands
 * and the tests share; startServer is the `serve` sequence.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createGenerator, type Generator } from './answer/index.js';
import { createApp } from './app.js';
import { ROOT, type Config } from './config.js';
import { ensureEmbedder } from './db/embedder-guard.js';
import { migrate, type MigrationResult } from './db/migrate.js';
import { createEmbedder } from './embedders/index.js';
import type { Embedder } from './embedders/types.js';
import { createExtractor } from './extractors/index.js';
import type { Extractor } from './extractors/types.js';
import { GraphStore } from './graph/store.js';
import { curatedTypes, ingestPath, progressBar } from './ingest/index.js';
import { createLogger, type Logger } from './logger.js';
import { Retriever } from './retrieval/client.js';
import { ensureProjection } from './retrieval/projection.js';
import type { Services } from './services.js';
import { MODE_NAMES } from './retrieval/params.js';

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

export function createRetriever(store: GraphStore, config: Config): Retriever {
  return new Retriever(store, { timeoutMs: config.queryTimeoutMs, allowedRelTypes: config.traverseTypes, pprGraphName: config.pprGraphName });
}

/**
 * Everything a request handler or a CLI command needs. Connects nothing yet
 * (the driver connects on first use: see waitForDatabase); the extractor and
 * the generator are created on first use. Overrides replace the configured parts.
 */
export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const embedder = overrides.embedder ?? (await createEmbedder(config));
  const store = GraphStore.connect(config.neo4j);
  return {
    config,
    store,
    retriever: createRetriever(store, config),
    embedder,
    logger,
    extractor: overrides.extractor ?? lazy(() => createExtractor(config)),
    generator: overrides.generator ?? lazy(() => createGenerator(config)),
  };
}

/**
 * Starts the embedded Neo4j (docker/neo4j.mjs) when NEO4J_URI is unset. The
 * launcher reads the same environment (and .env) for its NEO4J_* settings.
 * Returns true when this call started it (false: NEO4J_URI is set, or it was
 * already running), so the server stops on exit only what it started.
 */
export function startEmbeddedNeo4j(cfg: Config): boolean {
  if (!cfg.neo4j.embedded) return false;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'start'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(r.stdout ?? '');
  if (r.status !== 0) throw new Error(`could not start the embedded Neo4j (see above); or set NEO4J_URI to an existing database (${cfg.neo4j.uri})`);
  return !/already running/i.test(r.stdout ?? '');
}

/** Stops the embedded Neo4j (docker/neo4j.mjs stop); a failure is logged, never thrown. */
export function stopEmbeddedNeo4j(log: Logger): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'stop'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status === 0) log.info('embedded Neo4j stopped');
  else log.warn({ code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().slice(0, 500) }, 'could not stop the embedded Neo4j');
}

/** Waits for the database: the server may start before it. Wrong credentials fail at once. */
export async function waitForDatabase(store: GraphStore, cfg: Config['neo4j'], log: Logger, waitMs = 120_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await store.driver.verifyConnectivity({ database: store.database });
      return;
    } catch (e) {
      const msg = String((e as Error).message).split('\n')[0];
      if (/unauthori[sz]ed|authentication/i.test(msg)) throw new Error(`Neo4j at ${cfg.uri} rejected the credentials (NEO4J_USER / NEO4J_PASSWORD)`);
      if (Date.now() > deadline) throw new Error(`Neo4j at ${cfg.uri} is unreachable: ${msg}`);
      log.warn({ uri: cfg.uri, err: msg }, 'waiting for Neo4j');
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

/** Applies pending migrations (vector indexes at the embedder's dimension). */
export function migrateStore(svc: Pick<Services, 'store' | 'embedder'>): Promise<MigrationResult> {
  return migrate(svc.store, { dimension: svc.embedder.dimension });
}

/** `npm start` on a fresh machine: an empty database gets the bundled demo corpus, so the first query answers. */
export async function loadDemoIfEmpty(svc: Services): Promise<void> {
  const { config, store, embedder, logger } = svc;
  if (!config.demoCorpus) return;
  const res = await store.read('MATCH (p:Passage) RETURN count(p) AS n');
  if (Number(res.records[0]!.get('n')) > 0) return;
  logger.info({ corpus: config.demoCorpus }, 'empty database: loading the demo corpus (first start only)');
  const summary = await ingestPath({ store, config, embedder }, config.demoCorpus, { onProgress: progressBar() });
  logger.info({ passages: summary.passages, entities: summary.entities, seconds: summary.seconds }, 'demo corpus loaded');
}

/**
 * Runs each mode once before the port opens: the first run of a long statement
 * pays for its query plan (seconds on a busy machine), which a user's first
 * question would otherwise pay, up to a 504. Failures are only logged.
 */
async function warmUp(svc: Services): Promise<void> {
  const t0 = performance.now();
  try {
    const res = await svc.store.read('MATCH (p:Passage) WHERE p.embedding IS NOT NULL RETURN p.embedding AS e LIMIT 1');
    const embedding = res.records[0]?.get('e') as number[] | undefined;
    if (!embedding || embedding.length !== svc.embedder.dimension) return;
    for (const mode of MODE_NAMES) {
      await svc.retriever.retrieve({ mode, question: 'warm up', questionEmbedding: embedding }).catch((e) => {
        svc.logger.debug({ mode, err: String((e as Error).message).slice(0, 200) }, 'warm-up query failed');
      });
    }
    svc.logger.info({ ms: Math.round(performance.now() - t0) }, 'statements warmed up');
  } catch (e) {
    svc.logger.debug({ err: String((e as Error).message).slice(0, 200) }, 'warm-up skipped');
  }
}

export interface RunningServer {
  url: string;
  services: Services;
  server: http.Server;
  close(): Promise<void>;
}

/**
 * The `serve` sequence: embedded Neo4j when NEO4J_URI is unset, wait for it,
 * migrations, the embedder guard, the demo corpus into an empty database,
 * curated relationship types added to the walk's allow-list, the ppr
 * projection, then the HTTP app. With `handleSignals`, SIGINT/SIGTERM shut
 * down gracefully (see `shutdown`) and exit 0.
 */
export async function startServer(config: Config, overrides: ServiceOverrides = {}, opts: { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const startedDb = startEmbeddedNeo4j(config);
  let svc = await createServices(config, overrides);
  const { store, embedder, logger } = svc;
  try {
    await waitForDatabase(store, config.neo4j, logger);
    const m = await migrateStore(svc);
    logger.info({ applied: m.applied, embedder: embedder.id }, 'migrations done');
    await ensureEmbedder(store, embedder);
    await loadDemoIfEmpty(svc);
    // Curated graphs (Hetionet) bring their own relationship types: the walk may follow them too.
    const allowed = [...new Set([...config.traverseTypes, ...(await curatedTypes(store))])];
    const projection = await ensureProjection(store.driver, { graphName: config.pprGraphName, database: store.database, extraTypes: allowed });
    if (projection !== 'none') logger.info({ graphName: config.pprGraphName }, 'ppr projection built');
    const served: Config = { ...config, traverseTypes: allowed };
    svc = { ...svc, config: served, retriever: createRetriever(store, served) };
    await warmUp(svc);
  } catch (e) {
    await store.close();
    throw e;
  }

  const server = http.createServer(createApp(svc));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  logger.info({ url }, 'graph-recall listening');

  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await store.close();
    await svc.embedder.close?.();
  };
  if (opts.handleSignals) {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      const stopDb = startedDb && !config.keepNeo4j;
      void shutdown(server, svc, { timeoutMs: config.shutdownTimeoutMs, signal, stopDb })
        .catch((e) => logger.error({ err: String((e as Error)?.message ?? e) }, 'shutdown failed'))
        .finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
  return { url, services: svc, server, close };
}

/**
 * Graceful shutdown: stop accepting connections, close idle keep-alive ones,
 * let in-flight requests (SSE streams included) finish for up to `timeoutMs`,
 * then cut what remains, close the driver and the embedder, and stop the
 * embedded Neo4j when this server started it (unless KEEP_NEO4J / --keep-db).
 */
export async function shutdown(
  server: http.Server,
  svc: Pick<Services, 'store' | 'embedder' | 'logger'>,
  opts: { timeoutMs: number; signal?: string; stopDb?: boolean },
): Promise<void> {
  const log = svc.logger;
  log.info({ signal: opts.signal, timeoutMs: opts.timeoutMs }, 'shutting down: waiting for in-flight requests');
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  // Keep-alive connections that finish a response afterwards are closed as they go idle.
  server.on('request', (_req, res) => res.setHeader('connection', 'close'));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((r) => {
      timer = setTimeout(() => r(true), opts.timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    log.warn({ timeoutMs: opts.timeoutMs }, 'in-flight requests still running at the shutdown deadline: closing them');
    server.closeAllConnections();
    await closed;
  }
  await svc.store.close();
  await svc.embedder.close?.();
  if (opts.stopDb) stopEmbeddedNeo4j(log);
  log.info('stopped');
}
