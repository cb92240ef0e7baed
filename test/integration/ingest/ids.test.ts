// Subject: document and passage ids: stable, escaped, kept across re-ingests.
import type { Driver } from 'neo4j-driver';
import { loadConfig } from '../../../server/config.js';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { chunkText, passageId } from '../../../server/ingest/sources/index.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

/** Issue 11, item 1: a caller's document id can never take over, or delete, another document's passages. */
const KEY = 'ids-test-key';
const H = { 'x-api-key': KEY };
let driver: Driver;
let srv: RunningServer;

// About 4,000 characters: four chunks at the default 1,200 / 200.
const longText = (topic: string) =>
  Array.from({ length: 40 }, (_, i) => `Sentence ${i} about ${topic} says that the river town number ${i} lies near the old mill of ${topic}.`).join(' ');

beforeAll(async () => {
  driver = await testDriver();
  // Writes answer 201 with their counts here: the 1,000-character ids make bodies larger than
  // JOB_SYNC_MAX_BYTES, which would make them jobs (test/integration/ingest/jobs.test.ts tests that rule).
  const jobs = { ...loadConfig({}).jobs, syncMaxBytes: 10 * 2 ** 20 };
  // The server refuses a database holding another embedder's vectors (an earlier file's): start on an empty one.
  await resetGraph(driver);
  srv = await startServer({ embedder: createHashEmbedder(384), config: { apiKey: KEY, jobs } });
});
beforeEach(async () => {
  await srv.services.retriever.projection.idle();
  await resetGraph(driver);
});
afterAll(async () => {
  await srv?.services.retriever.projection.idle();
  await srv?.close();
  await driver?.close();
});

async function rows(query: string, params: Record<string, unknown> = {}) {
  const s = driver.session();
  try {
    return (await s.run(query, params)).records.map((r) => r.toObject());
  } finally {
    await s.close();
  }
}

/** Each document's passages (id and text), by PART_OF. */
async function passagesByDocument(): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (const r of await rows('MATCH (p:Passage)-[:PART_OF]->(d:Document) RETURN d.id AS doc, p.id AS id, p.text AS text, p.documentId AS owner')) {
    expect(r.owner).toBe(r.doc);
    if (!out.has(r.doc)) out.set(r.doc, new Map());
    out.get(r.doc)!.set(r.id, r.text);
  }
  // No passage belongs to two documents, or to none.
  expect(await rows('MATCH (p:Passage) WHERE COUNT { (p)-[:PART_OF]->() } <> 1 RETURN p.id AS id')).toEqual([]);
  return out;
}

const post = (documents: unknown[]) => postJson(`${srv.url}/v1/documents`, { documents }, H);
const del = (id: string) => fetch(`${srv.url}/v1/documents/${encodeURIComponent(id)}`, { method: 'DELETE', headers: H });

test('existing ids keep their passage ids; ids with # or % are escaped', () => {
  expect(passageId('musique-00001', 0, 1)).toBe('musique-00001');
  expect(passageId('collide', 2, 4)).toBe('collide#2');
  expect(passageId('collide#0', 0, 1)).toBe('collide%230');
  expect(passageId('a%23b', 1, 2)).toBe('a%2523b#1');
  expect(passageId('x/y', 0, 1)).toBe('x/y');
});

test("a document whose id is another document's passage id takes over nothing, and deleting it deletes only its own", async () => {
  const text = longText('Collide');
  expect(chunkText(text)).toHaveLength(4);
  expect((await post([{ id: 'collide', title: 'Collide', text }])).status).toBe(201);
  const before = (await passagesByDocument()).get('collide')!;
  expect([...before.keys()].sort()).toEqual(['collide#0', 'collide#1', 'collide#2', 'collide#3']);

  expect((await post([{ id: 'collide#0', title: 'Intruder', text: 'The intruder document is short and has one passage.' }])).status).toBe(201);
  const after = await passagesByDocument();
  expect(after.get('collide')).toEqual(before);
  expect([...after.get('collide#0')!.keys()]).toEqual(['collide%230']);

  expect((await del('collide#0')).status).toBe(204);
  const left = await passagesByDocument();
  expect(left.get('collide')).toEqual(before);
  expect(left.has('collide#0')).toBe(false);
  expect((await del('collide')).status).toBe(204);
  expect(await rows('MATCH (p:Passage) RETURN p.id AS id')).toEqual([]);
});

test('ids with #, %, /, unicode and 1,000 characters: unique passages, each deleted with its own document only', async () => {
  const ids = [
    'a',
    'a#0',
    'a#1',
    'a%230',
    'a%2523',
    '#',
    '%',
    '%23',
    'x/y/z',
    'x%2Fy',
    'Zürich — 東京 🚀 #1',
    'ü'.repeat(1000),
    '#'.repeat(1000),
    'a'.repeat(999) + '#',
  ];
  const docs = ids.map((id, i) => ({ id, title: `Doc ${i}`, text: i % 2 ? longText(`Topic ${i}`) : `Short document ${i} about the mill of topic ${i}.` }));
  const r = await post(docs);
  expect(r.status).toBe(201);
  expect(r.body.documents).toMatchObject({ read: ids.length, written: ids.length });
  const expected = docs.reduce((n, d) => n + chunkText(d.text).length, 0);
  expect(r.body.passages).toBe(expected);
  let owned = await passagesByDocument();
  expect([...owned.keys()].sort()).toEqual([...ids].sort());
  expect([...owned.values()].reduce((n, m) => n + m.size, 0)).toBe(expected);

  for (const id of ids) {
    const res = await del(id);
    expect({ id: id.slice(0, 20), status: res.status }).toEqual({ id: id.slice(0, 20), status: 204 });
    const now = await passagesByDocument();
    expect(now.has(id)).toBe(false);
    for (const [doc, passages] of now) expect(passages).toEqual(owned.get(doc));
    owned = now;
  }
  expect(await rows('MATCH (p:Passage) RETURN p.id AS id')).toEqual([]);
});

test('the synonym count is the SAME_AS edges written, also when an alias is already in the graph', async () => {
  const alias = 'Publix Super Markets, Inc., commonly known as Publix, is a supermarket chain based in Lakeland, Florida.';
  const first = await post([{ id: 'publix-1', title: 'Publix', text: alias }]);
  expect(first.status).toBe(201);
  const [{ n: edges1 }] = await rows('RETURN COUNT { ()-[:SAME_AS]->() } AS n');
  expect(edges1).toBeGreaterThan(0);
  expect(first.body.synonyms).toBe(edges1);
  const second = await post([
    { id: 'publix-2', title: 'Publix again', text: alias.replace('supermarket chain', 'grocery chain') },
    { id: 'publix-3', title: 'Publix once more', text: `${alias} It was founded in 1930.` },
  ]);
  expect(second.status).toBe(201);
  const [{ n: edges2 }] = await rows('RETURN COUNT { ()-[:SAME_AS]->() } AS n');
  expect(second.body.synonyms).toBe(edges2 - edges1);
});
