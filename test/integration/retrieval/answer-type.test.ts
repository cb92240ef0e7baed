// Subject: the answer type: passages linked to curated entities of the type the question asks for.
import type { Driver } from 'neo4j-driver';
import { rng } from '../../../bench/lib/random.js';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import type { Mode } from '../../../server/retrieval/params.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { type FixtureGraph, entityMaker, withCosine, loadFixtureGraph, fixtureRetriever } from '../../support/fixtures.js';

/**
 * Two passages about one compound the walk reaches from the disease the question names, each linked
 * to the curated entities it states: one to a gene it binds, one to a side effect it causes. Their
 * graph scores are the same (the compound), and the text prefers the binding passage. A question
 * that asks for side effects ("which side effects") gets the side-effect passage first; one that
 * asks for genes, the binding passage; with answerTypeWeight 0 the text decides both.
 *
 *   Vemurafenib -TREATS_CtD-> Melanoma
 *   p:bind "Vemurafenib binds BRAF."      -> Vemurafenib, BRAF (Gene)
 *   p:rash "Vemurafenib causes rash."     -> Vemurafenib, Rash (Side Effect)
 *   p:other "Skin biopsies ..."           (nearest the question, no curated entity)
 */
const rand = rng(31);
const q = randomUnit(rand, TEST_DIM);
const ent = entityMaker(q, rand);
const graph: FixtureGraph = {
  entities: [ent('d:mel', 'Melanoma', 'Disease'), ent('c:vem', 'Vemurafenib', 'Compound'), ent('g:braf', 'BRAF', 'Gene'), ent('s:rash', 'Rash', 'Side Effect')],
  passages: [
    { id: 'p:bind', title: 'Vemurafenib binding', text: 'Vemurafenib binds BRAF.', embedding: withCosine(q, 0.5, rand), mentions: ['c:vem', 'g:braf'] },
    { id: 'p:rash', title: 'Vemurafenib safety', text: 'Vemurafenib causes rash.', embedding: withCosine(q, 0.45, rand), mentions: ['c:vem', 's:rash'] },
    { id: 'p:other', title: 'Skin biopsies', text: 'Skin biopsies are read by pathologists.', embedding: withCosine(q, 0.55, rand), mentions: [] },
  ],
  relations: [{ from: 'c:vem', to: 'd:mel', type: 'TREATS_CtD', predicate: 'treats', embedding: withCosine(q, 0.8, rand) }],
};
const TYPES = ['TREATS_CtD'];

let driver: Driver;
let retriever: Retriever;
const ask = (mode: Mode, question: string, params: Record<string, unknown> = {}) =>
  retriever.retrieve({ mode, question, questionEmbedding: q, params: { relTypes: TYPES, ...params } });
const order = (r: { passages: { id: string }[] }) => r.passages.map((p) => p.id).filter((id) => id !== 'p:other');

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph, TYPES);
  await driver.executeQuery("MATCH (e:Entity) SET e:Curated WITH e MATCH (e)<-[m:MENTIONS]-(:Passage) SET m.method = 'exact', m.confidence = 1.0");
  retriever = fixtureRetriever(driver, TYPES);
});
afterAll(async () => {
  await driver.close();
});

describe.each(['gated', 'ppr'] as Mode[])('%s', (mode) => {
  test('a question that asks for side effects gets the passage linked to a side effect first', async () => {
    const r = await ask(mode, 'Which side effects do the drugs that treat Melanoma cause?');
    expect(order(r)).toEqual(['p:rash', 'p:bind']);
    expect(r.passages.find((p) => p.id === 'p:rash')!.graphScore).toBeCloseTo(1, 6);
  });

  test('one that asks for genes, the passage linked to a gene', async () => {
    expect(order(await ask(mode, 'Which genes do the drugs that treat Melanoma bind?'))).toEqual(['p:bind', 'p:rash']);
  });

  test('answerTypeWeight 0: the text decides, whatever the question asks for', async () => {
    const r = await ask(mode, 'Which side effects do the drugs that treat Melanoma cause?', { answerTypeWeight: 0 });
    expect(order(r)).toEqual(['p:bind', 'p:rash']);
    const score = (id: string) => r.passages.find((p) => p.id === id)?.graphScore ?? Number.NaN;
    expect(score('p:rash')).toBeCloseTo(score('p:bind'), 6);
  });
});
