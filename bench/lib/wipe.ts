import neo4j, { type Driver } from 'neo4j-driver';

/**
 * Nodes deleted per transaction when a bench or a test empties a graph. A batch's deletes (the nodes with their
 * relationships) are applied in one commit: at 5,000-10,000 nodes one such commit (233 k commands) ran a Neo4j with
 * the launcher's 2 GB heap out of memory, and the database panicked.
 */
export const DELETE_BATCH = 1000;

/**
 * Empties the graph but keeps the schema and the migration records, `batch` nodes a transaction. CALL IN TRANSACTIONS
 * needs an implicit transaction: a session of its own.
 */
export async function wipeGraph(driver: Driver, opts: { database?: string; batch?: number } = {}): Promise<void> {
  const s = driver.session(opts.database ? { database: opts.database } : {});
  try {
    await s.run('MATCH (n) WHERE NOT n:GraphRecallMigration CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF $batch ROWS', {
      batch: neo4j.int(opts.batch ?? DELETE_BATCH),
    });
  } finally {
    await s.close();
  }
}
