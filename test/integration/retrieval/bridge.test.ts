// Subject: the modes on the bridge fixture: seeds, walks, evidence paths and database errors.
import fs from 'node:fs';
import path from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { CYPHER_DIR } from '../../../server/db/cypher.js';
import { STATEMENTS } from '../../../server/retrieval/params.js';
import { AppError } from '../../../server/errors.js';
import { STATUS } from '../../../server/http/errors.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { GraphStore } from '../../../server/db/store.js';
import { manageProjection } from '../../../server/db/projection.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph } from '../../support/fixtures.js';

/** The property the product exists for: a passage reachable only through a bridge entity. */
const f = bridgeFixture();
const GRAPH = 'graph_recall_ppr';
let driver: Driver;
let retriever: Retriever;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, f.graph);
  retriever = new Retriever(new GraphStore(driver, 'neo4j'), { timeoutMs: 60000, allowedRelTypes: ['RELATED', 'SAME_AS'], pprGraphName: GRAPH });
});
afterAll(async () => driver?.close());

const rankOf = (ids: string[], id: string) => ids.indexOf(id) + 1 || Infinity;

// The projection tests run ppr on the GDS engine: the default (push) reads the stored graph and needs none.
const GDS = { engine: 'gds' };

test('ppr without a projection is a retryable 503 and starts building it in the background', async () => {
  const push = await retriever.retrieve({ mode: 'ppr', questionEmbedding: f.question });
  expect(push.passages.length).toBeGreaterThan(0);
  const err = await retriever.retrieve({ mode: 'ppr', questionEmbedding: f.question, params: GDS }).catch((e) => e);
  expect(err).toBeInstanceOf(AppError);
  expect(err.code).toBe('projection_building');
  expect(STATUS[(err as AppError).code]).toBe(503);
  expect((err as AppError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(err.message).toMatch(/graph_recall_ppr is being built; retry in \d+ s/);
  await retriever.projection.idle();
  await expect(retriever.retrieve({ mode: 'ppr', questionEmbedding: f.question, params: GDS })).resolves.toMatchObject({ mode: 'ppr' });
});

test('vector ranks the answer below every distractor; gated and ppr lift it above them all, into the top 2', async () => {
  const state = await manageProjection(driver, 'refresh', { graphName: GRAPH });
  expect(state).toMatchObject({ exists: true, fresh: true, nodeCount: f.graph.entities.length + f.graph.passages.length });

  const vector = await retriever.retrieve({ mode: 'vector', questionEmbedding: f.question });
  const vectorIds = vector.passages.map((p) => p.id);
  // Four distractors look far more like the question (cosine 0.45) than the answer (0.05).
  for (const d of f.distractors) expect(rankOf(vectorIds, d)).toBeLessThan(rankOf(vectorIds, f.answerPassage));

  // ppr on both engines: the push (default) and GDS.
  for (const [mode, params] of [
    ['gated', {}],
    ['ppr', {}],
    ['ppr', GDS],
  ] as const) {
    const res = await retriever.retrieve({ mode, questionEmbedding: f.question, params });
    const ids = res.passages.map((p) => p.id);
    // The answer passage in the first two (rankOf is Infinity when it is missing); a failure names the mode and the rank.
    const rank = rankOf(ids, f.answerPassage);
    expect({ mode, params, rank, inFirstTwo: rank <= 2 }).toMatchObject({ mode, params, inFirstTwo: true });
    for (const d of f.distractors) expect(rankOf(ids, f.answerPassage)).toBeLessThan(rankOf(ids, d));
    expect(res.seeds.map((s) => s.id)).toEqual([f.seedEntity]);
    // Evidence: a path from the seed to the bridge entity that the answer passage mentions.
    const path = res.paths.find((p) => p.passageId === f.answerPassage)!;
    expect(path.nodes.map((n) => n.id)).toEqual([f.seedEntity, f.bridgeEntity]);
    expect(path.relationships).toEqual([{ type: 'RELATED', predicate: 'worked with', direction: 'forward' }]);
    expect(res.context).toContain('Charles Babbage designed the Analytical Engine.');
    expect(res.context.indexOf('[1] ')).toBe(0);
  }
});

test("vector and hybrid map no seeds on a graph with passages: their facts are their passages' own, their entities those the passages mention", async () => {
  const name = (id: string) => f.graph.entities.find((e) => e.id === id)!.name;
  const mentions = new Map(f.graph.passages.map((p) => [p.id, p.mentions]));
  for (const mode of ['vector', 'hybrid'] as const) {
    // The question names Charles Babbage: a graph mode would seed him by name.
    const res = await retriever.retrieve({ mode, questionEmbedding: f.question, question: 'What did Charles Babbage design?', params: { topK: 5 } });
    expect(res.seeds).toEqual([]);
    expect(res.paths).toEqual([]);
    const ids = res.passages.map((p) => p.id);
    // Each entity the passages mention, at the score of the best passage that mentions it, best first.
    const best = new Map<string, number>();
    for (const p of res.passages) for (const e of mentions.get(p.id)!) best.set(e, Math.max(best.get(e) ?? Number.NEGATIVE_INFINITY, p.score));
    expect(Object.fromEntries(res.entities.map((e) => [e.id, e.activation]))).toEqual(Object.fromEntries(best));
    const activations = res.entities.map((e) => e.activation);
    expect(activations).toEqual([...activations].sort((a, b) => b - a));
    // At most entityK of them, the first ones, as in the graph modes.
    expect(res.entities.length).toBeGreaterThan(2);
    const question = 'What did Charles Babbage design?';
    const capped = await retriever.retrieve({ mode, questionEmbedding: f.question, question, params: { topK: 5, entityK: 2 } });
    expect(capped.entities).toEqual(res.entities.slice(0, 2));
    // The facts read in those passages (passageId), in the passages' order, each at its passage's score.
    const expected = ids.flatMap((id) => f.graph.relations.filter((r) => r.passageId === id).map((r) => `${name(r.from)} ${r.predicate} ${name(r.to)}`));
    expect(expected.length).toBeGreaterThan(0);
    expect(res.facts.map((x) => x.text)).toEqual(expected);
    expect(res.context).toContain(`Facts:\n- ${expected[0]}`);
  }
});

test('the ungated ablation and a single step change the activations as the rule says', async () => {
  const one = await retriever.retrieve({ mode: 'gated', questionEmbedding: f.question, params: { steps: 1 } });
  const act = Object.fromEntries(one.entities.map((e) => [e.id, e.activation]));
  // One hop: decay 0.7 x gate 0.6 (the bridge's description cosine) x seed activation 1.
  expect(act['e-babbage']).toBeCloseTo(0.7 * 0.6, 6);
  expect(act['e-engine']).toBeUndefined();
  const ungated = await retriever.retrieve({ mode: 'gated', questionEmbedding: f.question, params: { steps: 1, gate: false } });
  expect(ungated.entities.find((e) => e.id === 'e-babbage')!.activation).toBeCloseTo(0.7, 6);
});

test('a question naming an entity seeds it by name; caller seeds are honoured', async () => {
  const ask = (params: Record<string, unknown>) =>
    retriever.retrieve({ mode: 'gated', questionEmbedding: f.question, question: 'What did the colleague of Charles Babbage build?', params });
  const res = await ask({ seedIds: ['e-engine'], vectorSeedsWithNames: true });
  const byId = Object.fromEntries(res.seeds.map((s) => [s.id, s]));
  expect(byId['e-babbage'].sources).toEqual(['name']);
  expect(byId['e-babbage'].activation).toBe(1);
  expect(byId['e-engine'].sources).toEqual(['caller']);
  expect(byId['e-ada'].sources).toEqual(['vector']);
  // By default a question that names entities is seeded by them alone.
  const named = await ask({ seedIds: ['e-engine'] });
  expect(named.seeds.map((s) => s.id).sort()).toEqual(['e-babbage', 'e-engine']);
});

test('a name seeds only where a cased question writes it as a name (capitalised, not only as its first word; articles aside), and the longest match wins', async () => {
  const nameSeeded = async (question: string) => {
    const res = await retriever.retrieve({ mode: 'gated', questionEmbedding: f.question, question, params: {} });
    return res.seeds.some((s) => s.id === 'e-babbage' && s.sources.includes('name'));
  };
  expect(await nameSeeded('What did the colleague of Charles Babbage build?')).toBe(true);
  expect(await nameSeeded('What Did The Colleague Of Charles Babbage Build?')).toBe(true);
  expect(await nameSeeded("Charles Babbage's colleague built what?")).toBe(true);
  // In a question written with capitals, a name in lower case, or half of it: words, not the name.
  expect(await nameSeeded('What did the colleague of charles babbage build for Ada?')).toBe(false);
  expect(await nameSeeded('What did the colleague of Charles babbage build?')).toBe(false);
  // A question without a capital past its first word says nothing by case: its words match.
  expect(await nameSeeded('what did the colleague of charles babbage build?')).toBe(true);
  // A name's articles need no capital: a question writes "the Beatles".
  await driver.executeQuery(
    `CREATE (:Entity {id: 'e-beatles', name: 'The Beatles', type: 'Organization', embedding: $v, descriptionEmbedding: $v}),
            (:Entity {id: 'e-babbage-part', name: 'Babbage', type: 'Person', embedding: $v, descriptionEmbedding: $v})`,
    { v: f.question },
    { database: 'neo4j' },
  );
  try {
    const seeds = async (question: string) =>
      (await retriever.retrieve({ mode: 'gated', questionEmbedding: f.question, question, params: {} })).seeds
        .filter((s) => s.sources.includes('name'))
        .map((s) => s.id);
    await expect(seeds('Who managed the Beatles?')).resolves.toEqual(['e-beatles']);
    await expect(seeds('Who managed the beatles, asked Charles Babbage?')).resolves.toEqual(['e-babbage']);
    // The longest match wins: "Babbage" inside "Charles Babbage" is part of that name; alone it is a name.
    await expect(seeds('What did the colleague of Charles Babbage build?')).resolves.toEqual(['e-babbage']);
    await expect(seeds('What did the colleague of Babbage build?')).resolves.toEqual(['e-babbage-part']);
  } finally {
    await driver.executeQuery("MATCH (e:Entity) WHERE e.id IN ['e-beatles', 'e-babbage-part'] DETACH DELETE e", {}, { database: 'neo4j' });
  }
});

test("a name written with an apostrophe seeds even when fifty other names share more of the question's words", async () => {
  // The entity_name index keeps "Alzheimer's" whole; searched only as "alzheimer s", the name matched by "disease" alone,
  // below sixty names that match "adverse" and "disease" too, and fell out of the index's 50 hits.
  await driver.executeQuery(
    `CREATE (:Entity {id: 'e-alz', name: "Alzheimer's disease", type: 'Disease', embedding: $v, descriptionEmbedding: $v})
     WITH 1 AS one UNWIND range(1, 60) AS i
     CREATE (:Entity {id: 'e-adverse-' + i, name: 'Adverse disease ' + i, type: 'Disease', embedding: $v, descriptionEmbedding: $v})`,
    { v: f.question },
    { database: 'neo4j' },
  );
  try {
    const res = await retriever.retrieve({
      mode: 'gated',
      questionEmbedding: f.question,
      question: "What adverse effects do drugs for Alzheimer's disease cause?",
    });
    expect(res.seeds.filter((s) => s.sources.includes('name')).map((s) => s.id)).toEqual(['e-alz']);
  } finally {
    await driver.executeQuery("MATCH (e:Entity) WHERE e.id = 'e-alz' OR e.id STARTS WITH 'e-adverse-' DETACH DELETE e", {}, { database: 'neo4j' });
  }
});

test('a write after the projection makes ppr answer projection_building until it is rebuilt', async () => {
  // No rebuild left over from an earlier test may finish after the stamp below.
  await retriever.projection.idle();
  const s = driver.session();
  await s.run("MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime() + duration('PT1S')");
  await s.close();
  // Read before ppr starts its background rebuild: on a loaded machine that rebuild can finish
  // after the stamp, and then the projection is fresh again.
  const st = await manageProjection(driver, 'status', { graphName: GRAPH });
  expect(st.fresh).toBe(false);
  const err = await retriever.retrieve({ mode: 'ppr', questionEmbedding: f.question, params: GDS }).catch((e) => e);
  expect(err.code).toBe('projection_building');
  await new Promise((r) => setTimeout(r, 1100));
  await retriever.projection.idle();
  await manageProjection(driver, 'refresh', { graphName: GRAPH });
  await expect(retriever.retrieve({ mode: 'ppr', questionEmbedding: f.question, params: GDS })).resolves.toMatchObject({ mode: 'ppr' });
});

test('explain gives the file and a :param block that reproduces the query', async () => {
  const res = await retriever.retrieve({ mode: 'gated', questionEmbedding: f.question, question: "Ada's friend?", explain: true });
  expect(res.explain!.file).toBe('cypher/retrieve_gated.cypher');
  expect(res.explain!.params).toContain(":param question => 'Ada\\'s friend?';");
  expect(res.explain!.params).toMatch(/:param steps => 3;/);
  expect(res.explain!.params).toMatch(/:param questionEmbedding => \[-?0\.\d+/);
});

/**
 * What a DBA does in Neo4j Browser: run each `:param name => expression;` line
 * (Browser evaluates the expression with a RETURN), then run the file as it is.
 */
async function runLikeBrowser(file: string, paramBlock: string, evaluated: Record<string, unknown> = {}) {
  // A plain driver (lossless integers), so integer parameters stay integers as in Browser.
  const plain = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER || 'neo4j', process.env.NEO4J_PASSWORD!));
  const s = plain.session();
  try {
    const params: Record<string, unknown> = evaluated;
    for (const line of paramBlock.split('\n')) {
      const m = line.replace(/^\/\/ /, '').match(/^:param (\w+) => (.*);$/);
      if (m) params[m[1]] = (await s.run(`RETURN ${m[2]} AS v`, params)).records[0].get('v');
    }
    const text = fs.readFileSync(path.join(CYPHER_DIR, path.basename(file)), 'utf8');
    return (await s.run(text, params)).records[0].toObject();
  } finally {
    await s.close();
    await plain.close();
  }
}

test.each(['gated', 'ppr', 'vector', 'hybrid'] as const)('the %s file runs unchanged with the explain :param block and gives the API result', async (mode) => {
  const api = await retriever.retrieve({ mode, questionEmbedding: f.question, question: 'Who worked with Ada Lovelace?', explain: true });
  const browser = await runLikeBrowser(api.explain!.file, api.explain!.params);
  expect(browser.passages.map((p: { id: string }) => p.id)).toEqual(api.passages.map((p) => p.id));
  expect(browser.context).toBe(api.context);
});

/** Integers read back through the plain driver (neo4j Integer) as numbers, as the API takes them. */
const plainValue = (v: unknown): unknown => (neo4j.isInt(v) ? (v as { toNumber(): number }).toNumber() : v);

// Claim: every statement file (each mode, ppr's GDS engine, gated's deep walk) runs as shipped with its own header
// values and returns what the API returns for them: the same passages, in the same order, with the same scores.
test.each(STATEMENTS.map((s) => [s.file, s.mode, s.params] as const))(
  '%s runs as shipped with the :param block in its own header and gives what the API gives for those values',
  async (file, mode, extra) => {
    const text = fs.readFileSync(path.join(CYPHER_DIR, file), 'utf8');
    const header = text
      .split('\n')
      .filter((l) => l.startsWith('// :param'))
      .join('\n');
    const evaluated: Record<string, unknown> = {};
    const row = await runLikeBrowser(file, header, evaluated);
    expect(row.passages.length).toBeGreaterThan(0);
    // The same values through the statement runner the API uses: the same passages, scores and context.
    const { question, questionEmbedding, ...params } = Object.fromEntries(Object.entries(evaluated).map(([k, v]) => [k, plainValue(v)]));
    const api = await retriever.retrieve({
      mode,
      question: question as string,
      questionEmbedding: questionEmbedding as number[],
      params: { ...params, ...extra },
      explain: true,
    });
    // The API ran this very file for those values (not another mode's or engine's statement).
    expect(api.explain!.file).toBe(`cypher/${file}`);
    const ranked = (ps: { id: string; score: number }[]) => ps.map((p) => ({ id: p.id, score: Number(p.score.toFixed(9)) }));
    expect(ranked(row.passages)).toEqual(ranked(api.passages));
    expect(row.context).toBe(api.context);
  },
);

// Claim: the header test above leaves no retrieval file out (it once left out hybrid).
test('the header test covers every retrieval statement in cypher/', () => {
  const files = fs.readdirSync(CYPHER_DIR).filter((name) => /^retrieve_\w+\.cypher$/.test(name));
  expect(STATEMENTS.map((s) => s.file).sort()).toEqual(files.sort());
});
