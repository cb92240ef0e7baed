// Subject: graph-recall import, online: a folder of pre-extracted rows with vectors.
import type { Driver } from 'neo4j-driver';
import { existingIds } from '../../../server/graph/bulk.js';
import { GraphStore } from '../../../server/db/store.js';
import { loadOnline } from '../../../server/ingest/import/online.js';
import { ImportValidationError, validateFolder } from '../../../server/ingest/import/validate.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { resetGraph, TEST_DIM, testDriver } from '../../support/db.js';
import { axis, importFolder } from '../../support/import-folder.js';

/** Issue 28: `graph-recall import`'s online load into a running database. */
let driver: Driver;
let store: GraphStore;

beforeAll(async () => {
  driver = await testDriver();
  store = new GraphStore(driver, 'neo4j');
});
beforeEach(() => resetGraph(driver));
afterAll(() => driver?.close());

const folder = () =>
  importFolder({
    passages: [
      { id: 'p1', documentId: 'd1', title: 'Aspirin', text: 'Aspirin treats headache and is made by Bayer.', embedding: axis(0) },
      { id: 'p2', documentId: 'd1', title: 'Aspirin', text: 'Bayer sells aspirin worldwide.', embedding: axis(1) },
      { id: 'p3', title: 'Fever', text: 'Fever is treated with ibuprofen.', embedding: axis(2) },
    ],
    entities: [
      { id: 'aspirin', name: 'Aspirin', type: 'Compound', embedding: axis(10) },
      { id: 'bayer', name: 'Bayer', type: 'Organization', embedding: axis(11) },
      { id: 'headache', name: 'Headache', type: 'Disease', curated: true, embedding: axis(12), descriptionEmbedding: axis(13) },
      { id: 'fever', name: 'Fever', type: 'Disease', curated: true, embedding: axis(14) },
    ],
    mentions: [
      { passage: 'p1', entity: 'aspirin' },
      { passage: 'p1', entity: 'bayer' },
      { passage: 'p1', entity: 'headache', confidence: 0.9, method: 'exact' },
      { passage: 'p2', entity: 'bayer' },
      { passage: 'p3', entity: 'fever', confidence: 0.8, method: 'exact' },
    ],
    relationships: [
      { from: 'bayer', to: 'aspirin', predicate: 'makes', passageId: 'p1', embedding: axis(20) },
      { from: 'bayer', to: 'aspirin', predicate: 'makes', passageId: 'p2', embedding: axis(21) },
      { from: 'aspirin', to: 'headache', type: 'TREATS_CtD', predicate: 'treats', embedding: axis(22) },
    ],
  });

async function counts() {
  const r = await store.read(
    `RETURN COUNT { (:Document) } AS documents, COUNT { (:Passage) } AS passages, COUNT { (:Entity) } AS entities, COUNT { (:Curated) } AS curated,
            COUNT { ()-[:PART_OF]->() } AS partOf, COUNT { ()-[:MENTIONS]->() } AS mentions, COUNT { ()-[:RELATED]->() } AS related,
            COUNT { ()-[:TREATS_CtD]->() } AS treats`,
  );
  return Object.fromEntries(Object.entries(r.records[0].toObject()).map(([k, v]) => [k, Number(v)]));
}

const load = async (dir: string) => {
  const v = await validateFolder(dir, { dimension: TEST_DIM, known: (kind, ids) => existingIds(store, kind === 'passage' ? 'Passage' : 'Entity', ids) });
  return loadOnline(store, v.source, { dimension: TEST_DIM, batchSize: 2 });
};

describe('graph-recall import, online', () => {
  it('loads a folder whole, with its vectors, links, curated types and their fact index; a second load changes nothing', async () => {
    const dir = folder();
    const stats = await load(dir);
    expect(stats).toMatchObject({ documents: 2, passages: 3, entities: 4, mentions: 5, relationships: 3, curatedTypes: ['TREATS_CtD'] });
    const expected = { documents: 2, passages: 3, entities: 4, curated: 2, partOf: 3, mentions: 5, related: 2, treats: 1 };
    expect(await counts()).toEqual(expected);
    await load(dir);
    expect(await counts()).toEqual(expected);
    const r = await store.read(
      `MATCH (p:Passage {id: 'p1'})-[m:MENTIONS]->(h:Entity {id: 'headache'}), (a:Entity {id: 'aspirin'})-[t:TREATS_CtD]->(h)
       MATCH (meta:GraphRecallMeta {key: 'graph'})
       RETURN valueType(p.embedding) AS pv, valueType(h.descriptionEmbedding) AS hv, valueType(t.embedding) AS tv, m.method AS method,
              m.confidence AS confidence, meta.curatedTypes AS types, h.descriptionEmbedding[13] > 0.5 AS ownDescription`,
    );
    expect(r.records[0].toObject()).toEqual({
      pv: 'LIST<FLOAT NOT NULL> NOT NULL',
      hv: 'LIST<FLOAT NOT NULL> NOT NULL',
      tv: 'LIST<FLOAT NOT NULL> NOT NULL',
      method: 'exact',
      confidence: 0.9,
      types: ['TREATS_CtD'],
      ownDescription: true,
    });
    const idx = await store.read("SHOW VECTOR INDEXES YIELD name WHERE name = 'fact_TREATS_CtD' RETURN count(*) AS n");
    expect(Number(idx.records[0].get('n'))).toBe(1);
  });

  it('serves the imported graph: a name seed walks the curated edge to the passage that links it', async () => {
    await load(folder());
    await store.read('CALL db.awaitIndexes(300)');
    const retriever = new Retriever(store, { timeoutMs: 60000, allowedRelTypes: ['RELATED', 'SAME_AS', 'TREATS_CtD'], pprGraphName: 'graph_recall_ppr' });
    const res = await retriever.retrieve({ mode: 'gated', question: 'What does Aspirin treat?', questionEmbedding: axis(10) });
    expect(res.seeds.map((s) => s.id)).toContain('aspirin');
    expect(res.entities.map((e) => e.id)).toContain('headache');
    expect(res.passages[0].id).toBe('p1');
  });

  it('refers to rows already in the graph, and writes nothing when a row is bad', async () => {
    await load(folder());
    const more = importFolder({
      entities: [{ id: 'ibuprofen', name: 'Ibuprofen', embedding: axis(30) }],
      mentions: [{ passage: 'p3', entity: 'ibuprofen' }],
      relationships: [{ from: 'ibuprofen', to: 'fever', type: 'TREATS_CtD', embedding: axis(31) }],
    });
    await load(more);
    expect(await counts()).toMatchObject({ entities: 5, mentions: 6, treats: 2 });
    const bad = importFolder({
      entities: [{ id: 'naproxen', name: 'Naproxen', embedding: axis(32) }],
      mentions: [
        { passage: 'p3', entity: 'naproxen' },
        { passage: 'p404', entity: 'naproxen' },
      ],
    });
    await expect(load(bad)).rejects.toThrow(ImportValidationError);
    await expect(load(bad)).rejects.toThrow(/mentions\.jsonl:2: passage: no passage "p404" in passages\.jsonl or the database/);
    expect(await counts()).toMatchObject({ entities: 5, mentions: 6 });
  });
});
