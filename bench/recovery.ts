/**
 * Per-mode recovery after a Neo4j restart (issue 31): the server the CLI builds
 * (`graph-recall serve`, a process of its own) on a database of its own, a
 * stream of requests per mode over reused keep-alive connections (fetch's
 * undici pool), Neo4j stopped and started with docker/neo4j.mjs. Reports, per
 * mode, how long after Neo4j answered again (the first successful
 * driver.verifyConnectivity, polled every 100 ms) its first 200 arrived, every
 * status seen and every request that died at the socket.
 *
 *   npm run bench:recovery [-- --runs 3]
 *
 * Environment: RECOVERY_NEO4J_BOLT_PORT (27691), RECOVERY_NEO4J_HTTP_PORT (27478),
 * RECOVERY_NEO4J_DATA_DIR (.data/bench-recovery), RECOVERY_PORT (8931). The
 * database is kept between runs (the demo corpus loads into it once).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { ROOT } from '../server/config.js';

const BOLT = process.env.RECOVERY_NEO4J_BOLT_PORT || '27691';
const HTTP = process.env.RECOVERY_NEO4J_HTTP_PORT || '27478';
const DATA = process.env.RECOVERY_NEO4J_DATA_DIR || '.data/bench-recovery';
const PASSWORD = 'graph-recall-recovery';
const PORT = process.env.RECOVERY_PORT || '8931';
const BASE = `http://127.0.0.1:${PORT}`;
const LAUNCHER = path.join(ROOT, 'docker', 'neo4j.mjs');
const neo4jEnv = { ...process.env, NEO4J_BOLT_PORT: BOLT, NEO4J_HTTP_PORT: HTTP, NEO4J_DATA_DIR: DATA, NEO4J_PASSWORD: PASSWORD };
const QUESTION = 'Who was the spouse of the performer of the song?';

/** The request streams: two for gated (the default mode, the target), one for each other mode and engine. */
const STREAMS: { name: string; mode: string; params?: Record<string, unknown> }[] = [
  { name: 'gated', mode: 'gated' },
  { name: 'gated', mode: 'gated' },
  { name: 'ppr', mode: 'ppr' },
  { name: 'ppr-gds', mode: 'ppr', params: { engine: 'gds' } },
  { name: 'vector', mode: 'vector' },
  { name: 'hybrid', mode: 'hybrid' },
];
const NAMES = [...new Set(STREAMS.map((s) => s.name))];

interface Answer {
  name: string;
  at: number;
  end: number;
  status: number;
  retryAfter: string | null;
  error?: string;
}

function launch(cmd: 'start' | 'stop'): void {
  const r = spawnSync(process.execPath, [LAUNCHER, cmd], { env: neo4jEnv, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`neo4j.mjs ${cmd} failed: ${r.stdout}`);
}

function launchAsync(cmd: 'start' | 'stop'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAUNCHER, cmd], { env: neo4jEnv, stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`neo4j.mjs ${cmd} exited ${code}`))));
  });
}

/** The server as the CLI builds it, its log lines kept (the warm-up's per-mode plan times are in them). */
function startServerProcess(log: string[]): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'graph-recall.mjs'), 'serve'], {
    env: {
      ...process.env,
      NEO4J_URI: `bolt://127.0.0.1:${BOLT}`,
      NEO4J_USER: 'neo4j',
      NEO4J_PASSWORD: PASSWORD,
      PORT,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => log.push(...d.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return child;
}

/** Until every mode answers: health 200 and, where the server reports them, every mode ready. */
async function waitReady(deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${BASE}/v1/health`).catch(() => undefined);
    const body = res?.status === 200 ? ((await res.json()) as { modes?: Record<string, string> }) : undefined;
    if (body && Object.values(body.modes ?? {}).every((m) => m === 'ready')) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the server did not become ready');
}

/** The first moment the driver verifies connectivity again (polled every 100 ms), after `since`. */
async function answersAgain(): Promise<number> {
  const driver = neo4j.driver(`bolt://127.0.0.1:${BOLT}`, neo4j.auth.basic('neo4j', PASSWORD), { connectionTimeout: 1000, maxConnectionPoolSize: 1 });
  try {
    for (;;) {
      try {
        await driver.verifyConnectivity({ database: 'neo4j' });
        return Date.now();
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await driver.close();
  }
}

const cause = (e: unknown): string => {
  const c = (e as { cause?: { code?: string; message?: string } }).cause;
  return `${(e as Error).message}${c ? `: ${c.code ?? ''} ${c.message ?? ''}` : ''}`.slice(0, 200);
};

async function oneRun(run: number, log: string[]): Promise<Record<string, unknown>> {
  const answers: Answer[] = [];
  let running = true;
  const stream = async (s: (typeof STREAMS)[number]) => {
    while (running) {
      const at = Date.now();
      try {
        const res = await fetch(`${BASE}/v1/retrieve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: QUESTION, mode: s.mode, ...(s.params ? { params: s.params } : {}) }),
          signal: AbortSignal.timeout(120_000),
        });
        await res.arrayBuffer();
        answers.push({ name: s.name, at, end: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after') });
      } catch (e) {
        answers.push({ name: s.name, at, end: Date.now(), status: -1, retryAfter: null, error: cause(e) });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const streams = STREAMS.map(stream);
  await new Promise((r) => setTimeout(r, 3000));
  const logFrom = log.length;
  const stopAt = Date.now();
  await launchAsync('stop');
  await new Promise((r) => setTimeout(r, 3000));
  const startAt = Date.now();
  const started = launchAsync('start');
  const upAt = await answersAgain();
  await started;
  const firstOk = (name: string) => answers.find((a) => a.name === name && a.status === 200 && a.end >= upAt);
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && !NAMES.every(firstOk)) await new Promise((r) => setTimeout(r, 200));
  // A little longer: a socket error right after recovery would otherwise go unseen.
  await new Promise((r) => setTimeout(r, 2000));
  running = false;
  await Promise.all(streams);

  const recovery = Object.fromEntries(NAMES.map((n) => [n, firstOk(n) ? (firstOk(n)!.end - upAt) / 1000 : null]));
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const socketErrors = answers.filter((a) => a.status === -1).map((a) => `${a.name} at ${((a.at - stopAt) / 1000).toFixed(1)} s: ${a.error}`);
  const noRetryAfter = answers.filter((a) => a.status === 503 && !a.retryAfter).length;
  const unexpected = answers.filter((a) => ![200, 503, -1].includes(a.status)).map((a) => `${a.name} ${a.status} at ${((a.at - upAt) / 1000).toFixed(1)} s`);
  // The server's own account, in seconds from Neo4j answering again: the watchdog's "up", each plan.
  const timeline = log
    .slice(logFrom)
    .map((l) => {
      try {
        return JSON.parse(l) as { msg?: string; time?: number; mode?: string; ms?: number; byMode?: unknown };
      } catch {
        return {};
      }
    })
    .filter((l) => l.time && l.time >= upAt && /answers again|unreachable|planned|tried|warmed up|cancelled|projection/.test(l.msg ?? ''))
    .map(
      (l) => `${((l.time! - upAt) / 1000).toFixed(1)} s ${l.msg}${l.mode ? ` ${l.mode} (${l.ms} ms)` : ''}${l.byMode ? ` ${JSON.stringify(l.byMode)}` : ''}`,
    );
  const result = {
    run,
    neo4jStartSeconds: (upAt - startAt) / 1000,
    recoverySeconds: recovery,
    requests: answers.length,
    statuses,
    noRetryAfter,
    socketErrors,
    unexpected,
    timeline,
    load: os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' '),
  };
  console.log(JSON.stringify(result));
  return result;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 1) || 1;
  launch('start');
  const log: string[] = [];
  const server = startServerProcess(log);
  try {
    await waitReady(900_000);
    const results = [];
    for (let i = 1; i <= runs; i++) {
      results.push(await oneRun(i, log));
      // The next run starts from a server that has planned everything again.
      await waitReady(900_000);
    }
    console.log(`\n| run | ${NAMES.join(' | ')} | requests | socket errors | statuses |`);
    console.log(`|---|${NAMES.map(() => '---|').join('')}---|---|---|`);
    for (const r of results as { run: number; recoverySeconds: Record<string, number | null>; requests: number; socketErrors: string[]; statuses: object }[]) {
      const cells = NAMES.map((n) => (r.recoverySeconds[n] === null ? 'never' : `${r.recoverySeconds[n]!.toFixed(1)} s`));
      console.log(`| ${r.run} | ${cells.join(' | ')} | ${r.requests} | ${r.socketErrors.length} | ${JSON.stringify(r.statuses)} |`);
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
