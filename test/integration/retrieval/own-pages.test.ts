// Subject: hopPageKeep and namePageKeep, the own pages of the hops the question writes and of the entities it names kept
// ahead in the fusion (cypher/partials/rank_passages.cypher, the written hops in cypher/partials/seeds.cypher;
// docs/statements.md#fusion).
import type { Driver } from 'neo4j-driver';
import { rng } from '../../../bench/lib/random.js';
import type { Mode } from '../../../server/retrieval/params.js';
import type { Retriever } from '../../../server/retrieval/retriever.js';
import { TEST_DIM, randomUnit, testDriver } from '../../support/db.js';
import { entityMaker, factMaker, fixtureRetriever, loadFixtureGraph, withCosine, type FixtureGraph } from '../../support/fixtures.js';

/**
 * "Which film has the director who is older, The Gamecock or Monster a Go-Go?" names two films; the question writes
 * the hop at each ("director"), so each film's first written fact seeds its far end: Pasquale Festa Campanile, Bill
 * Rebane. Their pages hold the birth dates and look nothing like the question; three film pages look like it and
 * mention every entity the seeds reach, so the graph ranks them among the directors' pages and the text above. With
 * hopPageKeep the two directors' pages score 1 + their rrf score, ahead of everything the rankings merely agree on.
 * Only each name's first written fact counts: Luigi Zampa, The Gamecock's co-director (a written fact of lower
 * cosine), seeds but his page is not kept. With namePageKeep the films' own pages are kept too; a name that titles
 * two pages (The Gamecock's film page and a namesake song) keeps neither.
 */
const rand = rng(47);
const q = randomUnit(rand, TEST_DIM);
const ent = entityMaker(q, rand, 0.2);
const fact = factMaker(q, rand);
const page = (id: string, title: string, text: string, cos: number, mentions: string[]) => ({
  id,
  title,
  text,
  embedding: withCosine(q, cos, rand),
  mentions,
});
// The look-alikes mention every entity the seeds reach, so the graph ranks them with the directors' pages.
const WALKED = ['p:pasquale', 'p:rebane', 'p:zampa', 'w:neurotandem'];
const graph: FixtureGraph = {
  entities: [
    ent('w:gamecock', 'The Gamecock', 'Work'),
    ent('w:monster', 'Monster a Go-Go', 'Work'),
    ent('p:pasquale', 'Pasquale Festa Campanile', 'Person'),
    ent('p:rebane', 'Bill Rebane', 'Person'),
    ent('p:zampa', 'Luigi Zampa', 'Person'),
    ent('w:neurotandem', 'Neurotandem', 'Work'),
  ],
  passages: [
    page('d:gamecock', 'The Gamecock (film)', 'The Gamecock is a film directed by Pasquale Festa Campanile and Luigi Zampa.', 0.5, [
      'w:gamecock',
      'p:pasquale',
      'p:zampa',
      'w:neurotandem',
    ]),
    page('d:monster', 'Monster a Go-Go', 'Monster a Go-Go is a film directed by Bill Rebane.', 0.5, ['w:monster', 'p:rebane']),
    page('d:pasquale', 'Pasquale Festa Campanile', 'Pasquale Festa Campanile was born in 1927.', 0.05, ['p:pasquale']),
    page('d:rebane', 'Bill Rebane', 'Bill Rebane was born in 1937.', 0.05, ['p:rebane']),
    page('d:zampa', 'Luigi Zampa', 'Luigi Zampa was born in 1905.', 0.05, ['p:zampa']),
    page('d:look1', 'The Older Gamecock', 'Which film has the older director? A film like The Gamecock.', 0.7, WALKED),
    page('d:look2', 'Go-Go Director', 'A film director who is older directs a film like Monster a Go-Go.', 0.65, WALKED),
    page('d:look3', 'Go-Go Film', 'The film has a director and is older than The Gamecock.', 0.6, WALKED),
  ],
  relations: [
    fact('w:gamecock', 'w:neurotandem', 'play', 0.6),
    fact('w:gamecock', 'p:pasquale', 'direct_by', 0.35),
    fact('w:gamecock', 'p:zampa', 'direct_by', 0.25),
    fact('w:monster', 'p:rebane', 'direct_by', 0.3),
  ],
};
const COMPARISON = 'Which film has the director who is older, The Gamecock or Monster a Go-Go?';
const NAMES = ['d:gamecock', 'd:monster'];
const UNNAMED = 'Which film has the director who is older?';
const HOPS = ['d:pasquale', 'd:rebane'];

let driver: Driver;
let retriever: Retriever;
beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, graph);
  retriever = fixtureRetriever(driver);
});
afterAll(() => driver.close());

// graphKeep and textKeep off (and the named pages' rule, unless a test turns it on): a score of 1 or more is the hop
// pages' rule alone.
const ask = (mode: Mode, question: string, params: Record<string, unknown>) =>
  retriever.retrieve({ mode, question, questionEmbedding: q, params: { graphKeep: 0, textKeep: 0, namePageKeep: false, topK: 9, ...params } });
const kept = (r: { passages: { id: string; score: number }[] }) => r.passages.filter((p) => p.score >= 1).map((p) => p.id);
/** Runs `check` on the fixture as `edit` changes it, then `undo` puts it back, whether `check` passes or not. */
async function edited(edit: string, params: Record<string, unknown>, undo: string, check: () => Promise<void>): Promise<void> {
  await driver.executeQuery(edit, params, { database: 'neo4j' });
  try {
    await check();
  } finally {
    await driver.executeQuery(undo, {}, { database: 'neo4j' });
  }
}
/** Runs `check` with one more page that mentions The Gamecock (titled `title`), then removes it. */
const withGamecockPage = (id: string, title: string, text: string, check: () => Promise<void>) =>
  edited(
    "MATCH (e:Entity {id: 'w:gamecock'}) CREATE (p:Passage {id: $id, title: $title, text: $text, embedding: $v})-[:MENTIONS {weight: 1.0}]->(e)",
    { id, title, text, v: withCosine(q, 0.1, rand) },
    `MATCH (p:Passage {id: '${id}'}) DETACH DELETE p`,
    check,
  );

describe.each(['gated', 'ppr'] as Mode[])('%s', (mode) => {
  test("each named film's written hop seeds, and its page goes first", async () => {
    const r = await ask(mode, COMPARISON, {});
    const seeds = r.seeds.map((s) => s.id);
    expect(seeds).toEqual(expect.arrayContaining(['w:gamecock', 'w:monster', 'p:pasquale', 'p:rebane', 'p:zampa']));
    expect(kept(r).sort()).toEqual(HOPS);
    expect(
      r.passages
        .slice(0, 2)
        .map((p) => p.id)
        .sort(),
    ).toEqual(HOPS);
  });

  test("only a name's first written fact: the co-director of lower cosine seeds, his page is not kept", async () => {
    const r = await ask(mode, COMPARISON, {});
    expect(r.seeds.map((s) => s.id)).toContain('p:zampa');
    expect(kept(r)).not.toContain('d:zampa');
  });

  test('false: nothing is kept, and a look-alike outranks a hop page', async () => {
    const r = await ask(mode, COMPARISON, { hopPageKeep: false });
    expect(kept(r)).toEqual([]);
    const rank = (id: string) => r.passages.findIndex((p) => p.id === id);
    const lastHop = Math.max(...HOPS.map(rank).map((i) => (i < 0 ? Infinity : i)));
    expect(rank('d:look1')).toBeGreaterThanOrEqual(0);
    expect(rank('d:look1')).toBeLessThan(lastHop);
  });

  test("namePageKeep: the named films' own pages are kept as well", async () => {
    const r = await ask(mode, COMPARISON, { namePageKeep: true });
    expect(kept(r).sort()).toEqual([...HOPS, ...NAMES].sort());
  });

  test('namePageKeep: a name that titles two pages keeps neither', async () => {
    await withGamecockPage('d:song', 'The Gamecock (song)', 'The Gamecock is a song.', async () => {
      const r = await ask(mode, COMPARISON, { namePageKeep: true });
      expect(kept(r).sort()).toEqual([...HOPS, 'd:monster'].sort());
    });
  });

  test('namePageKeep: of the pages a name titles, the one without a disambiguator (the primary topic) is kept', async () => {
    await withGamecockPage('d:primary', 'The Gamecock', 'The Gamecock is a novel.', async () => {
      const r = await ask(mode, COMPARISON, { namePageKeep: true });
      expect(kept(r).sort()).toEqual([...HOPS, 'd:monster', 'd:primary'].sort());
    });
  });

  test('a page split into chunks is one page: its first chunk is kept, not the others', async () => {
    // A second chunk of Bill Rebane's document (the fixture's passages are documents 'doc-' + their id).
    await edited(
      "MATCH (e:Entity {id: 'p:rebane'}) CREATE (:Passage {id: 'd:rebane#1', documentId: 'doc-d:rebane', title: 'Bill Rebane', text: 'Bill Rebane lives in Wisconsin.', embedding: $v})-[:MENTIONS {weight: 1.0}]->(e)",
      { v: withCosine(q, 0.05, rand) },
      "MATCH (p:Passage {id: 'd:rebane#1'}) DETACH DELETE p",
      async () => {
        const r = await ask(mode, COMPARISON, {});
        expect(kept(r).sort()).toEqual(HOPS);
      },
    );
  });

  // Bill Rebane's page retitled by another name of his, William Rebane: an entity one or two SAME_AS hops from him.
  const RETITLED = "MATCH (p:Passage {id: 'd:rebane'}), (e:Entity {id: 'p:rebane'}) SET p.title = 'William Rebane' ";
  const UNTITLED =
    "MATCH (p:Passage {id: 'd:rebane'}) SET p.title = 'Bill Rebane' WITH p MATCH (w:Entity) WHERE w.id IN ['p:william', 'p:wrebane'] DETACH DELETE w";

  test('a hop that titles no page: the page its synonym (SAME_AS) titles is kept', async () => {
    await edited(
      `${RETITLED}CREATE (p)-[:MENTIONS {weight: 1.0}]->(w:Entity {id: 'p:william', name: 'William Rebane', type: 'Person'})<-[:SAME_AS]-(e)`,
      {},
      UNTITLED,
      async () => {
        const r = await ask(mode, COMPARISON, {});
        expect(kept(r).sort()).toEqual(HOPS);
      },
    );
  });

  test("a synonym's synonym counts too (two SAME_AS hops): King X -> King X of Y -> the page's X of Y", async () => {
    await edited(
      `${RETITLED}CREATE (p)-[:MENTIONS {weight: 1.0}]->(w:Entity {id: 'p:william', name: 'William Rebane', type: 'Person'})` +
        "<-[:SAME_AS]-(:Entity {id: 'p:wrebane', name: 'W. Rebane', type: 'Person'})<-[:SAME_AS]-(e)",
      {},
      UNTITLED,
      async () => {
        const r = await ask(mode, COMPARISON, {});
        expect(kept(r).sort()).toEqual(HOPS);
      },
    );
  });

  test("a hop that titles its own page keeps that one, not its synonym's", async () => {
    await edited(
      "MATCH (e:Entity {id: 'p:pasquale'}) CREATE (e)-[:SAME_AS]->(w:Entity {id: 'p:festa', name: 'Festa Campanile', type: 'Person'})" +
        "<-[:MENTIONS {weight: 1.0}]-(:Passage {id: 'd:festa', documentId: 'doc-d:festa', title: 'Festa Campanile', text: 'Festa Campanile is a surname.', embedding: $v})",
      { v: withCosine(q, 0.05, rand) },
      "MATCH (x) WHERE x.id IN ['p:festa', 'd:festa'] DETACH DELETE x",
      async () => {
        const r = await ask(mode, COMPARISON, {});
        expect(kept(r).sort()).toEqual(HOPS);
      },
    );
  });

  test('a question that names nothing writes no hop: the same ranking either way', async () => {
    const on = await ask(mode, UNNAMED, {});
    const off = await ask(mode, UNNAMED, { hopPageKeep: false });
    expect(kept(on)).toEqual([]);
    expect(on.passages.map((p) => p.id)).toEqual(off.passages.map((p) => p.id));
  });
});
