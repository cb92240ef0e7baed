import type { GraphStore } from './store.js';
import { readMigrations } from './migrate.js';

/** What the guard reads of an embedder (server/embedders/types.ts): its id and its vectors' size. */
type Embedder = { id: string; dimension: number };

export class EmbedderMismatchError extends Error {}

/** The node vector indexes: entity names and passages. */
export const VECTOR_INDEXES = ['entity_embedding', 'passage_embedding'];

/**
 * Vectors from different models cannot be compared. The database records the
 * embedder that wrote its vectors (GraphRecallMeta {key: 'embedder'}); a
 * different one is refused with the command that fixes it. An empty database
 * simply adopts the configured embedder, resizing the vector indexes if needed.
 */
export async function ensureEmbedder(store: GraphStore, embedder: Embedder): Promise<void> {
  const meta = await store.read("OPTIONAL MATCH (m:GraphRecallMeta {key: 'embedder'}) RETURN m.id AS id, m.dimension AS dimension");
  const recorded = meta.records[0]?.toObject() as { id: string | null; dimension: number | null };
  const counts = await store.read(
    'RETURN COUNT { MATCH (p:Passage) WHERE p.embedding IS NOT NULL } + COUNT { MATCH (e:Entity) WHERE e.embedding IS NOT NULL } AS n',
  );
  const embedded = Number(counts.records[0].get('n'));
  if (recorded.id && recorded.id !== embedder.id && embedded > 0) {
    throw new EmbedderMismatchError(
      `the database holds vectors from ${recorded.id} (${recorded.dimension}-d) but the configured embedder is ${embedder.id} (${embedder.dimension}-d). ` +
        `Run \`graph-recall reembed\` to re-embed every passage and entity with ${embedder.id}, or configure EMBEDDER to match.`,
    );
  }
  const idx = await store.read("SHOW VECTOR INDEXES YIELD name, options WHERE name IN $names RETURN name, options.indexConfig['vector.dimensions'] AS dim", {
    names: VECTOR_INDEXES,
  });
  if (idx.records.length < VECTOR_INDEXES.length) {
    // Only an interrupted `reembed` drops them; finishing it rebuilds them.
    const pending = await store.read('MATCH (n) WHERE (n:Passage OR n:Entity) AND n.reembedPending RETURN count(n) AS n');
    if (Number(pending.records[0].get('n')) > 0) {
      throw new EmbedderMismatchError(
        'a `graph-recall reembed` was interrupted and the vector indexes are missing: run `graph-recall reembed` again to finish it.',
      );
    }
    await recreateVectorIndexes(store, embedder.dimension);
    return ensureEmbedder(store, embedder);
  }
  const wrongSize = idx.records.filter((r) => Number(r.get('dim')) !== embedder.dimension).map((r) => r.get('name') as string);
  if (wrongSize.length) {
    if (embedded > 0 && !recorded.id) {
      throw new EmbedderMismatchError(
        `the vector indexes are ${idx.records[0].get('dim')}-d but ${embedder.id} gives ${embedder.dimension}-d vectors. Run \`graph-recall reembed\`.`,
      );
    }
    await recreateVectorIndexes(store, embedder.dimension);
  }
  if (recorded.id !== embedder.id) await recordEmbedder(store, embedder);
}

/** Records the embedder whose vectors the database holds. */
export async function recordEmbedder(store: GraphStore, embedder: Embedder): Promise<void> {
  await store.write("MERGE (m:GraphRecallMeta {key: 'embedder'}) SET m.id = $id, m.dimension = $dim", { id: embedder.id, dim: embedder.dimension });
}

/** Drops the vector indexes (before vectors of another dimension are written). */
export async function dropVectorIndexes(store: GraphStore): Promise<void> {
  await store.schemaChange(async () => {
    for (const name of VECTOR_INDEXES) await store.write(`DROP INDEX ${name} IF EXISTS`);
  });
}

/** Drops and recreates the vector indexes with another dimension (the statements of migration 002). */
export async function recreateVectorIndexes(store: GraphStore, dimension: number): Promise<void> {
  const m = readMigrations().find((f) => f.name.startsWith('002_'))!;
  await dropVectorIndexes(store);
  await store.schemaChange(async () => {
    for (const stmt of m.statements) await store.write(stmt.replaceAll('{{EMBEDDING_DIM}}', String(dimension)));
  });
  await store.read('CALL db.awaitIndexes(300)');
}
