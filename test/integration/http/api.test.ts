// Subject: POST /v1/retrieve and /v1/compare over real HTTP.
import type { Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { testDriver } from '../../support/db.js';
import { bridgeFixture, loadFixtureGraph } from '../../support/fixtures.js';
import { TcpProxy } from '../../support/proxy.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

const f = bridgeFixture();
// The hash embedder is a fast test double for question text; fixture queries send their embedding.
const embedder = createHashEmbedder(384);
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, f.graph);
  srv = await startServer({ embedder });
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

describe('POST /v1/retrieve', () => {
  test.each(['gated', 'ppr', 'vector'])('%s answers with the full result shape and timings', async (mode) => {
    const r = await postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
    expect(Object.keys(r.body).sort()).toEqual(['context', 'entities', 'facts', 'mode', 'params', 'passages', 'paths', 'seeds', 'timings']);
    expect(r.body.mode).toBe(mode);
    expect(r.body.timings).toEqual({ embedMs: 0, dbMs: expect.any(Number), totalMs: expect.any(Number) });
    // expect.any(Number) also matches Infinity and NaN: the database's time is a real one, within the total.
    expect(Number.isFinite(r.body.timings.dbMs) && r.body.timings.dbMs > 0).toBe(true);
    expect(r.body.timings.totalMs).toBeGreaterThanOrEqual(r.body.timings.dbMs);
    expect(r.body.passages.length).toBeGreaterThan(0);
    if (mode === 'gated') expect(r.body.params).toMatchObject({ steps: 3, decay: 0.7, threshold: 0.01, relTypes: ['RELATED', 'SAME_AS'] });
  });

  test('a question is embedded by the server and timed', async () => {
    const r = await postJson(`${srv.url}/v1/retrieve`, { question: 'Who worked with Ada Lovelace?', mode: 'gated', explain: true });
    expect(r.status).toBe(200);
    // Timed by the server: a finite time, inside the total with the database's (embedMs is 0 when the caller sends the vector).
    const { embedMs, dbMs, totalMs } = r.body.timings;
    expect([embedMs, dbMs, totalMs].every(Number.isFinite)).toBe(true);
    expect(totalMs + 0.02).toBeGreaterThanOrEqual(embedMs + dbMs);
    expect(r.body.seeds.find((s: { name: string }) => s.name === 'Ada Lovelace').sources).toContain('name');
    expect(r.body.explain.file).toBe('cypher/retrieve_gated.cypher');
  });

  test.each([
    [{ question: 'x', colour: 'red' }, 'colour', /unknown field/],
    [{ question: 'x', mode: 'magic' }, 'mode', /Invalid enum value/],
    [{ question: 'x', params: { steps: 9 } }, 'params.steps', /less than or equal to 5/],
    [{ question: 'x', params: { decay: 'high' } }, 'params.decay', /Expected number/],
    [{ question: 'x', mode: 'vector', params: { steps: 2 } }, 'params.steps', /unknown field/],
    // GDS Community refuses more than 4 threads: caught here, not a 500 from the database.
    [{ question: 'x', mode: 'ppr', params: { engine: 'gds', concurrency: 5 } }, 'params.concurrency', /less than or equal to 4/],
    [{ question: 'x', params: { relTypes: ['KNOWS'] } }, 'params.relTypes', /not in the allow-list/],
    [{ question: 'x', params: { relTypes: ['RELATED]->() DETACH DELETE (n'] } }, 'params.relTypes.0', /Invalid/],
    [{ questionEmbedding: [0.1, 0.2] }, 'questionEmbedding', /expected 384 numbers/],
    [{ mode: 'gated' }, 'question', /question or questionEmbedding is required/],
    [{ question: '   ' }, 'question', /must not be empty/],
  ])('bad input %j is a 400 naming %s', async (body, field, message) => {
    const r = await postJson(`${srv.url}/v1/retrieve`, body);
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.message).toMatch(message);
  });

  test('ppr on GDS runs with concurrency 4, the most GDS Community allows', async () => {
    const r = await postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'ppr', params: { engine: 'gds', concurrency: 4 } });
    expect(r.status).toBe(200);
    expect(r.body.passages.length).toBeGreaterThan(0);
  });

  test('malformed JSON is a 400', async () => {
    const r = await postJson(`${srv.url}/v1/retrieve`, '{"question": ');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_json');
  });
});

test('GET /v1/health reports the database, migrations, indexes and projection', async () => {
  const res = await fetch(`${srv.url}/v1/health`);
  const h = await res.json();
  expect(res.status).toBe(200);
  expect(h.status).toBe('ok');
  expect(h.database).toMatchObject({ reachable: true, version: expect.stringMatching(/^5\.26/) });
  expect(h.migrations.pending).toEqual([]);
  expect(h.indexes.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['entity_embedding', 'entity_name', 'passage_embedding']));
  expect(h.projection).toMatchObject({ exists: true, fresh: true });
});

test('a database outage gives 503, and the server recovers by itself when it returns', async () => {
  const target = new URL(process.env.NEO4J_URI!.replace(/^\w+:/, 'http:'));
  const proxy = new TcpProxy(target.hostname, Number(target.port || 7687));
  const port = await proxy.start();
  const viaProxy = await startServer({ embedder, uri: `bolt://127.0.0.1:${port}` });
  try {
    const ok = await postJson(`${viaProxy.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'gated' });
    expect(ok.status).toBe(200);
    await proxy.stop();
    const down = await postJson(`${viaProxy.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'gated' });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('database_unavailable');
    expect((await fetch(`${viaProxy.url}/v1/health`)).status).toBe(503);
    await proxy.start(port);
    let back = 0;
    for (let i = 0; i < 20 && back !== 200; i++) {
      back = (await postJson(`${viaProxy.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'gated' })).status;
      if (back !== 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(back).toBe(200);
  } finally {
    await viaProxy.close();
    await proxy.stop();
  }
});

test('a retrieval slower than the timeout gives 504', async () => {
  const slow = await startServer({ embedder, timeoutMs: 1 });
  try {
    // Thirteen seeds with exact weights: thirteen 200-iteration PageRank runs, far past 1 ms
    // (the launcher checks timeouts every 100 ms).
    const seedIds = f.graph.entities.map((e) => e.id);
    const body = { questionEmbedding: f.question, mode: 'ppr', params: { engine: 'gds', seedIds, maxIterations: 200, tolerance: 0 } };
    // The request that plans the statement (the first of its mode) is not cut off by the timeout:
    // the plan it makes serves every later request.
    expect((await postJson(`${slow.url}/v1/retrieve`, body)).status).toBe(200);
    const r = await postJson(`${slow.url}/v1/retrieve`, body);
    expect(r.status).toBe(504);
    expect(r.body.error.code).toBe('query_timeout');
  } finally {
    await slow.close();
  }
});

describe('POST /v1/compare', () => {
  test('runs each mode once on one embedding and reports overlap', async () => {
    const r = await postJson(`${srv.url}/v1/compare`, { questionEmbedding: f.question, modes: ['vector', 'gated', 'ppr'], params: { gated: { steps: 2 } } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.results)).toEqual(['vector', 'gated', 'ppr']);
    expect(r.body.results.gated.params.steps).toBe(2);
    expect(r.body.overlap).toHaveLength(3);
    const gp = r.body.overlap.find((o: { modes: string[] }) => o.modes.join() === 'gated,ppr');
    expect(gp.jaccardAt5).toBeGreaterThan(0);
    expect(gp.jaccardAt5).toBeLessThanOrEqual(1);
    expect(Number.isFinite(r.body.timings.byMode.gated.dbMs) && r.body.timings.byMode.gated.dbMs > 0).toBe(true);
  });

  test('per-mode params are validated by mode', async () => {
    const r = await postJson(`${srv.url}/v1/compare`, { questionEmbedding: f.question, modes: ['vector', 'gated'], params: { vector: { steps: 2 } } });
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe('params.vector.steps');
  });
});

describe('document endpoints', () => {
  let keyed: RunningServer;
  beforeAll(async () => (keyed = await startServer({ embedder, config: { apiKey: 'test-api-key' } })));
  afterAll(async () => keyed.close());

  test('write endpoints need the API key', async () => {
    expect((await postJson(`${srv.url}/v1/documents`, { documents: [{ title: 't', text: 'x' }] })).status).toBe(403);
    const wrong = await postJson(`${keyed.url}/v1/documents`, { documents: [{ title: 't', text: 'x' }] }, { 'x-api-key': 'nope' });
    expect(wrong.status).toBe(401);
  });

  test('DELETE needs the API key: without one, or with a wrong one, the document stays', async () => {
    const doc = { id: 'api-doc-keep', title: 'Ada Lovelace', text: 'Ada Lovelace wrote the first published program.' };
    expect((await postJson(`${keyed.url}/v1/documents`, { documents: [doc] }, { 'x-api-key': 'test-api-key' })).status).toBeLessThan(300);
    const count = async () =>
      Number((await keyed.driver.executeQuery("MATCH (d:Document {id: 'api-doc-keep'}) RETURN count(d) AS n", {}, { database: 'neo4j' })).records[0]!.get('n'));
    const url = `${keyed.url}/v1/documents/api-doc-keep`;
    const none = await fetch(url, { method: 'DELETE' });
    const wrong = await fetch(url, { method: 'DELETE', headers: { 'x-api-key': 'test-api-keY' } });
    const disabled = await fetch(`${srv.url}/v1/documents/api-doc-keep`, { method: 'DELETE', headers: { 'x-api-key': 'test-api-key' } });
    expect([none.status, wrong.status, disabled.status]).toEqual([401, 401, 403]);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect(await count()).toBe(1);
    expect((await fetch(url, { method: 'DELETE', headers: { 'x-api-key': 'test-api-key' } })).status).toBe(204);
    expect(await count()).toBe(0);
  });

  test('POST adds documents with counts, validates them, and DELETE removes them', async () => {
    const bad = await postJson(`${keyed.url}/v1/documents`, { documents: [{ title: 'no text' }] }, { 'x-api-key': 'test-api-key' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('documents.0.text');
    const doc = { id: 'api-doc-1', title: 'Grace Hopper', text: 'Grace Hopper worked on the Harvard Mark I computer in Cambridge.' };
    const r = await postJson(`${keyed.url}/v1/documents`, { documents: [doc] }, { 'x-api-key': 'test-api-key' });
    expect(r.status).toBe(201);
    expect(r.body.documents).toMatchObject({ read: 1, written: 1 });
    expect(r.body.passages).toBe(1);
    expect(r.body.entities).toBeGreaterThanOrEqual(2);
    const again = await postJson(`${keyed.url}/v1/documents`, { documents: [doc] }, { 'x-api-key': 'test-api-key' });
    expect(again.body.documents).toMatchObject({ written: 0, unchanged: 1 });
    const del = await fetch(`${keyed.url}/v1/documents/api-doc-1`, { method: 'DELETE', headers: { 'x-api-key': 'test-api-key' } });
    expect(del.status).toBe(204);
    const gone = await fetch(`${keyed.url}/v1/documents/api-doc-1`, { method: 'DELETE', headers: { 'x-api-key': 'test-api-key' } });
    expect(gone.status).toBe(404);
  });
});
