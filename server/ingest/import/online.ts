/**
 * Online load: validated rows into a running database (an existing graph, local or remote),
 * batched UNWIND statements, one transaction per batch, MERGE on stable ids, so an interrupted
 * load is resumed by running it again. Entities first, then passages (with their documents),
 * mentions and relationships (batched per type). The indexes the graph needs exist already (the
 * migrations) and fill as rows commit; fact indexes of new curated types are created first.
 */
import { ensureFactIndexes } from '../../db/fact-indexes.js';
import { recordImport, writeEntityRows, writeMentionRows, writePassageRows, writeRelationshipRows } from '../../graph/bulk.js';
import type { GraphStore } from '../../db/store.js';
import { DEFAULT_TRAVERSE_TYPES } from '../../graph/facts.js';
import type { ImportSource, ImportStats } from './types.js';
import { emptyStats } from './types.js';

export interface OnlineOptions {
  dimension: number;
  /** Rows per transaction (vectors make a row ~3-8 KB on the wire). */
  batchSize?: number;
  /** The relationship types of the rows, when known before they are read (fact indexes are made first). */
  relationshipTypes?: string[];
  onProgress?: (p: { stage: string; done: number }) => void;
}

async function batched<T>(rows: AsyncIterable<T>, size: number, write: (batch: T[]) => Promise<void>): Promise<number> {
  let batch: T[] = [];
  let n = 0;
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      await write(batch);
      n += batch.length;
      batch = [];
    }
  }
  if (batch.length) await write(batch);
  return n + batch.length;
}

export const curatedTypesOf = (types: Iterable<string>): string[] => [...new Set(types)].filter((t) => !DEFAULT_TRAVERSE_TYPES.includes(t)).sort();

export async function loadOnline(store: GraphStore, source: ImportSource, opts: OnlineOptions): Promise<ImportStats> {
  const size = opts.batchSize ?? 1000;
  const stats = emptyStats();
  const t0 = performance.now();
  const progress = (stage: string, done: number) => opts.onProgress?.({ stage, done });
  if (opts.relationshipTypes) await ensureFactIndexes(store, opts.relationshipTypes, opts.dimension);
  let done = 0;
  stats.entities = await batched(source.entities(), size, async (b) => {
    await writeEntityRows(store, b);
    progress('entities', (done += b.length));
  });
  const documents = new Set<string>();
  done = 0;
  stats.passages = await batched(source.passages(), size, async (b) => {
    await writePassageRows(store, b);
    for (const p of b) documents.add(p.documentId);
    progress('passages', (done += b.length));
  });
  stats.documents = documents.size;
  stats.mentions = await batched(source.mentions(), size * 5, (b) => writeMentionRows(store, b));
  progress('mentions', stats.mentions);
  // Per type: a type is spliced into its statement, so each batch holds one.
  const pending = new Map<string, Parameters<typeof writeRelationshipRows>[2]>();
  const seen = new Set<string>();
  for await (const r of source.relationships()) {
    if (!seen.has(r.type)) {
      seen.add(r.type);
      await ensureFactIndexes(store, [r.type], opts.dimension);
    }
    const list = pending.get(r.type) ?? [];
    list.push(r);
    pending.set(r.type, list);
    if (list.length >= size) {
      await writeRelationshipRows(store, r.type, list);
      stats.relationships += list.length;
      pending.set(r.type, []);
      progress('relationships', stats.relationships);
    }
  }
  for (const [type, list] of pending) {
    if (!list.length) continue;
    await writeRelationshipRows(store, type, list);
    stats.relationships += list.length;
  }
  stats.curatedTypes = curatedTypesOf(seen);
  await recordImport(store, stats.curatedTypes);
  stats.loadSeconds = (performance.now() - t0) / 1000;
  return stats;
}
