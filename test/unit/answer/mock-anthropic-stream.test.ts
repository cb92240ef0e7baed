// Subject: test/support/mock-anthropic.ts: the local Messages API server speaks the streaming protocol the SDK reads.
import Anthropic from '@anthropic-ai/sdk';
import { apiKeyOf, splitIntoDeltas, startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';

const API_KEY = 'sk-ant-api03-STREAM-0123456789';
const MODEL = 'claude-test-stream-1';
const REPLY = 'Lewistown was founded by Ossian M. Ross, who named it after his son Lewis. It is the seat of Fulton County, Illinois.';

/** Reads a raw SSE body into [{event, data}] (no SDK involved). */
function parseSse(raw: string): { event: string; data: any }[] {
  return raw
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)![1]!;
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!);
      return { event, data };
    });
}

describe('mock Anthropic server, streaming, through the official SDK', () => {
  let mock: MockAnthropic;
  let client: Anthropic;

  beforeAll(async () => {
    mock = await startMockAnthropic({ apiKey: API_KEY });
    client = new Anthropic({ apiKey: API_KEY, baseURL: mock.url, maxRetries: 2 });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => mock.setTextReply(REPLY));

  it('streams the reply as several text deltas that concatenate to it; the final message has a stop_reason', async () => {
    const deltas: string[] = [];
    const eventTypes: string[] = [];
    const stream = client.messages.stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Who founded Lewistown?' }] });
    stream.on('text', (t) => deltas.push(t));
    stream.on('streamEvent', (e) => eventTypes.push(e.type));
    const final = await stream.finalMessage();

    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(REPLY);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.role).toBe('assistant');
    expect(final.model).toBe(MODEL);
    expect(final.content).toHaveLength(1);
    expect(final.content[0]).toMatchObject({ type: 'text', text: REPLY });
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    expect(final.usage.input_tokens).toBeGreaterThan(0);
    expect(eventTypes[0]).toBe('message_start');
    expect(eventTypes[1]).toBe('content_block_start');
    expect(eventTypes.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(eventTypes.filter((t) => t === 'content_block_delta')).toHaveLength(deltas.length);

    const req = mock.messageRequests.at(-1)!;
    expect(req.body.stream).toBe(true);
    expect(apiKeyOf(req)).toBe(API_KEY);
    expect(req.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('sends the real SSE wire format: event/data pairs in order, with a ping', async () => {
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text());
    const names = events.map((e) => e.event);
    const expectedDeltas = splitIntoDeltas(REPLY).length;
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(expectedDeltas).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const start = events[0]!.data.message;
    expect(start).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null });
    expect(events[1]!.data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } });
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta);
    expect(text.every((d) => d.type === 'text_delta')).toBe(true);
    expect(text.map((d) => d.text).join('')).toBe(REPLY);
    expect(events.at(-2)!.data.delta).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
    expect(events.at(-2)!.data.usage.output_tokens).toBeGreaterThan(0);
  });

  it('surfaces a mid-stream error event as an error from the SDK stream', async () => {
    mock.enqueueFailure({ midStreamError: true });
    const deltas: string[] = [];
    const stream = client.messages.stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Who founded Lewistown?' }] });
    stream.on('text', (t) => deltas.push(t));
    stream.on('error', () => {}); // finalMessage() rejects too; keep the emitter from complaining
    const err = await stream.finalMessage().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const apiErr = err as InstanceType<typeof Anthropic.APIError>;
    expect(apiErr.type).toBe('overloaded_error');
    expect(apiErr.message).toMatch(/Overloaded/);
    // some text arrived before the error, but not all of it
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.join('').length).toBeLessThan(REPLY.length);
    expect(REPLY.startsWith(deltas.join(''))).toBe(true);
  });

  it('a 529 before the stream starts is retried by the SDK', async () => {
    mock.enqueueFailure({ status: 529 });
    const before = mock.messageRequests.length;
    const text = await client.messages.stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'again' }] }).finalText();
    expect(text).toBe(REPLY);
    expect(mock.messageRequests.length - before).toBe(2);
  });

  it('a 429 with retry-after: 0 carries rate_limit_error when retries are exhausted', async () => {
    const noRetry = new Anthropic({ apiKey: API_KEY, baseURL: mock.url, maxRetries: 0 });
    mock.enqueueFailure({ status: 429 });
    const err = await noRetry.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'x' }] }).then(
      () => undefined,
      (e: unknown) => e as InstanceType<typeof Anthropic.APIError>,
    );
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err!.status).toBe(429);
    expect(err!.type).toBe('rate_limit_error');
    expect(err!.headers?.get('retry-after')).toBe('0');
  });

  it('streams a forced tool call as input_json_delta pieces the SDK reassembles', async () => {
    const input = { entities: [{ name: 'Lewistown', type: 'Place', description: 'A city in Illinois.' }], relations: [] };
    mock.setToolHandler(() => input);
    const final = await client.messages
      .stream({
        model: MODEL,
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'extract' }],
        tools: [{ name: 'record_graph', description: 'd', input_schema: { type: 'object', properties: {} } }],
        tool_choice: { type: 'tool', name: 'record_graph' },
      })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'record_graph', input });
  });

  it('answers like the real API without a key (401) and rejects sampling parameters on 2026-10-21 (400)', async () => {
    const noKey = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } });

    const temp = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}`, 'anthropic-version': '2026-10-21' },
      body: JSON.stringify({ model: MODEL, max_tokens: 16, temperature: 0, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(temp.status).toBe(400);
    expect(await temp.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});
