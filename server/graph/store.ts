import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type RecordShape } from 'neo4j-driver';
import type { Config } from '../config.js';
import { createDriver } from '../db/driver.js';

/**
 * The one owner of the driver and the database name. Reads and writes that
 * fit in one statement go through driver.executeQuery (managed transaction,
 * retries, no hand-opened session); multi-statement units of work use
 * readTransaction / writeTransaction. All of them share the driver's
 * executeQuery bookmark manager, so each sees what the others committed.
 */
export class GraphStore {
  constructor(
    readonly driver: Driver,
    readonly database: string,
  ) {}

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

  /** A unit of work of several statements, committed together or not at all. */
  async writeTransaction<R>(work: (tx: ManagedTransaction) => Promise<R>): Promise<R> {
    const session = this.driver.session({ database: this.database, bookmarkManager: this.driver.executeQueryBookmarkManager });
    try {
      return await session.executeWrite(work);
    } finally {
      await session.close();
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
