import { dropVectorIndexes, recordEmbedder, recreateVectorIndexes } from '../db/embedder-guard.js';
import { dropFactIndexes } from '../db/fact-indexes.js';
import type { Embedder } from '../embedders/types.js';
import { reembedPendingBatch, reembedPendingCount } from '../graph/lookups.js';
import type { GraphStore } from '../db/store.js';
import { markForReembed, touchGraph, writeEmbeddings } from '../graph/writes.js';
import { embedFacts } from './facts.js';
import { describeForEmbedding } from './resolution.js';
import type { Progress } from './types.js';

/**
 * After switching embedders: recompute every passage and entity vector with
 * the configured embedder, in batches (one transaction each), then rebuild
 * the vector indexes at its dimension and record it; then every fact of the
 * walked types (`factTypes`) gets its sentence's vector. Safe to re-run.
 */
export async function reembed(
  store: GraphStore,
  embedder: Embedder,
  opts: { batchSize?: number; onProgress?: (p: Progress) => void; factTypes?: readonly string[] } = {},
): Promise<{ passages: number; entities: number; facts: number }> {
  const batchSize = opts.batchSize ?? 256;
  // Indexes of the old dimension would reject the new vectors: drop first, rebuild at the end.
  await dropVectorIndexes(store);
  await dropFactIndexes(store);
  await markForReembed(store);
  const total = await reembedPendingCount(store);
  let done = 0;
  const counts = { passages: 0, entities: 0, facts: 0 };
  for (const label of ['Passage', 'Entity'] as const) {
    for (;;) {
      const items = await reembedPendingBatch(store, label, batchSize);
      if (items.length === 0) break;
      const updates =
        label === 'Passage'
          ? (
              await embedder.embed(
                items.map((p) => `${p.title ?? ''}\n${p.text ?? ''}`),
                'document',
              )
            ).map((v, i) => ({ id: items[i].id, embedding: v, descriptionEmbedding: null }))
          : await (async () => {
              const names = await embedder.embed(
                items.map((e) => e.name ?? e.id),
                'document',
              );
              const descs = await embedder.embed(
                items.map((e) => describeForEmbedding({ name: e.name ?? e.id, description: e.description ?? '' })),
                'document',
              );
              return items.map((e, i) => ({ id: e.id, embedding: names[i], descriptionEmbedding: descs[i] }));
            })();
      await writeEmbeddings(store, label, updates);
      done += items.length;
      counts[label === 'Passage' ? 'passages' : 'entities'] += items.length;
      opts.onProgress?.({ stage: 'ingest', done, total });
    }
  }
  await recreateVectorIndexes(store, embedder.dimension);
  await recordEmbedder(store, embedder);
  counts.facts = await embedFacts(store, embedder, opts.factTypes ?? ['RELATED'], { all: true, onProgress: opts.onProgress });
  await touchGraph(store);
  return counts;
}
