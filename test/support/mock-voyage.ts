/**
 * A real HTTP server on 127.0.0.1 that speaks the VoyageAI embeddings API, for tests.
 *
 * The voyageai SDK (0.4) joins its base URL with "embeddings", and its default base URL is
 * https://api.voyageai.com/v1, so `url` here ends in /v1 and can be passed as `baseUrl`
 * (VOYAGE_BASE_URL) as is. `POST /embeddings` (no /v1) is served too.
 *
 *  - Auth: `Authorization: Bearer <key>` (401 `{detail}` otherwise, or when `opts.apiKey` is
 *    set and differs). Errors use Voyage's shape, `{"detail": "..."}`.
 *  - Body: `{input: string | string[], model, input_type?: 'query'|'document'|null,
 *    output_dimension?, output_dtype?: 'float', encoding_format?: null|'base64', truncation?}`.
 *  - Response: `{object:'list', data:[{object:'embedding', embedding, index}], model,
 *    usage:{total_tokens}}`; with encoding_format 'base64' each embedding is the base64 of
 *    little-endian float32s, as the real API sends it.
 *  - Embeddings are deterministic: hashed word and character-trigram features of the text,
 *    unit length. Like the real API, input_type prepends an instruction ("Represent the query
 *    for retrieving supporting documents: " / "Represent the document for retrieval: "), so
 *    the same text embeds differently (but similarly) as a query and as a document.
 *  - Dimensions: output_dimension must be one of `dimensions` (default 256, 512, 1024,
 *    2048); absent -> `defaultDimension` (1024). `fixedDimension` makes the server ignore
 *    output_dimension and always answer with that many (a fixed-size model, or a proxy in
 *    front of another model) - for testing clients that check the size.
 *  - Failures queued per request (FIFO): `enqueueFailure(429)` answers 429 with
 *    `retry-after: 0`; any status works (500, 503, ...).
 *  - Every request (method, path, lower-cased headers, parsed body) is recorded in `requests`.
 */
import http from 'node:http';
import { readRequest } from './recorded-request.js';
import type { AddressInfo } from 'node:net';

export interface RecordedVoyageRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
  rawBody: string;
}

export interface MockVoyageOptions {
  /** When set, the bearer token must equal it. Otherwise any non-empty token is accepted. */
  apiKey?: string;
  dimensions?: number[];
  defaultDimension?: number;
  fixedDimension?: number;
  /** Largest accepted batch (the real API: 1000). */
  maxBatch?: number;
}

export interface MockVoyageFailure {
  status: number;
  detail?: string;
  headers?: Record<string, string>;
}

export interface MockVoyage {
  /** Base URL for the voyageai SDK: http://127.0.0.1:<port>/v1 */
  url: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedVoyageRequest[];
  /** Requests to the embeddings endpoint only. */
  readonly embeddingRequests: RecordedVoyageRequest[];
  enqueueFailure(f: number | MockVoyageFailure): void;
  close(): Promise<void>;
}

export const VOYAGE_INPUT_TYPE_PREFIX = {
  query: 'Represent the query for retrieving supporting documents: ',
  document: 'Represent the document for retrieval: ',
} as const;

function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The mock's embedding of one input: deterministic in (text, input_type, dimension), unit length. */
export function mockVoyageEmbedding(text: string, inputType: 'query' | 'document' | null | undefined, dimension: number): number[] {
  const full = (inputType ? VOYAGE_INPUT_TYPE_PREFIX[inputType] : '') + text;
  const v = new Array<number>(dimension).fill(0);
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    const sign = fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1;
    v[h % dimension]! += sign * weight;
  };
  add('<bias>', 0.5);
  const words = full.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    add(`w:${w}`, 1);
    const padded = `#${w}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.3);
  }
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

const countTokens = (s: string) => Math.max(1, (s.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []).length);

export async function startMockVoyage(opts: MockVoyageOptions = {}): Promise<MockVoyage> {
  const requests: RecordedVoyageRequest[] = [];
  const failures: MockVoyageFailure[] = [];
  const dimensions = opts.dimensions ?? [256, 512, 1024, 2048];
  const defaultDimension = opts.defaultDimension ?? 1024;
  const maxBatch = opts.maxBatch ?? 1000;

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const data = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...headers });
    res.end(data);
  }
  const detail = (res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    send(res, status, { detail: message }, headers);

  function handleEmbeddings(res: http.ServerResponse, rec: RecordedVoyageRequest) {
    const auth = rec.headers.authorization ?? '';
    const m = auth.match(/^Bearer\s+(.+)$/i);
    if (!m || (opts.apiKey !== undefined && m[1] !== opts.apiKey)) {
      return detail(res, 401, 'Provided API key is invalid.');
    }
    const failure = failures.shift();
    if (failure) {
      const headers = { ...(failure.status === 429 ? { 'retry-after': '0' } : {}), ...failure.headers };
      const message =
        failure.detail ??
        (failure.status === 429
          ? 'You have exceeded your rate limit. Please wait and retry.'
          : failure.status >= 500
            ? 'The server encountered an error. Please retry.'
            : 'Request failed.');
      return detail(res, failure.status, message, headers);
    }
    const body = rec.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return detail(res, 400, 'Request body must be a JSON object.');
    const input: unknown = body.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? (input as string[]) : undefined;
    if (!texts) return detail(res, 400, "Value of 'input' must be a string or a list of strings.");
    if (texts.length === 0) return detail(res, 400, "'input' cannot be an empty list.");
    if (texts.length > maxBatch) return detail(res, 400, `The batch size limit is ${maxBatch}. Your batch size is ${texts.length}.`);
    if (typeof body.model !== 'string' || !body.model) return detail(res, 400, "'model' is required.");
    const inputType = body.input_type ?? null;
    if (inputType !== null && inputType !== 'query' && inputType !== 'document') {
      return detail(res, 400, `Value '${inputType}' supplied for argument 'input_type' is not valid. Supported values: None, 'query', 'document'.`);
    }
    if (body.output_dtype != null && body.output_dtype !== 'float')
      return detail(res, 400, `output_dtype '${body.output_dtype}' is not supported by this server.`);
    if (body.encoding_format != null && body.encoding_format !== 'base64')
      return detail(res, 400, `encoding_format '${body.encoding_format}' is not supported.`);
    let dimension = defaultDimension;
    if (body.output_dimension != null) {
      if (!dimensions.includes(body.output_dimension)) {
        return detail(
          res,
          400,
          `Value '${body.output_dimension}' supplied for argument 'output_dimension' is not valid. Supported values: ${dimensions.join(', ')}.`,
        );
      }
      dimension = body.output_dimension;
    }
    if (opts.fixedDimension !== undefined) dimension = opts.fixedDimension;
    const data = texts.map((t, index) => {
      const vec = mockVoyageEmbedding(t, inputType, dimension);
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vec).buffer).toString('base64') : vec;
      return { object: 'embedding', embedding, index };
    });
    send(res, 200, { object: 'list', data, model: body.model, usage: { total_tokens: texts.reduce((s, t) => s + countTokens(t), 0) } });
  }

  const server = http.createServer((req, res) => {
    void readRequest(req).then((recorded) => {
      const { path, rawBody, body } = recorded;
      const rec: RecordedVoyageRequest = recorded;
      requests.push(rec);
      try {
        if (path !== '/v1/embeddings' && path !== '/embeddings') return detail(res, 404, 'Not Found');
        if (req.method !== 'POST') return detail(res, 405, 'Method Not Allowed');
        if (rawBody && body === undefined) return detail(res, 400, 'Request body is not valid JSON.');
        handleEmbeddings(res, rec);
      } catch (err) {
        if (!res.headersSent) detail(res, 500, `mock error: ${(err as Error).message}`);
        else res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    requests,
    get embeddingRequests() {
      return requests.filter((r) => r.method === 'POST' && (r.path === '/v1/embeddings' || r.path === '/embeddings'));
    },
    enqueueFailure(f: number | MockVoyageFailure) {
      failures.push(typeof f === 'number' ? { status: f } : f);
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
