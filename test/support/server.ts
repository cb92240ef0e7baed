import type { Driver } from 'neo4j-driver';
import type { DatabaseWatch } from '../../server/db/watch.js';
import type { Services } from '../../server/services.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Embedder } from '../../server/embedders/types.js';
import { createLogger } from '../../server/logger.js';
import { createExtractiveGenerator } from '../../server/answer/extractive.js';
import type { Generator } from '../../server/answer/index.js';
import { createOfflineExtractor } from '../../server/extractors/offline/index.js';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Writable } from 'node:stream';
import { createApp } from '../../server/app.js';
import { createServices, type ServiceOverrides } from '../../server/compose.js';
import { startServer as startCliServer } from '../../server/startup.js';

export interface RunningServer {
  url: string;
  driver: Driver;
  services: Services;
  /** The server's database watchdog (startServer only; none without the start-up sequence). */
  watch?: DatabaseWatch;
  close(): Promise<void>;
}

export interface ServerOptions {
  embedder: Embedder;
  uri?: string;
  timeoutMs?: number;
  config?: Partial<Config>;
  generator?: () => Promise<Generator>;
  /** The server's log at this level into this sink (test/support/logs.ts), instead of TEST_LOG_LEVEL's on stdout. */
  log?: { level: string; sink: Writable };
}

/** The test's configuration: only what the test sets (never the developer's .env or environment), on the test database. */
function testConfig(opts: ServerOptions, defaults: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    ...defaults,
    ...opts.config,
    neo4j: {
      uri: opts.uri ?? process.env.NEO4J_URI!,
      user: process.env.NEO4J_USER || 'neo4j',
      password: process.env.NEO4J_PASSWORD!,
      database: 'neo4j',
      embedded: false,
    },
    queryTimeoutMs: opts.timeoutMs ?? 30000,
  };
}

/** The test's embedder, the offline extractor and the extractive generator (or the test's own), a silent logger. */
function testOverrides(opts: ServerOptions, embedder: Embedder): ServiceOverrides {
  const extractor = createOfflineExtractor();
  return {
    embedder,
    // TEST_LOG_LEVEL=error (or warn) shows the server's own log while a test runs.
    logger: opts.log ? createLogger(opts.log.level, opts.log.sink) : createLogger(process.env.TEST_LOG_LEVEL || 'silent'),
    extractor: async () => extractor,
    generator: opts.generator ?? (async () => createExtractiveGenerator()),
  };
}

/**
 * The server the CLI's `serve` builds (server/startup.ts: the loading app, migrations, the
 * embedder guard, the walked types, the projection, every statement planned, the watchdog, the
 * job runner), on an ephemeral loopback port against the test database (or the given URI), with
 * no demo corpus and no embedded Neo4j. Resolves once every mode is planned. The embedder
 * stays the test's: closing the server does not close it.
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const config = testConfig(opts, { host: '127.0.0.1', port: 0, demoCorpus: undefined, keepNeo4j: true });
  const embedder: Embedder = { ...bind(opts.embedder), close: async () => undefined };
  const running = await startCliServer(config, testOverrides(opts, embedder));
  const services = await running.ready.catch(async (e: unknown) => {
    await running.close();
    throw e;
  });
  return { url: running.url, driver: services.store.driver, services, watch: running.watch, close: () => running.close() };
}

/** The embedder's methods bound to it, so a wrapper can replace close() and keep the rest. */
function bind(e: Embedder): Embedder {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(e), ...Object.getOwnPropertyNames(Object.getPrototypeOf(e))])) {
    if (key === 'constructor') continue;
    const v = (e as unknown as Record<string, unknown>)[key];
    out[key] = typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(e) : v;
  }
  return out as unknown as Embedder;
}

/**
 * The API app alone (createServices and createApp, as `serve` composes them) with none of the
 * start-up sequence: no migrations, no warm-up, no watchdog. Only for a test whose subject is what
 * a server does before its statements are planned (planning.test.ts: the first requests of a cold
 * mode); every other HTTP test runs startServer, the server the CLI builds.
 */
export async function startUnplannedServer(opts: ServerOptions): Promise<RunningServer> {
  const services = await createServices(testConfig(opts), testOverrides(opts, opts.embedder));
  const driver = services.store.driver;
  // The job runner, as `serve` starts it: it resumes what an earlier server left queued or running.
  services.jobs.start();
  const app = createApp(services);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    driver,
    services,
    async close() {
      await services.jobs.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await driver.close();
    },
  };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
