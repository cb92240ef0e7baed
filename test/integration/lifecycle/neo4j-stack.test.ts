// Subject: the database itself: APOC, GDS, migrations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { MigrationError, migrate, readMigrations } from '../../../server/db/migrate.js';
import { GraphStore } from '../../../server/db/store.js';
import { cosine, personalizedPageRank } from '../../support/reference.js';
import { TEST_DIM, randomUnit, resetGraph, rng, testDriver } from '../../support/db.js';

let driver: Driver;
let store: GraphStore;
beforeAll(async () => {
  driver = await testDriver();
  store = new GraphStore(driver, 'neo4j');
  await resetGraph(driver);
});
afterAll(async () => driver?.close());

const run = async (q: string, p: Record<string, unknown> = {}) => {
  const s = driver.session();
  try {
    return (await s.run(q, p)).records.map((r) => r.toObject());
  } finally {
    await s.close();
  }
};

test('APOC and GDS procedures answer', async () => {
  const [row] = await run("RETURN apoc.map.fromPairs([['a', 1], ['b', 2]]) AS m, apoc.version() AS apoc, gds.version() AS gds");
  expect(row.m).toEqual({ a: 1, b: 2 });
  expect(row.apoc).toMatch(/^5\.26\./);
  expect(row.gds).toMatch(/^2\.13\./);
});

test('GDS Personalized PageRank equals a TypeScript power iteration, node by node, within 1e-6', async () => {
  const rand = rng(42);
  const n = 30;
  const nodes = Array.from({ length: n }, (_, i) => `n${i}`);
  const edges: { from: string; to: string; weight: number }[] = [];
  for (let i = 0; i < 70; i++) {
    const a = Math.floor(rand() * n);
    let b = Math.floor(rand() * n);
    if (b === a) b = (a + 1) % n;
    edges.push({ from: nodes[a], to: nodes[b], weight: 0.5 + rand() * 2 });
  }
  await run('UNWIND $ids AS id CREATE (:PprTest {id: id})', { ids: nodes });
  await run('UNWIND $edges AS e MATCH (a:PprTest {id: e.from}), (b:PprTest {id: e.to}) CREATE (a)-[:LINK {weight: e.weight}]->(b)', { edges });
  await run("CALL gds.graph.project('ppr_test', 'PprTest', {LINK: {orientation: 'UNDIRECTED', properties: 'weight'}}) YIELD graphName RETURN graphName");
  const sources = ['n0', 'n7'];
  const rows = await run(
    `MATCH (s:PprTest) WHERE s.id IN $sources WITH collect(s) AS src
     CALL gds.pageRank.stream('ppr_test', {sourceNodes: src, dampingFactor: 0.5, maxIterations: 200, tolerance: 1e-12,
                                           relationshipWeightProperty: 'weight'})
     YIELD nodeId, score RETURN gds.util.asNode(nodeId).id AS id, score`,
    { sources },
  );
  const expected = personalizedPageRank(nodes, edges, new Map(sources.map((s) => [s, 1])), 0.5);
  expect(rows).toHaveLength(n);
  for (const r of rows) expect(Math.abs(r.score - expected.get(r.id)!)).toBeLessThan(1e-6);
  // Sanity: the walk is personalised (sources dominate) and not trivially zero.
  const top = [...rows]
    .sort((a, b) => b.score - a.score)
    .slice(0, 2)
    .map((r) => r.id);
  expect(top.sort()).toEqual([...sources].sort());
  await run("CALL gds.graph.drop('ppr_test') YIELD graphName RETURN graphName");
});

test('the entity vector index returns the true nearest node, scoring (1 + cos) / 2', async () => {
  const rand = rng(3);
  const vectors = Array.from({ length: 200 }, (_, i) => ({ id: `v${i}`, embedding: randomUnit(rand) }));
  await run('UNWIND $vs AS v CREATE (:Entity {id: v.id, name: v.id, embedding: v.embedding})', { vs: vectors });
  for (let t = 0; t < 10; t++) {
    const q = randomUnit(rand);
    const truth = vectors.map((v) => ({ id: v.id, cos: cosine(v.embedding, q) })).sort((a, b) => b.cos - a.cos)[0];
    // HNSW is approximate and random 384-d vectors are its worst case (all nearly
    // equidistant): like the retrieval statements, search 50 wide and take the best.
    const [hit] = await run(
      "CALL db.index.vector.queryNodes('entity_embedding', 50, $q) YIELD node, score RETURN node.id AS id, score ORDER BY score DESC LIMIT 1",
      { q },
    );
    expect(hit.id).toBe(truth.id);
    expect(Math.abs(hit.score - (1 + truth.cos) / 2)).toBeLessThan(1e-6);
  }
  // The migrations built the vector indexes at the dimension they were given (the test embedder's).
  const dims = await run(
    "SHOW VECTOR INDEXES YIELD name, options WHERE NOT name STARTS WITH 'fact_' RETURN name, options.indexConfig['vector.dimensions'] AS d",
  );
  expect(dims.length).toBeGreaterThan(0);
  for (const { name, d } of dims) expect({ name, d: Number(d) }).toEqual({ name, d: TEST_DIM });
});

test('migrations are idempotent and refuse a changed applied file', async () => {
  const again = await migrate(store, { dimension: TEST_DIM });
  expect(again.applied).toEqual([]);
  expect(again.alreadyApplied).toEqual(readMigrations().map((m) => m.name));
  const [{ n }] = await run('MATCH (m:GraphRecallMigration) RETURN count(m) AS n');
  expect(n).toBe(readMigrations().length);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  for (const m of readMigrations()) fs.copyFileSync(path.join('migrations', m.name), path.join(dir, m.name));
  const first = readMigrations(dir)[0].name;
  fs.appendFileSync(path.join(dir, first), '\n// edited after it was applied\n');
  await expect(migrate(store, { dimension: TEST_DIM, dir })).rejects.toThrow(MigrationError);
  await expect(migrate(store, { dimension: TEST_DIM, dir })).rejects.toThrow(new RegExp(`${first} was changed`));
});
