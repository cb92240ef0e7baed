// Subject: POST /v1/answer over SSE: offline and Anthropic generators, incremental events.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Driver } from 'neo4j-driver';
import { createAnthropicGenerator } from '../../../server/answer/anthropic.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { manageProjection } from '../../../server/db/projection.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph, type FixtureGraph } from '../../support/fixtures.js';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

const f = bridgeFixture();
// The real neural embedder: the server embeds the question, and ppr's gate at read-out compares it
// with the entities' description vectors, so both sides must come from the same model.
let embedder: Embedder;
let driver: Driver;

/**
 * The bridge fixture's graph with the embedder's own vectors in place of its synthetic ones: entity
 * names, descriptions (loadGraph writes the name as the description) and passages (title and text,
 * as ingestion embeds them).
 */
async function embedded(g: FixtureGraph, e: Embedder): Promise<FixtureGraph> {
  const names = await e.embed(
    g.entities.map((x) => x.name),
    'document',
  );
  const passages = await e.embed(
    g.passages.map((p) => `${p.title}\n${p.text}`),
    'document',
  );
  return {
    ...g,
    entities: g.entities.map((x, i) => ({ ...x, embedding: names[i]!, descriptionEmbedding: names[i]! })),
    passages: g.passages.map((p, i) => ({ ...p, embedding: passages[i]! })),
  };
}

interface Captured {
  events: EventSourceMessage[];
  comments: string[];
  raw: string;
  ms: { first?: number; firstToken?: number; done?: number };
}

/** Reads an SSE response with a spec-compliant parser (eventsource-parser), as a client would. */
async function readSse(
  url: string,
  body: unknown,
  opts: { abortAfterTokens?: number } = {},
): Promise<Captured & { status: number; contentType: string | null }> {
  const ac = new AbortController();
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal: ac.signal,
  });
  const out: Captured = { events: [], comments: [], raw: '', ms: {} };
  const parser = createParser({
    onEvent: (e) => {
      out.ms.first ??= performance.now() - t0;
      if (e.event === 'token') out.ms.firstToken ??= performance.now() - t0;
      if (e.event === 'done') out.ms.done = performance.now() - t0;
      out.events.push(e);
    },
    onComment: (c) => out.comments.push(c),
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      out.raw += text;
      parser.feed(text);
      if (opts.abortAfterTokens && out.events.filter((e) => e.event === 'token').length >= opts.abortAfterTokens) {
        ac.abort();
        break;
      }
    }
  } catch (e) {
    if (!ac.signal.aborted) throw e;
  }
  return { ...out, status: res.status, contentType: res.headers.get('content-type') };
}

const names = (c: Captured) => c.events.map((e) => e.event);
/** entities, passages, token (one or more), then done or error. */
const collapse = (events: (string | undefined)[]) => events.filter((e, i) => e !== 'token' || events[i - 1] !== 'token');

beforeAll(async () => {
  embedder = await createLocalEmbedder();
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, await embedded(f.graph, embedder));
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
});
afterAll(async () => {
  await driver?.close();
  await embedder?.close?.();
});

describe('offline generator, end to end', () => {
  let srv: RunningServer;
  beforeAll(async () => (srv = await startServer({ embedder })));
  afterAll(async () => srv.close());

  test('SSE: entities, then passages, then tokens, then done, each well framed', async () => {
    const c = await readSse(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?', mode: 'gated' });
    expect(c.status).toBe(200);
    expect(c.contentType).toMatch(/^text\/event-stream/);
    expect(collapse(names(c))).toEqual(['entities', 'passages', 'token', 'done']);
    expect(names(c).filter((n) => n === 'token').length).toBeGreaterThan(3);
    // Framing: every event is "event: x\ndata: <one JSON line>\n\n".
    for (const block of c.raw.split('\n\n').filter((b) => b && !b.startsWith(':'))) expect(block).toMatch(/^event: \w+\ndata: \{.*\}$/);
    const entities = JSON.parse(c.events[0].data);
    expect(entities.seeds.map((s: { name: string }) => s.name)).toContain('Charles Babbage');
    const passages = JSON.parse(c.events[1].data).passages;
    expect(passages.map((p: { id: string }) => p.id)).toContain('p-answer');
    const tokens = c.events
      .filter((e) => e.event === 'token')
      .map((e) => JSON.parse(e.data).text)
      .join('');
    const done = JSON.parse(c.events.at(-1)!.data);
    expect(tokens).toBe(done.answer);
    expect(done.answer).toContain('Charles Babbage designed the Analytical Engine.');
    expect(done.citations).toContain('p-answer');
    // The server's times: finite (expect.any(Number) would match NaN and Infinity), in order: the
    // database's time inside the retrieval's, the first token after the retrieval, the total last.
    const { embedMs, dbMs, firstTokenMs, generateMs, totalMs } = done.timings;
    expect([embedMs, dbMs, firstTokenMs, generateMs, totalMs].every(Number.isFinite)).toBe(true);
    expect(dbMs).toBeGreaterThan(0);
    expect(embedMs).toBeGreaterThan(0);
    expect(firstTokenMs + 0.02).toBeGreaterThanOrEqual(embedMs + dbMs);
    expect(totalMs).toBeGreaterThanOrEqual(firstTokenMs);
    expect(generateMs).toBeLessThanOrEqual(totalMs);
  });

  // Claim: ppr with its shipped defaults (gate scores on) answers from the passage the question needs.
  test('without text/event-stream it answers with one JSON document', async () => {
    const r = await postJson(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?', mode: 'ppr' });
    expect(r.status).toBe(200);
    expect(r.body.params.gateScores).toBe(true);
    // The gate keeps the entities the question is about, the named seed and what he designed (a gate
    // that read the vectors wrong would score them 0 and drop them).
    expect(r.body.entities.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(['e-babbage', 'e-engine']));
    expect(r.body.answer).toContain('Analytical Engine');
    expect(r.body.citations).toContain('p-answer');
    expect(r.body.passages.length).toBeLessThanOrEqual(5);
  });

  test('bad input is a 400 before any stream starts', async () => {
    const c = await readSse(`${srv.url}/v1/answer`, { question: '', mode: 'gated' });
    expect(c.status).toBe(400);
  });
});

describe('anthropic generator against a local server speaking the Messages streaming protocol', () => {
  let mock: MockAnthropic;
  let srv: RunningServer;
  beforeAll(async () => {
    mock = await startMockAnthropic({ deltaDelayMs: 30, wordsPerDelta: 1 });
    mock.setTextReply('The Analytical Engine [p-answer], designed by Charles Babbage [p-ada].');
    const generator = createAnthropicGenerator({ apiKey: 'test-key-not-secret', model: 'claude-sonnet-4-6', baseUrl: mock.url, maxRetries: 2 });
    srv = await startServer({ embedder, generator: async () => generator, config: { sseHeartbeatMs: 20 } });
  });
  afterAll(async () => {
    await srv.close();
    await mock.close();
  });

  test('tokens stream through as they arrive, with heartbeats, and the answer cites passages', async () => {
    const c = await readSse(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?' });
    expect(collapse(names(c))).toEqual(['entities', 'passages', 'token', 'done']);
    expect(c.events.filter((e) => e.event === 'token').length).toBeGreaterThanOrEqual(8);
    expect(c.comments.some((x) => x.trim() === 'heartbeat')).toBe(true);
    // Incremental: the mock sends one word every 30 ms, so a stream passed through as it arrives puts
    // at least 5 of those gaps between the first token and done (a buffered answer: none). A lower
    // bound: a slower machine only widens it.
    expect(c.ms.done! - c.ms.firstToken!).toBeGreaterThanOrEqual(5 * 30);
    const done = JSON.parse(c.events.at(-1)!.data);
    // The server's own account agrees: its first token came well before its end.
    expect(done.timings.totalMs - done.timings.firstTokenMs).toBeGreaterThanOrEqual(5 * 30);
    expect(done.answer).toBe('The Analytical Engine [p-answer], designed by Charles Babbage [p-ada].');
    expect(done.citations).toEqual(['p-answer', 'p-ada']);
    expect(done.usage.outputTokens).toBeGreaterThan(0);
    const req = mock.messageRequests.at(-1)!;
    expect(req.body.stream).toBe(true);
    expect(req.body.system).toMatch(/cite its passage id/);
    expect(req.body.messages[0].content).toContain('[p-answer]');
  });

  test('a 429 is retried and the stream still completes', async () => {
    const before = mock.messageRequests.length;
    mock.enqueueFailure({ status: 429 });
    const c = await readSse(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?' });
    expect(names(c).at(-1)).toBe('done');
    expect(mock.messageRequests.length - before).toBe(2);
  });

  test('an upstream error in mid-stream ends the stream with an error event after the tokens so far', async () => {
    mock.enqueueFailure({ midStreamError: true });
    const c = await readSse(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?' });
    expect(collapse(names(c))).toEqual(['entities', 'passages', 'token', 'error']);
    expect(JSON.parse(c.events.at(-1)!.data).message).toMatch(/overloaded/i);
  });

  test('a client that disconnects cancels the generation upstream', async () => {
    mock.setTextReply(Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '));
    const before = mock.streamOutcomes.length;
    const c = await readSse(`${srv.url}/v1/answer`, { question: 'What did Charles Babbage design?' }, { abortAfterTokens: 2 });
    expect(names(c)).not.toContain('done');
    for (let i = 0; i < 50 && mock.streamOutcomes.length === before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(mock.streamOutcomes.slice(before)).toEqual(['client-closed']);
  });
});
