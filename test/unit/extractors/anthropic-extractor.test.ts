// Subject: server/extractors/anthropic.ts: entity and relation extraction against a local Messages API server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createAnthropicExtractor,
  loadExtractionPrompt,
  RECORD_GRAPH_TOOL,
  renderUserPrompt,
  validateExtraction,
} from '../../../server/extractors/anthropic.js';
import type { PassageInput } from '../../../server/extractors/types.js';
import { apiKeyOf, startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';

const API_KEY = 'sk-ant-api03-TEST-abcdefghijklmnopqrstuvwxyz0123456789';
const MODEL = 'claude-test-extract-1';

const lewistown: PassageInput = {
  id: 'p1',
  title: 'Lewistown, Illinois',
  text: 'Lewistown is a city in Fulton County, Illinois, United States. It was named by its founder, Ossian M. Ross, in 1822.',
};

/** What the "model" answers for lewistown, with one malformed entity and two malformed relations. */
const lewistownToolInput = {
  entities: [
    { name: 'Lewistown', type: 'Place', description: 'A city in Fulton County, Illinois.' },
    { name: 'Fulton County', type: 'Place', description: 'A county in Illinois that contains Lewistown.' },
    { name: 'Ossian M. Ross', type: 'Person', description: 'The founder of Lewistown.' },
    { name: '1822', type: 'Date', description: 'The year Lewistown was named.' },
    { name: 42, type: 'Place', description: 'not a name' },
  ],
  relations: [
    { subject: 'Lewistown', predicate: 'is located in', object: 'Fulton County' },
    { subject: 'Ossian M. Ross', predicate: 'founded', object: 'Lewistown' },
    { subject: 'Ossian M. Ross', predicate: 'named' },
    'not an object',
  ],
};

describe('anthropic extractor (against a local Messages API server)', () => {
  let mock: MockAnthropic;
  let cacheDir: string;

  beforeAll(async () => {
    mock = await startMockAnthropic({ apiKey: API_KEY });
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-recall-extract-'));
  });
  afterAll(async () => {
    await mock.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  const extractor = () => createAnthropicExtractor({ apiKey: API_KEY, model: MODEL, baseUrl: mock.url, cacheDir });

  it('sends the tool schema, forced tool_choice, model, passage and key, and returns the validated tool input', async () => {
    mock.setToolHandler((body) => {
      // the handler sees the real request body: answer only for the passage we expect
      const user = JSON.stringify(body.messages);
      return user.includes('Ossian M. Ross') ? lewistownToolInput : { entities: [], relations: [] };
    });
    const before = mock.messageRequests.length;
    const ex = extractor();
    expect(ex.id).toBe(`anthropic:${MODEL}`);
    const out = await ex.extract(lewistown);

    const reqs = mock.messageRequests.slice(before);
    expect(reqs).toHaveLength(1);
    const req = reqs[0]!;
    // SDK 1.x (API version 2026-10-21) sends the key as a bearer token, not x-api-key
    expect(apiKeyOf(req)).toBe(API_KEY);
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(req.body.model).toBe(MODEL);
    expect(req.body.max_tokens).toBeGreaterThan(0);
    expect(req.body.tools).toHaveLength(1);
    expect(req.body.tools[0].name).toBe('record_graph');
    expect(req.body.tools[0].input_schema).toEqual(RECORD_GRAPH_TOOL.input_schema);
    expect(req.body.tools[0].input_schema.properties.entities.items.required).toEqual(['name', 'type', 'description']);
    expect(req.body.tools[0].input_schema.properties.relations.items.required).toEqual(['subject', 'predicate', 'object']);
    expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'record_graph' });
    expect(typeof req.body.system).toBe('string');
    expect(req.body.system).toMatch(/alias/);
    expect(req.body.messages).toHaveLength(1);
    expect(req.body.messages[0].role).toBe('user');
    expect(req.body.messages[0].content).toContain(lewistown.text);
    expect(req.body.messages[0].content).toContain(lewistown.title);

    expect(out).toEqual({
      entities: lewistownToolInput.entities.slice(0, 4),
      relations: lewistownToolInput.relations.slice(0, 2),
    });
  });

  it('serves a repeated passage from the cache without an HTTP request, across extractor instances', async () => {
    const before = mock.messageRequests.length;
    const again = await extractor().extract(lewistown);
    expect(mock.messageRequests.length).toBe(before);
    expect(again.entities.map((e) => e.name)).toEqual(['Lewistown', 'Fulton County', 'Ossian M. Ross', '1822']);
    // one JSON file per passage under cacheDir
    const files = fs
      .readdirSync(cacheDir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const entry = JSON.parse(fs.readFileSync(path.join(cacheDir, files[0]!), 'utf8'));
    expect(entry.model).toBe(MODEL);
    expect(entry.promptVersion).toBe('extract-v1');
    expect(entry.extraction).toEqual(again);
    // a different text is a different key
    mock.setToolHandler(() => ({ entities: [], relations: [] }));
    await extractor().extract({ ...lewistown, text: lewistown.text + ' It has a courthouse.' });
    expect(mock.messageRequests.length).toBe(before + 1);
  });

  it('retries a 429 (SDK backoff) and succeeds', async () => {
    mock.setToolHandler(() => ({ entities: [{ name: 'Neo4j', type: 'Product', description: 'A graph database.' }], relations: [] }));
    mock.enqueueFailure({ status: 429 });
    const before = mock.messageRequests.length;
    const out = await extractor().extract({ id: 'p2', title: 'Neo4j', text: 'Neo4j is a graph database.' });
    const reqs = mock.messageRequests.slice(before);
    expect(reqs).toHaveLength(2);
    expect(reqs.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
    expect(out.entities).toEqual([{ name: 'Neo4j', type: 'Product', description: 'A graph database.' }]);
  });

  it('retries a 529 overloaded as well', async () => {
    mock.setToolHandler(() => ({ entities: [{ name: 'Cypher', type: 'Concept', description: 'A query language.' }], relations: [] }));
    mock.enqueueFailure({ status: 529 });
    const before = mock.messageRequests.length;
    const out = await extractor().extract({ id: 'p3', title: 'Cypher', text: 'Cypher is a query language.' });
    expect(mock.messageRequests.length - before).toBe(2);
    expect(out.entities[0]!.name).toBe('Cypher');
  });

  it('surfaces a 401 as an error that does not contain the API key, and caches nothing', async () => {
    const wrongKey = 'sk-ant-api03-WRONG-zyxwvutsrqponmlkjihgfedcba9876543210';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-recall-extract-401-'));
    try {
      const bad = createAnthropicExtractor({ apiKey: wrongKey, model: MODEL, baseUrl: mock.url, cacheDir: dir });
      const before = mock.messageRequests.length;
      const err = await bad.extract({ id: 'p4', title: 'T', text: 'Some text.' }).then(
        () => undefined,
        (e: unknown) => e as Error & { status?: number; errorType?: string },
      );
      expect(err).toBeInstanceOf(Error);
      expect(err!.status).toBe(401);
      expect(err!.errorType).toBe('authentication_error');
      expect(err!.message).toMatch(/401/);
      for (const s of [err!.message, String(err), err!.stack ?? '', JSON.stringify(err), JSON.stringify(Object.entries(err!))]) {
        expect(s).not.toContain(wrongKey);
        expect(s).not.toContain(API_KEY);
      }
      expect((err as Error & { cause?: unknown }).cause).toBeUndefined();
      // 4xx other than 408/409/429 is not retried
      expect(mock.messageRequests.length - before).toBe(1);
      expect(apiKeyOf(mock.messageRequests.at(-1)!)).toBe(wrongKey);
      expect(
        fs
          .readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('.json')),
      ).toHaveLength(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scrubs the key even from an error body that echoes it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-recall-extract-echo-'));
    try {
      mock.enqueueFailure({ status: 400, message: `malformed request from key ${API_KEY}` });
      const ex = createAnthropicExtractor({ apiKey: API_KEY, model: MODEL, baseUrl: mock.url, cacheDir: dir });
      const err = await ex.extract({ id: 'p7', title: 'T', text: 'Echo.' }).then(
        () => undefined,
        (e: unknown) => e as Error & { status?: number },
      );
      expect(err!.status).toBe(400);
      expect(err!.message).toContain('[redacted]');
      expect(err!.message).not.toContain(API_KEY);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds a missing alias name as an entity, keeps case, and trims', async () => {
    mock.setToolHandler(() => ({
      entities: [{ name: "  Alzheimer's disease ", type: 'Disease', description: 'A neurodegenerative disease.' }],
      relations: [{ subject: "Alzheimer's disease", predicate: 'alias', object: 'AD' }],
    }));
    const out = await extractor().extract({
      id: 'p5',
      title: "Alzheimer's disease",
      text: "Alzheimer's disease (AD) is a neurodegenerative disease.",
    });
    expect(out.entities).toEqual([
      { name: "Alzheimer's disease", type: 'Disease', description: 'A neurodegenerative disease.' },
      { name: 'AD', type: 'Disease', description: 'A neurodegenerative disease.' },
    ]);
    expect(out.relations).toEqual([{ subject: "Alzheimer's disease", predicate: 'alias', object: 'AD' }]);
  });

  it('coalesces concurrent extractions of the same passage into one request', async () => {
    mock.setToolHandler(() => ({ entities: [{ name: 'Bolt', type: 'Concept', description: 'A protocol.' }], relations: [] }));
    const before = mock.messageRequests.length;
    const ex = extractor();
    const p = { id: 'p6', title: 'Bolt', text: 'Bolt is a protocol.' };
    const [a, b] = await Promise.all([ex.extract(p), ex.extract(p)]);
    expect(a).toEqual(b);
    expect(mock.messageRequests.length - before).toBe(1);
  });
});

describe('extraction validation and prompt', () => {
  it('drops malformed items and exact duplicates, keeps case', () => {
    expect(
      validateExtraction({
        entities: [
          { name: 'iPhone', type: 'Product', description: 'A phone.' },
          { name: 'iPhone', type: 'Product', description: 'Duplicate.' },
          { name: '', type: 'Product', description: 'x' },
          { name: 'No type' },
          { name: 'No description', type: 'Thing' },
          null,
        ],
        relations: [
          { subject: 'Apple', predicate: 'makes', object: 'iPhone' },
          { subject: 'Apple', predicate: 'makes', object: 'iPhone' },
          { subject: 'Apple', predicate: 'is', object: 'Apple' },
          { subject: 'Apple', predicate: '', object: 'iPhone' },
          { subject: 'Apple', predicate: 'makes', object: 7 },
        ],
      }),
    ).toEqual({
      entities: [
        { name: 'iPhone', type: 'Product', description: 'A phone.' },
        { name: 'No description', type: 'Thing', description: '' },
      ],
      relations: [{ subject: 'Apple', predicate: 'makes', object: 'iPhone' }],
    });
    expect(validateExtraction(undefined)).toEqual({ entities: [], relations: [] });
    expect(validateExtraction({ entities: 'x', relations: {} })).toEqual({ entities: [], relations: [] });
  });

  it('loads the versioned prompt and fills title and text literally', () => {
    const p = loadExtractionPrompt();
    expect(p.version).toBe('extract-v1');
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(p.system).toMatch(/record_graph/);
    expect(p.system).toMatch(/Alzheimer's disease \(AD\)/);
    const user = renderUserPrompt(p.user, { title: 'Price $&', text: 'Costs $1 and $$2.' });
    expect(user).toContain('Price $&');
    expect(user).toContain('Costs $1 and $$2.');
    expect(user).not.toMatch(/\{\{(title|text)\}\}/);
  });
});
