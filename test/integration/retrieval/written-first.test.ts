// Subject: the fact seeds' turn order, writtenFirst (cypher/partials/seeds.cypher, docs/statements.md#fact-seeds).
import type { Driver } from 'neo4j-driver';
import { rng } from '../../../bench/lib/random.js';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import { defaultParams } from '../../../server/retrieval/params.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { defaultSeeds } from '../../support/reference.js';
import { entityMaker, factMaker, fixtureRetriever, loadFixtureGraph, referenceGraph, type FixtureGraph } from '../../support/fixtures.js';

/**
 * A named entity's facts embed mostly its names, so the fact the question asks for can have the lower cosine: for "the
 * director" of The Gamecock, "based on the play Neurotandem" scores above "directed by Pasquale Festa Campanile", by
 * more than factWordBonus. writtenFirst puts the written fact first in the film's turns; its activation stays its cosine
 * plus the bonus.
 *
 *   The Gamecock -play-> Neurotandem (0.6), -direct_by-> Pasquale Festa Campanile (0.35), -mentions-> Italy (0.55)
 *   Monster a Go-Go -direct_by-> Bill Rebane (0.3), -mentions-> Comedy Central (0.5)
 */
const rand = rng(43);
const q = randomUnit(rand, TEST_DIM);
const ent = entityMaker(q, rand, 0.2);
const fact = factMaker(q, rand);
const graph: FixtureGraph = {
  entities: [
    ent('w:gamecock', 'The Gamecock', 'Work'),
    ent('w:neurotandem', 'Neurotandem', 'Work'),
    ent('p:pasquale', 'Pasquale Festa Campanile', 'Person'),
    ent('l:italy', 'Italy', 'Place'),
    ent('w:monster', 'Monster a Go-Go', 'Work'),
    ent('p:rebane', 'Bill Rebane', 'Person'),
    ent('o:comedy', 'Comedy Central', 'Organization'),
  ],
  passages: [],
  relations: [
    fact('w:gamecock', 'w:neurotandem', 'play', 0.6),
    fact('w:gamecock', 'p:pasquale', 'direct_by', 0.35),
    fact('w:gamecock', 'l:italy', 'mentions', 0.55),
    fact('w:monster', 'p:rebane', 'direct_by', 0.3),
    fact('w:monster', 'o:comedy', 'mentions', 0.5),
  ],
};
const ref = referenceGraph(graph);
const ONE = 'Who is the director of The Gamecock?';
const TWO = 'Which film has the director who is older, The Gamecock or Monster a Go-Go?';

let driver: Driver;
let retriever: Retriever;
const seedsOf = async (question: string, params: Record<string, unknown>) =>
  new Map((await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params: { factWordBonus: 0.1, ...params } })).seeds.map((s) => [s.id, s]));

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph);
  retriever = fixtureRetriever(driver);
});
afterAll(async () => {
  await driver.close();
});

describe('writtenFirst', () => {
  test('the fact whose predicate the question writes seeds first, at its cosine plus the bonus', async () => {
    const seeds = await seedsOf(ONE, { factSeedK: 1 });
    expect(seeds.get('p:pasquale')?.activation).toBeCloseTo(0.45, 6);
    expect(seeds.has('w:neurotandem')).toBe(false);
  });

  test('false: the turns go by rank, and the better cosine wins the one place', async () => {
    const seeds = await seedsOf(ONE, { factSeedK: 1, writtenFirst: false });
    expect(seeds.has('w:neurotandem')).toBe(true);
    expect(seeds.has('p:pasquale')).toBe(false);
  });

  test('each name of a comparison takes its written fact in its first turn', async () => {
    const seeds = await seedsOf(TWO, { factSeedK: 2, factSeedTurns: 1 });
    expect(seeds.has('p:pasquale')).toBe(true);
    expect(seeds.has('p:rebane')).toBe(true);
    const byRank = await seedsOf(TWO, { factSeedK: 2, factSeedTurns: 1, writtenFirst: false });
    expect(byRank.has('p:pasquale')).toBe(false);
    expect(byRank.has('p:rebane')).toBe(false);
  });

  test('the reference agrees', async () => {
    for (const [question, named] of [
      [ONE, ['w:gamecock']],
      [TWO, ['w:gamecock', 'w:monster']],
    ] as const) {
      for (const writtenFirst of [true, false]) {
        const params = { factSeedK: 2, factSeedTurns: 1, factWordBonus: 0.1, writtenFirst };
        const r = await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params });
        const p = { ...defaultParams('gated'), relTypes: ['RELATED', 'SAME_AS'], ...params } as unknown as Parameters<typeof defaultSeeds>[5];
        const expected = defaultSeeds(ref, q, question, [...named], [], p);
        expect(r.seeds.map((s) => s.id).sort()).toEqual(expected.map((s) => s.id).sort());
      }
    }
  });
});
