// Subject: the source / document / metadata filter in every mode, and GET /v1/sources.
import type { Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { migrate } from '../../../server/db/migrate.js';
import { GraphStore } from '../../../server/db/store.js';
import type { RetrievalResult } from '../../../server/retrieval/results.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { manageProjection } from '../../../server/db/projection.js';
import type { Mode } from '../../../server/retrieval/params.js';
import { resetGraph, rng, testDriver, TEST_DIM } from '../../support/db.js';
import { bridgeFixture, loadGraph, withCosine } from '../../support/fixtures.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

/**
 * The source and metadata filter ($filter in every statement): on the bridge fixture, whose twelve
 * passages are given to three sources with metadata, no passage outside the filter is ever a
 * result, in the context or the source of a fact; values of a field are alternatives, fields
 * combine with AND; a filter that matches nothing is an empty 200; a filter of the wrong shape a
 * 400 naming the field. Documents posted to the API store metadata as one property per key, and
 * migration 007 converts the old JSON string.
 */
const f = bridgeFixture();
const embedder = createHashEmbedder(TEST_DIM);
const API_KEY = 'filter-test-key';

type Meta = Record<string, string | number | boolean>;
const DOCS: Record<string, { source: string; metadata: Meta }> = {};
const give = (ids: string[], source: string, metadata: Meta) => {
  for (const id of ids) DOCS[`doc-${id}`] = { source, metadata };
};
give(['p-ada', 'p-answer'], 'pubmed', { year: 2020, peer: true, lang: 'en' });
give(['p-d1', 'p-d2', 'p-d3', 'p-d4'], 'upload', { year: 2021, lang: 'en' });
give(['p-n1', 'p-n2', 'p-n3', 'p-n4', 'p-n5', 'p-n6'], 'web', { year: 2020, lang: 'de' });
const TEXT = new Map(f.graph.passages.map((p) => [`doc-${p.id}`, p.text]));
/** The facts each passage supports (fixture relations carry their passage). */
const FACT_PASSAGE = new Map(f.graph.relations.map((r) => [r.predicate!, `doc-${r.passageId}`]));

interface Filter {
  sources?: string[];
  documentIds?: string[];
  metadata?: Meta;
}
function matches(docId: string, filter: Filter): boolean {
  const d = DOCS[docId];
  if (filter.sources && !filter.sources.includes(d.source)) return false;
  if (filter.documentIds && !filter.documentIds.includes(docId)) return false;
  for (const [k, v] of Object.entries(filter.metadata ?? {})) if (d.metadata[k] !== v) return false;
  return true;
}

let driver: Driver;
let store: GraphStore;
let retriever: Retriever;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, f.graph);
  // The stored form writes.ts gives: Document.source, one `metadata.<key>` property per key, metadataKeys.
  const s = driver.session();
  try {
    await s.run(
      `UNWIND $docs AS d MATCH (x:Document {id: d.id})
       SET x.source = d.source, x += apoc.map.fromPairs([k IN keys(d.metadata) | ['metadata.' + k, d.metadata[k]]]), x.metadataKeys = keys(d.metadata)`,
      { docs: Object.entries(DOCS).map(([id, d]) => ({ id, ...d })) },
    );
  } finally {
    await s.close();
  }
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
  store = new GraphStore(driver, 'neo4j');
  retriever = new Retriever(store, { timeoutMs: 60000, allowedRelTypes: ['RELATED', 'SAME_AS'], pprGraphName: 'graph_recall_ppr' });
  srv = await startServer({ embedder, config: { apiKey: API_KEY } });
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

const MODES: [string, Mode, Record<string, unknown>][] = [
  ['vector', 'vector', {}],
  ['hybrid', 'hybrid', {}],
  ['gated', 'gated', {}],
  ['ppr (push)', 'ppr', { engine: 'push' }],
  // Passage seeds on, so the dense side of ppr is filtered too.
  ['ppr (gds)', 'ppr', { engine: 'gds', passageSeedWeight: 0.05 }],
];
const QUESTION = 'Who designed the Analytical Engine with Ada Lovelace?';
const run = (mode: Mode, params: Record<string, unknown>, filter?: Filter | null) =>
  retriever.retrieve({ mode, question: QUESTION, questionEmbedding: f.question, params: filter === undefined ? params : { ...params, filter } });

/** No passage outside the filter in the passages, the context or the facts read from passages. */
function expectInside(r: RetrievalResult, filter: Filter): void {
  for (const p of r.passages) expect({ passage: p.id, inFilter: matches(p.documentId!, filter) }).toEqual({ passage: p.id, inFilter: true });
  for (const [docId, text] of TEXT) if (!matches(docId, filter)) expect(r.context).not.toContain(text);
  for (const x of r.facts) {
    const from = FACT_PASSAGE.get(x.predicate);
    if (from) expect({ fact: x.text, inFilter: matches(from, filter) }).toEqual({ fact: x.text, inFilter: true });
  }
}
const sourcesOf = (r: RetrievalResult) => [...new Set(r.passages.map((p) => DOCS[p.documentId!].source))].sort();

describe.each(MODES)('%s', (_name, mode, params) => {
  test('without a filter, passages of several sources come back (so the filters below can fail)', async () => {
    const r = await run(mode, params);
    expect(sourcesOf(r).length).toBeGreaterThan(1);
  });

  test('null and {} are no filter: the same passages and scores as none', async () => {
    const none = await run(mode, params);
    for (const filter of [null, {}]) {
      const r = await run(mode, params, filter as Filter);
      expect(r.passages).toEqual(none.passages);
      expect(r.context).toEqual(none.context);
      expect(r.facts).toEqual(none.facts);
    }
  });

  test.each<[string, Filter, string[]]>([
    ['one source', { sources: ['pubmed'] }, ['pubmed']],
    ['another source', { sources: ['upload'] }, ['upload']],
    ['two sources are alternatives', { sources: ['pubmed', 'upload'] }, ['pubmed', 'upload']],
    ['source AND metadata', { sources: ['pubmed', 'web'], metadata: { lang: 'de' } }, ['web']],
    ['two metadata keys AND', { metadata: { year: 2020, lang: 'en' } }, ['pubmed']],
    ['a boolean', { metadata: { peer: true } }, ['pubmed']],
    ['a number', { metadata: { year: 2021 } }, ['upload']],
    ['document ids', { documentIds: ['doc-p-answer', 'doc-p-d1'] }, ['pubmed', 'upload']],
    ['document ids AND source', { documentIds: ['doc-p-answer', 'doc-p-d1'], sources: ['upload'] }, ['upload']],
  ])('%s', async (_what, filter, sources) => {
    const r = await run(mode, params, filter);
    expectInside(r, filter);
    expect(sourcesOf(r)).toEqual(sources);
  });

  test('a fact read from a passage outside the filter is left out; facts of passages inside stay', async () => {
    const all = await run(mode, params);
    const pubmedFacts = all.facts.filter((x) => ['worked with', 'designed'].includes(x.predicate));
    const upload = await run(mode, params, { sources: ['upload'] });
    expect(upload.facts.filter((x) => ['worked with', 'designed'].includes(x.predicate))).toEqual([]);
    if (mode === 'gated' || mode === 'ppr') {
      // The walk from Ada Lovelace reads both facts of the pubmed passages.
      expect(pubmedFacts.length).toBeGreaterThan(0);
      const pubmed = await run(mode, params, { sources: ['pubmed'] });
      expect(pubmed.facts.map((x) => x.predicate)).toEqual(expect.arrayContaining(pubmedFacts.map((x) => x.predicate)));
    }
  });

  test.each<[string, Filter]>([
    ['an unknown source', { sources: ['nowhere'] }],
    ['an unknown document', { documentIds: ['doc-none'] }],
    ['an unknown metadata key', { metadata: { colour: 'red' } }],
    ['a value of another type', { metadata: { year: '2020' } }],
    ['fields that exclude each other', { sources: ['pubmed'], metadata: { lang: 'de' } }],
  ])('%s: an empty result', async (_what, filter) => {
    const r = await run(mode, params, filter);
    expect(r.passages).toEqual([]);
    expect(r.facts).toEqual([]);
    expect(r.entities).toEqual([]);
    expect(r.paths).toEqual([]);
    expect(r.context).toBe('');
  });
});

describe('HTTP', () => {
  const headers = { 'x-api-key': API_KEY };

  test('POST /v1/retrieve, /v1/answer and /v1/compare take the filter', async () => {
    const filter = { sources: ['upload'] };
    const r = await postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'gated', filter });
    expect(r.status).toBe(200);
    expect(r.body.passages.length).toBeGreaterThan(0);
    expect(r.body.params.filter).toEqual(filter);
    for (const p of r.body.passages) expect(DOCS[p.documentId].source).toBe('upload');

    const a = await postJson(`${srv.url}/v1/answer`, { question: QUESTION, mode: 'vector', filter });
    expect(a.status).toBe(200);
    expect(a.body.passages.length).toBeGreaterThan(0);
    for (const p of a.body.passages) expect(DOCS[p.documentId].source).toBe('upload');

    const c = await postJson(`${srv.url}/v1/compare`, { questionEmbedding: f.question, modes: ['vector', 'hybrid', 'gated', 'ppr'], filter });
    expect(c.status).toBe(200);
    for (const m of ['vector', 'hybrid', 'gated', 'ppr']) {
      expect(c.body.results[m].passages.length).toBeGreaterThan(0);
      for (const p of c.body.results[m].passages) expect(DOCS[p.documentId].source).toBe('upload');
    }

    const none = await postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'hybrid', filter: { metadata: { colour: 'red' } } });
    expect(none.status).toBe(200);
    expect(none.body.passages).toEqual([]);
    expect(none.body.context).toBe('');
  });

  test.each<[string, string, unknown, string, RegExp]>([
    ['an empty sources list', '/v1/retrieve', { filter: { sources: [] } }, 'filter.sources', /must not be empty/],
    ['an empty documentIds list', '/v1/retrieve', { filter: { documentIds: [] } }, 'filter.documentIds', /must not be empty/],
    ['sources as a string', '/v1/retrieve', { filter: { sources: 'pubmed' } }, 'filter.sources', /Expected array/],
    ['a source that is not a string', '/v1/retrieve', { filter: { sources: [7] } }, 'filter.sources.0', /Expected string/],
    [
      'a metadata value that is an object',
      '/v1/retrieve',
      { filter: { metadata: { year: { gt: 2000 } } } },
      'filter.metadata.year',
      /string, a number or a boolean/,
    ],
    [
      'a metadata value that is a list',
      '/v1/answer',
      { filter: { metadata: { year: [2020, 2021] } } },
      'filter.metadata.year',
      /string, a number or a boolean/,
    ],
    ['an empty metadata map', '/v1/retrieve', { filter: { metadata: {} } }, 'filter.metadata', /must not be empty/],
    ['an unknown field', '/v1/compare', { filter: { source: ['pubmed'] } }, 'filter.source', /unknown field/],
    ['a filter that is not an object', '/v1/retrieve', { filter: 'pubmed' }, 'filter', /Expected object/],
    ['the filter twice', '/v1/retrieve', { filter: { sources: ['a'] }, params: { filter: { sources: ['b'] } } }, 'params.filter', /given twice/],
    ['a bad params.filter', '/v1/retrieve', { params: { filter: { sources: [] } } }, 'params.filter.sources', /must not be empty/],
  ])('%s is a 400 naming the field', async (_what, endpoint, body, field, message) => {
    const r = await postJson(`${srv.url}${endpoint}`, { question: QUESTION, ...(body as object) });
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.message).toMatch(message);
  });

  test.each<[string, unknown, string, RegExp]>([
    ['a nested metadata value', { metadata: { foo: { bar: 1 } } }, 'documents.0.metadata.foo', /string, a number or a boolean/],
    ['a metadata list', { metadata: { tags: ['a', 'b'] } }, 'documents.0.metadata.tags', /string, a number or a boolean/],
    ['a null metadata value', { metadata: { foo: null } }, 'documents.0.metadata.foo', /string, a number or a boolean/],
    ['a source that is a number', { source: 5 }, 'documents.0.source', /must be a string/],
    ['an empty source', { source: '  ' }, 'documents.0.source', /must not be empty/],
  ])('POST /v1/documents: %s is a 400 naming the field', async (_what, extra, field, message) => {
    const r = await postJson(`${srv.url}/v1/documents`, { documents: [{ title: 'T', text: 'Some text.', ...(extra as object) }] }, headers);
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.message).toMatch(message);
  });

  test('GET /v1/sources counts the documents of each source; posted documents carry their source and metadata', async () => {
    const before = await fetch(`${srv.url}/v1/sources`).then((r) => r.json());
    expect(before).toEqual({
      sources: [
        { source: 'web', documents: 6 },
        { source: 'upload', documents: 4 },
        { source: 'pubmed', documents: 2 },
      ],
    });
    const posted = await postJson(
      `${srv.url}/v1/documents`,
      {
        documents: [
          {
            id: 'api-1',
            title: 'Quillon river',
            text: 'The Quillon river floods every spring.',
            source: 'journal',
            metadata: { year: 1999, open: false, kind: 'note' },
          },
          { id: 'api-2', title: 'Quillon bridge', text: 'A bridge crosses the Quillon at Zanzibarovia.' },
        ],
      },
      headers,
    );
    expect(posted.status).toBe(201);
    const after = await fetch(`${srv.url}/v1/sources`).then((r) => r.json());
    expect(after.sources).toEqual(
      expect.arrayContaining([
        { source: 'journal', documents: 1 },
        { source: 'api', documents: 1 },
        { source: 'web', documents: 6 },
      ]),
    );
    expect(after.sources).toHaveLength(5);

    const stored = await store.read(
      "MATCH (d:Document) WHERE d.id IN ['api-1', 'api-2'] RETURN d.id AS id, d.source AS source, properties(d) AS props ORDER BY id",
    );
    const [one, two] = stored.records.map((r) => r.toObject());
    expect(one.source).toBe('journal');
    expect(one.props['metadata.year']).toBe(1999);
    expect(one.props['metadata.open']).toBe(false);
    expect(one.props['metadata.kind']).toBe('note');
    expect([...one.props.metadataKeys].sort()).toEqual(['kind', 'open', 'year']);
    expect(one.props.metadata).toBeUndefined();
    expect(two.source).toBe('api');
    expect(two.props.metadataKeys).toBeUndefined();

    // Posted again with other metadata: the keys it no longer has are gone.
    const again = await postJson(
      `${srv.url}/v1/documents`,
      { documents: [{ id: 'api-1', title: 'Quillon river', text: 'The Quillon river floods every spring.', source: 'journal', metadata: { year: 2000 } }] },
      headers,
    );
    expect(again.status).toBe(201);
    const replaced = await store.read("MATCH (d:Document {id: 'api-1'}) RETURN properties(d) AS props");
    const props = replaced.records[0].get('props');
    expect(props['metadata.year']).toBe(2000);
    expect(props['metadata.kind']).toBeUndefined();
    expect(props.metadataKeys).toEqual(['year']);

    // The posted document is found by its metadata, and only it.
    const r = await postJson(`${srv.url}/v1/retrieve`, { question: 'Quillon river floods', mode: 'vector', filter: { metadata: { year: 2000 } } });
    expect(r.status).toBe(200);
    expect(r.body.passages.map((p: { documentId: string }) => p.documentId)).toEqual(['api-1']);
    const old = await postJson(`${srv.url}/v1/retrieve`, { question: 'Quillon river floods', mode: 'vector', filter: { metadata: { year: 1999 } } });
    expect(old.body.passages).toEqual([]);
  });

  test('the page has a source selector filled from GET /v1/sources, sent as filter.sources', async () => {
    // No browser here (test/integration/http/page.test.ts drives the page in Chromium): what the page is served.
    const html = await fetch(srv.url).then((r) => r.text());
    expect(html).toMatch(/<select id="source"[^>]*>\s*<option value="">All sources<\/option>/);
    const js = await fetch(`${srv.url}/page.js`).then((r) => r.text());
    // readFetch: fetch with the read key when the server asks for one (server/public/keys.js).
    expect(js).toContain("readFetch('/v1/sources')");
    expect(js).toContain('filter: { sources: [source] }');
  });

  test('GET /v1/sources is in the OpenAPI document', async () => {
    const doc = await fetch(`${srv.url}/v1/openapi.json`).then((r) => r.json());
    expect(doc.paths['/v1/sources'].get).toBeDefined();
    expect(JSON.stringify(doc.paths['/v1/retrieve'].post)).toContain('documentIds');
  });
});

test('a filter searches the vector index wider: a passage far below the unfiltered top 50 is found', async () => {
  const rand = rng(3);
  const s = driver.session();
  try {
    // 80 passages of one source that look like the question, one of another that looks little like it.
    await s.run(
      `UNWIND $rows AS r
       CREATE (d:Document {id: 'doc-' + r.id, source: r.source})
       CREATE (:Passage {id: r.id, documentId: 'doc-' + r.id, title: r.id, text: 'bulk text ' + r.id, embedding: r.embedding})-[:PART_OF]->(d)`,
      {
        rows: [
          ...Array.from({ length: 80 }, (_, i) => ({ id: `bulk${i}`, source: 'bulk', embedding: withCosine(f.question, 0.7 - i * 0.001, rand) })),
          { id: 'rare', source: 'rare', embedding: withCosine(f.question, -0.2, rand) },
        ],
      },
    );
  } finally {
    await s.close();
  }
  const plain = await retriever.retrieve({ mode: 'vector', questionEmbedding: f.question, params: { topK: 50 } });
  expect(plain.passages.map((p) => p.id)).not.toContain('rare');
  for (const mode of ['vector', 'hybrid', 'gated', 'ppr'] as Mode[]) {
    const r = await retriever.retrieve({ mode, questionEmbedding: f.question, params: { filter: { sources: ['rare'] } } });
    expect({ mode, passages: r.passages.map((p) => p.id) }).toEqual({ mode, passages: ['rare'] });
  }
  // Narrower than the passages above it (filterSearchK and the unfiltered searchWidth both 50): not found (the documented limitation).
  const narrow = await retriever.retrieve({
    mode: 'vector',
    questionEmbedding: f.question,
    params: { filter: { sources: ['rare'] }, filterSearchK: 50, searchWidth: 50 },
  });
  expect(narrow.passages).toEqual([]);
});

test('migration 007 turns the JSON-string metadata of an older graph into one property per key', async () => {
  const s = driver.session();
  try {
    await s.run(
      `CREATE (:Document {id: 'old-1', source: 'old', metadata: $json})
       CREATE (:Document {id: 'old-2', source: 'old'})`,
      { json: JSON.stringify({ year: 2019, peer: true, journal: 'Nature', score: 1.5, tags: ['a', 'b'], nested: { x: 1 }, gone: null }) },
    );
    // As if the graph predated the migration.
    await s.run('MATCH (m:GraphRecallMigration {version: 7}) DELETE m');
  } finally {
    await s.close();
  }
  const result = await migrate(store, { dimension: TEST_DIM });
  expect(result.applied).toEqual(['007_document_metadata_properties.cypher']);
  const res = await store.read("MATCH (d:Document) WHERE d.id IN ['old-1', 'old-2'] RETURN d.id AS id, properties(d) AS props ORDER BY id");
  const [one, two] = res.records.map((r) => r.get('props'));
  expect(one.metadata).toBeUndefined();
  expect(Number(one['metadata.year'])).toBe(2019);
  expect(one['metadata.peer']).toBe(true);
  expect(one['metadata.journal']).toBe('Nature');
  expect(one['metadata.score']).toBe(1.5);
  expect(JSON.parse(one['metadata.tags'])).toEqual(['a', 'b']);
  expect(JSON.parse(one['metadata.nested'])).toEqual({ x: 1 });
  expect(one['metadata.gone']).toBeUndefined();
  expect([...one.metadataKeys].sort()).toEqual(['journal', 'nested', 'peer', 'score', 'tags', 'year']);
  expect(two).toEqual({ id: 'old-2', source: 'old' });
  // A migrated graph's documents are filtered like new ones.
  const counts = await store.read(
    `MATCH (d:Document {source: 'old'})
     RETURN count(CASE WHEN d['metadata.year'] = 2019 AND d['metadata.peer'] = true THEN 1 END) AS hits`,
  );
  expect(Number(counts.records[0].get('hits'))).toBe(1);
});
