// Subject: searchWidth, how wide every vector index search looks (scripts/render-cypher.ts {{SEARCH_WIDTH}}, docs/parameters.md).
import type { Driver } from 'neo4j-driver';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import { TEST_DIM, randomUnit, rng, testDriver } from '../../support/db.js';
import { dot } from '../../support/embedder-contract.js';
import { fixtureRetriever, loadFixtureGraph, type FixturePassage } from '../../support/fixtures.js';

/**
 * Neo4j's vector index is approximate (HNSW): a search looks as wide as it is asked to, and finds the nearest only among
 * what it looks at. Random vectors in 384 dimensions are the hard case for it (no clusters to follow), so a narrow search
 * misses some of the exact top 5 and a wide one finds them. The statements search searchWidth wide, then cut to topK.
 */
const rand = rng(17);
const passages: FixturePassage[] = Array.from({ length: 3000 }, (_, i) => ({
  id: `p${i}`,
  title: `Passage ${i}`,
  text: `random passage ${i}`,
  embedding: randomUnit(rand, TEST_DIM),
  mentions: [],
}));
const questions = Array.from({ length: 20 }, () => randomUnit(rand, TEST_DIM));
/** The exact top 5 by cosine, by brute force. */
const exactTop5 = (q: number[]) =>
  passages
    .map((p) => ({ id: p.id, c: dot(p.embedding, q) }))
    .sort((a, b) => b.c - a.c)
    .slice(0, 5)
    .map((p) => p.id);

let driver: Driver;
let retriever: Retriever;
/** How many of the exact top 5 a mode returns in its top 5, over all questions. */
const found = async (mode: 'vector' | 'hybrid', params: Record<string, unknown>) => {
  let n = 0;
  for (const q of questions) {
    const r = await retriever.retrieve({ mode, question: '', questionEmbedding: q, params: { topK: 5, hybridK: 5, ...params } });
    const exact = exactTop5(q);
    n += r.passages.filter((p) => exact.includes(p.id)).length;
  }
  return n;
};

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, { entities: [], passages, relations: [] });
  retriever = fixtureRetriever(driver);
}, 300_000);
afterAll(async () => {
  await driver.close();
});

describe('searchWidth', () => {
  it.each(['vector', 'hybrid'] as const)('%s: the default width finds the exact top 5 that a search 10 wide misses', async (mode) => {
    const narrow = await found(mode, { searchWidth: 10 });
    const wide = await found(mode, {});
    const whole = await found(mode, { searchWidth: passages.length });
    console.log(`${mode}: exact top-5 passages found, width 10: ${narrow}/100, default: ${wide}/100, width 3000: ${whole}/100`);
    expect(wide).toBeGreaterThan(narrow);
    expect(wide).toBeLessThan(whole);
    expect(whole).toBe(100);
  });
});
