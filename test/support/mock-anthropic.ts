/**
 * A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages API, for tests:
 * the official SDK (or anything else) talks to it over the network exactly as it would
 * to api.anthropic.com (`baseURL` = `url`; the SDK appends /v1/messages).
 *
 *  - `POST /v1/messages`: needs an API key, as `x-api-key` or as `Authorization: Bearer <key>`
 *    (SDK 1.x, which speaks API version 2026-10-21, sends the latter) - 401
 *    authentication_error otherwise, or when `opts.apiKey` is set and differs - and
 *    `anthropic-version` (400 invalid_request_error otherwise, as the real API answers).
 *    Body checks: model, max_tokens, messages; from version 2026-10-21 on, temperature /
 *    top_p / top_k are rejected with a 400 as the real API does.
 *  - Non-streaming: a Message `{id, type:'message', role, model, content, stop_reason,
 *    stop_sequence, usage, ...}`. With `tool_choice: {type:'tool', name}` (or `any`) the
 *    content is one `tool_use` block whose input is the tool handler's return value;
 *    otherwise one text block (the text reply).
 *  - Streaming (`stream: true`): SSE, `event: <type>\ndata: <json>\n\n`, in the real order:
 *    message_start, content_block_start, ping, content_block_delta (text_delta, or
 *    input_json_delta for tool_use) several times, content_block_stop, message_delta
 *    (stop_reason, usage), message_stop.
 *  - Failures queued per request (FIFO, consumed by the next /v1/messages request):
 *    `{status: 429}` (rate_limit_error, `retry-after: 0`), `{status: 529}` (overloaded_error),
 *    other statuses with their Anthropic error types, and `{midStreamError: true}`: a 200
 *    stream with some text deltas, then `event: error` (overloaded_error) and the end of
 *    the response. A non-streaming request that dequeues `midStreamError` gets a 529.
 *  - Every request (method, path, lower-cased headers, parsed body) is recorded in `requests`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { readRequest } from './recorded-request.js';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when absent or not JSON; see rawBody). */
  body: any;
  rawBody: string;
}

export interface MockFailure {
  /** HTTP status to answer with (429, 529, 500, 401, ...). */
  status?: number;
  /** Stream some text deltas, then an `error` event (overloaded_error), then end. */
  midStreamError?: boolean;
  /** Error message; a default per status otherwise. */
  message?: string;
  /** Extra response headers (e.g. `{'x-should-retry': 'false'}`). */
  headers?: Record<string, string>;
}

/** Produces the tool input for a forced tool call, from the request body and the chosen tool. */
export type ToolHandler = (body: any, tool: { name: string; description?: string; input_schema?: unknown }) => unknown | Promise<unknown>;
export type TextReply = string | ((body: any) => string | Promise<string>);

export interface MockAnthropicOptions {
  /** When set, x-api-key must equal it. Otherwise any non-empty key is accepted. */
  apiKey?: string;
  toolHandler?: ToolHandler;
  textReply?: TextReply;
  /** Words per text_delta (default 2). */
  wordsPerDelta?: number;
  /** Pause between streamed deltas, in ms (default 0: still one write per event). */
  deltaDelayMs?: number;
}

export interface MockAnthropic {
  /** Root URL (http://127.0.0.1:<port>), the SDK's `baseURL`. */
  url: string;
  requests: RecordedRequest[];
  /** Requests to POST /v1/messages only. */
  readonly messageRequests: RecordedRequest[];
  enqueueFailure(f: MockFailure): void;
  setToolHandler(fn: ToolHandler): void;
  setTextReply(text: TextReply): void;
  /** How each stream ended: 'completed', or 'client-closed' when the caller hung up mid-stream. */
  readonly streamOutcomes: ('completed' | 'client-closed')[];
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};
const DEFAULT_MESSAGES: Record<string, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  billing_error: 'Your credit balance is too low to access the Anthropic API.',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  timeout_error: 'Request timeout',
  overloaded_error: 'Overloaded',
};

const DEFAULT_TEXT = 'Hello from the mock Anthropic server. This reply arrives in several pieces, as a real stream would.';

/**
 * The API key a request carried: `x-api-key`, or `Authorization: Bearer <key>` (the SDK 1.x /
 * API version 2026-10-21 way; the API accepts both).
 */
export function apiKeyOf(req: Pick<RecordedRequest, 'headers'>): string | undefined {
  const x = req.headers['x-api-key'];
  if (x) return x;
  const m = (req.headers.authorization ?? '').match(/^Bearer\s+(.+)$/i);
  return m ? m[1] : undefined;
}

const rid = (prefix: string) => `${prefix}_01${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
/** Rough token count (about four characters a token), enough for plausible usage numbers. */
const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

/** Splits text into deltas of `n` words (whitespace kept, so the deltas concatenate back exactly). */
export function splitIntoDeltas(text: string, n = 2): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += n) out.push(words.slice(i, i + n).join(''));
  if (out.join('') !== text) {
    // leading/trailing whitespace the regex did not attach: keep the concatenation exact
    return text ? [text] : [];
  }
  return out;
}

function splitJson(json: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(json.length / pieces));
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

export async function startMockAnthropic(opts: MockAnthropicOptions = {}): Promise<MockAnthropic> {
  const requests: RecordedRequest[] = [];
  const failures: MockFailure[] = [];
  const streamOutcomes: ('completed' | 'client-closed')[] = [];
  let toolHandler: ToolHandler | undefined = opts.toolHandler;
  let textReply: TextReply = opts.textReply ?? DEFAULT_TEXT;
  const wordsPerDelta = Math.max(1, opts.wordsPerDelta ?? 2);
  const delayMs = opts.deltaDelayMs ?? 0;

  const pause = () => new Promise<void>((r) => (delayMs > 0 ? setTimeout(r, delayMs) : setImmediate(r)));

  function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const data = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(data),
      'request-id': rid('req'),
      ...headers,
    });
    res.end(data);
  }

  function sendError(res: http.ServerResponse, status: number, message?: string, headers: Record<string, string> = {}) {
    const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    sendJson(res, status, { type: 'error', error: { type, message: message ?? DEFAULT_MESSAGES[type] ?? 'Error' }, request_id: rid('req') }, headers);
  }

  function writeEvent(res: http.ServerResponse, type: string, data: unknown) {
    res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

  async function buildReply(body: any): Promise<{ blocks: Block[]; stopReason: string; outputTokens: number }> {
    const choice = body.tool_choice;
    const tools: any[] = Array.isArray(body.tools) ? body.tools : [];
    const forcedName = choice?.type === 'tool' ? choice.name : choice?.type === 'any' && tools.length ? tools[0]?.name : undefined;
    if (forcedName !== undefined) {
      const tool = tools.find((t) => t?.name === forcedName);
      if (!tool) throw Object.assign(new Error(`tool_choice names a tool that is not in tools: ${forcedName}`), { status: 400 });
      if (!toolHandler) throw Object.assign(new Error('mock: no tool handler set (setToolHandler)'), { status: 500 });
      const input = await toolHandler(body, tool);
      const block: Block = { type: 'tool_use', id: rid('toolu'), name: tool.name, input: input ?? {} };
      return { blocks: [block], stopReason: 'tool_use', outputTokens: tokens(JSON.stringify(block.input)) };
    }
    let text = typeof textReply === 'function' ? await textReply(body) : textReply;
    let stopReason = 'end_turn';
    const maxChars = Number(body.max_tokens) * 4;
    if (text.length > maxChars) {
      text = text.slice(0, maxChars);
      stopReason = 'max_tokens';
    }
    return { blocks: [{ type: 'text', text }], stopReason, outputTokens: tokens(text) };
  }

  function messageShell(body: any, inputTokens: number) {
    return {
      id: rid('msg'),
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [] as unknown[],
      stop_reason: null as string | null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: inputTokens,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        server_tool_use: null,
        service_tier: 'standard',
        inference_geo: null,
        output_tokens_details: null,
        speed: null,
      },
    };
  }

  const fullBlock = (b: Block) => (b.type === 'text' ? { type: 'text', text: b.text, citations: null } : { ...b, caller: { type: 'direct' } });
  const startBlock = (b: Block) => (b.type === 'text' ? { type: 'text', text: '', citations: null } : { ...b, input: {}, caller: { type: 'direct' } });

  async function stream(res: http.ServerResponse, body: any, inputTokens: number, failMidStream: boolean) {
    const { blocks, stopReason, outputTokens } = await buildReply(body);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': rid('req'),
    });
    res.on('close', () => {
      if (!res.writableFinished) streamOutcomes.push('client-closed');
    });
    const shell = messageShell(body, inputTokens);
    shell.usage.output_tokens = 1;
    writeEvent(res, 'message_start', { type: 'message_start', message: shell });
    await pause();
    let pinged = false;
    for (let index = 0; index < blocks.length; index++) {
      const b = blocks[index]!;
      writeEvent(res, 'content_block_start', { type: 'content_block_start', index, content_block: startBlock(b) });
      if (!pinged) {
        writeEvent(res, 'ping', { type: 'ping' });
        pinged = true;
      }
      await pause();
      const pieces = b.type === 'text' ? splitIntoDeltas(b.text, wordsPerDelta) : splitJson(JSON.stringify(b.input), 4);
      const upTo = failMidStream ? Math.max(1, Math.floor(pieces.length / 2)) : pieces.length;
      for (let i = 0; i < upTo && i < pieces.length; i++) {
        const delta = b.type === 'text' ? { type: 'text_delta', text: pieces[i] } : { type: 'input_json_delta', partial_json: pieces[i] };
        if (res.destroyed) return;
        writeEvent(res, 'content_block_delta', { type: 'content_block_delta', index, delta });
        await pause();
      }
      if (failMidStream) {
        writeEvent(res, 'error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: rid('req') });
        res.end();
        return;
      }
      writeEvent(res, 'content_block_stop', { type: 'content_block_stop', index });
      await pause();
    }
    writeEvent(res, 'message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null },
      usage: { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: null },
    });
    writeEvent(res, 'message_stop', { type: 'message_stop' });
    res.end();
    streamOutcomes.push('completed');
  }

  async function handleMessages(res: http.ServerResponse, rec: RecordedRequest) {
    const h = rec.headers;
    const key = apiKeyOf(rec);
    if (!key) return sendError(res, 401, 'x-api-key header is required');
    if (opts.apiKey !== undefined && key !== opts.apiKey) return sendError(res, 401, 'invalid x-api-key');
    const version = h['anthropic-version'];
    if (!version) return sendError(res, 400, 'anthropic-version: header is required');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) return sendError(res, 400, `anthropic-version: invalid version ${version}`);

    const body = rec.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return sendError(res, 400, 'Request body must be a JSON object');
    if (typeof body.model !== 'string' || !body.model) return sendError(res, 400, 'model: Field required');
    if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return sendError(res, 400, 'max_tokens: Field required');
    if (!Array.isArray(body.messages) || body.messages.length === 0) return sendError(res, 400, 'messages: at least one message is required');
    if (version >= '2026-10-21') {
      // API version 2026-10-21 removed the sampling parameters: sending any of them is a 400.
      for (const p of ['temperature', 'top_p', 'top_k']) {
        if (p in body) return sendError(res, 400, `${p}: Extra inputs are not permitted`);
      }
    }

    const failure = failures.shift();
    const streaming = body.stream === true;
    if (failure && !(failure.midStreamError && streaming)) {
      const status = failure.status ?? 529;
      const headers: Record<string, string> = { ...(status === 429 ? { 'retry-after': '0' } : {}), ...failure.headers };
      return sendError(res, status, failure.message, headers);
    }

    const inputTokens = tokens(JSON.stringify(body.messages) + JSON.stringify(body.system ?? '') + JSON.stringify(body.tools ?? []));
    if (streaming) return stream(res, body, inputTokens, !!failure?.midStreamError);

    const { blocks, stopReason, outputTokens } = await buildReply(body);
    const msg = messageShell(body, inputTokens);
    msg.content = blocks.map(fullBlock);
    msg.stop_reason = stopReason;
    msg.usage.output_tokens = outputTokens;
    sendJson(res, 200, msg);
  }

  const server = http.createServer((req, res) => {
    void readRequest(req).then((recorded) => {
      const { path, rawBody, body } = recorded;
      const rec: RecordedRequest = recorded;
      requests.push(rec);
      const run = async () => {
        if (path !== '/v1/messages') return sendError(res, 404, `Not found: ${req.method} ${path}`);
        if (req.method !== 'POST') return sendError(res, 405, `Method ${req.method} not allowed on ${path}`);
        if (rawBody && body === undefined) return sendError(res, 400, 'Request body is not valid JSON');
        return handleMessages(res, rec);
      };
      run().catch((err: unknown) => {
        const e = err as { status?: number; message?: string };
        if (res.headersSent) {
          res.destroy();
          return;
        }
        // A mock misconfiguration or a bad request: tell the SDK not to retry it.
        sendError(res, e.status ?? 500, e.message ?? String(err), { 'x-should-retry': 'false' });
      });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get messageRequests() {
      return requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    },
    enqueueFailure(f: MockFailure) {
      failures.push(f);
    },
    setToolHandler(fn: ToolHandler) {
      toolHandler = fn;
    },
    streamOutcomes,
    setTextReply(text: TextReply) {
      textReply = text;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
