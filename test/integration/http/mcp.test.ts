// Subject: the MCP surface (/mcp) driven by the SDK client.
/**
 * The MCP surface through the official SDK's own client (Client + StreamableHTTPClientTransport)
 * over real HTTP, against the real server, the real local embedder and a real Neo4j holding the
 * demo question's documents, ingested through the REST API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Driver } from 'neo4j-driver';
import { ROOT } from '../../../server/config.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import { RetrieveBody } from '../../../server/routes/retrieve.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

const KEY = 'mcp-test-write-key';
const DEMO_QUESTION = 'Who is the current opposition leader in the country where Buyende is located?';
/** The demo corpus's first 12 passages: Buyende (musique-01040) and the Leader of Opposition (Uganda) among them. */
const DOCS = fs
  .readFileSync(path.join(ROOT, 'bench', 'data', 'musique-demo', 'corpus.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 12)
  .map((l) => JSON.parse(l) as { id: string; title: string; text: string });

let driver: Driver;
let srv: RunningServer;
let client: Client;

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'graph-recall-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers } }));
  return c;
}
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  srv = await startServer({ embedder: await createLocalEmbedder(), config: { apiKey: KEY } });
  const r = await postJson(`${srv.url}/v1/documents`, { documents: DOCS }, { 'x-api-key': KEY });
  expect(r.status).toBe(201);
  client = await connect();
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
  await driver?.close();
});

test('lists the four tools, with the REST body schemas as their input schemas', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['answer', 'compare', 'explain', 'retrieve']);
  const retrieve = tools.find((t) => t.name === 'retrieve')!;
  expect(Object.keys(retrieve.inputSchema.properties ?? {}).sort()).toEqual(Object.keys(RetrieveBody.shape).sort());
  expect(retrieve.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
  expect((retrieve.inputSchema.properties as Record<string, { enum?: string[] }>).mode.enum).toEqual(['gated', 'ppr', 'vector', 'hybrid']);
  const explain = tools.find((t) => t.name === 'explain')!;
  expect(Object.keys(explain.inputSchema.properties ?? {})).not.toContain('explain');
});

test("retrieve answers the demo question with the REST API's passages, as structured content and as text", async () => {
  for (const mode of ['vector', 'gated'] as const) {
    const r = await call('retrieve', { question: DEMO_QUESTION, mode });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { mode: string; passages: { id: string }[]; entities: unknown[]; paths: unknown[]; facts: unknown[]; context: string };
    expect(s.mode).toBe(mode);
    const ids = s.passages.map((p) => p.id);
    expect(ids).toContain('musique-01040');
    expect(Array.isArray(s.entities) && Array.isArray(s.paths) && Array.isArray(s.facts)).toBe(true);
    expect(s.context).toContain('Buyende');
    expect(text(r)).toContain('[musique-01040] Buyende');
    const rest = await postJson(`${srv.url}/v1/retrieve`, { question: DEMO_QUESTION, mode });
    expect(rest.body.passages.map((p: { id: string }) => p.id)).toEqual(ids);
  }
});

test('answer, compare and explain', async () => {
  const a = await call('answer', { question: DEMO_QUESTION, mode: 'vector', topK: 3 });
  expect(a.isError).toBeFalsy();
  const as = a.structuredContent as { answer: string; passages: unknown[]; generator: string };
  expect(as.answer.length).toBeGreaterThan(0);
  expect(as.passages).toHaveLength(3);
  expect(text(a)).toContain(as.answer);

  const c = await call('compare', { question: DEMO_QUESTION, modes: ['vector', 'hybrid'] });
  expect(c.isError).toBeFalsy();
  const cs = c.structuredContent as { results: Record<string, unknown>; overlap: { modes: string[] }[] };
  expect(Object.keys(cs.results).sort()).toEqual(['hybrid', 'vector']);
  expect(cs.overlap[0].modes).toEqual(['vector', 'hybrid']);
  expect(text(c)).toMatch(/vector vs hybrid: jaccard@5/);

  const e = await call('explain', { question: DEMO_QUESTION, mode: 'gated', params: { steps: 2 } });
  expect(e.isError).toBeFalsy();
  const es = e.structuredContent as { file: string; statement: string; params: string };
  expect(es.statement).toBe(fs.readFileSync(path.join(ROOT, es.file), 'utf8'));
  expect(es.params).toMatch(/^:param steps => 2;$/m);
  expect(es.params).toMatch(/^:param questionEmbedding => \[/m);
  expect(text(e)).toContain(es.statement);
});

test.each([
  ['an unknown mode', 'retrieve', { question: 'x', mode: 'nope' }, undefined],
  ['an unknown field', 'retrieve', { question: 'x', nonsense: 1 }, undefined],
  ['a wrong type', 'answer', { question: 42 }, undefined],
  ['no question', 'retrieve', { mode: 'vector' }, 'question'],
  ['a parameter out of range', 'retrieve', { question: 'x', mode: 'gated', params: { steps: 999 } }, 'params.steps'],
  ['a prototype key', 'retrieve', JSON.parse('{"question": "x", "params": {"__proto__": {"steps": 9}}}'), 'params.__proto__'],
  ['a mode that is not one in compare params', 'compare', { question: 'x', params: { nope: {} } }, 'params.nope'],
  ['an embedding of the wrong length', 'explain', { questionEmbedding: [1, 2, 3] }, 'questionEmbedding'],
])('%s is a tool error, not a crash', async (_what, name, args, field) => {
  const r = await call(name, args as Record<string, unknown>);
  expect(r.isError).toBe(true);
  expect(text(r).length).toBeGreaterThan(0);
  if (field) expect(r.structuredContent).toMatchObject({ error: { code: expect.stringMatching(/^invalid_/), field, status: 400 } });
  // The connection is still good.
  expect((await client.listTools()).tools).toHaveLength(4);
});

test('an unknown tool is an error the client sees, and the server keeps answering', async () => {
  const r = (await client
    .callTool({ name: 'nope', arguments: {} })
    .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }))) as CallToolResult;
  expect(r.isError).toBe(true);
  expect(text(r)).toMatch(/nope/);
});

test('stateless: no session id, GET and DELETE /mcp are 405', async () => {
  const res = await fetch(`${srv.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('mcp-session-id')).toBeNull();
  expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(4);
  for (const method of ['GET', 'DELETE']) {
    const r = await fetch(`${srv.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  }
});
