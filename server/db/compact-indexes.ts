import neo4j from 'neo4j-driver';
import { isIdentifier } from '../graph/facts.js';
import type { GraphStore } from './store.js';
import { VECTOR_INDEXES } from './embedder-guard.js';
import { existingFactIndexes } from './fact-indexes.js';

/**
 * Vector indexes written batch by batch end up as one Lucene segment per write transaction
 * (MuSiQue's 1,939 passages in batches of 64: 30 segments), and a query searches every
 * segment's HNSW graph in turn. Rebuilding an index after a bulk load leaves a few segments, and
 * every query on it gets faster (bench/reports/code-notes/design-figures-2026-12-01); every retrieval and the synonym search (one entity
 * query per new entity) makes several such calls.
 */

/** Write batches after which a bulk load rebuilds the vector indexes it wrote to. */
export const COMPACT_AFTER_BATCHES = 8;

/**
 * Whether a load of `batches` write batches that wrote `written` rows rebuilds an index it wrote
 * to, the index now holding `total` rows. A rebuild reads every vector of the index again (queries
 * wait meanwhile), while the segments it removes are the load's own. So only a load of more than
 * COMPACT_AFTER_BATCHES batches that at least doubled the index (the first load of a graph) is
 * rebuilt: an append to a larger graph costs what it writes, not the graph's size. Its segments
 * stay until `graph-recall compact` (docs/ingestion.md#bulk-loads, docs/scale.md#text-ingest).
 */
export function worthCompacting(batches: number, written: number, total: number): boolean {
  return batches > COMPACT_AFTER_BATCHES && 2 * written >= total;
}

/**
 * Rebuilds these vector indexes with their own configuration (DROP and CREATE in one
 * transaction, so the name never goes missing; a query meanwhile waits for the population)
 * and waits until they are online, all of it one schema change (GraphStore.schemaChange). Names,
 * labels, types and properties come from the database's own SHOW VECTOR INDEXES and are checked as
 * identifiers before they are spliced (a schema command takes no parameters for them). Unknown
 * names are skipped.
 */
export async function compactVectorIndexes(store: GraphStore, names: readonly string[]): Promise<string[]> {
  const r = await store.read(
    `SHOW VECTOR INDEXES YIELD name, entityType, labelsOrTypes, properties, options
     WHERE name IN $names AND size(labelsOrTypes) = 1 AND size(properties) = 1
     RETURN name, entityType, labelsOrTypes[0] AS target, properties[0] AS property, options.indexConfig AS config`,
    { names: [...names] },
  );
  const rebuilds: { name: string; run: () => Promise<unknown> }[] = [];
  for (const x of r.records) {
    const [name, entityType, target, property] = ['name', 'entityType', 'target', 'property'].map((k) => String(x.get(k)));
    if (![name, target, property].every(isIdentifier)) continue;
    // The configuration as read back (numbers as floats) with its integers as Cypher integers.
    const config = Object.fromEntries(
      Object.entries(x.get('config') as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'number' && Number.isInteger(v) ? neo4j.int(v) : v]),
    );
    const pattern = entityType === 'RELATIONSHIP' ? `()-[x:${target}]-()` : `(x:${target})`;
    rebuilds.push({
      name,
      run: () =>
        store.writeTransaction(async (tx) => {
          await tx.run(`DROP INDEX ${name}`);
          await tx.run(`CREATE VECTOR INDEX ${name} FOR ${pattern} ON x.${property} OPTIONS {indexConfig: $config}`, { config });
        }),
    });
  }
  if (!rebuilds.length) return [];
  // One schema change until the rebuilt indexes are online: Neo4j drops its plans when each is dropped and again when
  // each comes online, and requests wait for the whole of it (then the first of each statement plans it alone).
  await store.schemaChange(async () => {
    for (const { run } of rebuilds) await run();
    await store.read('CALL db.awaitIndexes(3600)');
  });
  return rebuilds.map((x) => x.name);
}

/** graph-recall's own vector indexes: entities, passages and the facts of each walked type (fact_<TYPE>). */
export async function ownVectorIndexes(store: GraphStore): Promise<string[]> {
  return [...VECTOR_INDEXES, ...(await existingFactIndexes(store)).keys()].sort();
}
