/**
 * `/v1/health` latency while a 200 KB document is ingested, and the server's RSS before and
 * after, for each EMBED_WORKERS setting given (default: 0 = embedding on the event loop, the old
 * behaviour, then 1 = the worker pool). For each, it starts `graph-recall serve` itself (local
 * embedder, offline extractor, no demo corpus) against NEO4J_URI, posts one document built
 * from the MuSiQue sample, polls /v1/health every 50 ms until the write is done, and stops it.
 * The write is a job (docs/jobs.md): a 202 at once, then GET /v1/jobs/:id until it is done (a
 * write small enough to answer 201 ends with its response).
 *
 *   NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_PASSWORD=... npx tsx bench/health-under-ingest.ts [--workers 0,1] [--kb 200]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../server/config.js';

const { values } = parseArgs({
  options: { workers: { type: 'string', default: '0,1' }, kb: { type: 'string', default: '200' }, path: { type: 'string', default: '/v1/health' } },
});
const KEY = 'bench-health-key';

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

function document(chars: number, tag: string): { title: string; text: string } {
  const lines = readFileSync(path.join(ROOT, 'bench/data/musique/corpus.jsonl'), 'utf8').split('\n').filter(Boolean);
  let text = '';
  for (const l of lines) {
    const p = JSON.parse(l) as { title: string; text: string };
    if (text.length + p.text.length + 2 > chars) break;
    text += `${p.title}. ${p.text}\n\n`;
  }
  return { title: `health bench ${tag} ${Date.now()}`, text };
}

function start(workers: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/graph-recall.mjs'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DEMO_CORPUS: 'none', EMBEDDER: 'local', EXTRACTOR: 'offline', API_KEY: KEY, EMBED_WORKERS: workers, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, c);
      // The port opens at once; the API answers from "graph-recall answers" on, every mode from "graph-recall ready".
      const m = /"url":"(http:[^"]+)".*graph-recall ready/.exec(buf);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

const rows: string[] = [];
for (const workers of values.workers!.split(',')) {
  const { child, url } = await start(workers);
  // One small request first, so the model is loaded (and the worker started) before measuring.
  await fetch(`${url}/v1/retrieve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'warm up', mode: 'vector' }),
  });
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = rssMiB(child.pid!);
  const doc = document(Number(values.kb) * 1000, `w${workers}`);
  let done = false;
  let peak = rssBefore;
  const t0 = performance.now();
  // node:http, not fetch: fetch gives up on response headers after 300 s, and a slow ingest can take longer.
  const payload = JSON.stringify({ documents: [doc] });
  const posted = new Promise<{ status: number; location?: string; body: { passages?: number; job?: { id: string } } }>((resolve, reject) => {
    const req = http.request(`${url}/v1/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'content-length': Buffer.byteLength(payload) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: JSON.parse(text || '{}') }));
    });
    req.on('error', (e) => {
      done = true;
      reject(e);
    });
    req.end(payload);
  });
  // The job's result (202), or the 201's counts; `done` once the write has finished.
  const post = posted.then(async (r) => {
    if (r.status !== 202 || !r.location) return { ...r, seen: `${r.status}` };
    for (;;) {
      const { job } = (await (await fetch(`${url}${r.location}`)).json()) as { job: { status: string; result?: { passages?: number } } };
      if (job.status !== 'queued' && job.status !== 'running') return { status: r.status, body: job.result ?? {}, seen: `202 -> ${job.status}` };
      await new Promise((res) => setTimeout(res, 500));
    }
  });
  void post.finally(() => (done = true));
  const lat: number[] = [];
  let errors = 0;
  while (!done) {
    const t = performance.now();
    // A fresh connection each time (agent: false): a keep-alive socket may be closed by the server as it is reused.
    await new Promise<void>((resolve) => {
      http
        .get(`${url}${values.path}`, { agent: false }, (r) => {
          r.resume();
          r.on('end', () => resolve());
        })
        .on('error', () => {
          errors++;
          resolve();
        });
    });
    lat.push(performance.now() - t);
    if (process.env.BENCH_TRACE) appendFileSync(process.env.BENCH_TRACE, `${((t - t0) / 1000).toFixed(2)} ${(performance.now() - t).toFixed(0)}\n`);
    peak = Math.max(peak, rssMiB(child.pid!));
    await new Promise((r) => setTimeout(r, 50));
  }
  const res = await post;
  const ingestS = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  const rssAfter = rssMiB(child.pid!);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rows.push(
    `EMBED_WORKERS=${workers} | ${doc.text.length} | ${res.seen} ${res.body.passages ?? ''} | ${ingestS.toFixed(1)} | ${lat.length} (${errors} failed) | ${pct(lat, 50).toFixed(0)} | ${pct(lat, 99).toFixed(0)} | ${Math.max(...lat).toFixed(0)} | ${rssBefore} | ${peak} | ${rssAfter}`,
  );
}
console.log('setting | doc chars | POST status (-> job), passages | ingest s | health calls | p50 ms | p99 ms | max ms | RSS before MiB | peak | after (+3 s)');
for (const r of rows) console.log(r);
