// Subject: the hostile corpus on every endpoint: no 5xx but 503 + Retry-After.
/**
 * The structural hostile corpus (test/fixtures/hostile/corpus.ts) over every endpoint, /mcp
 * included, with a healthy database: no 500, no 5xx other than 503 with Retry-After, and every
 * body-shape case refused by a JSON endpoint with its 400, 413 or 415 naming (body).
 */
import type { Driver } from 'neo4j-driver';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import { ENDPOINTS, hostileCases, RAW_CASES, RAW_ENDPOINTS, runCorpus, violates } from '../../fixtures/hostile/corpus.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

const KEY = 'hostile-test-key';
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  srv = await startServer({ embedder: await createLocalEmbedder(), config: { apiKey: KEY } });
  const docs = [
    { id: 'h-1', title: 'Ada Lovelace', text: 'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.' },
    { id: 'h-2', title: 'Charles Babbage', text: 'Charles Babbage designed the Difference Engine and was born in London.' },
  ];
  expect((await postJson(`${srv.url}/v1/documents`, { documents: docs }, { 'x-api-key': KEY })).status).toBe(201);
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

test('every case on every endpoint: no 5xx but a 503 with Retry-After; body shapes refused naming (body)', async () => {
  const cases = hostileCases();
  expect(cases.length).toBeGreaterThanOrEqual(80);
  const outcomes = await runCorpus(srv.url, { apiKey: KEY });
  expect(outcomes).toHaveLength(cases.length * ENDPOINTS.length + RAW_CASES.length * RAW_ENDPOINTS.length);
  expect(outcomes.filter(violates)).toEqual([]);
  const shape = new Map(cases.map((c) => [c.name, c.shape]));
  const refusedWrongly = outcomes
    .filter((o) => ENDPOINTS.find((e) => `${e.method} ${e.path}` === o.endpoint)?.json && shape.get(o.case))
    .filter((o) => o.status !== shape.get(o.case) || o.field !== '(body)');
  expect(refusedWrongly).toEqual([]);
  // The server still answers after the corpus.
  const r = await postJson(`${srv.url}/v1/retrieve`, { question: 'Who worked with Ada Lovelace?', mode: 'vector' });
  expect(r.status).toBe(200);
  expect(r.body.passages.map((p: { id: string }) => p.id)).toContain('h-1');
}, 900_000);

test('a repeated key, a deep body and an array at the top level name (body) on the REST routes', async () => {
  for (const path of ['/v1/retrieve', '/v1/answer', '/v1/compare']) {
    const deep = await fetch(`${srv.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '['.repeat(50_000) + ']'.repeat(50_000),
    });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ error: { field: '(body)', message: expect.stringMatching(/nested deeper than 32/) } });
    const twice = await postJson(`${srv.url}${path}`, '{"question":"a","question":"b"}');
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({ field: '(body)', message: expect.stringMatching(/"question" appears twice/) });
    const array = await postJson(`${srv.url}${path}`, '[{"question":"x"}]');
    expect(array.status).toBe(400);
    expect(array.body.error.field).toBe('(body)');
  }
});
