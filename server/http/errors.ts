import type { NextFunction, Request, Response } from 'express';
import type { ZodError } from 'zod';
import { classifyDbError } from '../db/driver.js';
import { RetrievalError } from '../retrieval/client.js';

/** An error with an HTTP status and a JSON body {error: {code, message, field?}}. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly field?: string) {
    super(message);
  }
}

/** The first problem of a failed schema parse, naming the field by its path. */
export function fromZod(err: ZodError, prefix = ''): HttpError {
  const issue = err.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const pathParts = [...(prefix ? [prefix] : []), ...issue.path.map(String), ...(keys.length ? [keys[0]] : [])];
  const field = pathParts.join('.') || '(body)';
  const message = issue.code === 'unrecognized_keys' ? `unknown field` : issue.message;
  return new HttpError(400, 'invalid_request', `${field}: ${message}`, field);
}

export function errorBody(e: HttpError | RetrievalError) {
  return { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } };
}

/** Express error handler: known errors keep their status; anything else is a logged 500. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if ((err as { type?: string }).type === 'entity.parse.failed') {
    res.status(400).json({ error: { code: 'invalid_json', message: 'request body is not valid JSON', field: '(body)' } });
    return;
  }
  if ((err as { type?: string }).type === 'entity.too.large') {
    res.status(413).json({ error: { code: 'too_large', message: 'request body is too large', field: '(body)' } });
    return;
  }
  if (err instanceof HttpError || err instanceof RetrievalError) {
    if (err.status >= 500) req.log?.warn({ err: err.message, code: err.code }, 'request failed');
    res.status(err.status).json(errorBody(err));
    return;
  }
  if (classifyDbError(err) === 'unavailable') {
    res.status(503).json({ error: { code: 'database_unavailable', message: 'the database is unreachable; retry shortly' } });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ error: { code: 'internal', message: 'internal error' } });
}
