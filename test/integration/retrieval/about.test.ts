// Subject: the passage about an entity: titled by its name, it outranks the passages that only mention it.
import type { Driver } from 'neo4j-driver';
import { rng } from '../../../bench/lib/random.js';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import type { Mode } from '../../../server/retrieval/params.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { type FixtureGraph, entityMaker, withCosine, loadFixtureGraph, fixtureRetriever } from '../../support/fixtures.js';

/**
 * "Which film has the director born later, The Gamecock or ...?" The walk reaches the director from the film the
 * question names. Three passages mention him: his own page (its title is his name and a parenthesis) and two of his
 * other films. By the graph they score alike (one entity each), and the text prefers the other films (they look like
 * the question: films); the director's own page holds his birth date. aboutWeight scores the entity's own page
 * 1 + aboutWeight times, so it comes first; at 0 the text decides.
 *
 *   The Gamecock -directed by-> Jack Arnold
 *   p:jack   "Jack Arnold (director)"  -> Jack Arnold
 *   p:film1  "Monster on the Campus"   -> Jack Arnold
 *   p:film2  "Tarantula"               -> Jack Arnold
 */
const rand = rng(41);
const q = randomUnit(rand, TEST_DIM);
const ent = entityMaker(q, rand);
const graph: FixtureGraph = {
  entities: [ent('w:game', 'The Gamecock', 'Work'), ent('p:arnold', 'Jack Arnold', 'Person')],
  passages: [
    {
      id: 'p:game',
      title: 'The Gamecock (film)',
      text: 'The Gamecock is a film directed by Jack Arnold.',
      embedding: withCosine(q, 0.6, rand),
      mentions: ['w:game', 'p:arnold'],
    },
    {
      id: 'p:jack',
      title: 'Jack Arnold (director)',
      text: 'Jack Arnold (born 1916) was a director.',
      embedding: withCosine(q, 0.2, rand),
      mentions: ['p:arnold'],
    },
    {
      id: 'p:film1',
      title: 'Monster on the Campus',
      text: 'Monster on the Campus is a film by Jack Arnold.',
      embedding: withCosine(q, 0.4, rand),
      mentions: ['p:arnold'],
    },
    { id: 'p:film2', title: 'Tarantula', text: 'Tarantula is a film by Jack Arnold.', embedding: withCosine(q, 0.35, rand), mentions: ['p:arnold'] },
  ],
  relations: [{ from: 'w:game', to: 'p:arnold', type: 'RELATED', predicate: 'directed by', embedding: withCosine(q, 0.5, rand) }],
};
const TYPES = ['RELATED', 'SAME_AS'];
const question = 'Which film has the director born later, The Gamecock or another?';

let driver: Driver;
let retriever: Retriever;
beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph, TYPES);
  retriever = fixtureRetriever(driver, TYPES);
});
afterAll(() => driver.close());

const ask = (mode: Mode, params: Record<string, unknown> = {}) => retriever.retrieve({ mode, question, questionEmbedding: q, params });
const mentioning = (r: { passages: { id: string }[] }) => r.passages.map((p) => p.id).filter((id) => id !== 'p:game');

describe.each(['gated', 'ppr'] as Mode[])('%s', (mode) => {
  test("the director's own page (its title his name and a parenthesis) ranks above his other films", async () => {
    const r = await ask(mode);
    expect(mentioning(r)).toEqual(['p:jack', 'p:film1', 'p:film2']);
    const score = (id: string) => r.passages.find((p) => p.id === id)?.graphScore ?? Number.NaN;
    // gated: scored 1 + aboutWeight (2) times what each other film gets from him; ppr adds each passage's own PageRank.
    if (mode === 'gated') expect(score('p:jack')).toBeCloseTo(3 * score('p:film1'), 5);
    else expect(score('p:jack')).toBeGreaterThan(2 * score('p:film1'));
  });

  test('aboutWeight 0: the three score alike by the graph and the text decides', async () => {
    const r = await ask(mode, { aboutWeight: 0 });
    expect(mentioning(r)).toEqual(['p:film1', 'p:film2', 'p:jack']);
    const score = (id: string) => r.passages.find((p) => p.id === id)?.graphScore ?? Number.NaN;
    expect(score('p:jack')).toBeCloseTo(score('p:film1'), 6);
  });
});
