import { COMPACT_AFTER_BATCHES, compactVectorIndexes } from '../db/compact-indexes.js';
import { ensureFactIndexes, factIndexName, factTypes } from '../db/fact-indexes.js';
import type { Embedder } from '../embedders/types.js';
import type { GraphStore } from '../graph/store.js';
import { runInSlices } from '../graph/writes.js';
import { pipelined } from './pipeline.js';
import type { Progress } from './types.js';

/**
 * A relationship's sentence, as the statements' facts read (return.cypher): subject,
 * predicate (the `predicate` property, else the type in lower case), object.
 */
const FACT_TEXT = "a.name + ' ' + coalesce(r.predicate, toLower(replace(type(r), '_', ' '))) + ' ' + b.name";

/**
 * Embeds every fact (relationship of these types between two entities) that has no vector yet,
 * in batches of one transaction each, after making sure of the types' fact indexes. Facts with
 * the same sentence are embedded once. Safe to re-run and to interrupt: the next run embeds
 * what is still missing. `all` first clears every fact vector (re-embedding with a new model).
 */
export async function embedFacts(
  store: GraphStore,
  embedder: Embedder,
  types: readonly string[],
  opts: { batchSize?: number; all?: boolean; onProgress?: (p: Progress) => void } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? 512;
  const walked = factTypes(types);
  if (walked.length === 0) return 0;
  await ensureFactIndexes(store, walked, embedder.dimension);
  // The types are identifiers (factTypes checks them): a relationship type cannot be a parameter.
  if (opts.all) for (const type of walked) await store.write(`MATCH (:Entity)-[r:${type}]->(:Entity) WHERE r.embedding IS NOT NULL REMOVE r.embedding`);
  const pending: string[] = [];
  for (const type of walked) {
    const r = await store.read<{ id: string }>(`MATCH (:Entity)-[r:${type}]->(:Entity) WHERE r.embedding IS NULL RETURN elementId(r) AS id`);
    for (const x of r.records) pending.push(x.get('id'));
  }
  let embedded = 0;
  // Batch i + 1 is read and embedded while batch i is written (pipelined).
  const prepare = async (i: number) => {
    const rows = await store.read<{ id: string; text: string }>(
      `UNWIND $ids AS id MATCH (a:Entity)-[r]->(b:Entity) WHERE elementId(r) = id RETURN id, ${FACT_TEXT} AS text`,
      { ids: pending.slice(i, i + batchSize) },
    );
    const items = rows.records.map((x) => ({ id: x.get('id'), text: x.get('text') }));
    const texts = [...new Set(items.map((x) => x.text))];
    const vectors = await embedder.embed(texts, 'document');
    const byText = new Map(texts.map((t, k) => [t, vectors[k]]));
    return items.map((x) => ({ id: x.id, embedding: byText.get(x.text) }));
  };
  const commit = async (updates: Awaited<ReturnType<typeof prepare>>) => {
    await store.writeTransaction((tx) =>
      runInSlices(tx, 'UNWIND $updates AS u MATCH ()-[r]->() WHERE elementId(r) = u.id SET r.embedding = u.embedding', 'updates', updates),
    );
    embedded += updates.length;
  };
  await pipelined(pending.length, batchSize, prepare, commit, () => opts.onProgress?.({ stage: 'facts', done: embedded, total: pending.length }));
  opts.onProgress?.({ stage: 'facts', done: embedded, total: embedded });
  // One index segment per batch written: a bulk embedding leaves the fact indexes rebuilt.
  if (pending.length > COMPACT_AFTER_BATCHES * batchSize) await compactVectorIndexes(store, walked.map(factIndexName));
  return embedded;
}
