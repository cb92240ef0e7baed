// Subject: graph-recall ingest and POST /v1/documents: passages, entities, facts, vectors, idempotence.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { COMPACT_AFTER_BATCHES, compactVectorIndexes } from '../../../server/db/compact-indexes.js';
import { ensureEmbedder } from '../../../server/db/embedder-guard.js';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { createOfflineExtractor } from '../../../server/extractors/offline/index.js';
import type { Extractor } from '../../../server/extractors/types.js';
import { DEFAULT_PPR_GRAPH_NAME } from '../../../server/graph/facts.js';
import { GraphStore } from '../../../server/db/store.js';
import { type DocumentBatch, VECTOR_ROWS_PER_STATEMENT, writeDocumentBatch } from '../../../server/graph/writes.js';
import {
  IngestInputError,
  deleteDocument,
  ingestCurated,
  ingestDocuments,
  readHetionet,
  readJsonl,
  reembed,
  embedFacts,
  type IngestContext,
} from '../../../server/ingest/index.js';
import { ROOT } from '../../../server/config.js';
import { compose } from '../../../server/ingest/facts.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { resetGraph, testDriver } from '../../support/db.js';

/** Ingestion end to end: real local model, offline extractor, real Neo4j. */
const CORPUS = [
  {
    id: 'ad-1',
    title: "Alzheimer's disease",
    text: "Alzheimer's disease (AD) is a neurodegenerative disease that usually starts slowly and worsens over time. It was described by Alois Alzheimer in 1906.",
  },
  { id: 'ad-2', title: 'Donepezil', text: 'Donepezil is a medication used to treat AD. It was developed by Eisai in Japan.' },
  {
    id: 'alois',
    title: 'Alois Alzheimer',
    text: 'Alois Alzheimer was a German psychiatrist born in Marktbreit, Bavaria. He worked in Munich with Emil Kraepelin.',
  },
  { id: 'eisai', title: 'Eisai', text: 'Eisai is a Japanese pharmaceutical company headquartered in Tokyo.' },
  { id: 'munich', title: 'Munich', text: 'Munich is the capital of Bavaria, in the south of Germany.' },
];

let driver: Driver;
let store: GraphStore;
let embedder: Embedder;
let dir: string;
const extractor = createOfflineExtractor();
const ctx = (): IngestContext => ({ store, embedder, extractor, graphName: DEFAULT_PPR_GRAPH_NAME });

function writeCorpus(lines: string[]): string {
  const file = path.join(dir, `corpus-${Math.random().toString(36).slice(2)}.jsonl`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
const goodLines = () => CORPUS.map((d) => JSON.stringify(d));

async function graphCounts() {
  const s = driver.session();
  try {
    const r = await s.run(
      `RETURN COUNT { (:Document) } AS documents, COUNT { (:Passage) } AS passages, COUNT { (:Entity) } AS entities,
              COUNT { ()-[:MENTIONS]->() } AS mentions, COUNT { ()-[:RELATED]->() } AS related, COUNT { ()-[:SAME_AS]->() } AS sameAs`,
    );
    return r.records[0].toObject();
  } finally {
    await s.close();
  }
}

beforeAll(async () => {
  driver = await testDriver();
  store = new GraphStore(driver, 'neo4j');
  embedder = await createLocalEmbedder();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-'));
});
beforeEach(async () => resetGraph(driver));
afterAll(async () => driver?.close());

/** Every fact of these types with its parts, sentence and vector (fact seeds search them). */
async function factVectors(types: string[]): Promise<{ parts: string[]; text: string; embedding: number[] | null }[]> {
  const s = driver.session();
  try {
    const r = await s.run(
      `MATCH (a:Entity)-[r]->(b:Entity) WHERE type(r) IN $types
       RETURN [a.name, coalesce(r.predicate, toLower(replace(type(r), '_', ' '))), b.name] AS parts, r.gloss AS gloss, r.embedding AS embedding`,
      { types },
    );
    // A curated predicate's gloss stands in parentheses after it (docs/linking.md#glosses).
    const text = ([a, p, b]: string[], gloss: string | null) => `${a} ${p}${gloss ? ` (${gloss})` : ''} ${b}`;
    return r.records.map((x) => ({ parts: x.get('parts'), text: text(x.get('parts'), x.get('gloss')), embedding: x.get('embedding') }));
  } finally {
    await s.close();
  }
}

/**
 * Each fact's vector (within float noise): composed, the word-weighted sum of its subject's, predicate's
 * and object's vectors by this embedder, normalised; or, as `sentence`, its sentence's own embedding.
 */
async function expectFactsEmbedded(types: string[], by: Embedder, how: 'composed' | 'sentence' = 'composed'): Promise<number> {
  const facts = await factVectors(types);
  const expected =
    how === 'sentence'
      ? await by.embed(
          facts.map((f) => f.text),
          'document',
        )
      : await Promise.all(
          facts.map(async (f) =>
            compose(
              await by.embed(f.parts, 'document'),
              f.parts.map((p) => p.split(/\s+/).filter(Boolean).length),
            ),
          ),
        );
  facts.forEach((f, i) => {
    expect(f.embedding).not.toBeNull();
    const dot = f.embedding!.reduce((t, x, k) => t + x * expected[i][k], 0);
    expect(dot).toBeCloseTo(1, 4);
  });
  return facts.length;
}

test('a corpus ingests; a bad line is reported with its number and skipped; a second run changes nothing', async () => {
  const lines = goodLines();
  lines.splice(2, 0, '{"title": "broken", "text": ');
  const file = writeCorpus(lines);
  const first = await ingestDocuments(ctx(), readJsonl(file), { batchSize: 2 });
  expect(first.documents).toMatchObject({ read: 5, written: 5, unchanged: 0 });
  expect(first.problems).toHaveLength(1);
  expect(first.problems[0]).toMatchObject({ line: 3, reason: expect.stringMatching(/JSON/i) });
  expect(first.passages).toBe(5);
  expect(first.entities).toBeGreaterThan(8);
  const after = await graphCounts();
  expect(after).toMatchObject({ documents: 5, passages: 5 });
  expect(after.related).toBeGreaterThan(0);

  const second = await ingestDocuments(ctx(), readJsonl(file), { batchSize: 2 });
  expect(second.documents).toMatchObject({ read: 5, written: 0, unchanged: 5 });
  expect(second.entities).toBe(0);
  expect(await graphCounts()).toEqual(after);
  // Every RELATED fact carries its vector composed from its parts' vectors.
  expect(await expectFactsEmbedded(['RELATED'], embedder)).toBe(after.related);

  // Every passage is embedded with the real model and reachable through the index.
  const s = driver.session();
  const hit = await s.run("CALL db.index.vector.queryNodes('passage_embedding', 50, $q) YIELD node, score RETURN node.id AS id ORDER BY score DESC LIMIT 1", {
    q: (await embedder.embed(['Which company in Tokyo makes medicines?'], 'query'))[0],
  });
  await s.close();
  expect(hit.records[0].get('id')).toBe('eisai');
});

test('--strict aborts before anything is written', async () => {
  const lines = goodLines();
  lines.push('{"title": "no text"}');
  const file = writeCorpus(lines);
  const err = await ingestDocuments(ctx(), readJsonl(file), { strict: true }).catch((e) => e);
  expect(err).toBeInstanceOf(IngestInputError);
  expect(err.message).toMatch(/:6: .*text/);
  expect(await graphCounts()).toMatchObject({ documents: 0, passages: 0, entities: 0 });
});

test('an interrupted run resumes and ends with the same graph as an uninterrupted one', async () => {
  const file = writeCorpus(goodLines());
  await ingestDocuments(ctx(), readJsonl(file), { batchSize: 2 });
  const clean = await graphCounts();
  await resetGraph(driver);

  let calls = 0;
  const failing: Extractor = {
    id: extractor.id,
    async extract(p) {
      if (++calls === 4) throw new Error('simulated crash in the third batch');
      return extractor.extract(p);
    },
  };
  await expect(ingestDocuments({ ...ctx(), extractor: failing }, readJsonl(file), { batchSize: 2 })).rejects.toThrow(/simulated crash/);
  const partial = await graphCounts();
  expect(partial.documents).toBe(2); // the first batch only: batches are all or nothing
  const resumed = await ingestDocuments(ctx(), readJsonl(file), { batchSize: 2 });
  expect(resumed.documents).toMatchObject({ unchanged: 2, written: 3 });
  expect(await graphCounts()).toEqual(clean);
});

test('an aborted ingest stops before its next step, throwing the reason; what it committed stays whole', async () => {
  const file = writeCorpus(goodLines());
  const stop = new AbortController();
  let extracted = 0;
  // The abort comes while the second batch (documents 3 and 4, a passage each) is being extracted, after the
  // first batch's commit began (pipelined: a batch is extracted while the one before is written).
  const watching: Extractor = {
    id: extractor.id,
    async extract(p) {
      if (++extracted === 4) stop.abort(new Error('the database went away'));
      return extractor.extract(p);
    },
  };
  await expect(ingestDocuments({ ...ctx(), extractor: watching }, readJsonl(file), { batchSize: 2, signal: stop.signal })).rejects.toThrow(
    'the database went away',
  );
  // Stopped before embedding the second batch: nothing of it written, no third batch extracted.
  expect(extracted).toBe(4);
  expect(await graphCounts()).toMatchObject({ documents: 2, passages: 2 });
});

test('deleting a document removes what only it supported and keeps what others still mention', async () => {
  const file = writeCorpus(goodLines());
  await ingestDocuments(ctx(), readJsonl(file));
  const s = driver.session();
  const entitiesOf = async (id: string) =>
    (await s.run('MATCH (:Passage {documentId: $id})-[:MENTIONS]->(e) RETURN collect(e.name) AS n', { id })).records[0].get('n') as string[];
  const eisaiOnly = await entitiesOf('eisai');
  expect(eisaiOnly).toEqual(expect.arrayContaining(['Tokyo']));
  expect(await deleteDocument(store, 'eisai')).toBe(true);
  expect(await deleteDocument(store, 'eisai')).toBe(false);
  const names = (await s.run('MATCH (e:Entity) RETURN collect(e.name) AS n')).records[0].get('n') as string[];
  expect(names).not.toContain('Tokyo'); // only the deleted passage mentioned it
  expect(names).toContain('Eisai'); // still mentioned by the Donepezil passage
  const rel = await s.run("MATCH ()-[r:RELATED {passageId: 'eisai'}]->() RETURN count(r) AS n");
  expect(rel.records[0].get('n')).toBe(0);
  await s.close();
});

test('an abbreviation reaches the same entity as the full name', async () => {
  const file = writeCorpus(goodLines());
  const summary = await ingestDocuments(ctx(), readJsonl(file));
  expect(summary.synonyms).toBeGreaterThan(0);
  const retriever = new Retriever(store, { timeoutMs: 30000, allowedRelTypes: ['RELATED', 'SAME_AS'], pprGraphName: DEFAULT_PPR_GRAPH_NAME });
  const question = 'Who first described AD?';
  const [q] = await embedder.embed([question], 'query');
  const res = await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params: { steps: 2 } });
  const reached = res.entities.map((e) => e.name);
  expect(reached).toContain("Alzheimer's disease");
  expect(res.passages.slice(0, 3).map((p) => p.id)).toContain('ad-1');
});

test('a curated graph in Hetionet format keeps its own relationship types', async () => {
  const het = path.join(dir, 'hetionet');
  fs.mkdirSync(het);
  fs.writeFileSync(
    path.join(het, 'nodes.tsv'),
    'id\tname\tkind\nCompound::DB01076\tAtorvastatin\tCompound\nGene::3156\tHMGCR\tGene\nDisease::DOID:1287\tcardiovascular system disease\tDisease\n',
  );
  fs.writeFileSync(
    path.join(het, 'metaedges.tsv'),
    'metaedge\tabbreviation\tedges\tsource_nodes\ttarget_nodes\tunbiased\nCompound - binds - Gene\tCbG\t1\t1\t1\t0\nCompound - treats - Disease\tCtD\t1\t1\t1\t0\n' +
      'Compound - palliates - Disease\tCpD\t1\t1\t1\t0\n',
  );
  fs.writeFileSync(
    path.join(het, 'edges.sif'),
    'source\tmetaedge\ttarget\nCompound::DB01076\tCbG\tGene::3156\nCompound::DB01076\tCtD\tDisease::DOID:1287\nCompound::DB00502\tCpD\tDisease::DOID:1287\n',
  );
  fs.appendFileSync(path.join(het, 'nodes.tsv'), 'Compound::DB00502\tHaloperidol\tCompound\n');
  const graph = await readHetionet(het);
  const summary = await ingestCurated(ctx(), graph);
  expect(summary).toMatchObject({ entities: 4, relations: 3 });
  const s = driver.session();
  const r = await s.run("MATCH (a:Entity:Curated {name: 'Atorvastatin'})-[r]->(b) RETURN type(r) AS t, b.name AS b ORDER BY t");
  expect(r.records.map((x) => [x.get('t'), x.get('b')])).toEqual([
    ['BINDS_CbG', 'HMGCR'],
    ['TREATS_CtD', 'cardiovascular system disease'],
  ]);
  const meta = await s.run("MATCH (m:GraphRecallMeta {key: 'graph'}) RETURN m.curatedTypes AS t");
  expect([...meta.records[0].get('t')].sort()).toEqual(['BINDS_CbG', 'PALLIATES_CpD', 'TREATS_CtD']);
  await s.close();
  expect(summary.synonyms).toBe(0); // curated ids are canonical: no embedding synonyms among them
  // Each curated edge's sentence is embedded whole (not composed), in its type's own fact index; a term of art
  // carries its gloss ("palliates (relieves the symptoms of)"), in the vector only: the predicate stays.
  expect(await expectFactsEmbedded(['BINDS_CbG', 'TREATS_CtD', 'PALLIATES_CpD'], embedder, 'sentence')).toBe(3);
  const palliates = await driver.executeQuery('MATCH ()-[r:PALLIATES_CpD]->() RETURN r.predicate AS p, r.gloss AS g');
  expect(palliates.records.map((x) => [x.get('p'), x.get('g')])).toEqual([['palliates', 'relieves the symptoms of']]);
  const [relieve] = await embedder.embed(['Which drugs relieve the symptoms of cardiovascular system disease?'], 'query');
  const byFact = await driver.executeQuery(
    "MATCH (:Curated {name: 'cardiovascular system disease'})<-[r]-(c) RETURN c.name AS c, vector.similarity.cosine(r.embedding, $q) AS cos ORDER BY cos DESC",
    { q: relieve },
  );
  expect(byFact.records[0].get('c')).toBe('Haloperidol');
  const [fq] = await embedder.embed(['Which drugs treat cardiovascular disease?'], 'query');
  const s2 = driver.session();
  const nearest = await s2.run(
    "CALL db.index.vector.queryRelationships('fact_TREATS_CtD', 5, $q) YIELD relationship RETURN startNode(relationship).name AS a",
    { q: fq },
  );
  await s2.close();
  expect(nearest.records.map((x) => x.get('a'))).toEqual(['Atorvastatin']);
  // A graph imported before the gloss (no gloss, the bare sentence's vector) gets it, and the new vector, from a re-import.
  const [bare] = await embedder.embed(['Haloperidol palliates cardiovascular system disease'], 'document');
  await driver.executeQuery('MATCH ()-[r:PALLIATES_CpD]->() REMOVE r.gloss SET r.embedding = $v', { v: bare });
  const again = await ingestCurated(ctx(), graph);
  expect(again.entities).toBe(0);
  expect(await graphCounts()).toMatchObject({ entities: 4 });
  expect(await expectFactsEmbedded(['PALLIATES_CpD'], embedder, 'sentence')).toBe(1);
});

test('switching embedders on a populated database is refused with the fix, and reembed applies it', async () => {
  const file = writeCorpus(goodLines());
  await ensureEmbedder(store, embedder);
  await ingestDocuments(ctx(), readJsonl(file));
  const other = createHashEmbedder(384);
  await expect(ensureEmbedder(store, other)).rejects.toThrow(/holds vectors from local:.*graph-recall reembed/);
  const r = await reembed(store, other);
  expect(r.passages).toBe(5);
  expect(r.entities).toBeGreaterThan(8);
  // The facts too: each now carries a vector composed from the new embedder's.
  expect(r.facts).toBeGreaterThan(0);
  expect(await expectFactsEmbedded(['RELATED'], other)).toBe(r.facts);
  // A fact left without a vector (a graph from before fact seeds) is filled by embedFacts alone.
  await driver.executeQuery('MATCH ()-[r:RELATED]->() WITH r LIMIT 2 REMOVE r.embedding');
  expect(await embedFacts(store, other, ['RELATED', 'SAME_AS'])).toBe(2);
  expect(await expectFactsEmbedded(['RELATED'], other)).toBe(r.facts);
  // With sentences (or where an end has no name vector), each fact's sentence is embedded whole.
  expect(await embedFacts(store, other, ['RELATED'], { all: true, sentences: true })).toBe(r.facts);
  expect(await expectFactsEmbedded(['RELATED'], other, 'sentence')).toBe(r.facts);
  await driver.executeQuery('MATCH (e:Entity) REMOVE e.embedding');
  expect(await embedFacts(store, other, ['RELATED'], { all: true })).toBe(r.facts);
  expect(await expectFactsEmbedded(['RELATED'], other, 'sentence')).toBe(r.facts);
  await reembed(store, other);
  expect(await expectFactsEmbedded(['RELATED'], other)).toBe(r.facts);
  await expect(ensureEmbedder(store, other)).resolves.toBeUndefined();
  const s = driver.session();
  const [q] = await other.embed(['Eisai pharmaceutical company Tokyo'], 'query');
  const hit = await s.run("CALL db.index.vector.queryNodes('passage_embedding', 50, $q) YIELD node, score RETURN node.id AS id ORDER BY score DESC LIMIT 1", {
    q,
  });
  await s.close();
  expect(hit.records[0].get('id')).toBe('eisai');
});

test('a batch larger than one statement slice is written whole, once, in one transaction', async () => {
  // writeDocumentBatch sends rows with vectors in slices of VECTOR_ROWS_PER_STATEMENT (so the driver
  // never encodes hundreds of vectors on the event loop at once): 150 passages and 150 entities
  // take three slices each; all must land, be counted once, and a failing batch must leave nothing.
  const n = 150;
  expect(n).toBeGreaterThan(2 * VECTOR_ROWS_PER_STATEMENT);
  const v = Array.from({ length: 384 }, (_, i) => (i === 0 ? 1 : 0));
  const batch = (docId: string): DocumentBatch => ({
    documents: [{ id: docId, title: docId, source: 'test', hash: 'h', metadata: null }],
    replaced: [],
    passages: Array.from({ length: n }, (_, i) => ({ id: `${docId}#${i}`, documentId: docId, title: docId, text: `passage ${i}`, embedding: v })),
    entities: Array.from({ length: n }, (_, i) => ({
      id: `e:slice ${i}`,
      name: `Slice ${i}`,
      type: 'Thing',
      description: '',
      embedding: v,
      descriptionEmbedding: v,
    })),
    mentions: Array.from({ length: n }, (_, i) => ({ p: `${docId}#${i}`, e: `e:slice ${i}` })),
    relations: [],
    aliases: [],
  });
  expect(await writeDocumentBatch(store, batch('big'))).toEqual({ entities: n, aliases: 0 });
  expect(await graphCounts()).toMatchObject({ documents: 1, passages: n, entities: n, mentions: n });
  // The same entities again (another document): found, not made.
  expect(await writeDocumentBatch(store, batch('big-2'))).toEqual({ entities: 0, aliases: 0 });
  // A batch whose last slice fails (a passage id owned by another document) writes nothing at all.
  const bad = batch('bad');
  bad.passages[n - 1] = { ...bad.passages[n - 1], id: 'big#0' };
  bad.entities = bad.entities.map((e) => ({ ...e, id: `e:bad ${e.id}` }));
  await expect(writeDocumentBatch(store, bad)).rejects.toThrow(/already belongs to document big/);
  expect(await graphCounts()).toMatchObject({ documents: 2, passages: 2 * n, entities: n });
});

/** The vector indexes as SHOW reports them: id (new after a rebuild), configuration, state. */
async function vectorIndexes(): Promise<Record<string, { id: number; config: unknown; state: string }>> {
  const r = await driver.executeQuery('SHOW VECTOR INDEXES YIELD name, id, state, options RETURN name, id, state, options.indexConfig AS config');
  return Object.fromEntries(r.records.map((x) => [x.get('name'), { id: Number(x.get('id')), config: x.get('config'), state: x.get('state') }]));
}

test('a bulk load (more than COMPACT_AFTER_BATCHES batches) rebuilds the vector indexes it wrote to, configuration kept', async () => {
  const docs = Array.from({ length: COMPACT_AFTER_BATCHES + 2 }, (_, i) => ({
    id: `bulk-${i}`,
    title: `Bulk ${i}`,
    text: `Harriet Vane${i} wrote a novel about Shrewsbury College in Oxford, edition ${i}.`,
    // One source for every file (a file's name is its default source, and a new source re-writes a document).
    source: 'bulk',
  }));
  const before = await vectorIndexes();
  const small = await ingestDocuments(ctx(), readJsonl(writeCorpus(docs.slice(0, 3).map((d) => JSON.stringify(d)))), { batchSize: 1 });
  expect(small.seconds.index).toBe(0);
  expect((await vectorIndexes()).passage_embedding.id).toBe(before.passage_embedding.id);

  const bulk = await ingestDocuments(ctx(), readJsonl(writeCorpus(docs.map((d) => JSON.stringify(d)))), { batchSize: 1 });
  expect(bulk.documents.written).toBe(docs.length - 3);
  expect(bulk.seconds.index).toBe(0); // 7 new documents: not more than 8 batches
  const all = await ingestDocuments(ctx(), readJsonl(writeCorpus(docs.map((d, i) => JSON.stringify({ ...d, text: `${d.text} Revised ${i}.` })))), {
    batchSize: 1,
  });
  expect(all.documents.written).toBe(docs.length);
  expect(all.seconds.index).toBeGreaterThan(0);
  const after = await vectorIndexes();
  for (const name of ['entity_embedding', 'passage_embedding']) {
    expect(after[name].id).not.toBe(before[name].id);
    expect(after[name]).toMatchObject({ state: 'ONLINE', config: before[name].config });
  }
  // The rebuilt passage index finds a passage by its own vector.
  const [v] = await embedder.embed(['Bulk 4\nHarriet Vane4 wrote a novel about Shrewsbury College in Oxford, edition 4. Revised 4.'], 'document');
  const hit = await driver.executeQuery("CALL db.index.vector.queryNodes('passage_embedding', 1, $v) YIELD node RETURN node.documentId AS d", { v });
  expect(hit.records[0].get('d')).toBe('bulk-4');
}, 300_000);

test('a bulk load into a graph more than twice its size leaves the indexes as they are (a rebuild costs the whole graph)', async () => {
  const doc = (i: number) =>
    JSON.stringify({ id: `grown-${i}`, title: `Grown ${i}`, text: `Peter Wimsey${i} read a letter in Duke's Denver, page ${i}.`, source: 'grown' });
  const n = COMPACT_AFTER_BATCHES + 2;
  // The graph: 2n + 1 documents in batches of 64 (no rebuild: 1 batch).
  await ingestDocuments(ctx(), readJsonl(writeCorpus(Array.from({ length: 2 * n + 1 }, (_, i) => doc(i)))));
  const before = await vectorIndexes();
  // n more in batches of 1: more than COMPACT_AFTER_BATCHES batches, under half of the 3n + 1 passages after it.
  const append = await ingestDocuments(ctx(), readJsonl(writeCorpus(Array.from({ length: n }, (_, i) => doc(2 * n + 1 + i)))), { batchSize: 1 });
  expect(append.documents.written).toBe(n);
  expect(append.seconds.index).toBe(0);
  const after = await vectorIndexes();
  for (const name of Object.keys(before)) expect(after[name].id).toBe(before[name].id);
  // The appended passages are in the index all the same.
  const [v] = await embedder.embed([`Grown ${2 * n + 3}\nPeter Wimsey${2 * n + 3} read a letter in Duke's Denver, page ${2 * n + 3}.`], 'document');
  const hit = await driver.executeQuery("CALL db.index.vector.queryNodes('passage_embedding', 1, $v) YIELD node RETURN node.documentId AS d", { v });
  expect(hit.records[0].get('d')).toBe(`grown-${2 * n + 3}`);
}, 300_000);

test('`graph-recall compact` rebuilds every graph-recall vector index, configuration kept, and leaves a foreign one alone', async () => {
  await ingestDocuments(ctx(), readJsonl(writeCorpus(goodLines())), { batchSize: 2 });
  await driver.executeQuery(
    "CREATE VECTOR INDEX someone_elses IF NOT EXISTS FOR (x:Other) ON x.v OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
  );
  try {
    const before = await vectorIndexes();
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path.join(ROOT, 'bin', 'graph-recall.mjs'), 'compact'], { cwd: ROOT, env: process.env }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    // Ours: the entity and passage indexes and a fact index per walked type (other tests leave more than fact_RELATED).
    const ours = Object.keys(before)
      .filter((n) => n !== 'someone_elses')
      .sort();
    expect(ours).toEqual(expect.arrayContaining(['entity_embedding', 'fact_RELATED', 'passage_embedding']));
    expect(out).toMatch(new RegExp(`^rebuilt ${ours.length} vector indexes in [\\d.]+ s: ${ours.join(', ')}$`, 'm'));
    const after = await vectorIndexes();
    for (const name of ours) {
      expect(after[name].id).not.toBe(before[name].id);
      expect(after[name]).toMatchObject({ state: 'ONLINE', config: before[name].config });
    }
    expect(after.someone_elses.id).toBe(before.someone_elses.id);
    // The rebuilt passage index still finds a passage by its own vector.
    const p = await driver.executeQuery('MATCH (p:Passage) RETURN p.id AS id, p.embedding AS v ORDER BY p.id LIMIT 1');
    const hit = await driver.executeQuery("CALL db.index.vector.queryNodes('passage_embedding', 1, $v) YIELD node RETURN node.id AS id", {
      v: p.records[0].get('v'),
    });
    expect(hit.records[0].get('id')).toBe(p.records[0].get('id'));
  } finally {
    await driver.executeQuery('DROP INDEX someone_elses IF EXISTS');
  }
}, 300_000);

test('`graph-recall compact --indexes` rebuilds only the named indexes, and refuses a name that is not one of ours', async () => {
  await ingestDocuments(ctx(), readJsonl(writeCorpus(goodLines())), { batchSize: 2 });
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [path.join(ROOT, 'bin', 'graph-recall.mjs'), 'compact', ...args], { cwd: ROOT, env: process.env }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
      ),
    );
  const before = await vectorIndexes();
  const ok = await cli(['--indexes', 'entity_embedding, passage_embedding']);
  expect(ok.code).toBe(0);
  expect(ok.stdout).toMatch(/^rebuilt 2 vector indexes in [\d.]+ s: entity_embedding, passage_embedding$/m);
  const after = await vectorIndexes();
  expect(after.entity_embedding.id).not.toBe(before.entity_embedding.id);
  expect(after.passage_embedding.id).not.toBe(before.passage_embedding.id);
  expect(after.fact_RELATED.id).toBe(before.fact_RELATED.id);
  const bad = await cli(['--indexes', 'entity_embedding,someone_elses']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--indexes: "someone_elses" is not one of graph-recall's vector indexes \(.*entity_embedding.*\)/);
  expect((await vectorIndexes()).entity_embedding.id).toBe(after.entity_embedding.id);
}, 300_000);

test('compactVectorIndexes skips unknown names and keeps a fact index on its relationship type', async () => {
  await ingestDocuments(ctx(), readJsonl(writeCorpus(goodLines())), { batchSize: 2 });
  const before = await vectorIndexes();
  expect(before.fact_RELATED).toBeDefined();
  expect(await compactVectorIndexes(store, ['fact_RELATED', 'no_such_index'])).toEqual(['fact_RELATED']);
  const after = await vectorIndexes();
  expect(after.fact_RELATED).toMatchObject({ state: 'ONLINE', config: before.fact_RELATED.config });
  expect(after.fact_RELATED.id).not.toBe(before.fact_RELATED.id);
  expect(after.passage_embedding.id).toBe(before.passage_embedding.id);
  const r = await driver.executeQuery('SHOW VECTOR INDEXES YIELD name, entityType, labelsOrTypes WHERE name = $n RETURN entityType, labelsOrTypes', {
    n: 'fact_RELATED',
  });
  expect(r.records[0].toObject()).toEqual({ entityType: 'RELATIONSHIP', labelsOrTypes: ['RELATED'] });
}, 300_000);
