// Subject: retrieve_hybrid.cypher: reciprocal rank fusion of dense and full-text lists.
import type { Driver } from 'neo4j-driver';
import { GraphStore } from '../../../server/db/store.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { randomUnit, resetGraph, rng, testDriver, TEST_DIM } from '../../support/db.js';
import { type FixtureGraph, loadGraph, withCosine } from '../../support/fixtures.js';

/**
 * hybrid mode: dense and full-text lists fused by reciprocal rank. The fixture
 * has a passage that names a rare word of the question but looks little like
 * it (cosine 0.1), among many that look much more like it (0.3 to 0.6) and
 * share no word with it: dense search alone ranks it last, the fusion lifts it.
 */
const rand = rng(11);
const q = randomUnit(rand, TEST_DIM);
const QUESTION = 'Which river flows through Zanzibarovia?';
const graph: FixtureGraph = {
  entities: [{ id: 'e:z', name: 'Zanzibarovia', embedding: withCosine(q, 0.5, rand), descriptionEmbedding: null }],
  passages: [
    { id: 'lexical', title: 'Zanzibarovia', text: 'Zanzibarovia lies on the banks of the Quillon.', embedding: withCosine(q, 0.1, rand), mentions: ['e:z'] },
    ...Array.from({ length: 40 }, (_, i) => ({
      id: `dense${i}`,
      title: `Topic ${i}`,
      text: `Unrelated passage number ${i} about something else entirely.`,
      embedding: withCosine(q, 0.6 - i * 0.01, rand),
      mentions: [],
    })),
  ],
  relations: [],
};

let driver: Driver;
let store: GraphStore;
let retriever: Retriever;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, graph);
  store = new GraphStore(driver, 'neo4j');
  retriever = new Retriever(store, { timeoutMs: 60000, allowedRelTypes: ['RELATED', 'SAME_AS'], pprGraphName: 'graph_recall_ppr' });
});
afterAll(async () => driver?.close());

test("a passage that names the question's rare word: vector ranks it last, hybrid in the top 3", async () => {
  const v = await retriever.retrieve({ mode: 'vector', question: QUESTION, questionEmbedding: q, params: { topK: 50 } });
  const h = await retriever.retrieve({ mode: 'hybrid', question: QUESTION, questionEmbedding: q, params: { topK: 10 } });
  expect(v.passages.map((p) => p.id).indexOf('lexical')).toBe(40);
  expect(h.passages.slice(0, 3).map((p) => p.id)).toContain('lexical');
});

test('scores are the reciprocal rank fusion of the two lists, computed independently', async () => {
  const hybridK = 20;
  const rrfK = 60;
  const dense = await store.read(
    `CALL db.index.vector.queryNodes('passage_embedding', 50, $q) YIELD node
     WITH node, gds.similarity.cosine(node.embedding, $q) AS c ORDER BY c DESC, node.id LIMIT ${hybridK} RETURN node.id AS id`,
    { q },
  );
  const lexical = await store.read(
    `CALL db.index.fulltext.queryNodes('passage_text', 'which river flows through zanzibarovia', {limit: ${hybridK}}) YIELD node RETURN node.id AS id`,
  );
  const expected = new Map<string, number>();
  for (const list of [dense.records, lexical.records]) {
    for (const [i, r] of list.entries()) expected.set(r.get('id'), (expected.get(r.get('id')) ?? 0) + 1 / (rrfK + i + 1));
  }
  const h = await retriever.retrieve({ mode: 'hybrid', question: QUESTION, questionEmbedding: q, params: { topK: 30, hybridK, rrfK } });
  expect(h.passages.length).toBe(Math.min(30, expected.size));
  for (const p of h.passages) expect(p.score).toBeCloseTo(expected.get(p.id)!, 12);
  const scores = h.passages.map((p) => p.score);
  expect([...scores].sort((a, b) => b - a)).toEqual(scores);
});

test('Lucene syntax and very long questions reach the index as plain words', async () => {
  for (const question of ['"Zanzibarovia AND (river', 'title:Zanzibarovia^5 OR *', `${'word '.repeat(3000)}Zanzibarovia`]) {
    const h = await retriever.retrieve({ mode: 'hybrid', question, questionEmbedding: q, params: { topK: 5 } });
    expect(h.passages.length).toBe(5);
  }
  const empty = await retriever.retrieve({ mode: 'hybrid', question: '', questionEmbedding: q, params: { topK: 5 } });
  expect(empty.passages.map((p) => p.id)).toEqual(['dense0', 'dense1', 'dense2', 'dense3', 'dense4']);
});
