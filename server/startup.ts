/**
 * The `serve` sequence: the HTTP port first, then the database, its preparation
 * (server/prepare.ts) and the warm-up of every statement (server/planning.ts), then the API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, loadingApp } from './app.js';
import { createServices, type ServiceOverrides } from './compose.js';
import type { Config } from './config.js';
import { startEmbeddedNeo4j, waitForDatabase } from './db/embedded.js';
import type { DatabaseWatch } from './db/watch.js';
import { Startup } from './health.js';
import { keepConnections, release, type ReleaseOptions } from './lifecycle.js';
import { createLogger } from './logger.js';
import { DEFAULT_MODE, Replanner } from './planning.js';
import { prepareServices } from './prepare.js';
import type { Services } from './services.js';
import { watchDatabase } from './watchdog.js';
import { ensureProjection } from './db/projection.js';

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
  /** The database watchdog (server/watchdog.ts), from the moment the API answers; undefined before. */
  readonly watch: DatabaseWatch | undefined;
  close(): Promise<void>;
}

/**
 * The `serve` sequence. The HTTP port opens first, at once: until the server is ready, health
 * answers 503 `loading` with the phase and the demo load's progress, the page loads, and every
 * API request answers 503 `starting` with Retry-After. Then, in the background: the embedded
 * Neo4j when NEO4J_URI is unset (and the embedder, at the same time), wait for it, the
 * preparation (server/prepare.ts: migrations, embedder guard, demo corpus, walked types, indexes
 * online), a warm-up of every statement; the API answers once the default mode is planned, the ppr
 * projection is built from then on beside the other plans, and a watchdog
 * (server/watchdog.ts) rebuilds the projection and re-plans the statements as soon as the
 * database answers again after an outage. Every way of closing (close(), SIGINT/SIGTERM with
 * `handleSignals`, a failed start-up) takes the one release path (server/lifecycle.ts); with
 * `handleSignals` a signal drains in-flight requests and exits 0, and a failed start-up exits 1.
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
  /** The one release path: whatever has been made so far, once. */
  let released: Promise<void> | undefined;
  const releaseAll = (o: ReleaseOptions) => {
    closing = true;
    released ??= release({ server, logger, svc, watch }, { ...o, stopDb: o.stopDb && startedDb && !config.keepNeo4j });
    return released;
  };

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
    await waitForDatabase(base.store, config.neo4j, logger, undefined, (msg) => (startup.databaseError = msg));
    const { full, retriever } = await prepareServices(base, startup);
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
    // The ppr projection (only ppr's gds engine reads it) is built once the default mode is planned, beside the other
    // modes' plans, as after an outage: on a large graph it takes seconds the first answer need not wait for.
    let projection: Promise<void> | undefined;
    const buildProjection = () => {
      const opts = { graphName: full.config.pprGraphName, database: full.store.database, extraTypes: full.config.traverseTypes };
      projection ??= ensureProjection(full.store.driver, opts).then(
        (action) => {
          if (action !== 'none') logger.info({ graphName: opts.graphName }, 'ppr projection built');
        },
        (e: unknown) => logger.warn({ err: String((e as Error)?.message ?? e) }, 'ppr projection not built: ppr with engine gds answers 503 until it is'),
      );
    };
    await replanner.run((mode) => {
      if (mode !== DEFAULT_MODE) return;
      open();
      buildProjection();
    });
    if (closing) throw new Error('closed during start-up');
    open();
    buildProjection();
    await projection;
    logger.info({ url, seconds: startup.status().elapsedSeconds }, 'graph-recall ready: every mode planned, the ppr projection built');
    return full;
  })();
  ready.catch((e: unknown) => {
    if (closing) return;
    startup.fail(e);
    logger.error({ err: startup.error }, 'start-up failed');
    if (opts.handleSignals) void releaseAll({ stopDb: true }).finally(() => process.exit(1));
  });

  if (opts.handleSignals) {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      void releaseAll({ drainMs: config.shutdownTimeoutMs, signal, stopDb: true })
        .catch((e) => logger.error({ err: String((e as Error)?.message ?? e) }, 'shutdown failed'))
        .finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
  return {
    url,
    server,
    startup,
    ready,
    get watch() {
      return watch;
    },
    close: () => releaseAll({}),
  };
}
