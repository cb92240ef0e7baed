import neo4j, { type Driver } from 'neo4j-driver';
import { recreateVectorIndexes } from '../db/embedder-guard.js';
import type { Embedder } from '../embedders/types.js';
import { describeForEmbedding, type Progress } from './pipeline.js';

/**
 * After switching embedders: recompute every passage and entity vector with
 * the configured embedder, in batches (one transaction each), then rebuild
 * the vector indexes at its dimension and record it. Safe to re-run.
 */
export async function reembed(
  driver: Driver,
  embedder: Embedder,
  opts: { database?: string; batchSize?: number; onProgress?: (p: Progress) => void } = {},
): Promise<{ passages: number; entities: number }> {
  const batchSize = opts.batchSize ?? 256;
  const s = driver.session({ database: opts.database });
  try {
    // Indexes of the old dimension would reject the new vectors: drop first, rebuild at the end.
    for (const name of ['entity_embedding', 'passage_embedding']) await s.run(`DROP INDEX ${name} IF EXISTS`);
    await s.run('MATCH (n) WHERE (n:Passage OR n:Entity) SET n.reembedPending = true');
    const total = Number((await s.run('MATCH (n {reembedPending: true}) RETURN count(n) AS n')).records[0].get('n'));
    let done = 0;
    const counts = { passages: 0, entities: 0 };
    for (const label of ['Passage', 'Entity'] as const) {
      for (;;) {
        const rows = await s.run(
          `MATCH (n:${label} {reembedPending: true}) RETURN n.id AS id, n.title AS title, n.text AS text, n.name AS name, n.description AS description LIMIT $k`,
          { k: neo4j.int(batchSize) },
        );
        if (rows.records.length === 0) break;
        const items = rows.records.map((r) => r.toObject());
        const updates =
          label === 'Passage'
            ? (await embedder.embed(items.map((p) => `${p.title ?? ''}\n${p.text ?? ''}`), 'document')).map((v, i) => ({ id: items[i].id, embedding: v, descriptionEmbedding: null }))
            : await (async () => {
                const names = await embedder.embed(items.map((e) => e.name ?? e.id), 'document');
                const descs = await embedder.embed(items.map((e) => describeForEmbedding({ name: e.name ?? e.id, description: e.description ?? '' })), 'document');
                return items.map((e, i) => ({ id: e.id, embedding: names[i], descriptionEmbedding: descs[i] }));
              })();
        await s.executeWrite((tx) =>
          tx.run(
            `UNWIND $updates AS u MATCH (n:${label} {id: u.id})
             SET n.embedding = u.embedding, n.descriptionEmbedding = coalesce(u.descriptionEmbedding, n.descriptionEmbedding)
             REMOVE n.reembedPending`,
            { updates },
          ),
        );
        done += items.length;
        counts[label === 'Passage' ? 'passages' : 'entities'] += items.length;
        opts.onProgress?.({ stage: 'ingest', done, total });
      }
    }
    await recreateVectorIndexes(driver, embedder.dimension, opts.database);
    await s.run("MERGE (m:GraphRecallMeta {key: 'embedder'}) SET m.id = $id, m.dimension = $dim", { id: embedder.id, dim: embedder.dimension });
    await s.run("MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()");
    return counts;
  } finally {
    await s.close();
  }
}
