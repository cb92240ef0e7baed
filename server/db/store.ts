import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type RecordShape } from 'neo4j-driver';
import type { Config } from '../config.js';
import { createDriver } from './driver.js';

/** How long writeTransaction keeps retrying a unit of work that lost a lock conflict. */
const LOCK_RETRY_MS = 60_000;

/** A transient conflict between transactions, which running the work again resolves. */
export function isLockConflict(e: unknown): boolean {
  const code = String((e as { code?: string })?.code ?? '');
  return (
    code === 'Neo.TransientError.Transaction.DeadlockDetected' ||
    code === 'Neo.TransientError.Transaction.LockClientStopped' ||
    code === 'Neo.TransientError.Transaction.Outdated'
  );
}

/**
 * The one owner of the driver and the database name. Reads and writes that
 * fit in one statement go through driver.executeQuery (managed transaction,
 * retries, no hand-opened session); multi-statement units of work use
 * readTransaction / writeTransaction. All of them share the driver's
 * executeQuery bookmark manager, so each sees what the others committed.
 */
/** Told before a schema change of this process starts and after it has committed (or failed). */
export interface SchemaListener {
  before(): void;
  after(): void;
}

export class GraphStore {
  private readonly schemaListeners = new Set<SchemaListener>();

  constructor(
    readonly driver: Driver,
    readonly database: string,
  ) {}

  /**
   * Tells `listener` when this process changes the schema (an index dropped or created): Neo4j
   * drops every cached plan when such a change commits. Resolves to the function that stops it.
   */
  onSchemaChange(listener: SchemaListener): () => void {
    this.schemaListeners.add(listener);
    return () => this.schemaListeners.delete(listener);
  }

  /** Runs `work`, the schema change (server/db/compact-indexes.ts, fact-indexes.ts, embedder-guard.ts), between the listeners' before and after. */
  async schemaChange<R>(work: () => Promise<R>): Promise<R> {
    for (const l of this.schemaListeners) l.before();
    try {
      return await work();
    } finally {
      for (const l of this.schemaListeners) l.after();
    }
  }

  static connect(cfg: Config['neo4j']): GraphStore {
    return new GraphStore(createDriver(cfg), cfg.database);
  }

  read<T extends RecordShape = RecordShape>(query: string, params: Record<string, unknown> = {}, timeoutMs?: number): Promise<QueryResult<T>> {
    return this.driver.executeQuery<QueryResult<T>>(query, params, {
      database: this.database,
      routing: neo4j.routing.READ,
      ...(timeoutMs ? { transactionConfig: { timeout: timeoutMs } } : {}),
    });
  }

  write<T extends RecordShape = RecordShape>(query: string, params: Record<string, unknown> = {}): Promise<QueryResult<T>> {
    return this.driver.executeQuery<QueryResult<T>>(query, params, { database: this.database, routing: neo4j.routing.WRITE });
  }

  /**
   * A unit of work of several statements, committed together or not at all.
   * Lock conflicts between concurrent writers (deadlocks, lock waits cut
   * short) are retried with jittered backoff for up to LOCK_RETRY_MS: the
   * driver's own retry budget is kept short for outages.
   */
  async writeTransaction<R>(work: (tx: ManagedTransaction) => Promise<R>): Promise<R> {
    const deadline = Date.now() + LOCK_RETRY_MS;
    for (let attempt = 0; ; attempt++) {
      const session = this.driver.session({ database: this.database, bookmarkManager: this.driver.executeQueryBookmarkManager });
      try {
        return await session.executeWrite(work);
      } catch (e) {
        if (!isLockConflict(e) || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, Math.min(2000, 50 * 2 ** attempt) * (0.5 + Math.random())));
      } finally {
        await session.close();
      }
    }
  }

  async readTransaction<R>(work: (tx: ManagedTransaction) => Promise<R>, timeoutMs?: number): Promise<R> {
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: neo4j.session.READ,
      bookmarkManager: this.driver.executeQueryBookmarkManager,
    });
    try {
      return await session.executeRead(work, timeoutMs ? { timeout: timeoutMs } : undefined);
    } finally {
      await session.close();
    }
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
