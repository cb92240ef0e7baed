// Subject: server/planning.ts: one transaction plans a mode while its other first requests wait.
import type { Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph } from '../../support/fixtures.js';
import { postJson, startUnplannedServer, type RunningServer } from '../../support/server.js';

/**
 * Planning a long statement takes seconds, and Neo4j plans it once per concurrent request that
 * misses its query cache: clients arriving together at a cold server planned gated N times over
 * on 2 cores and timed out (504, the CI failure of ops.test.ts). The first request of a mode
 * plans it alone; the others wait for it and then run on the cached plan.
 */
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, bridgeFixture().graph);
  const wide = { concurrency: 16, queue: 16 };
  // Not the CLI's server: that one plans every statement before it answers, and this test is about
  // the first requests of a mode nobody planned yet.
  srv = await startUnplannedServer({ embedder: createHashEmbedder(384), config: { admission: { retrieve: wide } } as never });
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

test('6 concurrent first requests of a mode: one transaction plans it while the others wait, then all answer 200', async () => {
  await driver.executeQuery('CALL db.clearQueryCaches()');
  const GATED = 'gated mode - query-aware spreading activation';
  // The Retriever plans per statement file (ppr has two).
  const GATED_FILE = 'retrieve_gated.cypher';
  // The Retriever's planner of gated, while it runs (the others wait on it): read as an event, not a time.
  const planning = (srv.services.retriever as unknown as { planning: Map<string, Promise<void>> }).planning;
  /** Transactions of gated seen by polls that began and ended while gated's planner ran. */
  const during: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const planningBefore = planning.has(GATED_FILE);
      const { records } = await driver.executeQuery('SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery CONTAINS $marker RETURN count(*) AS n', {
        marker: GATED,
      });
      if (planningBefore && planning.has(GATED_FILE)) during.push(Number(records[0].get('n')));
      await new Promise((r) => setImmediate(r));
    }
  })();
  const answers = await Promise.all(
    Array.from(
      { length: 6 },
      async (_, i) => (await postJson(`${srv.url}/v1/retrieve`, { question: `Who worked with the bridge engineer ${i}?`, mode: 'gated' })).status,
    ),
  );
  polling = false;
  await poller;
  expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
  // While the planner ran, exactly one gated transaction at a time: the planner's own.
  expect(during.length).toBeGreaterThan(0);
  expect(Math.max(...during)).toBe(1);
}, 300_000);
