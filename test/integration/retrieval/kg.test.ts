// Subject: a knowledge graph without passages: entity and fact retrieval.
import type { Driver } from 'neo4j-driver';
import { GraphStore } from '../../../server/db/store.js';
import type { RetrievalResult } from '../../../server/retrieval/results.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { MODE_NAMES, type Mode } from '../../../server/retrieval/params.js';
import { rng } from '../../../bench/lib/random.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { withCosine, type FixtureGraph, loadFixtureGraph } from '../../support/fixtures.js';

/**
 * A knowledge graph without passages, as a DBA's own graph or Hetionet: typed
 * relationships with readable predicates and no Passage at all. Every mode must
 * answer with facts as context, and the graph modes with evidence paths to the
 * entities the question asks for.
 *
 *   "Which compounds treat Alzheimer's disease?"
 *   Rivastigmine, Donepezil -TREATS_CtD-> Alzheimer's disease <-ASSOCIATES_DaG- APOE, PSEN1
 *   Aspirin -TREATS_CtD-> Headache (unrelated disease, looks like nothing)
 */
const rand = rng(11);
const q = randomUnit(rand, TEST_DIM);
const ent = (id: string, name: string, type: string, nameCos: number, descCos: number) => ({
  id,
  name,
  type,
  embedding: withCosine(q, nameCos, rand),
  descriptionEmbedding: withCosine(q, descCos, rand),
});
const graph: FixtureGraph = {
  entities: [
    ent('d:alz', "Alzheimer's disease", 'Disease', 0.9, 0.8),
    ent('c:riva', 'Rivastigmine', 'Compound', 0.1, 0.6),
    ent('c:done', 'Donepezil', 'Compound', 0.1, 0.55),
    ent('g:apoe', 'APOE', 'Gene', 0.05, 0.2),
    ent('g:psen', 'PSEN1', 'Gene', 0.05, 0.15),
    ent('d:head', 'Headache', 'Disease', 0.1, 0.1),
    ent('c:asp', 'Aspirin', 'Compound', 0.05, 0.1),
  ],
  passages: [],
  relations: [
    { from: 'c:riva', to: 'd:alz', type: 'TREATS_CtD', predicate: 'treats' },
    { from: 'c:done', to: 'd:alz', type: 'TREATS_CtD', predicate: 'treats' },
    { from: 'd:alz', to: 'g:apoe', type: 'ASSOCIATES_DaG', predicate: 'associates' },
    { from: 'd:alz', to: 'g:psen', type: 'ASSOCIATES_DaG', predicate: 'associates' },
    { from: 'c:asp', to: 'd:head', type: 'TREATS_CtD', predicate: 'treats' },
    // A DBA's own type with no predicate property: read from the type's name.
    { from: 'c:riva', to: 'c:done', type: 'RESEMBLES', predicate: null as unknown as string },
  ],
};
const TYPES = ['TREATS_CtD', 'ASSOCIATES_DaG', 'RESEMBLES'];

let driver: Driver;
let store: GraphStore;
let retriever: Retriever;
const results = {} as Record<Mode, RetrievalResult>;

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph, TYPES);
  store = new GraphStore(driver, 'neo4j');
  retriever = new Retriever(store, { timeoutMs: 120000, allowedRelTypes: ['RELATED', 'SAME_AS', ...TYPES], pprGraphName: 'graph_recall_ppr' });
  for (const mode of MODE_NAMES) {
    results[mode] = await retriever.retrieve({ mode, question: "Which compounds treat Alzheimer's disease?", questionEmbedding: q });
  }
});
afterAll(async () => {
  await driver.close();
});

describe('a knowledge graph without passages', () => {
  test.each(MODE_NAMES)('%s: no passages, facts as context, the treats facts first among them', (mode) => {
    const r = results[mode];
    expect(r.passages).toEqual([]);
    expect(r.facts.length).toBeGreaterThan(0);
    expect(r.context).toMatch(/^Facts:\n- /);
    // Every fact is in the context, as a sentence, in rank order.
    const lines = r.context.split('\n').slice(1);
    expect(lines).toEqual(r.facts.map((f) => `- ${f.text}`));
    expect(r.facts.map((f) => f.rank)).toEqual(r.facts.map((_, i) => i + 1));
    for (let i = 1; i < r.facts.length; i++) expect(r.facts[i].score).toBeLessThanOrEqual(r.facts[i - 1].score);
    const texts = r.facts.map((f) => f.text);
    expect(texts).toContain("Rivastigmine treats Alzheimer's disease");
    expect(texts).toContain("Donepezil treats Alzheimer's disease");
    // The unrelated disease's treatment is not a fact about this question.
    expect(texts).not.toContain('Aspirin treats Headache');
    const riva = r.facts.find((f) => f.text.startsWith('Rivastigmine treats'))!;
    expect(riva).toMatchObject({ type: 'TREATS_CtD', predicate: 'treats', subject: { id: 'c:riva', type: 'Compound' }, object: { id: 'd:alz' } });
  });

  test.each(['gated', 'ppr'] as Mode[])('%s: the asked-for compounds rank first and have evidence paths from the seed', (mode) => {
    const r = results[mode];
    const nonSeeds = r.entities.map((e) => e.id).filter((id) => id !== 'd:alz');
    expect(new Set(nonSeeds.slice(0, 2))).toEqual(new Set(['c:riva', 'c:done']));
    const path = r.paths.find((p) => p.entityId === 'c:riva')!;
    expect(path).toBeDefined();
    expect(path.passageId).toBeNull();
    expect(path.nodes.map((n) => n.id)).toEqual(['d:alz', 'c:riva']);
    // The relationship points from Rivastigmine to the disease: backward along a path that starts at the seed.
    expect(path.relationships).toEqual([{ type: 'TREATS_CtD', predicate: 'treats', direction: 'backward' }]);
    // The two treats facts outrank the gene associations (their compounds are more activated).
    const top2 = r.facts.slice(0, 2).map((f) => f.type);
    expect(top2).toEqual(['TREATS_CtD', 'TREATS_CtD']);
  });

  test.each(['vector', 'hybrid'] as Mode[])('%s: its entities are its seeds, best first (ties by id), the first entityK of them', async (mode) => {
    // The named seed and the vector seeds together (seeds of two kinds, listed in no promised order).
    const ask = (params: Record<string, unknown>) =>
      retriever.retrieve({
        mode,
        question: "Which compounds treat Alzheimer's disease?",
        questionEmbedding: q,
        params: { vectorSeedsWithNames: true, seedMinScore: 0, ...params },
      });
    const r = await ask({});
    expect(r.seeds.length).toBeGreaterThan(1);
    const bestFirst = [...r.seeds].sort((a, b) => b.activation - a.activation || (a.id < b.id ? -1 : 1));
    expect(r.entities.map((e) => [e.id, e.activation])).toEqual(bestFirst.map((s) => [s.id, s.activation]));
    const one = await ask({ entityK: 1 });
    expect(one.entities.map((e) => e.id)).toEqual([bestFirst[0]!.id]);
  });

  test("a type without a predicate property reads as the type's name", async () => {
    const r = await retriever.retrieve({
      mode: 'vector',
      question: 'What does Rivastigmine resemble?',
      questionEmbedding: graph.entities[1].embedding,
      params: { relTypes: ['RESEMBLES'] },
    });
    expect(r.facts.map((f) => f.text)).toContain('Rivastigmine resembles Donepezil');
  });

  test("ppr's gateScores (default): each entity's PageRank score times its gate, the compounds first", async () => {
    const r = await retriever.retrieve({
      mode: 'ppr',
      question: "Which compounds treat Alzheimer's disease?",
      questionEmbedding: q,
      params: { gateScores: true },
    });
    // The fixture's vectors are unit length, so the gate is the dot product.
    const gate = (id: string) =>
      Math.max(
        0,
        (graph.entities.find((e) => e.id === id)!.descriptionEmbedding ?? []).reduce((t, x, i) => t + x * q[i], 0),
      );
    const plain = await retriever.retrieve({
      mode: 'ppr',
      question: "Which compounds treat Alzheimer's disease?",
      questionEmbedding: q,
      params: { gateScores: false },
    });
    const raw = new Map(plain.entities.map((e) => [e.id, e.activation]));
    for (const e of r.entities) expect(e.activation).toBeCloseTo(raw.get(e.id)! * gate(e.id), 6);
    const nonSeeds = r.entities.map((e) => e.id).filter((id) => id !== 'd:alz');
    expect(nonSeeds.slice(0, 2)).toEqual(['c:riva', 'c:done']);
  });

  test('a curated name in lower case seeds by name; by default (vectorSeedsWithNames false) the named seeds alone', async () => {
    // Hetionet's names are canonical and often lower case ("melanoma"); its vector look-alikes
    // ("Melanoma skin", a side effect) sit closer to the question than the disease does.
    const q2 = randomUnit(rand, TEST_DIM);
    await driver.executeQuery(
      `CREATE (:Entity:Curated {id: 'd:mel', name: 'melanoma', type: 'Disease', embedding: $a, descriptionEmbedding: $a})
       CREATE (:Entity:Curated {id: 'se:mel', name: 'Melanoma skin', type: 'Side Effect', embedding: $b, descriptionEmbedding: $b})`,
      { a: withCosine(q2, 0.5, rand), b: withCosine(q2, 0.95, rand) },
    );
    const ask = (params: Record<string, unknown>) =>
      retriever.retrieve({ mode: 'gated', question: 'Which compounds treat melanoma?', questionEmbedding: q2, params });
    const both = await ask({ vectorSeedsWithNames: true });
    expect(both.seeds.find((s) => s.id === 'd:mel')?.sources).toContain('name');
    expect(both.seeds.map((s) => s.id)).toContain('se:mel');
    const named = await ask({});
    expect(named.seeds.map((s) => s.id)).toEqual(['d:mel']);
    expect(named.seeds[0].activation).toBe(1);
  });

  test('factK 0 returns no facts and an empty context', async () => {
    const r = await retriever.retrieve({ mode: 'gated', question: "Which compounds treat Alzheimer's disease?", questionEmbedding: q, params: { factK: 0 } });
    expect(r.facts).toEqual([]);
    expect(r.context).toBe('');
  });
});
