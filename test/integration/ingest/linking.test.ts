// Subject: linking the literature layer into a curated graph, both orders, and deleting a document.
import type { Driver } from 'neo4j-driver';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { createOfflineExtractor } from '../../../server/extractors/offline/index.js';
import type { Extractor } from '../../../server/extractors/types.js';
import { GraphStore } from '../../../server/db/store.js';
import { deleteDocument, ingestCurated, ingestDocuments, type CuratedGraph, type IngestContext, type ReadItem } from '../../../server/ingest/index.js';
import { linkExisting } from '../../../server/ingest/link.js';
import { Retriever } from '../../../server/retrieval/retriever.js';
import { resetGraph, testDriver } from '../../support/db.js';

/**
 * Two layers in one graph: a small curated graph (Hetionet's shape and ids) and abstracts
 * that name its compounds and genes but never the disease. Linking, in both orders, makes
 * each abstract reach the curated entities it names; the walk then crosses from the disease
 * over curated edges into the abstracts. Real local model, offline extractor, real Neo4j.
 */
const CURATED: CuratedGraph = {
  entities: [
    {
      id: 'hetionet:Disease::DOID:10652',
      name: "Alzheimer's disease",
      type: 'Disease',
      description: "Alzheimer's disease: a disease in Hetionet; treated by Memantine; treated by Donepezil",
    },
    { id: 'hetionet:Compound::DB01043', name: 'Memantine', type: 'Compound', description: "Memantine: a compound in Hetionet; treats Alzheimer's disease" },
    { id: 'hetionet:Compound::DB00843', name: 'Donepezil', type: 'Compound', description: "Donepezil: a compound in Hetionet; treats Alzheimer's disease" },
    {
      id: 'hetionet:Compound::DB01076',
      name: 'Atorvastatin',
      type: 'Compound',
      description: 'Atorvastatin: a compound in Hetionet; treats hypercholesterolemia',
    },
    {
      id: 'hetionet:Disease::DOID:13810',
      name: 'hypercholesterolemia',
      type: 'Disease',
      description: 'hypercholesterolemia: a disease in Hetionet; treated by Atorvastatin',
    },
    { id: 'hetionet:Gene::2902', name: 'GRIN1', type: 'Gene', description: 'GRIN1: a gene in Hetionet; glutamate ionotropic receptor NMDA type subunit 1' },
    { id: 'hetionet:Gene::43', name: 'ACHE', type: 'Gene', description: 'ACHE: a gene in Hetionet; acetylcholinesterase' },
    { id: 'hetionet:Gene::3156', name: 'HMGCR', type: 'Gene', description: 'HMGCR: a gene in Hetionet; 3-hydroxy-3-methylglutaryl-CoA reductase' },
    { id: 'hetionet:Gene::6418', name: 'SET', type: 'Gene', description: 'SET: a gene in Hetionet; SET nuclear proto-oncogene, histone chaperone' },
  ],
  edges: [
    { from: 'hetionet:Compound::DB01043', to: 'hetionet:Disease::DOID:10652', type: 'TREATS_CtD', predicate: 'treats' },
    { from: 'hetionet:Compound::DB00843', to: 'hetionet:Disease::DOID:10652', type: 'TREATS_CtD', predicate: 'treats' },
    { from: 'hetionet:Compound::DB01076', to: 'hetionet:Disease::DOID:13810', type: 'TREATS_CtD', predicate: 'treats' },
  ],
  problems: [],
};
const DOCS = [
  {
    id: 'pm-memantine',
    title: 'Receptor binding of an uncompetitive antagonist',
    text: 'Memantine blocks the channel of NMDA receptors at low micromolar concentrations. Binding assays show that memantine binds GRIN1 in cortical membranes.',
  },
  {
    id: 'pm-donepezil',
    title: 'Inhibition kinetics in erythrocyte membranes',
    text: 'Donepezil is a reversible inhibitor of ACHE. The binding of donepezil to ACHE was measured by fluorescence.',
  },
  {
    id: 'pm-atorvastatin',
    title: 'Statin binding at the reductase active site',
    text: 'Atorvastatin occupies the active site of HMGCR. Crystal structures of atorvastatin bound to HMGCR show the binding mode.',
  },
  {
    id: 'pm-sleep',
    title: 'Sleep and the brain',
    text: 'The volunteers set their alarms early. Sleep deprivation for one night changed their mood, and they rested afterwards.',
  },
];
const QUESTION = "Which genes are bound by the compounds that treat Alzheimer's disease?";

async function* items(docs = DOCS): AsyncIterable<ReadItem> {
  for (const d of docs) yield { document: { ...d, source: 'pubmed' } };
}

let driver: Driver;
let store: GraphStore;
let embedder: Embedder;
let extractor: Extractor;
let ctx: IngestContext;

beforeAll(async () => {
  driver = await testDriver();
  store = new GraphStore(driver, 'neo4j');
  embedder = await createLocalEmbedder();
  extractor = await createOfflineExtractor();
  ctx = { store, embedder, extractor, graphName: 'graph_recall_ppr', extraProjectionTypes: ['RELATED', 'SAME_AS'] };
});
beforeEach(async () => resetGraph(driver));
afterAll(async () => {
  await embedder?.close?.();
  await driver?.close();
});

/** Every link: passage id -> curated entity id, with confidence and method. */
async function links(): Promise<{ p: string; e: string; confidence: number; method: string }[]> {
  const r = await store.read(
    `MATCH (p:Passage)-[r:MENTIONS]->(e:Curated)
     RETURN p.documentId AS p, e.id AS e, r.confidence AS confidence, r.method AS method ORDER BY p, e`,
  );
  return r.records.map((x) => ({ p: x.get('p'), e: x.get('e'), confidence: x.get('confidence'), method: x.get('method') }));
}
const pairs = async () => (await links()).map((l) => `${l.p} -> ${l.e.replace(/^hetionet:/, '')}`);

const EXPECTED = [
  'pm-atorvastatin -> Compound::DB01076',
  'pm-atorvastatin -> Gene::3156',
  'pm-donepezil -> Compound::DB00843',
  'pm-donepezil -> Gene::43',
  'pm-memantine -> Compound::DB01043',
  'pm-memantine -> Gene::2902',
];

describe('linking the literature layer into a curated graph', () => {
  test('documents ingested into a graph holding a curated graph are linked as they land', async () => {
    await ingestCurated(ctx, CURATED);
    const summary = await ingestDocuments(ctx, items());
    expect(await pairs()).toEqual(EXPECTED);
    expect(summary.links).toBe(EXPECTED.length);
    // Sentence-initial and mid-sentence names alike, each with a confidence and how it was found.
    for (const l of await links()) {
      expect(l.confidence).toBeGreaterThan(0.5);
      expect(l.confidence).toBeLessThanOrEqual(1);
      expect(l.method).toMatch(/^(exact|variant)(\+(context|kind))?$/);
    }
    // "set their alarms": the gene SET is written in capitals; the word is not it.
    expect((await links()).some((l) => l.e.endsWith('Gene::6418'))).toBe(false);
  });

  test('a curated graph imported after the documents links the passages already there', async () => {
    await ingestDocuments(ctx, items());
    expect(await links()).toEqual([]);
    const summary = await ingestCurated(ctx, CURATED);
    expect(summary.links).toBe(EXPECTED.length);
    expect(await pairs()).toEqual(EXPECTED);
    // Linked already with this dictionary: the command skips them and writes nothing new.
    const again = await linkExisting(store);
    expect(again).toEqual({ passages: 0, links: 0, skipped: 4 });
    expect(await pairs()).toEqual(EXPECTED);
  });

  test('ingesting the same documents again changes no link; deleting one removes its links and nothing curated', async () => {
    await ingestCurated(ctx, CURATED);
    await ingestDocuments(ctx, items());
    const before = await links();
    await ingestDocuments(ctx, items());
    await linkExisting(store, { force: true });
    expect(await links()).toEqual(before);
    expect(await deleteDocument(store, 'pm-memantine')).toBe(true);
    expect((await pairs()).filter((p) => p.startsWith('pm-memantine'))).toEqual([]);
    const curated = await store.read('MATCH (e:Curated) RETURN count(e) AS n');
    expect(Number(curated.records[0].get('n'))).toBe(CURATED.entities.length);
    const edges = await store.read('MATCH (:Curated)-[r:TREATS_CtD]->(:Curated) RETURN count(r) AS n');
    expect(Number(edges.records[0].get('n'))).toBe(3);
  });

  test('gated and ppr cross from the disease over curated edges into the abstracts that never name it', async () => {
    await ingestCurated(ctx, CURATED);
    // A distractor: it names the disease (linked to the seed the question names) and answers nothing.
    const distractor = {
      id: 'pm-burden',
      title: "The burden of Alzheimer's disease",
      text: "Alzheimer's disease is reported more often in women than in men. Awareness campaigns about Alzheimer's disease shortened the time to a first visit.",
    };
    await ingestDocuments(ctx, items([...DOCS, distractor]));
    const retriever = new Retriever(store, {
      timeoutMs: 120000,
      allowedRelTypes: ['RELATED', 'SAME_AS', 'TREATS_CtD'],
      pprGraphName: 'graph_recall_ppr',
    });
    const [questionEmbedding] = await embedder.embed([QUESTION], 'query');
    const gold = ['pm-donepezil', 'pm-memantine'];
    for (const mode of ['gated', 'ppr'] as const) {
      // ppr's passages are PageRank nodes too: the distractor takes mass from the disease the
      // question names through its link, so there the two abstracts are among the first three.
      const topK = mode === 'gated' ? 2 : 3;
      const r = await retriever.retrieve({ mode, question: QUESTION, questionEmbedding, params: { topK } });
      const ids = r.passages.map((p) => p.documentId);
      for (const g of gold) expect(ids).toContain(g);
      if (mode === 'gated') expect(ids.sort()).toEqual(gold);
      // Reached by the walk (a graph score), not only by looking like the question.
      for (const p of r.passages.filter((x) => gold.includes(x.documentId ?? ''))) expect(p.graphScore).toBeGreaterThan(0);
      // The evidence path of each reaches the curated compound the abstract names, from the disease.
      const goldPassages = r.passages.filter((x) => gold.includes(x.documentId ?? '')).map((x) => x.id);
      const passagePaths = r.paths.filter((p) => p.passageId !== null && goldPassages.includes(p.passageId));
      expect(passagePaths).toHaveLength(2);
      for (const p of passagePaths) {
        const ids = p.nodes.map((n) => n.id);
        expect(ids[ids.length - 1]).toMatch(/^hetionet:Compound::/);
        if (ids.length > 1) expect(ids[0]).toBe('hetionet:Disease::DOID:10652');
        // The passage reached the compound through its link, and the path says how.
        expect(p.link).toMatchObject({ method: 'exact', confidence: 0.95 });
      }
    }
  });

  test('the full-text candidates leave out the names of the curated entities the question names, and a question anchored on them alone searches none', async () => {
    await ingestCurated(ctx, CURATED);
    // It shares no word with the questions but "disease", and names no curated entity.
    const registry = { id: 'pm-registry', title: 'Registries', text: 'Disease registries grow yearly across many clinics.' };
    // Only the full-text index finds it, by its name.
    const trials = { id: 'pm-trials', title: 'Notebooks', text: 'Notebooks were kept on all trials.' };
    await ingestDocuments(ctx, items([...DOCS, registry, trials]));
    const retriever = new Retriever(store, { timeoutMs: 120000, allowedRelTypes: ['RELATED', 'SAME_AS', 'TREATS_CtD'], pprGraphName: 'graph_recall_ppr' });
    const ask = async (mode: 'gated' | 'ppr', question: string) => {
      const [questionEmbedding] = await embedder.embed([question], 'query');
      const r = await retriever.retrieve({ mode, question, questionEmbedding, params: { vectorK: 0, topK: 20 } });
      return r.passages.map((p) => p.documentId);
    };
    for (const mode of ['gated', 'ppr'] as const) {
      // "disease" outside a curated name is a word like any other: the full-text index finds the registry by it.
      const plain = await ask(mode, 'Which genes are bound by the compounds that treat any disease in trials?');
      expect(plain).toContain('pm-registry');
      expect(plain).toContain('pm-trials');
      // Inside "Alzheimer's disease", named and resolved in the graph, it is not searched as words; with another name
      // left in the question (Trials, no entity) the index is searched for the rest.
      const mixed = await ask(mode, "Which genes are bound by the compounds that treat Alzheimer's disease in Trials?");
      expect(mixed).not.toContain('pm-registry');
      expect(mixed).toContain('pm-trials');
      // Anchored on the curated disease alone, the question's other words (its relation and answer type) search nothing.
      const named = await ask(mode, "Which genes are bound by the compounds that treat Alzheimer's disease in trials?");
      expect(named).not.toContain('pm-trials');
      expect(named).toEqual(expect.arrayContaining(['pm-donepezil', 'pm-memantine']));
    }
  });

  test('a name that a curated entity holds seeds that entity alone, not the extracted entity of the same name', async () => {
    await ingestCurated(ctx, CURATED);
    const burden = { id: 'pm-burden', title: 'Hypercholesterolemia', text: 'It is reported more often in women than in men.' };
    await ingestDocuments(ctx, items([...DOCS, burden]));
    // The extractor takes the title as a name: an entity of the literature layer with the curated disease's name.
    const extracted = await store.read("MATCH (e:Entity) WHERE toLower(e.name) = 'hypercholesterolemia' AND NOT e:Curated RETURN e.id AS id");
    expect(extracted.records).toHaveLength(1);
    const retriever = new Retriever(store, { timeoutMs: 120000, allowedRelTypes: ['RELATED', 'SAME_AS', 'TREATS_CtD'], pprGraphName: 'graph_recall_ppr' });
    const question = 'which genes are bound by the compounds that treat hypercholesterolemia?';
    const [questionEmbedding] = await embedder.embed([question], 'query');
    for (const mode of ['gated', 'ppr'] as const) {
      const r = await retriever.retrieve({ mode, question, questionEmbedding });
      expect(r.seeds.filter((s) => s.sources.includes('name')).map((s) => s.id)).toEqual(['hetionet:Disease::DOID:13810']);
    }
  });
});
