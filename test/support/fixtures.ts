import type { Driver } from 'neo4j-driver';
import { ensureFactIndexes } from '../../server/db/fact-indexes.js';
import { manageProjection } from '../../server/db/projection.js';
import { GraphStore } from '../../server/db/store.js';
import { Retriever } from '../../server/retrieval/retriever.js';
import { TEST_DIM, randomUnit, resetGraph, rng } from './db.js';
import type { RefGraph } from './reference.js';

export interface FixtureEntity {
  id: string;
  name: string;
  type?: string;
  embedding: number[];
  descriptionEmbedding: number[] | null;
}
export interface FixturePassage {
  id: string;
  title: string;
  text: string;
  embedding: number[];
  mentions: string[];
}
export interface FixtureRelation {
  from: string;
  to: string;
  type: string;
  predicate?: string;
  weight?: number;
  /** The fact sentence's embedding (fact seeds); none = not embedded. */
  embedding?: number[];
  /** The passage the fact was read in (the extractor's RELATED facts carry it). */
  passageId?: string;
}
export interface FixtureGraph {
  entities: FixtureEntity[];
  passages: FixturePassage[];
  relations: FixtureRelation[];
}

/** Writes a graph in the production data model (without ingestion), then marks the graph updated. */
export async function loadGraph(driver: Driver, g: FixtureGraph): Promise<void> {
  const s = driver.session();
  try {
    await s.run(
      `UNWIND $entities AS e
       CREATE (:Entity {id: e.id, name: e.name, type: coalesce(e.type, 'Thing'), description: e.name,
                        embedding: e.embedding, descriptionEmbedding: e.descriptionEmbedding})`,
      { entities: g.entities },
    );
    await s.run(
      `UNWIND $passages AS p
       MERGE (d:Document {id: 'doc-' + p.id}) SET d.title = p.title
       CREATE (x:Passage {id: p.id, documentId: 'doc-' + p.id, title: p.title, text: p.text, embedding: p.embedding})-[:PART_OF]->(d)
       WITH x, p UNWIND p.mentions AS eid
       MATCH (e:Entity {id: eid}) CREATE (x)-[:MENTIONS {weight: 1.0}]->(e)`,
      { passages: g.passages },
    );
    const types = [...new Set(g.relations.map((r) => r.type))];
    for (const type of types) {
      // Test-only: relationship types come from the fixture's own constants.
      await s.run(
        `UNWIND $rels AS r MATCH (a:Entity {id: r.from}), (b:Entity {id: r.to})
         CREATE (a)-[:${type} {predicate: r.predicate, weight: coalesce(r.weight, 1.0), embedding: r.embedding, passageId: r.passageId}]->(b)`,
        { rels: g.relations.filter((r) => r.type === type).map((r) => ({ ...r, embedding: r.embedding ?? null, passageId: r.passageId ?? null })) },
      );
    }
    // The statements search each walked type's fact index (fact seeds): the fixture's types get one.
    await ensureFactIndexes(new GraphStore(driver, 'neo4j'), types, TEST_DIM);
    await s.run("MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()");
  } finally {
    await s.close();
  }
}

/**
 * The usual start of a test on a fixture: the graph emptied, the fixture written, and ppr's GDS
 * projection (graph_recall_ppr) built over it, over extraTypes too when the fixture walks its own types.
 */
export async function loadFixtureGraph(driver: Driver, g: FixtureGraph, extraTypes?: string[]): Promise<void> {
  await resetGraph(driver);
  await loadGraph(driver, g);
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr', ...(extraTypes ? { extraTypes } : {}) });
}

/** A Retriever on the fixture loaded by loadFixtureGraph: the text-read types and the fixture's own may be walked. */
export function fixtureRetriever(driver: Driver, types: string[] = []): Retriever {
  return new Retriever(new GraphStore(driver, 'neo4j'), {
    timeoutMs: 120000,
    allowedRelTypes: ['RELATED', 'SAME_AS', ...types],
    pprGraphName: 'graph_recall_ppr',
  });
}

/** A small fixture's entity maker: each name at cosine 0.05 to q, each description at `descCos` (or the default given here). */
export function entityMaker(q: number[], rand: () => number, defaultDescCos = 0.3) {
  return (id: string, name: string, type: string, descCos = defaultDescCos): FixtureEntity => ({
    id,
    name,
    type,
    embedding: withCosine(q, 0.05, rand),
    descriptionEmbedding: withCosine(q, descCos, rand),
  });
}

/** A small fixture's fact maker: a RELATED fact whose sentence embedding is at `cos` to q. */
export function factMaker(q: number[], rand: () => number) {
  return (from: string, to: string, predicate: string, cos: number): FixtureRelation => ({
    from,
    to,
    type: 'RELATED',
    predicate,
    embedding: withCosine(q, cos, rand),
  });
}

/** The fixture as the reference (reference.ts) reads it: names, types, predicates and vectors (relation weights aside). */
export function referenceGraph(g: FixtureGraph): RefGraph {
  return {
    entities: g.entities.map((e) => ({ id: e.id, name: e.name, type: e.type, embedding: e.embedding, descriptionEmbedding: e.descriptionEmbedding })),
    passages: g.passages.map((p) => ({ id: p.id, title: p.title, embedding: p.embedding, mentions: p.mentions })),
    relations: g.relations.map((r) => ({ from: r.from, to: r.to, type: r.type, predicate: r.predicate, embedding: r.embedding })),
  };
}

/** A unit vector with the given cosine to unit vector q, otherwise random (seeded). */
export function withCosine(q: number[], cosine: number, rand: () => number): number[] {
  const r = randomUnit(rand, q.length);
  const dot = r.reduce((s, x, i) => s + x * q[i], 0);
  const orth = r.map((x, i) => x - dot * q[i]);
  const n = Math.hypot(...orth);
  const sin = Math.sqrt(Math.max(0, 1 - cosine * cosine));
  return q.map((x, i) => cosine * x + (sin * orth[i]) / n);
}

/**
 * The property graph-recall exists for: the answer passage mentions only a
 * bridge entity and the answer entity, both two hops from what the question
 * names, and its text looks nothing like the question (cosine 0.05). Four
 * distractor passages look far more like it (0.45) but are about unrelated
 * things, so plain vector search ranks the answer sixth.
 */
export function bridgeFixture(seed = 7): {
  graph: FixtureGraph;
  question: number[];
  answerPassage: string;
  distractors: string[];
  bridgeEntity: string;
  seedEntity: string;
} {
  const rand = rng(seed);
  const q = randomUnit(rand, TEST_DIM);
  const ent = (id: string, name: string, nameCos: number, descCos: number): FixtureEntity => ({
    id,
    name,
    type: 'Thing',
    embedding: withCosine(q, nameCos, rand),
    descriptionEmbedding: withCosine(q, descCos, rand),
  });
  const entities = [
    ent('e-ada', 'Ada Lovelace', 0.9, 0.8),
    ent('e-babbage', 'Charles Babbage', 0.1, 0.6),
    ent('e-engine', 'Analytical Engine', 0.05, 0.5),
    ...[1, 2, 3, 4].map((i) => ent(`e-d${i}`, `Distractor Topic ${i}`, 0.0, 0.0)),
    ...[1, 2, 3, 4, 5, 6].map((i) => ent(`e-n${i}`, `Noise Thing ${i}`, -0.05, 0.1)),
  ];
  const passages: FixturePassage[] = [
    {
      id: 'p-ada',
      title: 'Ada Lovelace',
      text: 'Ada Lovelace worked with Charles Babbage.',
      embedding: withCosine(q, 0.3, rand),
      mentions: ['e-ada', 'e-babbage'],
    },
    {
      id: 'p-answer',
      title: 'Analytical Engine',
      text: 'Charles Babbage designed the Analytical Engine.',
      embedding: withCosine(q, 0.05, rand),
      mentions: ['e-babbage', 'e-engine'],
    },
    ...[1, 2, 3, 4].map((i) => ({
      id: `p-d${i}`,
      title: `Distractor ${i}`,
      text: `A passage that resembles the question, number ${i}.`,
      embedding: withCosine(q, 0.45, rand),
      mentions: [`e-d${i}`],
    })),
    ...[1, 2, 3, 4, 5, 6].map((i) => ({
      id: `p-n${i}`,
      title: `Noise ${i}`,
      text: `Unrelated noise ${i}.`,
      embedding: withCosine(q, 0.0, rand),
      mentions: [`e-n${i}`, `e-n${(i % 6) + 1}`],
    })),
  ];
  const relations: FixtureRelation[] = [
    { from: 'e-ada', to: 'e-babbage', type: 'RELATED', predicate: 'worked with', passageId: 'p-ada' },
    { from: 'e-babbage', to: 'e-engine', type: 'RELATED', predicate: 'designed', passageId: 'p-answer' },
    ...[1, 2, 3, 4, 5, 6].map((i) => ({ from: `e-n${i}`, to: `e-n${(i % 6) + 1}`, type: 'RELATED', predicate: 'near', passageId: `p-n${i}` })),
  ];
  return {
    graph: { entities, passages, relations },
    question: q,
    answerPassage: 'p-answer',
    distractors: ['p-d1', 'p-d2', 'p-d3', 'p-d4'],
    bridgeEntity: 'e-babbage',
    seedEntity: 'e-ada',
  };
}
