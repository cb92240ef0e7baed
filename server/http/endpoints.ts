/**
 * The API's endpoints, written once. The routers mount their handlers on these paths; the read
 * guard (read-access.ts) guards the `read` ones, admission control (admission.ts) gates the
 * ones with an `admission` kind, the metrics label refused requests by these paths, and the
 * OpenAPI document (server/routes/openapi.ts) describes each under its own path.
 */
export type AdmissionKind = 'retrieve';

export interface Endpoint {
  method: 'get' | 'post' | 'delete';
  /** Express syntax (':id'); openapiPath() gives the OpenAPI form. */
  path: string;
  /** Returns the graph's content: behind READ_API_KEY when it is set. */
  read?: boolean;
  /** Runs a retrieval: at most RETRIEVE_CONCURRENCY at once, RETRIEVE_QUEUE waiting. */
  admission?: AdmissionKind;
}

const e = (method: Endpoint['method'], path: string, more: Omit<Endpoint, 'method' | 'path'> = {}): Endpoint => ({ method, path, ...more });

export const ENDPOINTS = {
  retrieve: e('post', '/v1/retrieve', { read: true, admission: 'retrieve' }),
  answer: e('post', '/v1/answer', { read: true, admission: 'retrieve' }),
  compare: e('post', '/v1/compare', { read: true, admission: 'retrieve' }),
  documents: e('post', '/v1/documents'),
  deleteDocument: e('delete', '/v1/documents/:id'),
  sources: e('get', '/v1/sources', { read: true }),
  jobs: e('get', '/v1/jobs', { read: true }),
  job: e('get', '/v1/jobs/:id', { read: true }),
  cancelJob: e('delete', '/v1/jobs/:id'),
  projection: e('post', '/v1/projection'),
  health: e('get', '/v1/health'),
  openapi: e('get', '/v1/openapi.json'),
  metrics: e('get', '/metrics'),
  /** MCP over streamable HTTP: POST carries the calls; every method on it is a read. */
  mcp: e('post', '/mcp', { read: true }),
} as const satisfies Record<string, Endpoint>;

const ALL: Endpoint[] = Object.values(ENDPOINTS);

/** '/v1/jobs/:id' as OpenAPI writes it: '/v1/jobs/{id}'. */
export const openapiPath = (ep: Endpoint) => ep.path.replace(/:(\w+)/g, '{$1}');

/**
 * Whether a path (as routePath() normalises it) falls under an endpoint's path: equal, or for a
 * path with a parameter, anything under the part before it ('/v1/jobs/:id' covers '/v1/jobs/x'
 * and deeper, so a guard errs on the guarded side).
 */
export function underPath(ep: Endpoint, p: string): boolean {
  const at = ep.path.indexOf('/:');
  return at < 0 ? p === ep.path : p.startsWith(ep.path.slice(0, at + 1));
}

/** The endpoints a request's method and path may reach (HEAD is GET). */
export function endpointsOf(method: string, p: string): Endpoint[] {
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  return ALL.filter((ep) => ep.method === m && underPath(ep, p));
}

/** The endpoint path (Express syntax) a request path falls under, whatever its method: a bounded metric label. */
export const endpointPath = (p: string): string | undefined => ALL.find((ep) => underPath(ep, p))?.path;
