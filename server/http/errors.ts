import type { NextFunction, Request, Response } from 'express';
import { classifyDbError, transientCondition } from '../db/driver.js';
import { AppError, DB_CONDITIONS, dbError, type ErrorCode, writeTooLarge } from '../errors.js';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_param: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  projection_unavailable: 409,
  projection_building: 503,
  database_unavailable: 503,
  overloaded: 503, // admission control; Retry-After from AppError.retryAfterSeconds
  starting: 503, // the server is starting (server/startup.ts); Retry-After from the start-up's phase
  too_large: 413,
  query_timeout: 504,
};

/** Seconds a client should wait before retrying a 503 that names no wait of its own (every AppError 503 does today). */
export const RETRY_AFTER_SECONDS = DB_CONDITIONS.unreachable.retryAfterSeconds;

/** Longest echoed text in an error body: a message or field never carries a huge input back whole. */
export const MAX_MESSAGE_CHARS = 300;
export const MAX_FIELD_CHARS = 200;

type ErrorBody = { error: { code: string; message: string; field?: string } };

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}... (${s.length} chars)`;
}

function body(code: string, message: string, field?: string): ErrorBody {
  return { error: { code, message: clip(message, MAX_MESSAGE_CHARS), ...(field ? { field: clip(field, MAX_FIELD_CHARS) } : {}) } };
}

export function errorBody(e: AppError): ErrorBody {
  return body(e.code, e.message, e.field);
}

/** An HTTP-level refusal that has no domain code (media type, encoding, URL). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Body-parser and router failures, by the `type` they carry. */
function fromExpress(err: { type?: string; status?: number; statusCode?: number; message?: string; charset?: string }): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'invalid_json', 'request body is not valid JSON', '(body)');
    case 'entity.too.large':
      return new HttpError(413, 'too_large', 'request body is too large', '(body)');
    case 'charset.unsupported':
      return new HttpError(415, 'unsupported_media_type', 'unsupported charset: send JSON as UTF-8 (content-type: application/json)', '(body)');
    case 'encoding.unsupported':
      return new HttpError(415, 'unsupported_media_type', 'unsupported content-encoding: use identity, gzip, deflate or br', '(body)');
  }
  const status = err.status ?? err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // A body that does not decode (gzip header over a plain body), a URL that does not decode (%ZZ), ...
    const code = status === 413 ? 'too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_request';
    return new HttpError(status, code, String(err.message ?? 'bad request'));
  }
  return undefined;
}

function isClientGone(err: unknown, req: Request, res: Response): boolean {
  return (err as { type?: string })?.type === 'request.aborted' || res.destroyed || req.socket?.destroyed === true;
}

/** Express error handler: domain errors get their status from STATUS; anything else is a logged 500. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (isClientGone(err, req, res)) {
    // Nobody to answer: not a server fault.
    req.log?.debug({ err: String((err as Error)?.message ?? err) }, 'client disconnected before the response');
    return;
  }
  if (res.headersSent) {
    req.log?.warn({ err: String((err as Error)?.message ?? err) }, 'error after the response started');
    res.end();
    return;
  }
  const http = err instanceof HttpError ? err : fromExpress((err ?? {}) as Record<string, never>);
  if (http) {
    res.status(http.status).json(body(http.code, http.message, http.field));
    return;
  }
  if (err instanceof AppError) {
    const status = STATUS[err.code];
    if (status >= 500) req.log?.warn({ err: err.message, code: err.code }, 'request failed');
    const retryAfter = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (status === 503 || retryAfter !== undefined) res.setHeader('Retry-After', String(Math.ceil(retryAfter ?? RETRY_AFTER_SECONDS)));
    res.status(status).json(errorBody(err));
    return;
  }
  const failure = classifyDbError(err);
  if (failure === 'query_memory') {
    // The same every time: what the request asks to write or read is too big for one transaction.
    res.status(413).json(errorBody(writeTooLarge()));
    return;
  }
  const condition = transientCondition(failure);
  if (condition) {
    // The same condition, the same answer as retrieval gives it (DB_CONDITIONS).
    const e = dbError(condition);
    res.setHeader('Retry-After', String(e.retryAfterSeconds));
    res.status(STATUS[e.code]).json(errorBody(e));
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json(body('internal', 'internal error'));
}
