import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { loadConfig, ROOT, type Config } from '../../server/config.js';
import { createHashEmbedder } from '../../server/embedders/hash.js';
import type { Health } from '../../server/health.js';
import { createLogger } from '../../server/logger.js';
import { startServer, type RunningServer } from '../../server/startup.js';
import { resetGraph, testDriver } from '../support/db.js';

/**
 * Issue 12, item 6: `serve` opens its port at once. Against an empty database with the demo
 * load enabled, health says `loading` (phase, demo progress) and retrieval answers 503 with
 * Retry-After until the demo corpus is in; the page loads meanwhile; then retrieval answers 200
 * from the demo data, ppr included.
 */
let driver: Driver;
let srv: RunningServer | undefined;
let dir: string;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  // A slice of the real demo corpus: the same reader, extractor and writes as `npm start`.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-recall-startup-'));
  const lines = fs
    .readFileSync(path.join(ROOT, 'bench', 'data', 'musique', 'corpus.jsonl'), 'utf8')
    .split('\n')
    .slice(0, 150);
  fs.writeFileSync(path.join(dir, 'demo.jsonl'), `${lines.join('\n')}\n`);
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await driver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), type: res.headers.get('content-type') ?? '', text: await res.text() };
};
const retrieve = async (url: string, mode: string) => {
  const res = await fetch(`${url}/v1/retrieve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'Who edits the Journal of Mathematical Physics?', mode }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
};

test('the port opens at once: health loading with progress and 503 + Retry-After until the demo corpus is in, then 200', async () => {
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    neo4j: { uri: process.env.NEO4J_URI!, user: process.env.NEO4J_USER || 'neo4j', password: process.env.NEO4J_PASSWORD!, database: 'neo4j', embedded: false },
    demoCorpus: path.join(dir, 'demo.jsonl'),
    extractor: 'offline',
    queryTimeoutMs: 30_000,
  };
  srv = await startServer(config, { embedder: createHashEmbedder(384), logger: createLogger('silent') });
  let done = false;
  void srv.ready.finally(() => (done = true)).catch(() => undefined);

  // Before anything is loaded: health loading, retrieval 503 starting with Retry-After, the page.
  const h0 = await get(`${srv.url}/v1/health`);
  expect(h0.status).toBe(503);
  expect(Number(h0.retryAfter)).toBeGreaterThanOrEqual(1);
  const health0 = JSON.parse(h0.text) as Health;
  expect(health0.status).toBe('loading');
  expect(['database', 'migrations', 'demo']).toContain(health0.loading!.phase);
  const r0 = await retrieve(srv.url, 'vector');
  expect(r0.status).toBe(503);
  expect(Number(r0.retryAfter)).toBeGreaterThanOrEqual(1);
  expect((r0.body.error as { code: string }).code).toBe('starting');
  const page = await get(`${srv.url}/`);
  expect(page.status).toBe(200);
  expect(page.type).toMatch(/text\/html/);
  expect(done).toBe(false);

  // While loading: every health answers loading; the demo load reports its progress.
  const phases = new Set<string>();
  let progress: NonNullable<Health['loading']>['progress'];
  while (!done) {
    const h = await get(`${srv.url}/v1/health`);
    if (done) break;
    const body = JSON.parse(h.text) as Health;
    expect({ status: h.status, health: body.status }).toEqual({ status: 503, health: 'loading' });
    phases.add(body.loading!.phase);
    if (body.loading!.phase === 'demo' && body.loading!.progress?.stage === 'ingest') progress = body.loading!.progress;
    const r = await retrieve(srv.url, 'gated');
    if (!done) expect({ status: r.status, code: (r.body.error as { code?: string } | undefined)?.code }).toEqual({ status: 503, code: 'starting' });
    await new Promise((r) => setTimeout(r, 100));
  }
  await srv.ready;
  expect(phases).toContain('demo');
  expect(progress).toBeDefined();
  expect(progress!.total).toBe(150);

  // Ready: health ok, and every mode answers from the demo data.
  const h1 = await get(`${srv.url}/v1/health`);
  expect(h1.status).toBe(200);
  expect((JSON.parse(h1.text) as Health).status).toBe('ok');
  for (const mode of ['vector', 'hybrid', 'gated', 'ppr']) {
    const r = await retrieve(srv.url, mode);
    expect({ mode, status: r.status }).toEqual({ mode, status: 200 });
    expect((r.body.passages as { id: string }[]).length).toBeGreaterThan(0);
  }
  const s = await driver.session().run('MATCH (d:Document) RETURN count(d) AS n');
  expect(Number(s.records[0].get('n'))).toBe(150);
}, 600_000);
