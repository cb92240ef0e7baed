import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Picks the database for integration tests, in this order:
 * 1. NEO4J_URI if set (CI starts the JVM launcher and sets it);
 * 2. Testcontainers (official neo4j:5.26 image with APOC and GDS) if a Docker engine answers;
 * 3. the project's JVM launcher, on its own ports and data folder.
 * There is no fallback to skipping: if none starts, the run fails here.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.NEO4J_URI) return;
  if (await dockerAnswers()) {
    const { Neo4jContainer } = await import('@testcontainers/neo4j');
    const container = await new Neo4jContainer('neo4j:5.26')
      .withApoc()
      .withEnvironment({
        NEO4J_PLUGINS: '["apoc","graph-data-science"]',
        NEO4J_dbms_security_procedures_unrestricted: 'apoc.*,gds.*',
        // As the embedded launcher: plans keyed by parameter types, not each value's size.
        NEO4J_internal_cypher_use__parameter__size: 'false',
        // As the embedded launcher: transaction timeouts checked every 100 ms (Neo4j's default is
        // 2 s), so QUERY_TIMEOUT_MS and the 504 test hold on this path too.
        NEO4J_db_transaction_monitor_check_interval: '100ms',
      })
      .withPassword('graph-recall-test')
      .start();
    process.env.NEO4J_URI = container.getBoltUri();
    process.env.NEO4J_USER = 'neo4j';
    process.env.NEO4J_PASSWORD = 'graph-recall-test';
    (globalThis as Record<string, unknown>).__NEO4J_CONTAINER__ = container;
    return;
  }
  const env = {
    ...process.env,
    NEO4J_BOLT_PORT: process.env.TEST_NEO4J_BOLT_PORT || '17687',
    NEO4J_HTTP_PORT: process.env.TEST_NEO4J_HTTP_PORT || '17474',
    NEO4J_DATA_DIR: process.env.TEST_NEO4J_DATA_DIR || '.data/neo4j-test',
    NEO4J_PASSWORD: 'graph-recall-test',
    NEO4J_HEAP: process.env.NEO4J_HEAP || '2g',
  };
  const launcher = path.resolve(import.meta.dirname ?? '.', '..', 'docker', 'neo4j.mjs');
  const r = spawnSync('node', [launcher, 'start'], { env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('integration tests need Neo4j: the JVM launcher failed to start it (see above)');
  process.env.NEO4J_URI = `bolt://127.0.0.1:${env.NEO4J_BOLT_PORT}`;
  process.env.NEO4J_USER = 'neo4j';
  process.env.NEO4J_PASSWORD = 'graph-recall-test';
  process.env.GRAPH_RECALL_TEST_LAUNCHED = '1';
  // What the launcher was started with, so a test can stop and start the same database (test/integration/lifecycle/outage.test.ts).
  process.env.NEO4J_BOLT_PORT = env.NEO4J_BOLT_PORT;
  process.env.NEO4J_HTTP_PORT = env.NEO4J_HTTP_PORT;
  process.env.NEO4J_DATA_DIR = env.NEO4J_DATA_DIR;
  process.env.NEO4J_HEAP = env.NEO4J_HEAP;
}

async function dockerAnswers(): Promise<boolean> {
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 5000 });
  return r.status === 0 && r.stdout.trim().length > 0;
}
