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
  | 'too_large' // what a write asks for needs more memory than one database transaction may use
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

/**
 * The one table of database conditions a client should wait out: for each, one code, one message
 * and one Retry-After, wherever the condition is detected (the watchdog, the driver's error, the
 * HTTP error handler, the MCP tools). `detail` names what the condition is about (a mode, an index).
 */
export const DB_CONDITIONS = {
  /** The watchdog's probe fails, or the driver cannot connect. */
  unreachable: { code: 'database_unavailable', retryAfterSeconds: 1, message: () => 'the database is unreachable; retry shortly' },
  /** The database terminated the query (a restart, an administrator), not its timeout. */
  terminated: { code: 'database_unavailable', retryAfterSeconds: 1, message: () => 'the query was terminated by the database; retry shortly' },
  /** An index the statement reads is missing: a bulk load rebuilds it, or a migration has not run. */
  index_building: { code: 'database_unavailable', retryAfterSeconds: 1, message: (index?: string) => `the index ${index} is being built; retry shortly` },
  /** An index the statement reads exists but is still being populated (after a bulk import, SHOW INDEXES tells its progress). */
  index_populating: {
    code: 'database_unavailable',
    retryAfterSeconds: 5,
    message: () => 'a vector index the statement reads is still being populated (SHOW INDEXES tells its progress); retry later',
  },
  /** This mode's statement is being planned (at start, after an outage, or by another request whose plan this one's wait outlasted). */
  planning: { code: 'database_unavailable', retryAfterSeconds: 1, message: (mode?: string) => `the server is planning the ${mode} statement; retry shortly` },
  /** The request was cancelled while it waited (its client went away). */
  cancelled: { code: 'database_unavailable', retryAfterSeconds: 1, message: () => 'the request was cancelled' },
  /** Every connection of the server's pool to the database stayed in use for the driver's acquisition timeout. */
  saturated: { code: 'overloaded', retryAfterSeconds: 1, message: () => "all of the server's database connections are in use; retry shortly" },
  /** The database's transaction memory pool (dbms.memory.transaction.total.max) is full. */
  busy: {
    code: 'overloaded',
    retryAfterSeconds: 2,
    message: () => 'the database has no transaction memory left for this query (dbms.memory.transaction.total.max); retry shortly',
  },
} as const satisfies Record<string, { code: ErrorCode; retryAfterSeconds: number; message: (detail?: string) => string }>;
export type DbCondition = keyof typeof DB_CONDITIONS;

/** The AppError of a database condition, from the table. */
export function dbError(condition: DbCondition, detail?: string): AppError {
  const c = DB_CONDITIONS[condition];
  return new AppError(c.code, c.message(detail), undefined, c.retryAfterSeconds);
}

/** A write too big for one database transaction (db.memory.transaction.max): the same every time, so no retry. */
export const writeTooLarge = () =>
  new AppError('too_large', 'the request needs more memory than one database transaction may use (db.memory.transaction.max); send less at once', '(body)');

/** The database does not answer (the watchdog's probe or the driver says so). */
export const databaseUnreachable = () => dbError('unreachable');

/** The first problem of a failed schema parse, naming the field by its path. */
export function fromZod(err: ZodError, prefix = ''): AppError {
  const issue = err.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const pathParts = [...(prefix ? [prefix] : []), ...issue.path.map(String), ...(keys.length ? [keys[0]] : [])];
  const field = pathParts.join('.') || '(body)';
  const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
  return new AppError('invalid_request', `${field}: ${message}`, field);
}
