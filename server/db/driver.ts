import neo4j, { type Driver, type Neo4jError } from 'neo4j-driver';
import type { Config } from '../config.js';
import { installNoDelay } from './nodelay.js';

/** maxConnections: the pool's size (the watchdog's probe has a pool of its own, of one). */
export function createDriver(cfg: Config['neo4j'], maxConnections = 50): Driver {
  // TCP_NODELAY on the Bolt sockets: without it every retrieval waits ~40 ms for a delayed ACK (bench/nodelay.ts).
  installNoDelay();
  return neo4j.driver(cfg.uri, neo4j.auth.basic(cfg.user, cfg.password), {
    // Fail fast when the database is down so the API can answer 503 quickly.
    connectionAcquisitionTimeout: 5000,
    connectionTimeout: 5000,
    maxConnectionPoolSize: maxConnections,
    // executeRead/Write retry transient failures; keep it short so an outage is a quick 503.
    maxTransactionRetryTime: 2000,
    disableLosslessIntegers: true,
    logging: { level: 'error', logger: () => {} },
  });
}

/**
 * What went wrong at the database, in HTTP terms. `query_memory`: the statement alone needed more
 * memory than one transaction may use (`db.memory.transaction.max`), the same every time it runs
 * with these parameters; `busy`: the memory pool of all transactions
 * (`dbms.memory.transaction.total.max`) is full, so it may pass when the others are done;
 * `saturated`: every connection of this server's pool stayed in use for the acquisition timeout
 * (the server is busy; the database answers).
 */
export type DbFailure = 'unavailable' | 'saturated' | 'timeout' | 'query_memory' | 'busy' | 'client' | 'other';

/** The failures a caller waits out (503 + Retry-After), as the condition of DB_CONDITIONS (server/errors.ts) each answers with. */
export function transientCondition(kind: DbFailure): 'unreachable' | 'saturated' | 'busy' | undefined {
  if (kind === 'unavailable') return 'unreachable';
  return kind === 'saturated' || kind === 'busy' ? kind : undefined;
}

/**
 * Server status codes that mean "the database cannot serve this now; the same
 * request later will work": while it starts, stops, or is being recovered.
 */
const UNAVAILABLE_CODES = new Set([
  'Neo.TransientError.General.DatabaseUnavailable',
  'Neo.TransientError.Database.DatabaseUnavailable',
  'Neo.TransientError.Transaction.LeaderSwitch',
  'Neo.ClientError.Cluster.NotALeader',
]);

export function classifyDbError(e: unknown): DbFailure {
  const code = (e as Neo4jError)?.code ?? '';
  const msg = String((e as Error)?.message ?? '');
  // The driver's own pool (neo4j-driver-core's pool.js), before any word of the database.
  if (/^Connection acquisition timed out/.test(msg) && !code.startsWith('Neo.')) return 'saturated';
  if (code === 'ServiceUnavailable' || code === 'SessionExpired' || (/ECONNREFUSED|ECONNRESET|connect|acquisition/i.test(msg) && !code.startsWith('Neo.'))) {
    return 'unavailable';
  }
  if (UNAVAILABLE_CODES.has(code) || code.endsWith('.DatabaseUnavailable')) return 'unavailable';
  if (code === 'Neo.TransientError.General.MemoryPoolOutOfMemoryError') {
    return /\bdb\.memory\.transaction\.max\b/.test(msg) ? 'query_memory' : 'busy';
  }
  // A database shutting down terminates running transactions with these.
  if (
    /^Neo\.(Transient|Database)Error\./.test(code) &&
    /shut ?down|shutting down|not (currently )?available|database .* (is )?(stopped|starting|unavailable)/i.test(msg)
  ) {
    return 'unavailable';
  }
  if (code.includes('TransactionTimedOut') || /timed out|terminated.*timeout/i.test(msg)) {
    return 'timeout';
  }
  if (code.startsWith('Neo.ClientError')) return 'client';
  return 'other';
}
