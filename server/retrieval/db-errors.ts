/**
 * What a database failure of a retrieval means to its caller: the domain error (server/errors.ts)
 * the HTTP layer answers with its status and Retry-After, and the GDS conditions the Retriever
 * heals (a missing, stale or lagging ppr projection).
 */
import { classifyDbError } from '../db/driver.js';
import { AppError, databaseUnreachable, dbError } from '../errors.js';

/** The GDS projection ppr needs is missing, stale, or was dropped while the statement ran. */
export function projectionMissing(e: unknown): boolean {
  const message = String((e as Error)?.message ?? e);
  return /GDS projection \S+ (does not exist|is stale)|GraphNotFoundException|Graph with name \S+ does not exist/.test(message);
}

/** GDS was given a seed node its projection lacks: a node committed after the projection was made. */
export function projectionBehind(e: unknown): boolean {
  return /nodes do not exist in the in-memory graph/.test(String((e as Error)?.message ?? e));
}

/**
 * A database failure as a domain error (unknown failures pass through unchanged). elapsedMs, when
 * known, tells a transaction that GDS saw terminated (its own TerminatedException) at the timeout
 * from one terminated otherwise (a shutdown).
 */
export function fromDbError(e: unknown, timeoutMs: number, elapsedMs?: number): Error {
  if (e instanceof AppError) return e;
  const message = String((e as Error)?.message ?? e);
  if (/TerminatedException/.test(message)) {
    if (elapsedMs !== undefined && elapsedMs >= timeoutMs) return new AppError('query_timeout', `retrieval exceeded the ${timeoutMs} ms timeout`);
    return dbError('terminated');
  }
  const projection = message.match(/GDS projection \S+ (does not exist|is stale)[\s\S]*/);
  if (projection) return new AppError('projection_unavailable', projection[0].replace(/\s+$/, ''));
  // A bulk load rebuilding an index (server/db/compact-indexes.ts), or a migration not yet run.
  const index = message.match(/There is no such (?:vector|fulltext) schema index: (\w+)/);
  if (index) return dbError('index_building', index[1]);
  // A vector index still populating: Neo4j waits a while inside the procedure, then gives up.
  if (/Expected index to come online within a reasonable time/.test(message)) return dbError('index_populating');
  switch (classifyDbError(e)) {
    case 'unavailable':
      return databaseUnreachable();
    case 'query_memory':
      return new AppError(
        'invalid_param',
        'params: this request needs more memory than one query may use (db.memory.transaction.max); lower frontier, entityK, candidateK, steps or pushFrontier, or raise threshold or pushEpsilon',
        'params',
      );
    case 'busy':
      return dbError('busy');
    case 'saturated':
      return dbError('saturated');
    case 'timeout':
      return new AppError('query_timeout', `retrieval exceeded the ${timeoutMs} ms timeout`);
    default:
      return e as Error;
  }
}
