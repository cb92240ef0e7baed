// Subject: READ_API_KEY and WRITE_API_KEY on every route, and keys kept out of the logs.
/**
 * READ_API_KEY: with it set, every read route and /mcp answer 401 without a key (naming the
 * field), 200 with the read key and 200 with the write key; the page, its assets, the OpenAPI
 * document, health and metrics stay open; neither key ever reaches the log. Real server, real
 * local embedder, real Neo4j, the official MCP client.
 */
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Driver } from 'neo4j-driver';
import { createExtractiveGenerator } from '../../../server/answer/extractive.js';
import { createApp } from '../../../server/app.js';
import { loadConfig, type Config } from '../../../server/config.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import { createOfflineExtractor } from '../../../server/extractors/offline/index.js';
import { createLogger } from '../../../server/logger.js';
import { createServices } from '../../../server/compose.js';
import { resetGraph, testDriver } from '../../support/db.js';

const WRITE = 'write-key-0123456789';
const READ = 'read-key-abcdefghij';
const logs: string[] = [];
let driver: Driver;
let url: string;
let close: () => Promise<void>;

const QUESTION = { question: 'Who worked with Ada Lovelace?', mode: 'vector' };
const MCP_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
/** Every read route: method, path, body. GET /v1/jobs comes with the jobs branch (404 until then). */
const READS: [string, string, unknown][] = [
  ['POST', '/v1/retrieve', QUESTION],
  ['POST', '/v1/answer', { question: QUESTION.question, mode: 'vector' }],
  ['POST', '/v1/compare', { question: QUESTION.question, modes: ['vector', 'hybrid'] }],
  // Three items in every row: a shorter row would make jest read the test's last parameter as a done callback.
  ['GET', '/v1/sources', undefined],
  ['POST', '/mcp', MCP_LIST],
];
const OPEN = ['/', '/page.js', '/v1/openapi.json', '/v1/health', '/metrics'];

function request(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const config: Config = {
    ...loadConfig({}),
    apiKey: WRITE,
    readApiKey: READ,
    neo4j: { uri: process.env.NEO4J_URI!, user: process.env.NEO4J_USER || 'neo4j', password: process.env.NEO4J_PASSWORD!, database: 'neo4j', embedded: false },
    queryTimeoutMs: 30000,
  };
  const extractor = createOfflineExtractor();
  const services = await createServices(config, {
    embedder: await createLocalEmbedder(),
    logger: createLogger('debug', sink),
    extractor: async () => extractor,
    generator: async () => createExtractiveGenerator(),
  });
  const server = createApp(services).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await services.store.driver.close();
  };
  const docs = [{ id: 'rk-1', title: 'Ada Lovelace', text: 'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.' }];
  expect((await request('POST', '/v1/documents', { documents: docs }, { 'x-api-key': WRITE })).status).toBe(201);
});
afterAll(async () => {
  await close?.();
  await driver?.close();
});

test.each(READS)(
  '%s %s: 401 naming the field without a key or with a wrong one, 200 with the read key and with the write key',
  async (method, path, body) => {
    for (const headers of [
      {},
      { 'x-api-key': 'wrong' },
      { 'x-api-key': `${READ}x` },
      { 'x-api-key': READ.slice(0, 8) },
      { authorization: 'Bearer wrong' },
    ] as Record<string, string>[]) {
      const r = await request(method, path, body, headers);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ error: { code: 'unauthorized', field: 'X-Api-Key' } });
    }
    for (const headers of [{ 'x-api-key': READ }, { authorization: `Bearer ${READ}` }, { 'x-api-key': WRITE }, { authorization: `Bearer ${WRITE}` }] as Record<
      string,
      string
    >[]) {
      const r = await request(method, path, body, headers);
      expect(r.status).toBe(200);
      // Read every body: undici holds the connection of an unread one.
      await r.text();
    }
  },
  600_000,
);

test('GET /v1/jobs and /v1/jobs/<id> are guarded too; the key is checked before the route exists', async () => {
  for (const path of ['/v1/jobs', '/v1/jobs/some-id']) {
    const refused = await request('GET', path, undefined);
    expect(refused.status).toBe(401);
    await refused.text();
    const read = await request('GET', path, undefined, { 'x-api-key': READ });
    expect(read.status).not.toBe(401);
    await read.text();
  }
});

test('the guard matches paths as the router does: any case, a trailing slash', async () => {
  for (const path of ['/V1/RETRIEVE', '/v1/retrieve/', '/MCP', '/v1/Sources/']) {
    const method = path.toLowerCase().includes('sources') ? 'GET' : 'POST';
    const body = path.toLowerCase().includes('mcp') ? MCP_LIST : method === 'POST' ? QUESTION : undefined;
    const refused = await request(method, path, body);
    expect(refused.status).toBe(401);
    await refused.text();
    const read = await request(method, path, body, { 'x-api-key': READ });
    expect(read.status).toBe(200);
    await read.text();
  }
});

test('the page, its assets, the OpenAPI document, health and metrics stay open', async () => {
  for (const path of OPEN) {
    const r = await fetch(`${url}${path}`);
    expect(r.status).toBe(200);
    await r.text();
  }
});

test('the read key does not write', async () => {
  const r = await request('POST', '/v1/projection', { action: 'status' }, { 'x-api-key': READ });
  expect(r.status).toBe(401);
});

test("the SDK's client: refused without a key, lists and calls the tools with the read key", async () => {
  const refused = new Client({ name: 'no-key', version: '1' });
  await expect(refused.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))).rejects.toThrow(/401|unauthorized/i);
  const c = new Client({ name: 'read-key', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${READ}` } } }));
  expect((await c.listTools()).tools.map((t) => t.name)).toContain('retrieve');
  const r = await c.callTool({ name: 'retrieve', arguments: QUESTION });
  expect(r.isError).toBeFalsy();
  await c.close();
});

test('neither key reaches the log', async () => {
  const all = logs.join('');
  expect(all.length).toBeGreaterThan(0);
  expect(all).toContain('"msg":"request"');
  expect(all).not.toContain(READ);
  expect(all).not.toContain(WRITE);
});
