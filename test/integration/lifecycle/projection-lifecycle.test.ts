// Subject: POST /v1/projection create / refresh / drop and the GDS projection's healing.
/**
 * The ppr projection's lifecycle, as the README and docs/api.md promise it: `POST /v1/projection`
 * creates, refreshes, drops and reports the GDS projection that ppr's GDS engine reads, and the
 * `graph-recall projection` command does the same from the shell (its success path, exit 0).
 * Real Neo4j with GDS, real local embedder, documents ingested through the API.
 */
import type { Driver } from 'neo4j-driver';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { cli } from '../../support/cli.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { postJson, type RunningServer, startServer } from '../../support/server.js';

const KEY = 'projection-lifecycle-key';
const GRAPH = 'lifecycle_ppr';
let driver: Driver;
let embedder: Embedder;
let server: RunningServer;

interface State {
  graphName: string;
  exists: boolean;
  fresh: boolean;
  nodeCount: number | null;
  relationshipCount: number | null;
}

const projection = async (action: string) => {
  const r = await postJson(`${server.url}/v1/projection`, { action }, { 'x-api-key': KEY });
  expect(r.status).toBe(200);
  return r.body as State;
};
const ingest = async (id: string, title: string, text: string) => {
  const r = await postJson(`${server.url}/v1/documents`, { documents: [{ id, title, text }] }, { 'x-api-key': KEY });
  expect(r.status).toBe(201);
};
const pprGds = (question: string) => postJson(`${server.url}/v1/retrieve`, { question, mode: 'ppr', params: { engine: 'gds' } });

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  embedder = await createLocalEmbedder();
  server = await startServer({ embedder, config: { apiKey: KEY, pprGraphName: GRAPH } });
  await ingest('pl-1', 'Ada Lovelace', 'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.');
  await ingest('pl-2', 'Charles Babbage', 'Charles Babbage designed the Difference Engine and was born in London.');
}, 180_000);

afterAll(async () => {
  await server?.close();
  await driver?.close();
  await embedder?.close?.();
});

test('drop: status says it is gone, and ppr on the GDS engine heals it: 503 + Retry-After until rebuilt, then 200', async () => {
  const dropped = await projection('drop');
  expect(dropped).toMatchObject({ graphName: GRAPH, exists: false, fresh: false });
  const seen: string[] = [];
  for (const t0 = Date.now(); Date.now() - t0 < 90_000; ) {
    const r = await pprGds('Who worked with Charles Babbage?');
    seen.push(`${r.status}${r.status === 503 ? `:${r.headers.get('retry-after') ? 'retry-after' : 'none'}` : ''}`);
    if (r.status === 200) break;
    await new Promise((res) => setTimeout(res, 500));
  }
  expect(seen.at(-1)).toBe('200');
  expect(new Set(seen.slice(0, -1))).toEqual(new Set(seen.length > 1 ? ['503:retry-after'] : []));
  expect(await projection('status')).toMatchObject({ graphName: GRAPH, exists: true, fresh: true });
}, 120_000);

test('drop then create builds it from the graph: it exists, is fresh, and holds the graph nodes; ppr on GDS then answers', async () => {
  await projection('drop');
  const state = await projection('create');
  expect(state).toMatchObject({ graphName: GRAPH, exists: true, fresh: true });
  const { records } = await driver.executeQuery('MATCH (n) WHERE n:Entity OR n:Passage RETURN count(n) AS n');
  expect(state.nodeCount).toBe(Number(records[0].get('n')));
  expect(state.relationshipCount).toBeGreaterThan(0);
  const r = await pprGds('Who worked with Charles Babbage?');
  expect(r.status).toBe(200);
  expect(r.body.passages.length).toBeGreaterThan(0);
}, 120_000);

test('refresh after a write takes in the new nodes', async () => {
  const before = await projection('status');
  await ingest('pl-3', 'Analytical Engine', 'The Analytical Engine was a mechanical computer proposed by Charles Babbage in 1837.');
  const refreshed = await projection('refresh');
  expect(refreshed).toMatchObject({ exists: true, fresh: true });
  expect(refreshed.nodeCount!).toBeGreaterThan(before.nodeCount!);
  const { records } = await driver.executeQuery('MATCH (n) WHERE n:Entity OR n:Passage RETURN count(n) AS n');
  expect(refreshed.nodeCount).toBe(Number(records[0].get('n')));
}, 120_000);

test('refreshes sent together, while a write rebuilds it, each report it built and fresh (they join one rebuild)', async () => {
  await ingest('pl-4', 'Difference Engine', 'The Difference Engine was an automatic mechanical calculator designed by Charles Babbage.');
  const states = await Promise.all(Array.from({ length: 8 }, () => projection('refresh')));
  const { records } = await driver.executeQuery('MATCH (n) WHERE n:Entity OR n:Passage RETURN count(n) AS n');
  for (const s of states) {
    expect(s).toMatchObject({ exists: true, fresh: true });
    expect(s.nodeCount).toBe(Number(records[0].get('n')));
  }
}, 120_000);

test('the CLI: projection status, drop and create exit 0 and print the state', async () => {
  const env = { NEO4J_URI: process.env.NEO4J_URI!, NEO4J_PASSWORD: process.env.NEO4J_PASSWORD!, PPR_GRAPH_NAME: GRAPH };
  const status = await cli(['projection', 'status'], env);
  expect(status.code).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({ graphName: GRAPH, exists: true });
  const drop = await cli(['projection', 'drop'], env);
  expect(drop.code).toBe(0);
  expect(JSON.parse(drop.stdout)).toMatchObject({ graphName: GRAPH, exists: false });
  const create = await cli(['projection', 'create'], env);
  expect(create.code).toBe(0);
  expect(JSON.parse(create.stdout)).toMatchObject({ graphName: GRAPH, exists: true, fresh: true });
}, 180_000);
