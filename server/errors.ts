import type { ZodError } from 'zod';

/**
 * Domain errors: what went wrong, as a code, never an HTTP status. The HTTP
 * layer alone maps codes to statuses (server/http/errors.ts), so retrieval,
 * ingestion and answers stay usable from the CLI, the bench and tests. The
 * codes are part of the API: clients see them in `{error: {code}}`.
 */
export type ErrorCode =
  | 'invalid_request' // the caller's input is wrong (names `field`)
  | 'invalid_param' // a retrieval parameter is outside what the server allows (names `field`)
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict' // the resource is not in a state that allows this (a job that is no longer queued cannot be cancelled)
  | 'projection_unavailable' // ppr needs a GDS projection that is missing or stale
  | 'projection_building' // the ppr projection is being (re)built: retry after retryAfterSeconds
  | 'database_unavailable' // the database cannot be reached: retry later
  | 'overloaded' // admission control: too many requests of this kind in flight and queued; retry after retryAfterSeconds
  | 'starting' // the server is starting (migrations, the demo load): retry after retryAfterSeconds
  | 'query_timeout'; // the statement exceeded its time budget

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** For errors a client should retry: how long to wait, in seconds (HTTP Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The database does not answer (the watchdog's probe or the driver says so): a 503, retry in 1 s. */
export const databaseUnreachable = () => new AppError('database_unavailable', 'the database is unreachable; retry shortly', undefined, 1);

/** The first problem of a failed schema parse, naming the field by its path. */
export function fromZod(err: ZodError, prefix = ''): AppError {
  const issue = err.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const pathParts = [...(prefix ? [prefix] : []), ...issue.path.map(String), ...(keys.length ? [keys[0]] : [])];
  const field = pathParts.join('.') || '(body)';
  const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
  return new AppError('invalid_request', `${field}: ${message}`, field);
}
