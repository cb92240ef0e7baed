// Subject: the answers to a real Neo4j over its memory limits: a retrieval over db.memory.transaction.max
// answers 400, a write over it 413, and a request that finds dbms.memory.transaction.total.max full 503.
import { wipeGraph } from '../../../bench/lib/wipe.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import neo4j, { type Driver, type Session, type Transaction } from 'neo4j-driver';
import { ROOT } from '../../../server/config.js';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { randomUnit, rng } from '../../support/db.js';
import { bridgeFixture, loadGraph, type FixtureGraph } from '../../support/fixtures.js';
import { waitForJob } from '../../support/jobs.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

/**
 * A Neo4j of its own, started by the embedded launcher with small limits (NEO4J_TRANSACTION_MAX
 * 16m, NEO4J_TRANSACTION_TOTAL_MAX 48m), so that real requests cross them. The errors are
 * Neo4j's own (Neo.TransientError.General.MemoryPoolOutOfMemoryError), not made by hand.
 */
const PORTS = { bolt: Number(process.env.TEST_MEMORY_NEO4J_BOLT_PORT || 18687), http: Number(process.env.TEST_MEMORY_NEO4J_HTTP_PORT || 18474) };
const PASSWORD = process.env.NEO4J_PASSWORD || 'graph-recall-test';
const launcherEnv = {
  ...process.env,
  NEO4J_BOLT_PORT: String(PORTS.bolt),
  NEO4J_HTTP_PORT: String(PORTS.http),
  NEO4J_DATA_DIR: process.env.TEST_MEMORY_NEO4J_DATA_DIR || '.data/neo4j-memory-test',
  NEO4J_PASSWORD: PASSWORD,
  NEO4J_HEAP: '512m',
  NEO4J_PAGECACHE: '128m',
  NEO4J_TRANSACTION_MAX: '16m',
  NEO4J_TRANSACTION_TOTAL_MAX: '48m',
};
const launcher = path.resolve(import.meta.dirname ?? '.', '..', '..', '..', 'docker', 'neo4j.mjs');
const launch = (cmd: 'start' | 'stop') => spawnSync('node', [launcher, cmd], { env: launcherEnv, stdio: 'inherit' });
const KEY = 'memory-test-key';

/** The bridge fixture and 1,500 random entities around it, written a few hundred nodes per transaction. */
function largeGraph(): FixtureGraph {
  const rand = rng(5);
  const base = bridgeFixture().graph;
  const entities = Array.from({ length: 1500 }, (_, i) => ({
    id: `bulk-${i}`,
    name: `Bulk Entity ${i}`,
    embedding: randomUnit(rand),
    descriptionEmbedding: randomUnit(rand),
  }));
  const all = [...base.entities, ...entities];
  const pick = () => all[Math.floor(rand() * all.length)].id;
  const relations = Array.from({ length: 9000 }, () => ({ from: pick(), to: pick(), type: 'RELATED', predicate: 'near' })).filter((r) => r.from !== r.to);
  const passages = Array.from({ length: 400 }, (_, i) => ({
    id: `bulk-p${i}`,
    title: `Bulk ${i}`,
    text: `Bulk passage ${i}.`,
    embedding: randomUnit(rand),
    mentions: [pick(), pick(), pick()],
  }));
  return { entities: [...base.entities, ...entities], passages: [...base.passages, ...passages], relations: [...base.relations, ...relations] };
}

async function loadInChunks(driver: Driver, g: FixtureGraph) {
  for (let i = 0; i < g.entities.length; i += 200) await loadGraph(driver, { entities: g.entities.slice(i, i + 200), passages: [], relations: [] });
  for (let i = 0; i < g.passages.length; i += 200) await loadGraph(driver, { entities: [], passages: g.passages.slice(i, i + 200), relations: [] });
  for (let i = 0; i < g.relations.length; i += 2000) await loadGraph(driver, { entities: [], passages: [], relations: g.relations.slice(i, i + 2000) });
}

let driver: Driver;
let srv: RunningServer;
const question = bridgeFixture().question;

beforeAll(async () => {
  if (launch('start').status !== 0) {
    // The folder is this test's alone: one left by a run with another password (fixed when the folder was made) or
    // half-made by an interrupted first start is made anew, once.
    launch('stop');
    fs.rmSync(path.resolve(ROOT, launcherEnv.NEO4J_DATA_DIR), { recursive: true, force: true });
    if (launch('start').status !== 0) throw new Error('the memory-limit test needs its own Neo4j: the launcher failed to start it (see above)');
  }
  driver = neo4j.driver(`bolt://127.0.0.1:${PORTS.bolt}`, neo4j.auth.basic('neo4j', PASSWORD));
  // What an earlier run left, a few nodes per transaction (the limit is small).
  await wipeGraph(driver, { batch: 100 });
  srv = await startServer({ embedder: createHashEmbedder(384), uri: `bolt://127.0.0.1:${PORTS.bolt}`, config: { apiKey: KEY } });
  await loadInChunks(driver, largeGraph());
}, 600_000);
afterAll(async () => {
  await srv?.close();
  await driver?.close();
  launch('stop');
}, 120_000);

const retrieve = (params: Record<string, unknown>) =>
  postJson(`${srv.url}/v1/retrieve`, { question: 'Who designed the engine?', questionEmbedding: question, mode: 'ppr', params });
/** ppr's push with nothing held back, over every node: its residual and neighbour lists outgrow 16 MiB. */
const HEAVY = { pushRounds: 6, pushEpsilon: 0, pushFrontier: 10000, entityK: 500, candidateK: 5000 };

test('a retrieval that needs more than db.memory.transaction.max answers 400 naming params; the same at the defaults answers 200', async () => {
  const heavy = await retrieve(HEAVY);
  expect(heavy.status).toBe(400);
  expect(heavy.body.error).toMatchObject({ code: 'invalid_param', field: 'params' });
  expect(heavy.body.error.message).toMatch(/db\.memory\.transaction\.max/);
  const plain = await retrieve({});
  expect(plain.status).toBe(200);
  expect(plain.body.passages.length).toBeGreaterThan(0);
}, 120_000);

test('a write that needs more than db.memory.transaction.max answers 413 and writes nothing', async () => {
  // 45 documents of 200,000 characters: within the body limit and the job queue, over 16 MiB in one transaction.
  const text = 'word '.repeat(40_000).trim();
  const documents = Array.from({ length: 45 }, (_, i) => ({ id: `big-${i}`, title: `Big ${i}`, text }));
  const r = await postJson(`${srv.url}/v1/documents`, { documents }, { 'x-api-key': KEY });
  expect(r.status).toBe(413);
  expect(r.body.error).toMatchObject({ code: 'too_large' });
  expect(r.body.error.message).toMatch(/db\.memory\.transaction\.max/);
  const { records } = await driver.executeQuery("MATCH (d:Document) WHERE d.id STARTS WITH 'big-' RETURN count(d) AS n");
  expect(Number(records[0].get('n'))).toBe(0);
}, 300_000);

test('a retrieval that finds the transaction memory pool full answers 503 with Retry-After; once it is freed, 200', async () => {
  // Open transactions that each hold a sorted list of 20,000 rows (about 2 MiB) until the pool refuses one.
  const held: { session: Session; tx: Transaction }[] = [];
  let refused: Error | undefined;
  try {
    while (!refused && held.length < 100) {
      const session = driver.session({ fetchSize: 1 });
      // A full pool may refuse the transaction itself.
      const tx = await session.beginTransaction().catch((e: Error) => {
        refused = e;
        return undefined;
      });
      if (!tx) {
        await session.close().catch(() => undefined);
        break;
      }
      held.push({ session, tx });
      // The first row comes once the sort has buffered every row: the memory is held from then on.
      await new Promise<void>((resolve) => {
        const sub = tx.run('UNWIND range(1, 20000) AS x WITH x ORDER BY x DESC RETURN x').subscribe({
          onNext: () => resolve(),
          onCompleted: () => resolve(),
          onError: (e: Error) => {
            refused = e;
            resolve();
          },
        });
        void sub;
      });
    }
    expect(String(refused?.message)).toMatch(/dbms\.memory\.transaction\.total\.max/);
    const full = await retrieve({});
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe('overloaded');
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
  } finally {
    for (const h of held) {
      await h.tx.rollback().catch(() => undefined);
      await h.session.close().catch(() => undefined);
    }
  }
  const freed = await retrieve({});
  expect(freed.status).toBe(200);
}, 300_000);

test('an ingest job whose batch needs more than db.memory.transaction.max fails with too_large, and nothing of it is written', async () => {
  // A document of 199,000 characters with many names: one batch of its passages and entities outgrows 16 MiB.
  const text = Array.from({ length: 30000 }, (_, i) => `Name${i % 5000} met Person${(i * 7) % 5000} in City${i % 300}.`)
    .join(' ')
    .slice(0, 199_000);
  const r = await postJson(`${srv.url}/v1/documents`, { documents: [{ id: 'long-1', title: 'Long', text }] }, { 'x-api-key': KEY });
  expect(r.status).toBe(202);
  const job = await waitForJob(srv.url, r.headers.get('location')!);
  expect(job.status).toBe('failed');
  expect(job.error).toMatchObject({ code: 'too_large', message: expect.stringMatching(/db\.memory\.transaction\.max/) });
  const { records } = await driver.executeQuery("MATCH (p:Passage) WHERE p.documentId = 'long-1' RETURN count(p) AS n");
  expect(Number(records[0].get('n'))).toBe(0);
}, 600_000);
