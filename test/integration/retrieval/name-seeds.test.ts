// Subject: the name seeds' second search, the question's runs of words looked up by entity id, for the names the
// full-text index ranks below its first 50 hits (cypher/partials/seeds.cypher; docs/statements.md#name-seeds).
import type { Driver } from 'neo4j-driver';
import { rng } from '../../../bench/lib/random.js';
import { entityId } from '../../../server/graph/facts.js';
import type { Mode } from '../../../server/retrieval/params.js';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { entityMaker, fixtureRetriever, loadFixtureGraph, withCosine, type FixtureGraph } from '../../support/fixtures.js';

/**
 * "Which German river did the director of Afrika (Film) and D'Annunzio cross at Rhine Falls?" writes four names the
 * graph holds: the films Afrika and D'Annunzio (typed Work), Rhine Falls (untyped, two words) and German (untyped, one
 * word). Sixty names that share the question's words ("Afrika German D'Annunzio Director River Rhine Falls 7") rank
 * above all four in the full-text index, so its first 50 hits hold none of them. The id lookup finds each name the
 * question writes: a typed one-word name and a name of two words or more seed; an untyped single word ("German", an
 * adjective as often as a name) does not.
 */
const rand = rng(61);
const q = randomUnit(rand, TEST_DIM);
const ent = entityMaker(q, rand, 0.2);
const named = (name: string, type: string) => ent(entityId(name), name, type);
const QUESTION = "Which German river did the director of Afrika (Film) and D'Annunzio cross at Rhine Falls?";
const ACCENTED = "Which German river did the director of Afrika and Così Parlò Bellavista's D’Annunzio cross at Rhine Falls?";
const DECOYS = Array.from({ length: 60 }, (_, i) => named(`Afrika German D'Annunzio Così Parlò Bellavista Director River Rhine Falls ${i + 1}`, 'Entity'));
const graph: FixtureGraph = {
  entities: [
    named('Afrika', 'Work'),
    named("D'Annunzio", 'Work'),
    named('Rhine Falls', 'Entity'),
    named('German', 'Entity'),
    named('Così Parlò Bellavista', 'Work'),
    ...DECOYS,
  ],
  passages: [
    {
      id: 'd:afrika',
      title: 'Afrika (film)',
      text: 'Afrika is a 1973 Italian film.',
      embedding: withCosine(q, 0.3, rand),
      mentions: [entityId('Afrika'), entityId('German')],
    },
  ],
  relations: [],
};

let driver: Driver;
let retriever: Retriever;
beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph);
  retriever = fixtureRetriever(driver);
});
afterAll(() => driver.close());

const nameSeeds = async (mode: Mode, question: string) => {
  const r = await retriever.retrieve({ mode, question, questionEmbedding: q, params: { nameSeedK: 10 } });
  return r.seeds
    .filter((s) => s.sources.includes('name'))
    .map((s) => s.name)
    .sort();
};

test.each([QUESTION, ACCENTED])("the full-text index's first 50 hits hold none of the names: %s", async (question) => {
  const { records } = await driver.executeQuery(
    "CALL db.index.fulltext.queryNodes('entity_name', $q, {limit: 50}) YIELD node RETURN node.name AS name",
    {
      q: question
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim(),
    },
    { database: 'neo4j' },
  );
  const names = records.map((r) => r.get('name') as string);
  expect(names).toHaveLength(50);
  expect(names.filter((n) => !n.startsWith('Afrika German'))).toEqual([]);
});

describe.each(['gated', 'ppr'] as Mode[])('%s', (mode) => {
  test('a typed one-word name and a name of two words seed past the cut; an untyped word does not', async () => {
    expect(await nameSeeds(mode, QUESTION)).toEqual(["D'Annunzio", 'Afrika', 'Rhine Falls'].sort());
  });

  test("accents, a possessive, an apostrophe: the question's words are read as the id's normalised name", async () => {
    expect(await nameSeeds(mode, ACCENTED)).toEqual(["D'Annunzio", 'Afrika', 'Così Parlò Bellavista', 'Rhine Falls'].sort());
  });

  test('a name the question writes in lower case only is no name seed', async () => {
    expect(await nameSeeds(mode, 'Which German river did the director of afrika cross at Rhine Falls?')).toEqual(['Rhine Falls']);
  });
});
