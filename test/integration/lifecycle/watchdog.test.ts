// Subject: server/db/watch.ts and the driver's pool: a busy server or a stalled database is not an outage until it lasts.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { ROOT } from '../../../server/config.js';
import { classifyDbError, createDriver } from '../../../server/db/driver.js';
import { DatabaseWatch, STALL_DOWN_MS } from '../../../server/db/watch.js';
import { fromDbError } from '../../../server/retrieval/db-errors.js';
import { testNeo4jConfig } from '../../support/db.js';

/**
 * Under a burst of writes the server once answered readers 503 `database_unavailable` while the
 * database ran: a slow probe or a full connection pool looked like an outage. Here the database
 * is frozen for real (SIGSTOP to the Neo4j JVM that docker/neo4j.mjs started: it keeps its
 * sockets and answers nothing, as in a long GC pause), and the pool is filled for real.
 * The database must be the one the launcher manages (NEO4J_DATA_DIR holds its pid file, as
 * .ci/run and test/global-setup.ts set it); otherwise the test fails, naming what to set.
 */
const cfg = testNeo4jConfig();
const pidFile = path.resolve(ROOT, process.env.NEO4J_DATA_DIR ?? '.data/neo4j-test', 'neo4j.pid');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let frozen: number | undefined;

function freeze(): void {
  if (!fs.existsSync(pidFile)) throw new Error(`no Neo4j pid file at ${pidFile}: run through jest's globalSetup with NEO4J_DATA_DIR set`);
  frozen = Number(fs.readFileSync(pidFile, 'utf8'));
  process.kill(frozen, 'SIGSTOP');
}
function thaw(): void {
  if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
  frozen = undefined;
}
afterAll(thaw);

/** A watch of the test database on a connection of its own, polling every 0.5 s, that pushes 'down' and 'up' into `events`. */
const watchEvents = (events: string[]) =>
  new DatabaseWatch(createDriver(cfg, 1), {
    ownsDriver: true,
    database: 'neo4j',
    graphName: 'watchdog-test',
    intervalMs: 500,
    onDown: () => events.push('down'),
    onUp: () => events.push('up'),
  }).start();

test("a pool whose every connection stays in use is the server's load (503 overloaded), not the database unreachable", async () => {
  const driver: Driver = createDriver(cfg, 1);
  const holder = driver.session();
  const tx = await holder.beginTransaction();
  try {
    await tx.run('RETURN 1');
    const other = driver.session();
    const failure = await other.run('RETURN 1').then(
      () => undefined,
      (e: Error) => e,
    );
    await other.close();
    expect(failure?.message).toMatch(/^Connection acquisition timed out/);
    expect(classifyDbError(failure)).toBe('saturated');
    expect(fromDbError(failure, 30_000)).toMatchObject({ code: 'overloaded', retryAfterSeconds: 1 });
  } finally {
    await tx.rollback();
    await holder.close();
    await driver.close();
  }
}, 60_000);

test(`a database that stops answering is down after ${STALL_DOWN_MS / 1000} s without an answer, not before; then up again`, async () => {
  const events: string[] = [];
  const watch = watchEvents(events);
  try {
    for (let i = 0; i < 100 && watch.reachable !== true; i++) await sleep(100);
    expect(watch.reachable).toBe(true);

    // Shorter than the bound: four probes go unanswered in a row (each 2 s), and the watch waits.
    freeze();
    await sleep(STALL_DOWN_MS - 1_000);
    thaw();
    await sleep(2_000);
    expect(events).toEqual([]);
    expect(watch.reachable).toBe(true);

    // Longer than the bound: down while frozen, up once it answers.
    freeze();
    await sleep(STALL_DOWN_MS + 4_000);
    expect(events).toEqual(['down']);
    expect(watch.reachable).toBe(false);
    thaw();
    for (let i = 0; i < 300 && watch.reachable !== true; i++) await sleep(100);
    expect(events).toEqual(['down', 'up']);
  } finally {
    thaw();
    watch.stop();
  }
}, 120_000);

test('a watch whose first probe goes unanswered (a new connection to a busy, cold database) waits as well: no outage', async () => {
  const events: string[] = [];
  // Frozen before the watch starts, past the driver's connection timeout (5 s: "Failed to establish connection"), for
  // less than STALL_DOWN_MS: its first probes go unanswered, then its connection attempt times out.
  freeze();
  const watch = watchEvents(events);
  try {
    await sleep(STALL_DOWN_MS - 3_000);
    expect(watch.reachable).not.toBe(false);
    thaw();
    for (let i = 0; i < 100 && watch.reachable !== true; i++) await sleep(100);
    expect(watch.reachable).toBe(true);
    expect(events).toEqual([]);
  } finally {
    thaw();
    watch.stop();
  }
}, 60_000);

test('connections that are reset (not refused) are unanswered probes: down after the same 10 s, not at once', async () => {
  // A listener that accepts and closes every connection: no Bolt answer, but no refusal either.
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const events: string[] = [];
  const watch = new DatabaseWatch(createDriver({ ...cfg, uri: `bolt://127.0.0.1:${port}` }, 1), {
    ownsDriver: true,
    database: 'neo4j',
    graphName: 'watchdog-test',
    intervalMs: 500,
    onDown: () => events.push('down'),
  }).start();
  try {
    await sleep(STALL_DOWN_MS / 2);
    expect(events).toEqual([]);
    await sleep(STALL_DOWN_MS / 2 + 3_000);
    expect(events).toEqual(['down']);
  } finally {
    watch.stop();
    server.close();
  }
}, 60_000);

test('an index coming online or dropped is a schema change (Neo4j drops its plans then); polls that find none are not', async () => {
  let changes = 0;
  const watch = new DatabaseWatch(createDriver(cfg, 1), {
    ownsDriver: true,
    database: 'neo4j',
    graphName: 'watchdog-test',
    intervalMs: 200,
    onSchemaChange: () => changes++,
  }).start();
  // A DBA's session, beside the watch's.
  const dba = createDriver(cfg, 2);
  const run = (text: string) => dba.executeQuery(text, {}, { database: 'neo4j' });
  const until = async (done: () => boolean, ms: number) => {
    for (let waited = 0; !done() && waited < ms; waited += 100) await sleep(100);
  };
  try {
    await until(() => watch.reachable === true, 10_000);
    expect(watch.reachable).toBe(true);
    await sleep(1_500);
    expect(changes).toBe(0);

    await run('CREATE INDEX watchdog_test_index IF NOT EXISTS FOR (n:WatchdogTest) ON (n.x)');
    await run('CALL db.awaitIndexes(60)');
    await until(() => changes > 0, 10_000);
    expect(changes).toBeGreaterThan(0);
    // (An empty label's index is online at once.) Unchanged: no more calls.
    await sleep(1_000);
    const created = changes;
    await sleep(1_500);
    expect(changes).toBe(created);

    await run('DROP INDEX watchdog_test_index');
    await until(() => changes > created, 10_000);
    expect(changes).toBe(created + 1);
  } finally {
    await run('DROP INDEX watchdog_test_index IF EXISTS');
    watch.stop();
    await dba.close();
  }
}, 60_000);
