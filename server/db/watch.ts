/**
 * A watchdog on the database: one tiny query every `intervalMs` (`RETURN null`), and beside it,
 * never holding it up, a check of the ppr projection (`gds.graph.exists`) and, when the server
 * watches the schema, of the online indexes (SHOW INDEXES). It tells the server, without
 * waiting for a user's request:
 *  - that the database answers again after an outage (`onUp`): the server then rebuilds the
 *    ppr projection (lost with the restart) and re-plans its statements at once, so the first
 *    request after a restart finds them ready;
 *  - that the projection vanished while the database kept running (`onProjectionMissing`):
 *    dropped by a DBA, or a restart faster than one interval;
 *  - that an index came online or was dropped while it ran (`onSchemaChange`), by a DBA or by
 *    this server: Neo4j then drops every cached plan (creating an index does not; the end of its
 *    population does).
 * Polls never overlap and their timers never keep the process alive. A refused connection (or the
 * database saying it is unavailable) is an outage at once; a database that answers no probe (a probe
 * past its bound, a connection timed out or reset; from the first poll on) is counted down only after
 * STALL_DOWN_MS without an answer (a long GC pause or a loaded machine is no outage). The server
 * gives the watch a driver of its own, of two connections, the probe's and the checks'
 * (server/watchdog.ts): a pool full of requests is the server busy, not the database gone.
 */
import type { Driver } from 'neo4j-driver';
import { classifyDbError } from './driver.js';

export interface DatabaseWatchOptions {
  database?: string;
  graphName: string;
  intervalMs?: number;
  /** The database answers again after at least one failed poll. */
  onUp?: () => void;
  /** A poll failed because the database is unreachable (first failure of an outage). */
  onDown?: (error: string) => void;
  /** The database answers and the projection does not exist. */
  onProjectionMissing?: () => void;
  /**
   * The online indexes differ from the last poll's (SHOW INDEXES, read on each poll while the database
   * answers): one came online or was dropped, and Neo4j has dropped its cached plans. Not called for the
   * first reading, nor after an outage (onUp is). A user who may not list indexes is never told.
   */
  onSchemaChange?: () => void;
  /** The database answered this poll (after onUp when it is back). */
  onAnswer?: () => void;
  /** stop() closes the driver (one made for the watch). */
  ownsDriver?: boolean;
}

/** The bound of a probe while the database is down. */
const DOWN_PROBE_MS = 10_000;
/** How long a database that answered may leave every probe unanswered (each past its bound) before it counts as down. */
export const STALL_DOWN_MS = 10_000;

export class DatabaseWatch {
  private timer: NodeJS.Timeout | undefined;
  /** When the first of the unanswered probes in a row started (undefined: the last probe answered). */
  private stalledSince: number | undefined;
  private stopped = false;
  /** The online indexes' names as the last poll read them, sorted; undefined before the first reading or after an outage. */
  private schema: string | undefined;
  /** SHOW INDEXES was refused (a user without the privilege): the schema is not watched. */
  private schemaHidden = false;
  /** undefined until the first poll settles. */
  reachable: boolean | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly opts: DatabaseWatchOptions,
  ) {}

  start(): this {
    this.schedule(0);
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.opts.ownsDriver) void this.driver.close().catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  /** The projection and index checks in flight (at most one round at a time). */
  private checking: Promise<void> | undefined;

  /** One probe, bounded by the interval (a database that is starting may accept Bolt and not answer). */
  private async poll(): Promise<void> {
    const interval = this.opts.intervalMs ?? 500;
    const session = this.driver.session({ database: this.opts.database, defaultAccessMode: 'READ' });
    const started = Date.now();
    let timeout: NodeJS.Timeout | undefined;
    try {
      // Whether the database answers: the cheapest statement. (The GDS and schema reads are no part of it: a GDS call can
      // wait behind a projection being built, and the first one on a JVM that has just started loads GDS.)
      const down = this.reachable === false;
      // The first query of a JVM that has just started is slow on a loaded machine: wait longer for it.
      const bound = down ? DOWN_PROBE_MS : Math.max(1000, 4 * interval);
      await Promise.race([
        session.run('RETURN null AS answered', {}, { timeout: bound }),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(Object.assign(new Error('database probe timed out'), { code: 'ServiceUnavailable', slow: true })), bound);
        }),
      ]);
      this.stalledSince = undefined;
      this.reachable = true;
      if (down) {
        this.schema = undefined;
        this.opts.onUp?.();
      }
      this.checking ??= this.check(bound).finally(() => (this.checking = undefined));
      this.opts.onAnswer?.();
    } catch (e) {
      // A database that does not answer is busy, not gone, until no probe has answered for STALL_DOWN_MS: a probe past
      // its bound, a connection that timed out, reset or closed; from the first poll on, since the server starts its
      // watch on a database that has just answered its warm-up, and a first probe on a new connection to a busy, cold
      // JVM can outlast the bound. A refusal (nothing listens) and the database's own word (a Neo.* code: stopping,
      // unavailable) are an outage at once. A false "down" would answer 503 for every mode and plan every statement again.
      const unavailable = classifyDbError(e) === 'unavailable';
      const definite = /ECONNREFUSED/.test(String((e as Error)?.message ?? '')) || String((e as { code?: string })?.code ?? '').startsWith('Neo.');
      const unanswered = (e as { slow?: boolean }).slow === true || (unavailable && !definite);
      if (unanswered) this.stalledSince ??= started;
      const waiting = unanswered && this.reachable !== false && Date.now() - this.stalledSince! < STALL_DOWN_MS;
      if (unavailable && !waiting) {
        if (this.reachable !== false) this.opts.onDown?.(String((e as Error)?.message ?? e).split('\n')[0]!);
        this.reachable = false;
      }
      // Anything else (a bad credential mid-run) is for health and the requests to report.
    } finally {
      clearTimeout(timeout);
      void session.close().catch(() => undefined);
      this.schedule(interval);
    }
  }

  /**
   * The projection and the online indexes, on a session of their own (the watch's driver has a connection for it), never
   * awaited by a poll: a check that waits (a GDS call behind a projection being built, SHOW INDEXES behind a schema
   * change) tells nothing about whether the database answers. Its failures are ignored; the next round checks again.
   */
  private async check(bound: number): Promise<void> {
    const session = this.driver.session({ database: this.opts.database, defaultAccessMode: 'READ' });
    try {
      if (this.opts.onProjectionMissing) {
        const res = await session.run('RETURN gds.graph.exists($graphName) AS exists', { graphName: this.opts.graphName }, { timeout: bound });
        if (res.records[0]?.get('exists') === false && this.reachable) this.opts.onProjectionMissing();
      }
      if (this.opts.onSchemaChange && !this.schemaHidden) {
        const indexes = await session.run("SHOW INDEXES YIELD name, state WHERE state = 'ONLINE' RETURN name", {}, { timeout: bound }).catch((e) => {
          // Neo.ClientError.Security.Forbidden (or .Unauthorized): a role without SHOW INDEX.
          if (String((e as { code?: string })?.code).startsWith('Neo.ClientError.Security.')) this.schemaHidden = true;
          return undefined;
        });
        if (indexes && this.reachable) {
          const now = indexes.records
            .map((r) => String(r.get('name')))
            .sort()
            .join('\n');
          const changed = this.schema !== undefined && now !== this.schema;
          this.schema = now;
          if (changed) this.opts.onSchemaChange();
        }
      }
    } catch {
      // GDS missing, a timeout, an outage: the probe speaks for the database; the next round checks again.
    } finally {
      await session.close().catch(() => undefined);
    }
  }
}
