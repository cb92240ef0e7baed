// Subject: the documented limits at their edges (question, topK, documents, titles, texts, body size).
import type { Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph } from '../../support/fixtures.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

/**
 * Issue 31, gap 4: the documented limits at their edges. At each limit the request is
 * accepted; one past it is a 400 naming the field (a 413 for the body). The hash embedder
 * stands in for the neural one: validation reads no vector.
 */
const f = bridgeFixture();
const API_KEY = 'limits-key';
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, f.graph);
  srv = await startServer({ embedder: createHashEmbedder(384), config: { apiKey: API_KEY } });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

const retrieve = (body: Record<string, unknown>) => postJson(`${srv.url}/v1/retrieve`, { mode: 'vector', ...body });
const write = (documents: unknown[]) => postJson(`${srv.url}/v1/documents`, { documents }, { 'x-api-key': API_KEY });
const field = (r: { body: { error?: { field?: string } } }) => r.body.error?.field;
const doc = (i: number, over: Record<string, unknown> = {}) => ({ id: `limit-${i}`, title: `Limit ${i}`, text: `Limit document ${i}.`, ...over });

test('question: 20,000 characters answer, 20,001 are a 400 naming question', async () => {
  const at = await retrieve({ question: 'a'.repeat(20_000) });
  expect(at.status).toBe(200);
  const over = await retrieve({ question: 'a'.repeat(20_001) });
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'question' });
});

test('topK: 1 and 100 answer (with at most that many passages), 0 and 101 are a 400 naming params.topK', async () => {
  for (const topK of [1, 100]) {
    const r = await retrieve({ questionEmbedding: f.question, params: { topK } });
    expect({ topK, status: r.status }).toEqual({ topK, status: 200 });
    expect(r.body.passages.length).toBeGreaterThan(0);
    expect(r.body.passages.length).toBeLessThanOrEqual(topK);
  }
  for (const topK of [0, 101]) {
    const r = await retrieve({ questionEmbedding: f.question, params: { topK } });
    expect({ topK, status: r.status, field: field(r) }).toEqual({ topK, status: 400, field: 'params.topK' });
  }
});

test('documents per request: 100 are written, 101 are a 400 naming documents (nothing written)', async () => {
  const over = await write(Array.from({ length: 101 }, (_, i) => doc(1000 + i)));
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'documents' });
  const none = await driver.executeQuery("MATCH (d:Document) WHERE d.id STARTS WITH 'limit-1' RETURN count(d) AS n");
  expect(Number(none.records[0]!.get('n'))).toBe(0);
  const at = await write(Array.from({ length: 100 }, (_, i) => doc(i)));
  expect(at.status).toBeLessThan(300);
}, 300_000);

test('title: 1,000 characters accepted, 1,001 a 400 naming documents.0.title', async () => {
  const over = await write([doc(0, { title: 't'.repeat(1001) })]);
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'documents.0.title' });
  const at = await write([doc(0, { title: 't'.repeat(1000) })]);
  expect(at.status).toBeLessThan(300);
}, 120_000);

test('text: 200,000 characters accepted, 200,001 a 400 naming documents.0.text', async () => {
  // Words, not one 200,000-letter token: the passage chunker and the extractor see ordinary text.
  const text = (n: number) => 'word '.repeat(n / 5).slice(0, n - 1) + '.';
  const over = await write([doc(1, { text: text(200_001) })]);
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'documents.0.text' });
  const at = await write([doc(1, { text: text(200_000) })]);
  expect(at.status).toBeLessThan(300);
}, 300_000);

test('body: just under 10 MB is parsed (the schema answers), just over is a 413 too_large', async () => {
  const body = (bytes: number) => {
    const head = '{"question":"';
    const tail = '","mode":"vector"}';
    return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
  };
  const limit = 10 * 1024 * 1024;
  const under = await postJson(`${srv.url}/v1/retrieve`, body(limit));
  expect(Buffer.byteLength(body(limit))).toBe(limit);
  // Parsed: the question is too long for the schema, a 400 naming it (not a 413).
  expect({ status: under.status, field: field(under) }).toEqual({ status: 400, field: 'question' });
  const over = await postJson(`${srv.url}/v1/retrieve`, body(limit + 1));
  expect({ status: over.status, code: over.body.error?.code }).toEqual({ status: 413, code: 'too_large' });
});
