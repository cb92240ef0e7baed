// Subject: the statements against an independent reference implementation.
import neo4j, { type Driver } from 'neo4j-driver';

const neo4jInt = (n: number) => neo4j.int(n);
import type { GatedTrace, PprTrace } from '../../../server/retrieval/results.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { GraphStore } from '../../../server/db/store.js';
import { manageProjection } from '../../../server/db/projection.js';
import { defaultParams } from '../../../server/retrieval/params.js';
import { DEFAULT_TRAVERSE_TYPES } from '../../../server/graph/facts.js';
import {
  calibrated,
  defaultSeeds,
  gatedActivation,
  gatedScores,
  nameSeeds,
  pprScores,
  pushPpr,
  selectPassages,
  ownPages,
  vectorSeeds,
  type RefGraph,
} from '../../support/reference.js';
import { randomUnit, rng, testDriver } from '../../support/db.js';
import { withCosine, type FixtureGraph, loadFixtureGraph } from '../../support/fixtures.js';

/**
 * Property tests: on random small graphs, each Cypher statement returns the
 * same seeds, entities and top-K passages as the TypeScript reference, with
 * the same scores within 1e-6, relative to the score: the database computes
 * cosines in float (vector.similarity.cosine, as its vector indexes do), the
 * reference in double.
 */
const TOL = 1e-6;
const REL_TYPES = ['RELATED', 'SAME_AS'];

function randomGraph(seed: number): { graph: FixtureGraph; q: number[] } {
  const rand = rng(seed);
  const nE = 30 + Math.floor(rand() * 20);
  const nP = 20 + Math.floor(rand() * 20);
  const base = Array.from({ length: nE }, () => randomUnit(rand));
  // The question resembles three entities, so there are real seeds.
  const picks = [0, 1, 2].map(() => base[Math.floor(rand() * nE)]);
  const noise = randomUnit(rand);
  const qRaw = base[0].map((_, i) => picks[0][i] + picks[1][i] + picks[2][i] + 0.5 * noise[i]);
  const qn = Math.hypot(...qRaw);
  const q = qRaw.map((x) => x / qn);
  const entities = base.map((embedding, i) => ({
    id: `e${String(i).padStart(3, '0')}`,
    name: `Entity ${i}`,
    embedding,
    descriptionEmbedding: rand() < 0.1 ? null : withCosine(q, -0.3 + rand() * 1.1, rand),
  }));
  const passages = Array.from({ length: nP }, (_, i) => {
    const k = 1 + Math.floor(rand() * 4);
    const mentions = [...new Set(Array.from({ length: k }, () => entities[Math.floor(rand() * nE)].id))];
    // Every fifth passage is about the first entity it mentions: titled by its name (aboutWeight).
    const title = i % 5 === 0 ? `Entity ${Number(mentions[0].slice(1))} (thing)` : `Passage ${i}`;
    return { id: `p${String(i).padStart(3, '0')}`, title, text: `Text ${i}`, embedding: withCosine(q, -0.2 + rand() * 0.8, rand), mentions };
  });
  const relations = [];
  const nR = 2 * nE + Math.floor(rand() * nE);
  for (let i = 0; i < nR; i++) {
    const a = Math.floor(rand() * nE);
    let b = Math.floor(rand() * nE);
    if (b === a) b = (a + 1) % nE;
    const type = rand() < 0.1 ? 'SAME_AS' : rand() < 0.1 ? 'OTHER' : 'RELATED';
    relations.push({ from: entities[a].id, to: entities[b].id, type, predicate: 'p', weight: type === 'OTHER' ? 1 : 0.5 + rand() });
  }
  return { graph: { entities, passages, relations }, q };
}

const toRef = (g: FixtureGraph): RefGraph => ({
  entities: g.entities.map((e) => ({ id: e.id, name: e.name, embedding: e.embedding, descriptionEmbedding: e.descriptionEmbedding })),
  passages: g.passages.map((p) => ({ id: p.id, title: p.title, embedding: p.embedding, mentions: p.mentions })),
  relations: g.relations.map((r) => ({ from: r.from, to: r.to, type: r.type, weight: r.weight })),
});

type Row = { id: string };
function expectClose(actual: readonly Row[], expected: readonly Row[], fields: string[]) {
  expect(actual.map((x) => x.id)).toEqual(expected.map((x) => x.id));
  actual.forEach((a, i) => {
    for (const f of fields) {
      const av = (a as Record<string, unknown>)[f] as number;
      const ev = (expected[i] as Record<string, unknown>)[f] as number;
      const diff = Math.abs(av - ev);
      if (!(diff < TOL * Math.max(1, Math.abs(ev)))) throw new Error(`${a.id}.${f}: cypher ${av} vs reference ${ev} (diff ${diff})`);
    }
  });
}

let driver: Driver;
let retriever: Retriever;
beforeAll(async () => {
  driver = await testDriver();
  retriever = new Retriever(new GraphStore(driver, 'neo4j'), { timeoutMs: 60000, allowedRelTypes: [...REL_TYPES, 'OTHER'], pprGraphName: 'graph_recall_ppr' });
});
afterAll(async () => driver?.close());

describe.each([11, 12, 13, 14, 15, 16])('random graph %i', (seed) => {
  const { graph, q } = randomGraph(seed);
  const ref = toRef(graph);
  const rand = rng(seed * 101);
  const common = {
    seedK: 2 + Math.floor(rand() * 4),
    seedMinScore: 0.2,
    useNameSeeds: false,
    entityK: 5 + Math.floor(rand() * 20),
    candidateK: 3 + Math.floor(rand() * 30),
    vectorK: Math.floor(rand() * 6),
    topK: 3 + Math.floor(rand() * 8),
    hubExponent: [0, 0.5, 1][Math.floor(rand() * 3)],
    relTypes: REL_TYPES,
    aboutWeight: [0, 1, 2][Math.floor(rand() * 3)],
    // Small enough that some top entities are hubs, read from their passages' side (0: no bound).
    hubPassages: [0, 1, 2, 3][Math.floor(rand() * 4)],
  };
  // The gated comparisons' shared settings: blend fusion, whose scores the reference computes exactly.
  const gatedBlend = { ...common, decay: 0.7, threshold: 0.01, graphWeight: 0.4, vectorWeight: 0.6, fusion: 'blend' as const };

  beforeAll(async () => {
    await loadFixtureGraph(driver, graph);
  });

  test.each([0, 0.3])('vector mode equals the reference: the dense top K, the entities they mention, no seeds (cosineFloor %p)', async (cosineFloor) => {
    const res = await retriever.retrieve({
      mode: 'vector',
      questionEmbedding: q,
      params: { seedK: common.seedK, topK: common.topK, entityK: common.entityK, useNameSeeds: false, cosineFloor, relTypes: REL_TYPES },
    });
    // A text graph (passages; the walked types are those read from text): vector maps no seeds.
    expect(res.seeds).toEqual([]);
    const cos = ref.passages
      .map((p) => ({ id: p.id, score: calibrated(cosineOf(p.embedding, q), cosineFloor) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, common.topK);
    expectClose(res.passages, cos, ['score']);
    // Its entities: those its passages mention, each at its best passage's score, best first, the first entityK.
    const best = new Map<string, number>();
    for (const p of cos)
      for (const e of ref.passages.find((x) => x.id === p.id)!.mentions) best.set(e, Math.max(best.get(e) ?? Number.NEGATIVE_INFINITY, p.score));
    const entities = [...best]
      .map(([id, activation]) => ({ id, activation }))
      .sort((a, b) => b.activation - a.activation || (a.id < b.id ? -1 : 1))
      .slice(0, common.entityK);
    expect(entities.length).toBeGreaterThan(0);
    expectClose(res.entities, entities, ['activation']);
  });

  test('vector walking a curated type (OTHER, not read from text) maps the seeds as the reference does; its passages are the same', async () => {
    const params = { seedK: common.seedK, topK: common.topK, useNameSeeds: false };
    const curated = await retriever.retrieve({ mode: 'vector', questionEmbedding: q, params: { ...params, relTypes: [...REL_TYPES, 'OTHER'] } });
    expectClose(curated.seeds, vectorSeeds(ref, q, common.seedK, 0.2), ['activation']);
    // Its entities are the seeds when there are any (else, as on a text graph, the passages' mentions).
    // Best first (ties by id), as the graph modes list theirs, and the first entityK of them.
    const bestFirst = [...curated.seeds].sort((a, b) => b.activation - a.activation || (a.id < b.id ? -1 : 1)).map((s) => s.id);
    if (curated.seeds.length > 0) expect(curated.entities.map((e) => e.id)).toEqual(bestFirst);
    const one = await retriever.retrieve({ mode: 'vector', questionEmbedding: q, params: { ...params, relTypes: [...REL_TYPES, 'OTHER'], entityK: 1 } });
    expect(one.entities.map((e) => e.id)).toEqual(bestFirst.slice(0, 1));
    const text = await retriever.retrieve({ mode: 'vector', questionEmbedding: q, params: { ...params, relTypes: REL_TYPES } });
    expect(curated.passages).toEqual(text.passages);
  });

  test.each([
    { steps: 1, gate: true, degreeDiscount: 0, frontier: 100 },
    { steps: 3, gate: true, degreeDiscount: 0, frontier: 100 },
    { steps: 3, gate: false, degreeDiscount: 0, frontier: 100 },
    { steps: 5, gate: true, degreeDiscount: 0.5, frontier: 4 },
    { steps: 2, gate: true, degreeDiscount: 1, frontier: 7 },
    // Tiny frontiers: most receivers lie past the 10 x frontier head, so the statement's bar
    // (only receivers that can still make the cut are gated) decides, and must change nothing.
    { steps: 4, gate: true, degreeDiscount: 0, frontier: 2 },
    { steps: 3, gate: true, degreeDiscount: 0.5, frontier: 1 },
    // A high threshold with the full degree discount: in steps 2 and 3 the weakest sources send
    // less than threshold / decay in all, so the statement finds receivers from the others and
    // counts the weak ones only where they lead (the split must change nothing).
    { steps: 3, gate: true, degreeDiscount: 1, frontier: 100, threshold: 0.05 },
    { steps: 4, gate: false, degreeDiscount: 1, frontier: 100, threshold: 0.1 },
    // An embedder whose unrelated texts score 0.3 (e5: 0.75): every cosine is rescaled, so the
    // gate, the seeds' activations and minimum, and the passages' cosines all change.
    { steps: 3, gate: true, degreeDiscount: 1, frontier: 100, cosineFloor: 0.3 },
    // The hub bound: sources (seeds among them) whose share per neighbour is at most spreadEpsilon
    // spread nothing (the reference leaves them out the same way; the test below shows it bites).
    { steps: 3, gate: true, degreeDiscount: 1, frontier: 100, spreadEpsilon: 0.05 },
    { steps: 3, gate: false, degreeDiscount: 0.5, frontier: 100, spreadEpsilon: 0.2 },
  ])('gated mode equals the reference (%o)', async (g) => {
    const p = { ...gatedBlend, cosineFloor: 0, ...g };
    const res = await retriever.retrieve({ mode: 'gated', questionEmbedding: q, params: p });
    const seeds = vectorSeeds(ref, q, p.seedK, p.seedMinScore, p.cosineFloor);
    expect(seeds.length).toBeGreaterThan(0);
    expectClose(res.seeds, seeds, ['activation']);
    const act = gatedActivation(ref, q, seeds, p);
    const expected = selectPassages(ref, q, act, [], p);
    expectClose(res.entities, expected.entities, ['activation']);
    expectClose(res.passages, expected.passages, ['score', 'graphScore', 'vectorScore']);
    expect(res.passages.length).toBeGreaterThan(0);
  });

  test.each([
    { degreeDiscount: 1, spreadEpsilon: 0.05 },
    { degreeDiscount: 0.5, spreadEpsilon: 0.2 },
  ])('spreadEpsilon holds hubs back: fewer activated entities than without it, in the statement and the reference (%o)', async (g) => {
    const p = { ...gatedBlend, steps: 3, gate: true, frontier: 100, ...g };
    const seeds = vectorSeeds(ref, q, p.seedK, p.seedMinScore);
    const bounded = gatedActivation(ref, q, seeds, p);
    const unbounded = gatedActivation(ref, q, seeds, { ...p, spreadEpsilon: 0 });
    expect(bounded.size).toBeLessThan(unbounded.size);
    const res = await retriever.retrieve({ mode: 'gated', questionEmbedding: q, params: { ...p, entityK: 500 } });
    const all = await retriever.retrieve({ mode: 'gated', questionEmbedding: q, params: { ...p, entityK: 500, spreadEpsilon: 0 } });
    expect(res.entities.length).toBe(bounded.size);
    expect(all.entities.length).toBe(unbounded.size);
  });

  test.each([
    { steps: 3, degreeDiscount: 0, frontier: 100 },
    { steps: 5, degreeDiscount: 0.5, frontier: 4 },
    { steps: 3, degreeDiscount: 1, frontier: 100, threshold: 0.05 },
  ])("gated mode's trace: per-step inflows add up to the activations, as in the reference (%o)", async (g) => {
    const p = { ...gatedBlend, gate: true, ...g };
    const plain = await retriever.retrieve({ mode: 'gated', questionEmbedding: q, params: p });
    const res = await retriever.retrieve({ mode: 'gated', questionEmbedding: q, params: p, explain: true });
    expect(plain.trace).toBeUndefined();
    // The trace changes nothing else.
    expect(res.entities).toEqual(plain.entities);
    expect(res.passages).toEqual(plain.passages);
    const trace = res.trace as GatedTrace;
    expect(trace.steps.map((s) => s.step)).toEqual(Array.from({ length: g.steps }, (_, i) => i + 1));
    // Seeds, then each step's incoming, give every node's activation.
    const sum = new Map(res.seeds.map((s) => [s.id, s.activation]));
    for (const step of trace.steps) {
      for (const r of step.received) {
        expect(r.before).toBeCloseTo(sum.get(r.id) ?? 0, 9);
        expect(Math.abs(r.inflow - r.sources.reduce((t, x) => t + x.share, 0))).toBeLessThan(1e-9);
        expect(Math.abs(r.incoming - p.decay * r.gate * r.inflow)).toBeLessThan(1e-9);
        for (const x of r.sources) expect(x.activation).toBeGreaterThan(r.before);
        sum.set(r.id, (sum.get(r.id) ?? 0) + r.incoming);
      }
    }
    const act = gatedActivation(ref, q, vectorSeeds(ref, q, p.seedK, p.seedMinScore), p);
    for (const e of res.entities) {
      expect(Math.abs((sum.get(e.id) ?? NaN) - e.activation)).toBeLessThan(1e-9);
      expect(Math.abs((act.get(e.id) ?? NaN) - e.activation)).toBeLessThan(1e-6);
    }
    expect(trace.steps.flatMap((s) => s.received).length).toBeGreaterThan(0);
  });

  test('ppr trace: the teleport weights are the seeds and the top scores are sorted', async () => {
    const res = await retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: { ...common }, explain: true });
    const trace = res.trace as PprTrace;
    expect(trace.teleport.map((t) => t.id).sort()).toEqual(res.seeds.map((s) => s.id).sort());
    for (const t of trace.teleport) expect(t.weight).toBeCloseTo(res.seeds.find((s) => s.id === t.id)!.activation, 9);
    expect(trace.top.length).toBeGreaterThan(0);
    for (let i = 1; i < trace.top.length; i++) expect(trace.top[i].score).toBeLessThanOrEqual(trace.top[i - 1].score);
  });

  // The passage nearest the question, and a question whose words are its own: first both by its vector and by full-text.
  const denseFirst = ref.passages.map((x) => ({ i: Number(x.id.slice(1)), c: cosineOf(x.embedding, q) })).sort((a, b) => b.c - a.c)[0].i;
  test.each([
    ['rrf', false, 'passage 3 text 7 passage 12'],
    // textKeepAgreed: the text's first is kept only where dense and full-text both put it first.
    ['rrf', true, 'passage 3 text 7 passage 12'],
    ['rrf', true, `passage ${denseFirst} text ${denseFirst}`],
    ['rrf3', false, 'passage 3 text 7 passage 12'],
  ] as const)(
    'gated mode with %s fusion (textKeepAgreed %p, question %p) equals the reference (lexical ranking read from the full-text index)',
    async (fusion, textKeepAgreed, question) => {
      const p = {
        ...common,
        steps: 3,
        gate: true,
        decay: 0.7,
        threshold: 0.01,
        frontier: 100,
        degreeDiscount: 0,
        graphWeight: 0.4,
        vectorWeight: 0.6,
        fusion,
        lexicalK: 6,
        rrfK: 60,
        // High enough that some of the first passages have no graph vote: both sides must drop them alike.
        graphFloor: 0.3,
        // rrf: the graph's first 2 and the text's first 1 go ahead of the rest (rrf3 has no such rule).
        graphKeep: 2,
        textKeep: 1,
        textKeepAgreed,
      };
      const res = await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params: p });
      const lexical = await driver.executeQuery(
        "CALL db.index.fulltext.queryNodes('passage_text', $q, {limit: $k}) YIELD node RETURN node.id AS id",
        { q: question, k: neo4jInt(p.lexicalK) },
        { database: 'neo4j' },
      );
      const seeds = vectorSeeds(ref, q, p.seedK, p.seedMinScore);
      const act = gatedActivation(ref, q, seeds, p);
      const expected = selectPassages(
        ref,
        q,
        act,
        [],
        p,
        lexical.records.map((r) => r.get('id') as string),
      );
      expectClose(res.passages, expected.passages, ['score', 'graphScore', 'vectorScore']);
      expect(lexical.records.length).toBeGreaterThan(0);
    },
  );

  // ppr on GDS, converged, next to the reference's exact PageRank.
  const pprExact = {
    ...common,
    engine: 'gds',
    dampingFactor: 0.5,
    maxIterations: 200,
    tolerance: 1e-12,
    exactWeights: true,
    // The reference is PageRank alone, without the gate at read-out.
    gateScores: false,
    graphWeight: 0.7,
    vectorWeight: 0.3,
    fusion: 'blend' as const,
  };

  test.each([{ exactWeights: true }, { exactWeights: false }])('ppr mode equals the reference (%o)', async ({ exactWeights }) => {
    const p = { ...pprExact, exactWeights };
    const res = await retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: p });
    const seeds = vectorSeeds(ref, q, p.seedK, p.seedMinScore);
    const teleport = exactWeights ? seeds : seeds.map((s) => ({ ...s, activation: 1 }));
    expectPpr(res, pprScores(ref, teleport, 0.5, ['MENTIONS', 'RELATED', 'SAME_AS']), p);
  });

  // Caller seeds all weigh 1 (and, named, stand alone: no vector seeds): one GDS run over the
  // group, which sums the seeds' PageRanks (GDS does not divide by the number of source nodes),
  // so each seed counts once, not once per member of its group. A second group (the vector
  // seeds, kept by vectorSeedsWithNames) makes the group's weight matter.
  test('ppr mode with a group of equal-weight seeds equals the reference', async () => {
    const vector = vectorSeeds(ref, q, pprExact.seedK, pprExact.seedMinScore).map((s) => s.id);
    const seedIds = ref.entities
      .map((e) => e.id)
      .filter((id) => !vector.includes(id))
      .slice(0, 3);
    const p = { ...pprExact, seedIds, vectorSeedsWithNames: true };
    const res = await retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: p });
    const teleport = withCallerSeeds(vectorSeeds(ref, q, p.seedK, p.seedMinScore), p.seedIds);
    expect(teleport.filter((s) => s.activation === 1).length).toBeGreaterThanOrEqual(3);
    expect(teleport.filter((s) => s.activation < 1).length).toBeGreaterThanOrEqual(1);
    expect(res.seeds.map((s) => s.id).sort()).toEqual(teleport.map((s) => s.id).sort());
    expectPpr(res, pprScores(ref, teleport, 0.5, ['MENTIONS', 'RELATED', 'SAME_AS']), p);
  });

  // The push engine, nothing held back (pushEpsilon 0, a frontier larger than the graph), is the
  // PageRank series cut after pushRounds terms: the reference's power iteration stopped there.
  test.each([
    { exactWeights: true, pushRounds: 1 },
    { exactWeights: true, pushRounds: 4 },
    { exactWeights: false, pushRounds: 6 },
  ])('ppr push engine equals the reference series (%o)', async ({ exactWeights, pushRounds }) => {
    const p = { ...pprExact, exactWeights, engine: 'push', pushRounds, pushEpsilon: 0, pushFrontier: 10000 };
    const res = await retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: p });
    const seeds = vectorSeeds(ref, q, p.seedK, p.seedMinScore);
    const teleport = exactWeights ? seeds : seeds.map((s) => ({ ...s, activation: 1 }));
    expectPpr(res, pprScores(ref, teleport, 0.5, ['MENTIONS', 'RELATED', 'SAME_AS'], { maxIterations: pushRounds, tolerance: 0 }), p);
  });

  // Named (caller) seeds push into the passages that mention them at namedPassageWeight x the
  // link's weight (default 0: over the walked types only); the reference walks the same graph.
  test.each([{ namedPassageWeight: 0 }, { namedPassageWeight: 0.5 }])(
    'ppr push engine with named seeds equals the reference series (%o)',
    async ({ namedPassageWeight }) => {
      const vector = vectorSeeds(ref, q, pprExact.seedK, pprExact.seedMinScore).map((s) => s.id);
      const seedIds = ref.entities
        .map((e) => e.id)
        .filter((id) => !vector.includes(id))
        .slice(0, 2);
      const p = { ...pprExact, engine: 'push', pushRounds: 4, pushEpsilon: 0, pushFrontier: 10000, seedIds, vectorSeedsWithNames: true, namedPassageWeight };
      const res = await retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: p });
      const teleport = withCallerSeeds(vectorSeeds(ref, q, p.seedK, p.seedMinScore), seedIds);
      const scores = pprScores(ref, teleport, 0.5, ['MENTIONS', 'RELATED', 'SAME_AS'], { maxIterations: 4, tolerance: 0, named: seedIds, namedPassageWeight });
      expectPpr(res, scores, p);
    },
  );

  // The push engine reads the stored graph: it answers with the projection dropped.
  test('ppr push engine needs no GDS projection', async () => {
    await manageProjection(driver, 'drop', { graphName: 'graph_recall_ppr' });
    try {
      const res = await retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: { ...common, engine: 'push' } });
      expect(res.entities.length).toBeGreaterThan(0);
      await expect(retriever.retrieve({ mode: 'ppr', questionEmbedding: q, params: { ...common, engine: 'gds' } })).rejects.toThrow(/projection/);
    } finally {
      await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
    }
  });

  function expectPpr(res: Awaited<ReturnType<Retriever['retrieve']>>, scores: Map<string, number>, p: typeof pprExact) {
    const entityIds = new Set(ref.entities.map((e) => e.id));
    const act = new Map([...scores].filter(([id, s]) => entityIds.has(id) && s > 0));
    const extra = [...scores].filter(([id, s]) => !entityIds.has(id) && s > 0).map(([id, s]) => ({ id, g: s }));
    // Caller seeds are named: they score passages with namedPassageWeight (the default unless p sets it).
    const named = (p as { seedIds?: string[] }).seedIds ?? [];
    const expected = selectPassages(ref, q, act, extra, { ...p, named, namedPassageWeight: (p as { namedPassageWeight?: number }).namedPassageWeight ?? 0 });
    expectClose(res.entities, expected.entities, ['activation']);
    expectClose(res.passages, expected.passages, ['score', 'graphScore', 'vectorScore']);
  }
});

// The shipped defaults, read from server/retrieval/params.ts (no parameter passed): name seeds, fact
// seeds with the word bonus, rrf fusion with the full-text vote, hub damping. The indexes that feed
// the statement (the entity and passage full-text indexes, the fact vector index) are read here and
// given to the reference, which does the rest.
describe.each([21, 22, 23])('random graph %i with facts, names and literals, at the shipped defaults', (seed) => {
  const { graph: plain, q } = randomGraph(seed);
  const rand = rng(seed * 7919);
  const graph: FixtureGraph = {
    ...plain,
    entities: plain.entities.map((e) => ({ ...e, type: rand() < 0.1 ? 'Date' : 'Thing' })),
    relations: [
      ...plain.relations.map((r) => ({
        ...r,
        predicate: ['founded by', 'married', 'born in', 'p'][Math.floor(rand() * 4)],
        embedding: rand() < 0.2 ? undefined : withCosine(q, -0.2 + rand() * 1.0, rand),
      })),
      // Entity 7, which a question names, gets ten more facts, close in cosine, every other one with the
      // predicate the question writes ("founded"): the word bonus decides which of them seed.
      ...Array.from({ length: 10 }, (_, i) => ({
        from: 'e007',
        to: plain.entities[8 + i].id,
        type: 'RELATED',
        weight: 1,
        predicate: i % 2 ? 'founded by' : 'married',
        embedding: withCosine(q, 0.85 - 0.03 * i, rand),
      })),
    ],
  };
  const ref: RefGraph = {
    ...toRef(graph),
    entities: graph.entities.map((e) => ({ id: e.id, name: e.name, type: e.type, embedding: e.embedding, descriptionEmbedding: e.descriptionEmbedding })),
    relations: graph.relations.map((r) => ({ from: r.from, to: r.to, type: r.type, weight: r.weight, predicate: r.predicate, embedding: r.embedding })),
  };
  const d = defaultParams('gated') as unknown as Parameters<typeof gatedActivation>[3] &
    Parameters<typeof selectPassages>[4] &
    Parameters<typeof defaultSeeds>[5] & { nameSeedK: number; lexicalK: number; useNameSeeds: boolean; namedPassageWeight: number };
  const p = defaultParams('ppr') as unknown as Parameters<typeof pushPpr>[2] &
    Parameters<typeof selectPassages>[4] & { engine: string; exactWeights: boolean; gateScores: boolean; seedSpecificity: boolean; passageSeedWeight: number };
  const normalised = (question: string) =>
    question
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();

  // The server's own allow-list (TRAVERSE_REL_TYPES' default): the walked types when params name none.
  let shipped: Retriever;
  beforeAll(async () => {
    await loadFixtureGraph(driver, graph);
    shipped = new Retriever(new GraphStore(driver, 'neo4j'), {
      timeoutMs: 60000,
      allowedRelTypes: [...DEFAULT_TRAVERSE_TYPES],
      pprGraphName: 'graph_recall_ppr',
    });
  });

  test('the defaults are the shipped ones this test reads: name and fact seeds on, rrf, the gate on, ppr by push with gate scores', () => {
    expect(d).toMatchObject({ useNameSeeds: true, vectorSeedsWithNames: false, fusion: 'rrf', gate: true, namedPassageWeight: 0 });
    expect(d.factSeedK).toBeGreaterThan(0);
    expect(d.factWordBonus).toBeGreaterThan(0);
    expect(d.relTypes).toEqual(['RELATED', 'SAME_AS']);
    expect(p).toMatchObject({ engine: 'push', exactWeights: true, gateScores: true, seedSpecificity: false, passageSeedWeight: 0, fusion: 'rrf' });
  });

  test.each([
    // Two names, one of them written by a fact's predicate ("founded"): named seeds, their own facts.
    ['Was Entity 7 founded by Entity 12?', 2],
    // No name the question writes as a name (the full-text index finds "Entity 3" and others by
    // their numbers): vector seeds and the fact index's nearest facts.
    ['passage 3 text 7 passage 12', 0],
  ])('gated and ppr at the defaults equal the reference: %s', async (question, names) => {
    const read = async (cypher: string, params: Record<string, unknown>) =>
      (await driver.executeQuery(cypher, params, { database: 'neo4j' })).records.map((r) => r.toObject());
    const hits = await read(
      "CALL db.index.fulltext.queryNodes('entity_name', $q, {limit: 50}) YIELD node RETURN node.id AS id, node.name AS name, node:Curated AS curated",
      { q: normalised(question) },
    );
    const named = nameSeeds(question, hits as { id: string; name: string; curated: boolean }[], d.nameSeedK);
    expect(named.length).toBe(names);
    const factHits = (
      await read(
        "CALL db.index.vector.queryRelationships('fact_RELATED', 50, $q) YIELD relationship AS r, score " +
          'RETURN startNode(r).id AS from, endNode(r).id AS to, type(r) AS type, r.predicate AS predicate, score',
        { q },
      )
    ).map((h) => ({
      relation: ref.relations.find((r) => r.from === h.from && r.to === h.to && r.type === h.type && r.predicate === h.predicate)!,
      score: calibrated(2 * (h.score as number) - 1),
    }));
    const seeds = defaultSeeds(ref, q, question, named, factHits, d);
    expect(seeds.some((s) => s.sources.includes('fact'))).toBe(true);
    const lexical = (
      await read("CALL db.index.fulltext.queryNodes('passage_text', $q, {limit: $k}) YIELD node RETURN node.id AS id", {
        q: normalised(question),
        k: neo4jInt(d.lexicalK),
      })
    ).map((r) => r.id as string);
    expect(lexical.length).toBeGreaterThan(0);
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

    const gated = await shipped.retrieve({ mode: 'gated', question, questionEmbedding: q });
    expectClose([...gated.seeds].sort(byId), [...seeds].sort(byId), ['activation']);
    expect([...gated.seeds].sort(byId).map((s) => [...s.sources].sort())).toEqual([...seeds].sort(byId).map((s) => [...s.sources].sort()));
    const keepPages = ownPages(ref, seeds);
    const expected = selectPassages(ref, q, gatedActivation(ref, q, seeds, d), [], { ...d, named, keepPages }, lexical);
    expectClose(gated.entities, expected.entities, ['activation']);
    expectClose(gated.passages, expected.passages, ['score', 'graphScore', 'vectorScore']);
    expect(gated.passages.length).toBe(d.topK);

    // ppr: the push engine's PageRank from the same seeds (exact weights), gated at read-out.
    const ppr = await shipped.retrieve({ mode: 'ppr', question, questionEmbedding: q });
    expectClose([...ppr.seeds].sort(byId), [...seeds].sort(byId), ['activation']);
    const scores = gatedScores(
      ref,
      q,
      pushPpr(ref, seeds, { ...p, named, namedPassageWeight: p.namedPassageWeight }),
      new Map(seeds.filter((s) => s.fact !== undefined).map((s) => [s.id, s.fact!])),
    );
    const entityIds = new Set(ref.entities.map((e) => e.id));
    const act = new Map([...scores].filter(([id]) => entityIds.has(id)));
    const extra = [...scores].filter(([id]) => !entityIds.has(id)).map(([id, g]) => ({ id, g }));
    const expectedPpr = selectPassages(ref, q, act, extra, { ...p, named, keepPages }, lexical);
    expectClose(ppr.entities, expectedPpr.entities, ['activation']);
    expectClose(ppr.passages, expectedPpr.passages, ['score', 'graphScore', 'vectorScore']);
    expect(ppr.passages.length).toBe(p.topK);
  });
});

/** Caller seeds (params.seedIds) join the vector seeds at activation 1. */
function withCallerSeeds(seeds: { id: string; activation: number }[], ids: string[]) {
  return [...seeds.filter((s) => !ids.includes(s.id)), ...ids.map((id) => ({ id, activation: 1 }))];
}

function cosineOf(a: number[], b: number[]) {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i] * b[i];
  return d / (Math.hypot(...a) * Math.hypot(...b));
}
