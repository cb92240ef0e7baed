/**
 * Start-up wiring: createServices assembles what the server, the CLI commands
 * and the tests share; startServer is the `serve` sequence.
 */
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createGenerator, type Generator } from './answer/index.js';
import express from 'express';
import { createApp } from './app.js';
import { ROOT, type Config } from './config.js';
import { ensureEmbedder } from './db/embedder-guard.js';
import { migrate, type MigrationResult } from './db/migrate.js';
import { DatabaseWatch } from './db/watch.js';
import { createEmbedder } from './embedders/index.js';
import type { Embedder } from './embedders/types.js';
import { createExtractor } from './extractors/index.js';
import type { Extractor } from './extractors/types.js';
import { GraphStore } from './db/store.js';
import { Startup } from './health.js';
import { AppError } from './errors.js';
import { errorHandler } from './http/errors.js';
import { requestId } from './http/request-id.js';
import { ingestPath, progressBar, walkedTypes } from './ingest/index.js';
import { ensureFactIndexes } from './db/fact-indexes.js';
import type { Progress } from './ingest/types.js';
import { Jobs } from './jobs/index.js';
import { createLogger, type Logger } from './logger.js';
import { observeResponses } from './metrics.js';
import { Retriever } from './retrieval/client.js';
import { ensureProjection } from './db/projection.js';
import { loadingHealthRouter } from './routes/health.js';
import { metricsRouter } from './routes/metrics.js';
import type { Services } from './services.js';
import { DEFAULT_MODE, Replanner, ServedRetriever } from './planning.js';

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
 * (the driver connects on first use: see waitForDatabase); the extractor and
 * the generator are created on first use. Overrides replace the configured parts.
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

/**
 * Starts the embedded Neo4j (docker/neo4j.mjs) when NEO4J_URI is unset, without blocking the
 * event loop (the HTTP port is already open and answering). The launcher reads the same
 * environment (and .env) for its NEO4J_* settings. Resolves true when this call started it
 * (false: NEO4J_URI is set, or it was already running), so the server stops on exit only what
 * it started.
 */
export function startEmbeddedNeo4j(cfg: Config): Promise<boolean> {
  if (!cfg.neo4j.embedded) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'start'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      process.stdout.write(c);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`could not start the embedded Neo4j (see above); or set NEO4J_URI to an existing database (${cfg.neo4j.uri})`));
      else resolve(!/already running/i.test(out));
    });
  });
}

/** Stops the embedded Neo4j (docker/neo4j.mjs stop); a failure is logged, never thrown. */
export function stopEmbeddedNeo4j(log: Logger): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'stop'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status === 0) log.info('embedded Neo4j stopped');
  else log.warn({ code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().slice(0, 500) }, 'could not stop the embedded Neo4j');
}

/** Waits for the database: the server may start before it. Wrong credentials fail at once. */
export async function waitForDatabase(store: GraphStore, cfg: Config['neo4j'], log: Logger, waitMs = 120_000, onWait?: (error: string) => void): Promise<void> {
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
      onWait?.(msg);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

/** Applies pending migrations (vector indexes at the embedder's dimension). */
export function migrateStore(svc: Pick<Services, 'store' | 'embedder'>): Promise<MigrationResult> {
  return migrate(svc.store, { dimension: svc.embedder.dimension });
}

/** `npm start` on a fresh machine: an empty database gets the bundled demo corpus, so the first query answers. */
export async function loadDemoIfEmpty(svc: Services, onProgress?: (p: Progress) => void): Promise<boolean> {
  const { config, store, embedder, logger } = svc;
  if (!config.demoCorpus) return false;
  const res = await store.read('MATCH (p:Passage) RETURN count(p) AS n');
  if (Number(res.records[0]!.get('n')) > 0) return false;
  logger.info({ corpus: config.demoCorpus }, 'empty database: loading the demo corpus (first start only)');
  const t0 = performance.now();
  const bar = progressBar();
  const summary = await ingestPath({ store, config, embedder }, config.demoCorpus, {
    onProgress: (p) => {
      bar(p);
      onProgress?.(p);
    },
  });
  const totalSeconds = Math.round((performance.now() - t0) / 100) / 10;
  logger.info({ passages: summary.passages, entities: summary.entities, totalSeconds, seconds: summary.seconds }, 'demo corpus loaded');
  return true;
}

/**
 * While the server starts: health (status loading, phase, progress), metrics, the page and its
 * script; every API request gets 503 `starting` with Retry-After.
 */
function loadingApp(startup: Startup, logger: Logger): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId(logger));
  app.use(observeResponses);
  app.use(metricsRouter());
  app.use(loadingHealthRouter(startup));
  app.get('/vendor/cytoscape.esm.min.mjs', (_req, res) =>
    res.sendFile(path.join(ROOT, 'node_modules', 'cytoscape', 'dist', 'cytoscape.esm.min.mjs'), { maxAge: '1d' }),
  );
  app.use(express.static(path.join(ROOT, 'server', 'public'), { index: 'index.html' }));
  app.use((_req, _res, next) => {
    const s = startup.status();
    const message = s.phase === 'failed' ? `the server failed to start: ${s.error}` : `the server is starting (${s.message}); retry shortly`;
    next(new AppError('starting', message, undefined, startup.retryAfterSeconds()));
  });
  app.use(errorHandler);
  return app;
}

export interface RunningServer {
  url: string;
  server: http.Server;
  /** The start-up's state, which GET /v1/health reports until the server is ready. */
  startup: Startup;
  /**
   * Settles when retrieval answers: migrations applied, the demo corpus loaded into an empty
   * database, the projection built and the statements planned. Rejects when start-up failed.
   */
  ready: Promise<Services>;
  close(): Promise<void>;
}

/**
 * How long an idle keep-alive connection stays open: longer than the longest Retry-After this
 * server sends (30 s, a projection build) plus a margin. Node's default, 5 s, equals the
 * Retry-After of a database outage: a client that waited as told and reused its connection wrote
 * into a socket the server was closing at that very moment, and got no HTTP answer at all
 * (docs/recovery.md). Clients that read the Keep-Alive hint close theirs a little earlier.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Keep-alive connections outlive any Retry-After; the headers timeout stays above the keep-alive one. */
function keepConnections(server: http.Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
}

/** How often the server checks that the database answers and the ppr projection exists. */
const WATCH_INTERVAL_MS = 500;

/**
 * The `serve` sequence. The HTTP port opens first, at once: until the server is ready, health
 * answers 503 `loading` with the phase and the demo load's progress, the page loads, and every
 * API request answers 503 `starting` with Retry-After. Then, in the background: the embedded
 * Neo4j when NEO4J_URI is unset (and the embedder, at the same time), wait for it, migrations,
 * the embedder guard, the demo corpus into an empty database, curated relationship types added to
 * the walk's allow-list, the ppr projection, a warm-up of every statement; then the API answers
 * and a watchdog (server/db/watch.ts) rebuilds the projection and re-plans the statements as soon
 * as the database answers again after an outage. With `handleSignals`, SIGINT/SIGTERM shut down
 * gracefully (see `shutdown`) and exit 0, and a failed start-up exits 1.
 */
export async function startServer(config: Config, overrides: ServiceOverrides = {}, opts: { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const startup = new Startup();
  let handler: http.RequestListener = loadingApp(startup, logger);
  const server = http.createServer((req, res) => handler(req, res));
  keepConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  logger.info({ url, status: 'loading' }, 'graph-recall listening');

  let svc: Services | undefined;
  let startedDb = false;
  let closing = false;
  let watch: DatabaseWatch | undefined;

  const ready = (async (): Promise<Services> => {
    startup.enter('database');
    // The embedded database and the embedding model (a download on a fresh machine) load side by side.
    const services = createServices(config, { ...overrides, logger }).then((s) => {
      svc = s;
      startup.embedder = { id: s.embedder.id, dimension: s.embedder.dimension };
      return s;
    });
    services.catch(() => undefined);
    startedDb = await startEmbeddedNeo4j(config);
    const base = await services;
    const { store, embedder } = base;
    await waitForDatabase(store, config.neo4j, logger, undefined, (msg) => (startup.databaseError = msg));
    startup.enter('migrations');
    const m = await migrateStore(base);
    logger.info({ applied: m.applied, embedder: embedder.id }, 'migrations done');
    await ensureEmbedder(store, embedder);
    startup.enter('demo');
    await loadDemoIfEmpty(base, (p) => startup.setProgress(p.stage, p.done, p.total));
    startup.enter('projection');
    // Curated graphs (Hetionet) bring their own relationship types: the walk may follow them too.
    const allowed = await walkedTypes(store, config.traverseTypes);
    // Each walked type's fact index (the statements search them for fact seeds); empty until its facts are embedded.
    await ensureFactIndexes(store, allowed, embedder.dimension);
    const projection = await ensureProjection(store.driver, { graphName: config.pprGraphName, database: store.database, extraTypes: allowed });
    if (projection !== 'none') logger.info({ graphName: config.pprGraphName }, 'ppr projection built');
    const served: Config = { ...config, traverseTypes: allowed };
    const retriever = new ServedRetriever(store, {
      timeoutMs: served.queryTimeoutMs,
      allowedRelTypes: served.traverseTypes,
      pprGraphName: served.pprGraphName,
      cosineFloor: embedder.cosineFloor,
    });
    const full: Services = { ...base, config: served, retriever, jobs: new Jobs({ ...base, config: served }) };
    svc = full;
    startup.enter('warm-up');
    const replanner = new Replanner(full, retriever);
    // The API opens the moment the default mode is planned; the others answer 503 + Retry-After until theirs are.
    const open = () => {
      if (closing || watch) return;
      handler = createApp(full);
      startup.enter('ready');
      const w = watchDatabase(full, replanner);
      watch = w;
      retriever.down = () => w.reachable === false;
      full.databaseDown = retriever.down;
      full.readiness = () => retriever.readiness();
      // Jobs left queued or running by an instance that stopped resume here (or on the instance holding the lease).
      full.jobs.start();
      logger.info({ url, seconds: startup.status().elapsedSeconds, ready: DEFAULT_MODE }, 'graph-recall answers');
    };
    await replanner.run((mode) => mode === DEFAULT_MODE && open());
    if (closing) throw new Error('closed during start-up');
    open();
    logger.info({ url, seconds: startup.status().elapsedSeconds }, 'graph-recall ready: every mode planned');
    return full;
  })();
  ready.catch((e: unknown) => {
    if (closing) return;
    startup.fail(e);
    logger.error({ err: startup.error }, 'start-up failed');
    if (!opts.handleSignals) return;
    closing = true;
    void (async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await svc?.store.close().catch(() => undefined);
      await svc?.embedder.close?.();
      if (startedDb && !config.keepNeo4j) stopEmbeddedNeo4j(logger);
    })().finally(() => process.exit(1));
  });

  const close = async (): Promise<void> => {
    closing = true;
    watch?.stop();
    await svc?.jobs.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await svc?.store.close();
    await svc?.embedder.close?.();
  };
  if (opts.handleSignals) {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      closing = true;
      watch?.stop();
      const stopDb = startedDb && !config.keepNeo4j;
      const parts = svc ?? { store: { close: async () => undefined }, embedder: { close: async () => undefined } };
      void shutdown(server, { ...parts, logger } as Pick<Services, 'store' | 'embedder' | 'logger' | 'jobs'>, {
        timeoutMs: config.shutdownTimeoutMs,
        signal,
        stopDb,
      })
        .catch((e) => logger.error({ err: String((e as Error)?.message ?? e) }, 'shutdown failed'))
        .finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
  return { url, server, startup, ready, close };
}

/**
 * The watchdog of a running server: when the database answers again after an outage, every
 * statement is planned again, the default mode first, and the ppr projection rebuilt as soon as
 * the default mode's plan is done (not on the first ppr request); a projection that vanished
 * while the database ran is rebuilt too.
 */
function watchDatabase(svc: Services, replanner: Replanner): DatabaseWatch {
  const projection = svc.retriever.projection;
  const heal = () => {
    if (projection.wanted && !projection.building && !replanner.holdProjection) projection.heal();
  };
  return new DatabaseWatch(svc.store.driver, {
    database: svc.store.database,
    graphName: svc.config.pprGraphName,
    intervalMs: WATCH_INTERVAL_MS,
    onDown: (err) => {
      svc.logger.warn({ err }, 'database unreachable: retrieval answers 503 until it is back');
      replanner.cancel();
    },
    onUp: () => {
      svc.logger.info({ first: DEFAULT_MODE }, 'database answers again: re-planning the statements, then rebuilding the ppr projection');
      void replanner.run((mode) => mode === DEFAULT_MODE && heal()).finally(heal);
      heal();
    },
    onProjectionMissing: heal,
  }).start();
}

/**
 * Graceful shutdown: stop accepting connections, close idle keep-alive ones,
 * let in-flight requests (SSE streams included) finish for up to `timeoutMs`,
 * then cut what remains, close the driver and the embedder, and stop the
 * embedded Neo4j when this server started it (unless KEEP_NEO4J / --keep-db).
 */
export async function shutdown(
  server: http.Server,
  svc: Pick<Services, 'store' | 'embedder' | 'logger'> & { jobs?: Services['jobs'] },
  opts: { timeoutMs: number; signal?: string; stopDb?: boolean },
): Promise<void> {
  const log = svc.logger;
  log.info({ signal: opts.signal, timeoutMs: opts.timeoutMs }, 'shutting down: waiting for in-flight requests');
  // A running job is put back in line at once (this instance's lease released), not waited for.
  const jobsStopped = svc.jobs?.stop().catch((e: unknown) => log.warn({ err: String((e as Error)?.message ?? e) }, 'could not stop the job runner'));
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
  await jobsStopped;
  await svc.store.close();
  await svc.embedder.close?.();
  if (opts.stopDb) stopEmbeddedNeo4j(log);
  log.info('stopped');
}
