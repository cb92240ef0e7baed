import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Driver } from 'neo4j-driver';
import { createApp } from '../../server/app.js';
import type { Services } from '../../server/services.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Embedder } from '../../server/embedders/types.js';
import { createLogger } from '../../server/logger.js';
import { createExtractiveGenerator } from '../../server/answer/extractive.js';
import type { Generator } from '../../server/answer/index.js';
import { createOfflineExtractor } from '../../server/extractors/offline/index.js';
import { createServices } from '../../server/compose.js';

export interface RunningServer {
  url: string;
  driver: Driver;
  services: Services;
  close(): Promise<void>;
}

/** The real HTTP app on an ephemeral loopback port, against the test database (or the given URI). */
export async function startServer(opts: {
  embedder: Embedder;
  uri?: string;
  timeoutMs?: number;
  config?: Partial<Config>;
  generator?: () => Promise<Generator>;
}): Promise<RunningServer> {
  // Only what the test sets: never the developer's .env or environment.
  const base = loadConfig({});
  const config: Config = {
    ...base,
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
  const extractor = createOfflineExtractor();
  const services = await createServices(config, {
    embedder: opts.embedder,
    // TEST_LOG_LEVEL=error (or warn) shows the server's own log while a test runs.
    logger: createLogger(process.env.TEST_LOG_LEVEL || 'silent'),
    extractor: async () => extractor,
    generator: opts.generator ?? (async () => createExtractiveGenerator()),
  });
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
