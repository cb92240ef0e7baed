/**
 * READ_API_KEY: an optional key on the endpoints that return the graph's content. Unset, reads are
 * open (the default: the server listens on the loopback address). Set, a read needs READ_API_KEY
 * or API_KEY (the write key reads too), sent as writes send theirs: X-Api-Key or Bearer.
 *
 * Two ways to opt in, one rule:
 * - `readGuard(config)`, mounted once in app.ts before the routers, guards every path that
 *   `isReadPath` lists (so a new router under a listed prefix, such as GET /v1/jobs, is covered
 *   without a change of its own);
 * - `requireReadKey(config)` guards one route: `router.get('/v1/x', requireReadKey(svc.config), ...)`.
 * The page, its assets, /v1/openapi.json, /v1/health and /metrics stay open.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { ENDPOINTS, endpointsOf, underPath } from './endpoints.js';
import { givenKey, routePath, sameSecret } from './handlers.js';

type Keys = Pick<Config, 'apiKey' | 'readApiKey'>;

/** The read endpoints (ENDPOINTS' `read`: POST /v1/retrieve, /v1/answer, /v1/compare; GET /v1/sources, /v1/jobs, /v1/jobs/<id>); every method on /mcp. */
export function isReadPath(req: Pick<Request, 'method' | 'path'>): boolean {
  // Express matches paths case-insensitively and ignores a trailing slash: so does the guard.
  const p = routePath(req.path);
  // Every method on /mcp (GET and DELETE answer 405 there, but only to a reader).
  if (underPath(ENDPOINTS.mcp, p)) return true;
  return endpointsOf(req.method, p).some((ep) => ep.read);
}

/** True when the request may read: no READ_API_KEY, or it carries READ_API_KEY or API_KEY. */
export function mayRead(keys: Keys, req: Pick<Request, 'header'>): boolean {
  if (!keys.readApiKey) return true;
  const given = givenKey(req);
  if (given === undefined) return false;
  // Both comparisons always run: the time taken does not tell which key (if any) matched.
  const read = sameSecret(given, keys.readApiKey);
  const write = keys.apiKey ? sameSecret(given, keys.apiKey) : false;
  return read || write;
}

const refusal = () =>
  new AppError(
    'unauthorized',
    'missing or wrong API key: this server needs READ_API_KEY (or API_KEY) to read, as X-Api-Key or Authorization: Bearer',
    'X-Api-Key',
  );

/** Guards one route (see the module comment). */
export function requireReadKey(keys: Keys) {
  return (req: Request, _res: Response, next: NextFunction) => (mayRead(keys, req) ? next() : next(refusal()));
}

/** Guards every read path (isReadPath); mount before the routers and before admission control. */
export function readGuard(keys: Keys) {
  return (req: Request, _res: Response, next: NextFunction) => (!isReadPath(req) || mayRead(keys, req) ? next() : next(refusal()));
}
