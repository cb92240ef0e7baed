/**
 * Domain errors: what went wrong, as a code, never an HTTP status. The HTTP
 * layer alone maps codes to statuses (server/http/errors.ts), so retrieval,
 * ingestion and answers stay usable from the CLI, the bench and tests.
 */
export type ErrorCode =
  | 'invalid_request' // the caller's input is wrong (names `field`)
  | 'invalid_param' // a retrieval parameter is wrong (names `field`)
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict' // the request is valid but the graph's state refuses it (e.g. no projection)
  | 'unavailable' // the database (or a dependency) cannot be reached: retry later
  | 'timeout' // the work exceeded its time budget
  | 'internal';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
