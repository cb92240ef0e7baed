import type { NextFunction, Request, Response } from 'express';
import { classifyDbError } from '../db/driver.js';
import { AppError, type ErrorCode } from '../errors.js';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_param: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  projection_unavailable: 409,
  database_unavailable: 503,
  query_timeout: 504,
};

type ErrorBody = { error: { code: string; message: string; field?: string } };

export function errorBody(e: AppError): ErrorBody {
  return { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } };
}

/** Body-parser failures, by the `type` express gives them. */
const PARSER_ERRORS: Record<string, [number, ErrorBody]> = {
  'entity.parse.failed': [400, { error: { code: 'invalid_json', message: 'request body is not valid JSON', field: '(body)' } }],
  'entity.too.large': [413, { error: { code: 'too_large', message: 'request body is too large', field: '(body)' } }],
};

/** Express error handler: domain errors get their status from STATUS; anything else is a logged 500. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  const parser = PARSER_ERRORS[(err as { type?: string }).type ?? ''];
  if (parser) {
    res.status(parser[0]).json(parser[1]);
    return;
  }
  if (err instanceof AppError) {
    const status = STATUS[err.code];
    if (status >= 500) req.log?.warn({ err: err.message, code: err.code }, 'request failed');
    res.status(status).json(errorBody(err));
    return;
  }
  if (classifyDbError(err) === 'unavailable') {
    res.status(503).json({ error: { code: 'database_unavailable', message: 'the database is unreachable; retry shortly' } });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ error: { code: 'internal', message: 'internal error' } });
}
