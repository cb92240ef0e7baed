// Subject: closing: SIGTERM, in-flight requests, the database left consistent.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import type { Driver } from 'neo4j-driver';
import { manageProjection } from '../../../server/db/projection.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph } from '../../support/fixtures.js';
import { spawnServe } from '../../support/cli.js';

const f = bridgeFixture();
let driver: Driver;
let child: ChildProcess | undefined;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, f.graph);
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await driver?.close();
});

/** Resolves with the first stdout line that matches, collecting the output. */
function waitForLine(p: ChildProcess, re: RegExp, out: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        out.push(l);
        if (re.test(l)) {
          p.stdout!.off('data', onData);
          resolve(l);
          return;
        }
      }
    };
    p.stdout!.on('data', onData);
    p.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing ${re}:\n${out.join('\n')}`)));
  });
}

test('SIGTERM: the in-flight request completes with 200, then the process exits 0 and the port is closed', async () => {
  const out: string[] = [];
  child = spawnServe({ EMBEDDER: 'hash', DEMO_CORPUS: 'none', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '60000' });
  child.stderr!.on('data', (c: Buffer) => out.push(c.toString()));
  const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
  // The port opens at once (health says loading); the API answers once the server is ready.
  const listening = await waitForLine(child, /graph-recall listening/, out);
  const url = new URL(JSON.parse(listening).url as string);
  await waitForLine(child, /graph-recall ready/, out);
  const port = Number(url.port);

  // A request whose body is still arriving when the signal comes: the server has its headers
  // (it answered 100-continue), so it is in flight, and it cannot finish before we send the rest.
  const body = JSON.stringify({ questionEmbedding: f.question, mode: 'ppr' });
  const half = Math.floor(body.length / 2);
  const req = http.request({
    host: url.hostname,
    port,
    path: '/v1/retrieve',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  await new Promise<void>((r) => req.once('continue', () => r()));
  req.write(body.slice(0, half));

  const stopping = waitForLine(child, /shutting down/, out);
  child.kill('SIGTERM');
  await stopping;
  req.end(body.slice(half));

  const res = await response;
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body).passages.length).toBeGreaterThan(0);
  expect(await exited).toBe(0);
  const refused = await new Promise<boolean>((resolve) => {
    const s = net.connect(port, url.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
  expect(refused).toBe(true);
}, 180_000);
