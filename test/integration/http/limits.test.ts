// Subject: the documented limits at their edges (question, topK, documents, titles, texts, body size).
import type { Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph } from '../../support/fixtures.js';
import { waitForJob } from '../../support/jobs.js';
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

/**
 * A write at a limit is accepted and really done: a 201 with its counts, or a 202 whose job
 * (polled until it ends) finishes done, not failed. Resolves to the write's counts.
 */
async function done(r: Awaited<ReturnType<typeof write>>): Promise<Record<string, unknown>> {
  if (r.status === 201) return r.body;
  expect({ status: r.status, error: r.body.error }).toEqual({ status: 202, error: undefined });
  const job = await waitForJob(srv.url, r.headers.get('location')!);
  expect({ status: job.status, error: job.error }).toEqual({ status: 'done', error: null });
  return job.result!;
}
/** The stored document's title and text lengths (what the write kept, not only what it answered). */
async function stored(id: string): Promise<{ title: number; text: number; passages: number }> {
  const r = await driver.executeQuery(
    'MATCH (d:Document {id: $id}) OPTIONAL MATCH (p:Passage)-[:PART_OF]->(d) RETURN size(d.title) AS title, count(p) AS passages, sum(size(p.text)) AS text',
    { id },
  );
  const row = r.records[0];
  return row ? { title: Number(row.get('title')), text: Number(row.get('text')), passages: Number(row.get('passages')) } : { title: 0, text: 0, passages: 0 };
}

// Claim: question is 1-20,000 characters (docs/api.md); both ends, and one past each.
test('question: 1 and 20,000 characters answer, empty (after trimming) and 20,001 are a 400 naming question', async () => {
  for (const question of ['a', 'a'.repeat(20_000)]) {
    const at = await retrieve({ question });
    expect({ length: question.length, status: at.status }).toEqual({ length: question.length, status: 200 });
  }
  for (const question of ['', '   ', 'a'.repeat(20_001)]) {
    const over = await retrieve({ question });
    expect({ length: question.length, status: over.status, field: field(over) }).toEqual({ length: question.length, status: 400, field: 'question' });
  }
});

// Claim: a retrieval's topK is 1-100 (docs/parameters.md).
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

// Claim: /v1/answer's topK is 1-20 (docs/api.md), tighter than retrieval's 1-100.
test('answer topK: 1 and 20 answer (citing at most that many passages), 0 and 21 are a 400 naming topK', async () => {
  const answer = (topK: number) => postJson(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?', mode: 'vector', topK });
  for (const topK of [1, 20]) {
    const r = await answer(topK);
    expect({ topK, status: r.status }).toEqual({ topK, status: 200 });
    expect(r.body.passages.length).toBeGreaterThan(0);
    expect(r.body.passages.length).toBeLessThanOrEqual(topK);
  }
  for (const topK of [0, 21]) {
    const r = await answer(topK);
    expect({ topK, status: r.status, field: field(r) }).toEqual({ topK, status: 400, field: 'topK' });
  }
});

// Claim: at most 100 documents per request (docs/api.md).
test('documents per request: 100 are written, 101 are a 400 naming documents (nothing written)', async () => {
  const over = await write(Array.from({ length: 101 }, (_, i) => doc(1000 + i)));
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'documents' });
  const none = await driver.executeQuery("MATCH (d:Document) WHERE d.id STARTS WITH 'limit-1' RETURN count(d) AS n");
  expect(Number(none.records[0]!.get('n'))).toBe(0);
  await done(await write(Array.from({ length: 100 }, (_, i) => doc(i))));
  const all = await driver.executeQuery("MATCH (d:Document) WHERE d.id =~ 'limit-[0-9]+' RETURN count(d) AS n");
  expect(Number(all.records[0]!.get('n'))).toBe(100);
}, 300_000);

// Claim: a title is at most 1,000 characters (docs/api.md); the one at the limit is stored whole.
test('title: 1,000 characters accepted and stored whole, 1,001 a 400 naming documents.0.title', async () => {
  const over = await write([doc(0, { title: 't'.repeat(1001) })]);
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'documents.0.title' });
  await done(await write([doc(0, { title: 't'.repeat(1000) })]));
  expect((await stored('limit-0')).title).toBe(1000);
}, 120_000);

// Claim: a text is at most 200,000 characters (docs/api.md); the one at the limit is written as passages.
test('text: 200,000 characters accepted and written, 200,001 a 400 naming documents.0.text', async () => {
  // Words, not one 200,000-letter token: the passage chunker and the extractor see ordinary text.
  const text = (n: number) => 'word '.repeat(n / 5).slice(0, n - 1) + '.';
  const over = await write([doc(1, { text: text(200_001) })]);
  expect({ status: over.status, field: field(over) }).toEqual({ status: 400, field: 'documents.0.text' });
  await done(await write([doc(1, { text: text(200_000) })]));
  const kept = await stored('limit-1');
  // Chunked into passages (which may overlap), none of the text dropped.
  expect(kept.passages).toBeGreaterThan(1);
  expect(kept.text).toBeGreaterThanOrEqual(199_000);
}, 300_000);

// Claim: a body is at most 10 MB (docs/api.md); at exactly 10 MB it is parsed, one byte more is a 413.
test('body: exactly 10 MB is parsed (the schema answers), one byte more is a 413 too_large', async () => {
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
