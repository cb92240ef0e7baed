/**
 * The HTTP server's connection timeouts and its one release path, which every way of closing
 * takes: close() (tests, embedding), SIGINT/SIGTERM, and a failed start-up.
 */
import type http from 'node:http';
import { stopEmbeddedNeo4j } from './db/embedded.js';
import type { Logger } from './logger.js';
import type { Services } from './services.js';

/**
 * How long an idle keep-alive connection stays open: longer than the longest Retry-After this
 * server sends (30 s, a projection build) plus a margin. Node's default, 5 s, equals the
 * Retry-After of a populating index (and was a database outage's when this was found): a client
 * that waited as told and reused its connection wrote into a socket the server was closing at
 * that very moment, and got no HTTP answer at all (docs/recovery.md). Clients that read the
 * Keep-Alive hint close theirs a little earlier.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Keep-alive connections outlive any Retry-After; the headers timeout stays above the keep-alive one. */
export function keepConnections(server: http.Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
}

/** What a server holds until it is released: the parts not made yet (a start-up cut short) are absent. */
export interface Held {
  server: http.Server;
  logger: Logger;
  svc?: Pick<Services, 'store' | 'embedder'> & { jobs?: Services['jobs'] };
  watch?: { stop(): void };
}

export interface ReleaseOptions {
  /** Let in-flight requests (SSE streams included) finish for up to this long; unset: cut every connection at once. */
  drainMs?: number;
  /** The signal that asked for it, for the log. */
  signal?: string;
  /** Stop the embedded Neo4j: this server started it (and KEEP_NEO4J / --keep-db is off). */
  stopDb?: boolean;
}

const why = (e: unknown) => String((e as Error)?.message ?? e);

/**
 * Gives back everything the server holds: the watchdog stops; the job runner stops (a running
 * job is put back in line at once, this instance's lease released, not waited for); the server
 * stops accepting connections and closes them, after draining the in-flight requests when
 * `drainMs` is set; then the driver and the embedder close, and the embedded Neo4j stops when
 * `stopDb`. A part that fails to close is logged; the others still close.
 */
export async function release(held: Held, opts: ReleaseOptions = {}): Promise<void> {
  const { server, logger: log, svc } = held;
  held.watch?.stop();
  const jobsStopped = svc?.jobs?.stop().catch((e: unknown) => log.warn({ err: why(e) }, 'could not stop the job runner'));
  const closed = new Promise<void>((r) => server.close(() => r()));
  if (opts.drainMs === undefined) server.closeAllConnections();
  else {
    log.info({ signal: opts.signal, timeoutMs: opts.drainMs }, 'shutting down: waiting for in-flight requests');
    server.closeIdleConnections();
    // Keep-alive connections that finish a response afterwards are closed as they go idle.
    server.on('request', (_req, res) => res.setHeader('connection', 'close'));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), opts.drainMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      log.warn({ timeoutMs: opts.drainMs }, 'in-flight requests still running at the shutdown deadline: closing them');
      server.closeAllConnections();
    }
  }
  await closed;
  await jobsStopped;
  await svc?.store.close().catch((e: unknown) => log.warn({ err: why(e) }, 'could not close the driver'));
  await Promise.resolve(svc?.embedder.close?.()).catch((e: unknown) => log.warn({ err: why(e) }, 'could not close the embedder'));
  if (opts.stopDb) stopEmbeddedNeo4j(log);
  if (opts.drainMs !== undefined) log.info('stopped');
}
