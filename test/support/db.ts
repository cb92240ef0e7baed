import { wipeGraph } from '../../bench/lib/wipe.js';
import type { Driver } from 'neo4j-driver';
import type { Config } from '../../server/config.js';
import { createDriver } from '../../server/db/driver.js';
import { migrate } from '../../server/db/migrate.js';
import { GraphStore } from '../../server/db/store.js';
import { rng } from '../../bench/lib/random.js';

export { rng };

export const TEST_DIM = 384;

/** The connection settings of the test database chosen by test/global-setup.ts. */
export function testNeo4jConfig(): Config['neo4j'] {
  const uri = process.env.NEO4J_URI;
  if (!uri) throw new Error('NEO4J_URI is not set: integration tests must run through jest globalSetup');
  return { uri, user: process.env.NEO4J_USER || 'neo4j', password: process.env.NEO4J_PASSWORD || 'graph-recall-test', database: 'neo4j', embedded: false };
}

/** A driver to the test database chosen by test/global-setup.ts, with migrations applied. */
export async function testDriver(): Promise<Driver> {
  const driver = createDriver(testNeo4jConfig());
  await driver.verifyConnectivity();
  await migrate(new GraphStore(driver, 'neo4j'), { dimension: TEST_DIM });
  return driver;
}

/** Empties the graph but keeps the schema and the migration records. */
export async function resetGraph(driver: Driver): Promise<void> {
  await wipeGraph(driver);
  const s = driver.session();
  try {
    const graphs = await s.run('CALL gds.graph.list() YIELD graphName RETURN graphName');
    for (const r of graphs.records) await s.run('CALL gds.graph.drop($g, false) YIELD graphName RETURN graphName', { g: r.get('graphName') });
  } finally {
    await s.close();
  }
}

export function randomUnit(rand: () => number, dim = TEST_DIM): number[] {
  const v = Array.from({ length: dim }, () => rand() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
