// Subject: the server the CLI builds: status codes, JSON errors and headers of every route.
/**
 * The HTTP contract under hostile input: 4xx (never 5xx) for bad media types,
 * encodings, paths and embeddings; auth before parsing; no echo of huge
 * values; quiet client disconnects; the OpenAPI document. Real local embedder,
 * real Neo4j, documents ingested through the API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { Driver } from 'neo4j-driver';
import pino from 'pino';
import { createExtractiveGenerator } from '../../../server/answer/extractive.js';
import { createApp } from '../../../server/app.js';
import { loadConfig, type Config } from '../../../server/config.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { createOfflineExtractor } from '../../../server/extractors/offline/index.js';
import { createServices } from '../../../server/compose.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { logSink } from '../../support/logs.js';

const KEY = 'contract-test-key';
const MODES = ['gated', 'ppr', 'vector', 'hybrid'] as const;
const DOCS = [
  { id: 'c-1', title: 'Ada Lovelace', text: 'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.' },
  { id: 'c-2', title: 'Charles Babbage', text: 'Charles Babbage designed the Difference Engine and was born in London.' },
  { id: 'c-3', title: 'London', text: 'London is the capital of England, on the River Thames.' },
];

const { sink, lines: logs } = logSink();
let server: http.Server;
let driver: Driver;
let embedder: Embedder;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  embedder = await createLocalEmbedder();
  const base = loadConfig({});
  const config: Config = {
    ...base,
    apiKey: KEY,
    neo4j: { uri: process.env.NEO4J_URI!, user: process.env.NEO4J_USER || 'neo4j', password: process.env.NEO4J_PASSWORD!, database: 'neo4j', embedded: false },
    queryTimeoutMs: 30000,
  };
  const extractor = createOfflineExtractor();
  const services = await createServices(config, {
    embedder,
    logger: pino({ level: 'debug' }, sink),
    extractor: async () => extractor,
    generator: async () => createExtractiveGenerator(),
  });
  server = createApp(services).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await services.store.driver.close();
  };
  const r = await post('/v1/documents', { documents: DOCS }, { 'x-api-key': KEY });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await close?.();
  await driver?.close();
});

/** A raw HTTP request (fetch would refuse or rewrite some of these headers). */
function raw(
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; json: () => any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  raw('POST', path, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': 'application/json', ...headers }).then((r) => ({
    ...r,
    body: r.json(),
  }));

describe('hostile media types and encodings are 4xx', () => {
  const json = JSON.stringify({ question: 'Who worked with Ada Lovelace?', mode: 'vector' });
  test.each(['latin1', 'bogus'])('charset=%s is a 415', async (charset) => {
    const r = await raw('POST', '/v1/retrieve', json, { 'content-type': `application/json; charset=${charset}` });
    expect(r.status).toBe(415);
    expect(r.json().error.code).toBe('unsupported_media_type');
  });

  test('content-encoding: bogus is a 415', async () => {
    const r = await raw('POST', '/v1/retrieve', json, { 'content-type': 'application/json', 'content-encoding': 'bogus' });
    expect(r.status).toBe(415);
    expect(r.json().error.code).toBe('unsupported_media_type');
  });

  test('content-encoding: gzip over a plain body is a 400; a real gzip body works', async () => {
    const bad = await raw('POST', '/v1/retrieve', json, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(bad.status).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
    const good = await raw('POST', '/v1/retrieve', zlib.gzipSync(json), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(good.status).toBe(200);
  });

  test.each(['/v1/retrieve', '/v1/answer', '/v1/compare'])('a text/plain body on POST %s is a 415', async (path) => {
    const r = await raw('POST', path, json, { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.json().error.code).toBe('unsupported_media_type');
  });

  test('a text/plain body on a protected endpoint is a 415 after auth', async () => {
    const r = await raw('POST', '/v1/documents', '{"documents": []}', { 'content-type': 'text/plain', 'x-api-key': KEY });
    expect(r.status).toBe(415);
  });

  test('DELETE /v1/documents/%ZZ is a 400', async () => {
    const r = await raw('DELETE', '/v1/documents/%ZZ', undefined, { 'x-api-key': KEY });
    expect(r.status).toBe(400);
    expect(r.json().error.code).toBe('invalid_request');
  });
});

describe('questionEmbedding must be a vector the index accepts', () => {
  const dim = 384;
  test.each([
    ['all zeros', Array(dim).fill(0)],
    ['a value of 1e300', [1e300, ...Array(dim - 1).fill(0.01)]],
    ['only subnormal values', Array(dim).fill(1e-320)],
    ['values whose squares underflow to zero', Array(dim).fill(1e-200)],
    ['a squared norm that overflows', Array(dim).fill(1e160)],
  ])('%s is a 400 naming questionEmbedding', async (_name, v) => {
    for (const path of ['/v1/retrieve', '/v1/compare']) {
      const r = await post(path, { questionEmbedding: v });
      expect(r.status).toBe(400);
      expect(r.body.error.field).toBe('questionEmbedding');
    }
  });

  test('a small but sound vector is accepted', async () => {
    const r = await post('/v1/retrieve', { questionEmbedding: Array(dim).fill(1e-10), mode: 'vector' });
    expect(r.status).toBe(200);
    // The index normalises in double precision: tiny values are fine while their squared norm is.
    expect((await post('/v1/retrieve', { questionEmbedding: Array(dim).fill(1e-25), mode: 'gated' })).status).toBe(200);
  });
});

describe('a 3,000-word question answers in every mode', () => {
  const words = 'who worked with ada lovelace on the analytical engine in london and where was charles babbage born'.split(' ');
  const question = Array.from({ length: 3000 }, (_, i) => words[i % words.length]).join(' ');
  test.each(MODES)('%s', async (mode) => {
    const r = await post('/v1/retrieve', { question, mode });
    expect(r.status).toBe(200);
    expect(r.body.passages.length).toBeGreaterThan(0);
  });
  test('answer and compare too', async () => {
    expect((await post('/v1/answer', { question, mode: 'hybrid' })).status).toBe(200);
    expect((await post('/v1/compare', { question, modes: [...MODES] })).status).toBe(200);
  });
});

describe('auth', () => {
  test('a wrong key with a malformed body is a 401, not a 400', async () => {
    for (const path of ['/v1/documents', '/v1/projection']) {
      const r = await post(path, '{"documents": [', { 'x-api-key': 'wrong' });
      expect(r.status).toBe(401);
    }
  });
  test('a key of another length, a prefix and a Bearer token', async () => {
    expect((await post('/v1/projection', { action: 'status' }, { 'x-api-key': `${KEY}x` })).status).toBe(401);
    expect((await post('/v1/projection', { action: 'status' }, { 'x-api-key': KEY.slice(0, 5) })).status).toBe(401);
    expect((await post('/v1/projection', { action: 'status' }, { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });
});

describe('prototype keys are unknown fields', () => {
  test.each([
    ['{"question": "x", "params": {"__proto__": {"steps": 9}}}', 'params.__proto__'],
    ['{"question": "x", "params": {"constructor": 1}}', 'params.constructor'],
    ['{"question": "x", "params": {"prototype": 1}}', 'params.prototype'],
    ['{"question": "x", "__proto__": {"mode": "vector"}}', '__proto__'],
  ])('%s is a 400 naming %s', async (body, field) => {
    const r = await post('/v1/retrieve', body);
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.message).toMatch(/unknown field/);
  });
  test('in /v1/compare per-mode params too', async () => {
    const r = await post('/v1/compare', '{"question": "x", "params": {"gated": {"__proto__": {"steps": 9}}}}');
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe('params.gated.__proto__');
  });
});

test('/v1/compare validates params of a mode it was not asked to run', async () => {
  const r = await post('/v1/compare', { question: 'x', modes: ['vector', 'hybrid'], params: { gated: { nonsense: 1 } } });
  expect(r.status).toBe(400);
  expect(r.body.error.field).toBe('params.gated.nonsense');
  const range = await post('/v1/compare', { question: 'x', modes: ['vector', 'hybrid'], params: { ppr: { dampingFactor: 5 } } });
  expect(range.status).toBe(400);
  expect(range.body.error.field).toBe('params.ppr.dampingFactor');
});

test('POST /v1/projection with an empty body is a 400 naming action', async () => {
  const r = await raw('POST', '/v1/projection', undefined, { 'x-api-key': KEY });
  expect(r.status).toBe(400);
  expect(r.json().error.field).toBe('action');
  const empty = await post('/v1/projection', {}, { 'x-api-key': KEY });
  expect(empty.status).toBe(400);
  expect(empty.body.error.field).toBe('action');
});

test('explain writes control characters escaped, on one line', async () => {
  const question = 'a\rb\u2028c\u2029d\u0000e\u0007f\tg\nh\u0085i';
  const r = await post('/v1/retrieve', { question, mode: 'vector', explain: true });
  expect(r.status).toBe(200);
  const line = (r.body.explain.params as string).split('\n').find((l) => l.startsWith(':param question'))!;
  expect(line).toBe(":param question => 'a\\rb\\u2028c\\u2029d\\u0000e\\u0007f\\tg\\nh\\u0085i';");
  // Neo4j parses the literal back to the same string.
  const s = driver.session();
  try {
    const literal = line.slice(':param question => '.length, -1);
    const back = await s.run(`RETURN ${literal} AS q`);
    expect(back.records[0].get('q')).toBe(question);
  } finally {
    await s.close();
  }
});

test('400 bodies do not echo an oversized value whole', async () => {
  const huge = 'x'.repeat(100_000);
  for (const body of [
    { question: 'x', mode: huge },
    { question: 'x', [huge]: 1 },
    { question: 'x', params: { [huge]: 1 } },
  ]) {
    const r = await post('/v1/retrieve', body);
    expect(r.status).toBe(400);
    expect(r.text.length).toBeLessThan(700);
  }
  const del = await raw('DELETE', `/v1/documents/${huge.slice(0, 5000)}`, undefined, { 'x-api-key': KEY });
  expect(del.status).toBe(404);
  expect(del.text.length).toBeLessThan(700);
});

test('a client that disconnects mid-body is not logged as an unhandled error', async () => {
  logs.length = 0;
  const received = new Promise<void>((r) => server.once('request', () => r()));
  const req = http.request(`${url}/v1/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000' } });
  const gone = new Promise<void>((resolve) => req.on('error', () => resolve()).on('close', () => resolve()));
  req.write('{"question": "half');
  // Cut once the server is reading this request's body: an event, not a delay.
  await received;
  req.destroy();
  await gone;
  // Then until the server has logged the disconnect (bounded: a failure names itself).
  for (const deadline = Date.now() + 10_000; !logs.some((l) => /client/.test(l.msg)) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
  expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  expect(logs.some((l) => /client/.test(l.msg))).toBe(true);
});

describe('GET /v1/openapi.json', () => {
  test('describes every endpoint, its limits, errors and statuses', async () => {
    const r = await raw('GET', '/v1/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) => Object.keys(m).map((x) => `${x.toUpperCase()} ${p}`));
    expect(ops).toEqual(
      expect.arrayContaining([
        'POST /v1/retrieve',
        'POST /v1/answer',
        'POST /v1/compare',
        'POST /v1/documents',
        'DELETE /v1/documents/{id}',
        'GET /v1/jobs',
        'GET /v1/jobs/{id}',
        'DELETE /v1/jobs/{id}',
        'POST /v1/projection',
        'GET /v1/health',
        'GET /v1/openapi.json',
      ]),
    );
    const retrieve = doc.paths['/v1/retrieve'].post;
    expect(Object.keys(retrieve.responses)).toEqual(expect.arrayContaining(['200', '400', '409', '413', '415', '503', '504']));
    expect(retrieve.responses['503'].headers['Retry-After']).toBeDefined();
    expect(Object.keys(doc.paths['/v1/documents'].post.responses)).toEqual(expect.arrayContaining(['201', '202', '400', '401', '403', '413', '415', '503']));
    expect(Object.keys(doc.paths['/v1/documents/{id}'].delete.responses)).toEqual(expect.arrayContaining(['202', '204', '400', '401', '403', '404']));
    expect(doc.paths['/v1/documents'].post.responses['202'].headers.Location).toBeDefined();
    expect(Object.keys(doc.paths['/v1/jobs/{id}'].delete.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(Object.keys(doc.paths['/v1/answer'].post.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    const text = JSON.stringify(doc);
    expect(text).toContain('"maxLength":20000');
    for (const name of ['steps', 'dampingFactor', 'hybridK', 'rrfK', 'seedK']) expect(text).toContain(`"${name}"`);
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
  });
});
