import crypto from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { Config } from '../config.js';
import { AppError, fromZod } from '../errors.js';
import { checkBodyShape } from './body-shape.js';
import { HttpError } from './errors.js';

// Route handlers are plain async functions: Express 5 forwards a rejected promise to the error handler.

/**
 * The path of the first own `__proto__` key in a parsed JSON value (JSON.parse makes it an own
 * property; zod's records drop it silently). Recursive: safe because jsonBody has checked the
 * body's depth (checkBodyShape) before JSON.parse. `constructor` and `prototype` are ordinary keys that
 * the strict schemas refuse as unknown wherever a schema lists its fields.
 */
export function prototypeKey(v: unknown, path: string[] = []): string | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  for (const key of Object.keys(v)) {
    if (key === '__proto__' && !Array.isArray(v)) return [...path, key].join('.');
    const inner = prototypeKey((v as Record<string, unknown>)[key], [...path, key]);
    if (inner) return inner;
  }
  return undefined;
}

export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const proto = prototypeKey(body);
  if (proto) throw new AppError('invalid_request', `${proto}: unknown field`, proto);
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

/** Largest JSON body accepted (413 past it). */
export const BODY_LIMIT = '10mb';
// checkBodyShape runs on the raw (decoded) bytes before JSON.parse: it throws an HttpError, which
// body-parser forwards as it is (its own status and type kept).
const parseJson = express.json({ limit: BODY_LIMIT, type: () => true, verify: (_req, _res, buf) => checkBodyShape(buf) });

/** No charset parameter, or utf-8. */
function isUtf8Charset(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/** True when the request carries a body (chunked, or a non-zero content-length). */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/**
 * The JSON body parser, per route (after the API key check on protected
 * endpoints): a body must be application/json (415 otherwise, also for
 * non-UTF-8 charsets and unknown content-encodings), at most BODY_LIMIT (413), and
 * of a sane shape (checkBodyShape: 400); no body is an empty object.
 */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!hasBody(req)) next();
  else if (!req.is(['application/json', 'application/*+json'])) {
    next(new HttpError(415, 'unsupported_media_type', 'the request body must be JSON (content-type: application/json)', '(body)'));
  } else if (!isUtf8Charset(req.headers['content-type'])) {
    // body-parser would decode utf-16 too; the shape check reads the bytes as UTF-8 (RFC 8259: JSON is UTF-8).
    next(new HttpError(415, 'unsupported_media_type', 'unsupported charset: send JSON as UTF-8 (content-type: application/json)', '(body)'));
  } else parseJson(req, res, next);
}

/** Aborts when the client goes away, so the database work can be cancelled. */
export function clientGone(_req: Request, res: Response): AbortSignal {
  const ac = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();

/** Compares two secrets in constant time (equal-length digests, so the length does not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/** A path as the router matches it: letter case and a trailing slash do not count (Express's defaults). */
export function routePath(path: string): string {
  return (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase();
}

/** The key a request carries: X-Api-Key, else an Authorization: Bearer token. */
export function givenKey(req: Pick<Request, 'header'>): string | undefined {
  return req.header('x-api-key') ?? req.header('authorization')?.replace(/^Bearer\s+/i, '');
}

/** Endpoints that change data need API_KEY (X-Api-Key or Bearer); without one configured they are refused. */
export function requireApiKey(config: Config) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = givenKey(req);
    if (!config.apiKey) return next(new AppError('forbidden', 'this endpoint is disabled: set API_KEY on the server to enable it'));
    if (given === undefined || !sameSecret(given, config.apiKey))
      return next(new AppError('unauthorized', 'missing or wrong API key (X-Api-Key header)', 'X-Api-Key'));
    next();
  };
}
