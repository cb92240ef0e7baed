// Subject: the fact seeds' written-predicate test read from the other end (CONVERSE_WORDS in server/graph/facts.ts).
import type { Driver } from 'neo4j-driver';
import { rng } from '../../../bench/lib/random.js';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import { defaultParams } from '../../../server/retrieval/params.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { defaultSeeds } from '../../support/reference.js';
import { entityMaker, factMaker, fixtureRetriever, loadFixtureGraph, loadGraph, referenceGraph, type FixtureGraph } from '../../support/fixtures.js';

/**
 * A page states its subject's kin from its own side ("Bea Ballard daughter_of J. G. Ballard"); a question asks from the
 * other ("Bea Ballard's father"). "father" shares no stem with "daughter of", so the converse words make the fact
 * written: it ranks factWordBonus higher among the named entity's facts and seeds its far end at that rank.
 *
 *   Bea Ballard -daughter_of-> J. G. Ballard (fact cosine 0.5);  Bea Ballard -related_to-> Ballard Estate (0.55),
 *   -work_for-> Channel 4 (0.52), -mentions-> London (0.51), -marry-> Tom Kemp (0.45)
 *
 * Kin two hops away is written by its first hop: a grandparent's is a parent, a mother-in-law's a spouse.
 */
const rand = rng(41);
const q = randomUnit(rand, TEST_DIM);
const ent = entityMaker(q, rand, 0.2);
const fact = factMaker(q, rand);
const graph: FixtureGraph = {
  entities: [
    ent('p:bea', 'Bea Ballard', 'Person'),
    ent('p:jg', 'J. G. Ballard', 'Person'),
    ent('o:estate', 'Ballard Estate', 'Organization'),
    ent('o:c4', 'Channel 4', 'Organization'),
    ent('l:london', 'London', 'Place'),
    ent('p:tom', 'Tom Kemp', 'Person'),
  ],
  passages: [],
  relations: [
    fact('p:bea', 'p:jg', 'daughter_of', 0.5),
    fact('p:bea', 'o:estate', 'related_to', 0.55),
    fact('p:bea', 'o:c4', 'work_for', 0.52),
    fact('p:bea', 'l:london', 'mentions', 0.51),
    fact('p:bea', 'p:tom', 'marry', 0.45),
  ],
};
const ref = referenceGraph(graph);

let driver: Driver;
let retriever: Retriever;
const seedsOf = async (question: string) =>
  new Map(
    (await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params: { factSeedK: 1, factWordBonus: 0.1 } })).seeds.map((s) => [s.id, s]),
  );

/** The statement's seeds and the reference's, for each question, over the fixture graph with `extra` added. */
async function expectReferenceSeeds(questions: string[], extra?: FixtureGraph): Promise<void> {
  const g = extra ? referenceGraph({ ...graph, entities: [...graph.entities, ...extra.entities], relations: [...graph.relations, ...extra.relations] }) : ref;
  const p = { ...defaultParams('gated'), relTypes: ['RELATED', 'SAME_AS'], factSeedK: 1, factWordBonus: 0.1 } as unknown as Parameters<typeof defaultSeeds>[5];
  for (const question of questions) {
    const r = await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params: { factSeedK: 1, factWordBonus: 0.1 } });
    expect({ question, seeds: r.seeds.map((s) => s.id).sort() }).toEqual({
      question,
      seeds: defaultSeeds(g, q, question, ['p:bea'], [], p)
        .map((s) => s.id)
        .sort(),
    });
  }
}

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph);
  retriever = fixtureRetriever(driver);
});
afterAll(async () => {
  await driver.close();
});

describe('converse words', () => {
  test("a question asking for a person's father writes the person's daughter_of fact", async () => {
    const seeds = await seedsOf("Where was Bea Ballard's father born?");
    // One fact seed: daughter_of at 0.5 + 0.1 passes related_to at 0.55, and seeds J. G. Ballard at that rank.
    expect(seeds.get('p:jg')?.activation).toBeCloseTo(0.6, 6);
    expect(seeds.has('o:estate')).toBe(false);
  });

  test('converseWords false: the shared stem alone, and the fact stays at its cosine', async () => {
    const r = await retriever.retrieve({
      mode: 'gated',
      question: "Where was Bea Ballard's father born?",
      questionEmbedding: q,
      params: { factSeedK: 1, factWordBonus: 0.1, converseWords: false },
    });
    expect(r.seeds.map((s) => s.id)).not.toContain('p:jg');
  });

  test('a question that writes no kin word leaves the fact at its cosine', async () => {
    const seeds = await seedsOf('Where was Bea Ballard born?');
    expect(seeds.has('o:estate')).toBe(true);
    expect(seeds.has('p:jg')).toBe(false);
  });

  test('"wife" does not write daughter_of: the converse pairs are kin by kind, not any kin word', async () => {
    const seeds = await seedsOf("Where was Bea Ballard's wife born?");
    expect(seeds.has('p:jg')).toBe(false);
  });

  test('a grandparent is written by its first hop, a parent', async () => {
    const seeds = await seedsOf('Who is the paternal grandfather of Bea Ballard?');
    expect(seeds.get('p:jg')?.activation).toBeCloseTo(0.6, 6);
  });

  test('"mother in law" is one word: it writes the spouse, not the parent', async () => {
    for (const question of ["Who is Bea Ballard's mother-in-law?", 'Who is the mother in law of Bea Ballard?']) {
      const seeds = await seedsOf(question);
      expect(seeds.get('p:tom')?.activation).toBeCloseTo(0.55, 6);
      expect(seeds.has('p:jg')).toBe(false);
    }
  });

  test('a gendered kin word does not write a fact whose far end is titled for the other gender (KIN_GENDERS)', async () => {
    // The mother, titled "Princess", at a higher fact cosine than the father's 0.5.
    await loadGraph(driver, {
      entities: [ent('p:ann', 'Princess Ann of Kent', 'Person')],
      passages: [],
      relations: [fact('p:bea', 'p:ann', 'daughter_of', 0.58)],
    });
    try {
      // "father": the princess's daughter_of is not written; the untitled father's is, and seeds at 0.5 + 0.1.
      const father = await seedsOf("Where was Bea Ballard's father born?");
      expect(father.get('p:jg')?.activation).toBeCloseTo(0.6, 6);
      expect(father.has('p:ann')).toBe(false);
      // "mother": the princess's is written, at 0.58 + 0.1, ahead of the father's.
      const mother = await seedsOf("Where was Bea Ballard's mother born?");
      expect(mother.get('p:ann')?.activation).toBeCloseTo(0.68, 6);
      expect(mother.has('p:jg')).toBe(false);
      // "parent" has no gender: both are written, the princess's ranks first.
      const parent = await seedsOf("Where was Bea Ballard's parent born?");
      expect(parent.has('p:ann')).toBe(true);
    } finally {
      await driver.executeQuery("MATCH (e:Entity {id: 'p:ann'}) DETACH DELETE e", {}, { database: 'neo4j' });
    }
  });

  test("a far end's synonyms give its gender too: an untitled name SAME_AS a duke is no one's mother; the reference agrees", async () => {
    const extra: FixtureGraph = {
      entities: [
        ent('p:ann', 'Princess Ann of Kent', 'Person'),
        ent('p:adolf', 'Adolf Ballard', 'Person'),
        ent('p:duke', 'Adolf Ballard, Duke of Kent', 'Person'),
      ],
      passages: [],
      relations: [
        fact('p:bea', 'p:ann', 'daughter_of', 0.58),
        fact('p:bea', 'p:adolf', 'daughter_of', 0.7),
        { from: 'p:adolf', to: 'p:duke', type: 'SAME_AS' },
      ],
    };
    await loadGraph(driver, extra);
    try {
      // Adolf Ballard's daughter_of ranks first by cosine (0.7), but his synonym is a duke: the princess's is written.
      const mother = await seedsOf("Where was Bea Ballard's mother born?");
      expect(mother.get('p:ann')?.activation).toBeCloseTo(0.68, 6);
      expect(mother.has('p:adolf')).toBe(false);
      const father = await seedsOf("Where was Bea Ballard's father born?");
      expect(father.get('p:adolf')?.activation).toBeCloseTo(0.8, 6);
      await expectReferenceSeeds(["Where was Bea Ballard's mother born?", "Where was Bea Ballard's father born?", "Who is Bea Ballard's parent?"], extra);
    } finally {
      await driver.executeQuery("MATCH (e:Entity) WHERE e.id IN ['p:ann', 'p:adolf', 'p:duke'] DETACH DELETE e", {}, { database: 'neo4j' });
    }
  });

  test('"paternal" and "maternal" give a grandparent\'s first hop its gender (KIN_SIDES); the reference agrees', async () => {
    const extra: FixtureGraph = {
      entities: [ent('p:ann', 'Princess Ann of Kent', 'Person'), ent('p:duke', 'Duke Adolf of Kent', 'Person')],
      passages: [],
      relations: [fact('p:bea', 'p:ann', 'daughter_of', 0.58), fact('p:bea', 'p:duke', 'child_of', 0.56)],
    };
    await loadGraph(driver, extra);
    try {
      // "paternal grandmother": the hop is a father, so the princess's daughter_of is not written; the duke's child_of is
      // (0.56 + 0.1), ahead of the untitled J. G. Ballard's (0.5 + 0.1) by its cosine.
      const paternal = await seedsOf("Who is Bea Ballard's paternal grandmother?");
      expect(paternal.get('p:duke')?.activation).toBeCloseTo(0.66, 6);
      expect(paternal.has('p:ann')).toBe(false);
      // "maternal grandfather": the hop is a mother, so the duke's is not written and the princess's is.
      const maternal = await seedsOf('Who is the maternal grandfather of Bea Ballard?');
      expect(maternal.get('p:ann')?.activation).toBeCloseTo(0.68, 6);
      expect(maternal.has('p:duke')).toBe(false);
      // no side: "grandmother" alone has no gender for its first hop, and the princess's fact ranks first
      const grandmother = await seedsOf("Who is Bea Ballard's grandmother?");
      expect(grandmother.get('p:ann')?.activation).toBeCloseTo(0.68, 6);
      await expectReferenceSeeds(
        ["Who is Bea Ballard's paternal grandmother?", 'Who is the maternal grandfather of Bea Ballard?', "Who is Bea Ballard's grandmother?"],
        extra,
      );
    } finally {
      await driver.executeQuery("MATCH (e:Entity) WHERE e.id IN ['p:ann', 'p:duke'] DETACH DELETE e", {}, { database: 'neo4j' });
    }
  });

  test('a kin word asks one way (KIN_DIRECTIONS): "father" is not written by a fact whose parent is the named person, "grandson" only by one, "X was the mother of" the other way; the reference agrees', async () => {
    // Bea's son Sam (Sam son_of Bea, 0.58) and her son Kid (Bea mother_of Kid, 0.57): facts whose parent is Bea.
    const extra: FixtureGraph = {
      entities: [ent('p:sam', 'Sam Ballard', 'Person'), ent('p:kid', 'Kid Ballard', 'Person')],
      passages: [],
      relations: [fact('p:sam', 'p:bea', 'son_of', 0.58), fact('p:bea', 'p:kid', 'mother_of', 0.57)],
    };
    await loadGraph(driver, extra);
    const seeds = async (question: string, params: Record<string, unknown>) =>
      new Map(
        (await retriever.retrieve({ mode: 'gated', question, questionEmbedding: q, params: { factWordBonus: 0.1, ...params } })).seeds.map((s) => [s.id, s]),
      );
    try {
      // "father": Sam's son_of (0.58 + 0.1) would rank first by either end; read one way, J. G. Ballard's (0.5 + 0.1) is the one written.
      const father = await seeds("Where was Bea Ballard's father born?", { factSeedK: 1 });
      expect(father.get('p:jg')?.activation).toBeCloseTo(0.6, 6);
      expect(father.has('p:sam')).toBe(false);
      const eitherEnd = await seeds("Where was Bea Ballard's father born?", { factSeedK: 1, kinDirection: false });
      expect(eitherEnd.get('p:sam')?.activation).toBeCloseTo(0.68, 6);
      // "grandson": its first hop is a child, so Sam's and Kid's facts are written and J. G. Ballard's daughter_of is not:
      // it stays at its cosine, below the related_to fact (0.55) that takes the third fact seed.
      const grandson = await seeds("Who is Bea Ballard's grandson?", { factSeedK: 3 });
      expect(grandson.get('p:sam')?.activation).toBeCloseTo(0.68, 6);
      expect(grandson.get('p:kid')?.activation).toBeCloseTo(0.67, 6);
      expect(grandson.has('p:jg')).toBe(false);
      expect(grandson.has('o:estate')).toBe(true);
      const grandsonEitherEnd = await seeds("Who is Bea Ballard's grandson?", { factSeedK: 3, kinDirection: false });
      expect(grandsonEitherEnd.get('p:jg')?.activation).toBeCloseTo(0.6, 6);
      // After the name and a form of "be" the word asks the other way: Bea is the mother, her son's fact is written.
      const isMother = await seeds('Bea Ballard was the mother of which actor?', { factSeedK: 1 });
      expect(isMother.get('p:sam')?.activation).toBeCloseTo(0.68, 6);
      expect(isMother.has('p:jg')).toBe(false);
      await expectReferenceSeeds(
        [
          "Where was Bea Ballard's father born?",
          "Who is Bea Ballard's grandson?",
          "Who is Bea Ballard's paternal grandmother?",
          'Bea Ballard was the mother of which actor?',
          'Bea Ballard is father to which actress?',
        ],
        extra,
      );
    } finally {
      await driver.executeQuery("MATCH (e:Entity) WHERE e.id IN ['p:sam', 'p:kid'] DETACH DELETE e", {}, { database: 'neo4j' });
    }
  });

  test('the reference agrees on each question', async () => {
    await expectReferenceSeeds([
      "Where was Bea Ballard's father born?",
      'Who is the mother of Bea Ballard?',
      "Where was Bea Ballard's wife born?",
      'Who is the paternal grandfather of Bea Ballard?',
      "Who is Bea Ballard's mother-in-law?",
      "Who is Bea Ballard's sister in law?",
    ]);
  });
});
