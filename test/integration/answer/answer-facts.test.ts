// Subject: answers over a knowledge graph, with the real embedder and the gate on.
import type { Driver } from 'neo4j-driver';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { describeForEmbedding } from '../../../server/ingest/resolution.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { loadGraph, type FixtureGraph } from '../../support/fixtures.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

/**
 * /v1/answer on a knowledge graph without passages (a DBA's own graph, Hetionet):
 * the offline answer lists the entities the question asks for, each with the
 * facts that support it, from the facts the statement returned.
 */
let embedder: Embedder;
const TYPES = ['RELATED', 'SAME_AS', 'TREATS_CtD', 'ASSOCIATES_DaG', 'PRESENTS_DpS'];
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  // The real neural embedder: the gate reads these description vectors against the question's.
  embedder = await createLocalEmbedder();
  const entities = [
    ['d:alz', "Alzheimer's disease", 'Disease'],
    ['c:riva', 'Rivastigmine', 'Compound'],
    ['c:done', 'Donepezil', 'Compound'],
    ['g:apoe', 'APOE', 'Gene'],
    ['s:mem', 'Memory loss', 'Symptom'],
    ['d:head', 'Headache', 'Disease'],
    ['c:asp', 'Aspirin', 'Compound'],
  ];
  // Names for the seeds' index; descriptions "name: type", a short form of what the Hetionet import
  // writes ("Donepezil: a Compound in Hetionet; treats ...").
  const vectors = await embedder.embed(
    entities.map(([, name]) => name),
    'document',
  );
  const descriptions = await embedder.embed(
    entities.map(([, name, type]) => describeForEmbedding({ name, description: type })),
    'document',
  );
  const graph: FixtureGraph = {
    entities: entities.map(([id, name, type], i) => ({ id, name, type, embedding: vectors[i], descriptionEmbedding: descriptions[i] })),
    passages: [],
    relations: [
      { from: 'c:riva', to: 'd:alz', type: 'TREATS_CtD', predicate: 'treats' },
      { from: 'c:done', to: 'd:alz', type: 'TREATS_CtD', predicate: 'treats' },
      { from: 'd:alz', to: 'g:apoe', type: 'ASSOCIATES_DaG', predicate: 'associates' },
      { from: 'd:alz', to: 's:mem', type: 'PRESENTS_DpS', predicate: 'presents' },
      { from: 'c:asp', to: 'd:head', type: 'TREATS_CtD', predicate: 'treats' },
    ],
  };
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, graph);
  srv = await startServer({ embedder, config: { traverseTypes: TYPES } });
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
  await embedder?.close?.();
});

test('offline: the compounds the question asks for, each with its supporting fact, and no passage cited', async () => {
  const r = await postJson(`${srv.url}/v1/answer`, { question: "Which compounds treat Alzheimer's disease?", mode: 'gated' });
  expect(r.status).toBe(200);
  expect(r.body.passages).toEqual([]);
  expect(r.body.facts.map((f: { text: string }) => f.text)).toEqual(expect.arrayContaining(["Rivastigmine treats Alzheimer's disease"]));
  expect(r.body.answer).toMatch(/^Compounds linked: /);
  expect(r.body.answer).toContain("Rivastigmine (Rivastigmine treats Alzheimer's disease)");
  expect(r.body.answer).toContain("Donepezil (Donepezil treats Alzheimer's disease)");
  expect(r.body.answer).not.toMatch(/Aspirin|Memory loss|APOE/);
  expect(r.body.citations).toEqual([]);
});

test('offline: the symptoms, when the question asks for them', async () => {
  const r = await postJson(`${srv.url}/v1/answer`, { question: "What symptoms does Alzheimer's disease present?", mode: 'gated' });
  expect(r.status).toBe(200);
  expect(r.body.answer).toBe("Symptoms linked: Memory loss (Alzheimer's disease presents Memory loss).");
});
