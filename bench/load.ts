/**
 * Load benchmark: the real HTTP server (createApp, in this process, on a loopback
 * port) against a dataset's dev graph (the eval harness's cached database), with
 * POST /v1/retrieve driven by autocannon at 1, 4 and 16 concurrent connections
 * per mode. Each request carries a dev question and its embedding (computed
 * once, up front, so the load is retrieval: pass --server-embed to send the
 * question alone and let the server embed it). Prints requests/s, p50 and p99
 * per mode and concurrency, each mode's requests/s against vector's at the same
 * concurrency, and p99 / p50.
 *
 *   npm run bench:load -- [--dataset bench/data/musique] [--modes vector,hybrid,gated,ppr]
 *                         [--connections 1,4,16] [--duration 15] [--questions 40] [--server-embed]
 *
 * Requests/s, p50 and p99 are of the 200 answers; every other answer is counted
 * and reported. A 503 is admission control refusing what it cannot run or queue
 * (RETRIEVE_CONCURRENCY running, RETRIEVE_QUEUE waiting: 4 + 8 by default, both
 * read from the environment as the server reads them); autocannon sends the next
 * request at once instead of waiting for Retry-After, so a 503 costs little but
 * is not a served request. A 5xx other than 503 is a defect.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createExtractiveGenerator } from '../server/answer/extractive.js';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createEmbedder } from '../server/embedders/index.js';
import { createLogger } from '../server/logger.js';
import { MODE_NAMES, type Mode } from '../server/retrieval/params.js';
import { embedQuestion } from '../server/retrieval/service.js';
import { createServices } from '../server/compose.js';
import { datasetFiles, devQuestions, openCorpus } from './database.js';
import { percentile } from './lib/metrics.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bench/data/musique' },
    modes: { type: 'string', default: MODE_NAMES.join(',') },
    connections: { type: 'string', default: '1,4,16' },
    duration: { type: 'string', default: '15' },
    questions: { type: 'string', default: '40' },
    'server-embed': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`usage: npm run bench:load -- [--dataset bench/data/musique] [--modes vector,hybrid,gated,ppr]
                                [--connections 1,4,16] [--duration 15] [--questions 40] [--server-embed]`);
  process.exit(0);
}

const list = (s: string, name: string) => {
  const xs = s.split(',').map((x) => x.trim());
  if (!xs.length || xs.some((x) => !x)) throw new Error(`--${name}: a comma-separated list, got ${s}`);
  return xs;
};
const modes = list(values.modes!, 'modes') as Mode[];
for (const m of modes) if (!MODE_NAMES.includes(m)) throw new Error(`--modes: unknown mode ${m} (${MODE_NAMES.join(', ')})`);
const connections = list(values.connections!, 'connections').map(Number);
const duration = Number(values.duration);
const nQuestions = Number(values.questions);
for (const [name, xs] of [
  ['connections', connections],
  ['duration', [duration]],
  ['questions', [nQuestions]],
] as const) {
  if (xs.some((x) => !Number.isInteger(x) || x < 1)) throw new Error(`--${name}: whole numbers >= 1`);
}

const { dir, corpus, devFile } = datasetFiles(values.dataset!);

const base = loadConfig();
const embedder = await createEmbedder(base);
const { db } = await openCorpus(base, embedder, dir, corpus);
const texts = devQuestions(devFile).slice(0, nQuestions);
const bodies: Record<Mode, string[]> = Object.fromEntries(modes.map((m) => [m, [] as string[]])) as Record<Mode, string[]>;
for (const question of texts) {
  const embedding = values['server-embed'] ? undefined : (await embedQuestion(embedder, { question })).embedding;
  for (const m of modes) bodies[m].push(JSON.stringify({ mode: m, question, ...(embedding ? { questionEmbedding: embedding } : {}) }));
}

// The server as `npm start` runs it, against the eval database.
const config = { ...base, neo4j: { ...base.neo4j, ...db.connection, embedded: false } };
const services = await createServices(config, {
  embedder,
  logger: createLogger(process.env.LOG_LEVEL || 'silent'),
  generator: async () => createExtractiveGenerator(),
});
const server: Server = await new Promise((resolve) => {
  const s = createApp(services).listen(0, '127.0.0.1', () => resolve(s));
});
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

interface Row {
  mode: Mode;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  other: Record<string, number>;
}

/**
 * One autocannon run: `c` connections for `duration` s, each request the next question in turn.
 * Latency is taken per 200 answer (a connection has one request in flight, so its context holds
 * the start time): the quick 503s of admission control would otherwise pull the percentiles down.
 */
async function load(mode: Mode, c: number, seconds: number): Promise<Row> {
  let next = 0;
  const statuses: Record<string, number> = {};
  const okMs: number[] = [];
  const result = await autocannon({
    url: `${url}/v1/retrieve`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: c,
    duration: seconds,
    timeout: 60,
    requests: [
      {
        setupRequest: (req, context: { t0?: number }) => {
          context.t0 = performance.now();
          return { ...req, body: bodies[mode][next++ % bodies[mode].length] };
        },
        onResponse: (status, _body, context: { t0?: number }) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status === 200 && context.t0 !== undefined) okMs.push(performance.now() - context.t0);
        },
      },
    ],
  });
  const { 200: ok = 0, ...other } = statuses;
  if (result.errors || result.timeouts) other.errors = result.errors + result.timeouts;
  // Throughput counts 200s only: a quick refusal is not a served request.
  return { mode, connections: c, rps: ok / seconds, p50: Math.round(percentile(okMs, 50)), p99: Math.round(percentile(okMs, 99)), ok, other };
}

const rows: Row[] = [];
try {
  // Warm-up, untimed: a mode's first request plans its statement (seconds), and on a freshly
  // started database the next one or two are slow too; then a short run. Their times are printed.
  for (const m of modes) {
    const warm: string[] = [];
    for (let k = 0; k < 4; k++) {
      const res = await fetch(`${url}/v1/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[m][k % bodies[m].length] });
      const body = (await res.json()) as { timings?: { totalMs: number } };
      if (res.status !== 200) throw new Error(`${m}: a warm-up request got ${res.status} ${JSON.stringify(body)}`);
      warm.push(`${Math.round(body.timings!.totalMs)} ms`);
    }
    await load(m, 1, 3);
    console.log(`${m}: warm-up requests took ${warm.join(', ')}`);
  }
  for (const c of connections) {
    for (const m of modes) {
      const r = await load(m, c, duration);
      rows.push(r);
      console.log(`${m} x${c}: ${r.rps.toFixed(1)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.ok} x 200 ${JSON.stringify(r.other)}`);
    }
  }
} finally {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await services.store.close();
  db.stop();
}

console.log(
  `\n${path.basename(dir)} dev graph, ${texts.length} questions, ${duration} s per run, ${values['server-embed'] ? 'question text only (the server embeds)' : 'question and its embedding'}; requests/s, p50 and p99 count 200s only`,
);
console.log('| mode | connections | req/s | p50 ms | p99 ms | p99 / p50 | req/s / vector | other answers |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const vector = rows.find((x) => x.mode === 'vector' && x.connections === r.connections);
  console.log(
    `| ${r.mode} | ${r.connections} | ${r.rps.toFixed(1)} | ${r.p50} | ${r.p99} | ${(r.p99 / Math.max(r.p50, 1)).toFixed(2)} | ${vector ? (r.rps / vector.rps).toFixed(2) : '-'} | ${Object.keys(r.other).length ? JSON.stringify(r.other) : '-'} |`,
  );
}
process.exit(0);
