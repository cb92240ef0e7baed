// Subject: overload: caps, queues and 503 overloaded with Retry-After.
import type { Driver } from 'neo4j-driver';
import { loadConfig } from '../../../server/config.js';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { manageProjection } from '../../../server/db/projection.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph } from '../../support/fixtures.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

const f = bridgeFixture();
const embedder = createHashEmbedder(384);
const API_KEY = 'ops-load-key';
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, f.graph);
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
  srv = await startServer({
    embedder,
    config: {
      apiKey: API_KEY,
      admission: { retrieve: { concurrency: 2, queue: 2 } },
    },
  });
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

async function metrics(): Promise<string> {
  const res = await fetch(`${srv.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** The value of one series, by name and exact label set as printed (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('admission control', () => {
  it('32 concurrent retrievals against a cap of 2 and a queue of 2: the rest get 503 overloaded with Retry-After, no other 5xx', async () => {
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) => postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode: i % 2 ? 'ppr' : 'gated' })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 503);
    expect(ok.length + refused.length).toBe(32);
    expect(ok.length).toBeGreaterThanOrEqual(4);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.body.error.code).toBe('overloaded');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (const r of ok) expect(r.body.passages.length).toBeGreaterThan(0);
    // Every slot is back: the next request runs.
    const after = await postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'vector' });
    expect(after.status).toBe(200);
  });

  it('leaves health and metrics outside the gates', async () => {
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => postJson(`${srv.url}/v1/retrieve`, { questionEmbedding: f.question, mode: 'ppr' })),
      fetch(`${srv.url}/v1/health`).then((r) => ({ status: r.status })),
      fetch(`${srv.url}/metrics`).then((r) => ({ status: r.status })),
    ]);
    expect(results.slice(8).map((r) => r.status)).toEqual([200, 200]);
  });

  it('leaves document writes outside the gates: a burst is queued as jobs (201 or 202), never refused', async () => {
    const doc = (i: number) => ({ documents: [{ title: `Load ${i}`, text: `Ada Lovelace worked with Charles Babbage on engine number ${i}.` }] });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => postJson(`${srv.url}/v1/documents`, doc(i), { 'x-api-key': API_KEY })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 202)).toBe(true);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThan(0);
    // Every job done before the metrics test counts them.
    for (const r of results.filter((x) => x.status === 202)) {
      for (;;) {
        const { job } = await (await fetch(`${srv.url}${r.headers.get('location')}`)).json();
        if (job.status === 'done') break;
        expect(['queued', 'running']).toContain(job.status);
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  });
});

describe('GET /metrics', () => {
  it('exposes requests by route and status, retrieval latency per mode and phase, admission, ingest and projection series', async () => {
    await postJson(`${srv.url}/v1/compare`, { questionEmbedding: f.question, modes: ['vector', 'hybrid'] });
    // The gauge follows the server's projection manager: building while its rebuild runs, ready after.
    const rebuilt = srv.services.retriever.projection.requestRebuild();
    expect(sample(await metrics(), 'graph_recall_projection_state{state="building"}')).toBe(1);
    await rebuilt;
    const text = await metrics();
    expect(sample(text, 'graph_recall_http_requests_total{method="POST",route="/v1/retrieve",status="200"}')).toBeGreaterThanOrEqual(4);
    expect(sample(text, 'graph_recall_http_requests_total{method="POST",route="/v1/retrieve",status="503"}')).toBeGreaterThan(0);
    expect(sample(text, 'graph_recall_requests_rejected_total{kind="retrieve"}')).toBeGreaterThan(0);
    expect(sample(text, 'graph_recall_requests_in_flight{kind="retrieve"}')).toBe(0);
    expect(sample(text, 'graph_recall_requests_queued{kind="retrieve"}')).toBe(0);
    for (const mode of ['gated', 'ppr', 'vector', 'hybrid']) {
      for (const phase of ['embed', 'db', 'total']) {
        expect(sample(text, `graph_recall_retrieval_seconds_count{mode="${mode}",phase="${phase}"}`)).toBeGreaterThan(0);
      }
    }
    expect(text).toMatch(/^graph_recall_retrieval_seconds_bucket\{le="0\.1",mode="ppr",phase="db"\} \d+$/m);
    expect(sample(text, 'graph_recall_ingested_documents_total')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'graph_recall_ingested_passages_total')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'graph_recall_projection_state{state="ready"}')).toBe(1);
    expect(sample(text, 'graph_recall_projection_state{state="building"}')).toBe(0);
    expect(text).toMatch(/^graph_recall_process_resident_memory_bytes \d+/m);
  });
});

it('has defaults for 2 cores', () => {
  expect(loadConfig({}).admission).toEqual({ retrieve: { concurrency: 4, queue: 8 } });
});
