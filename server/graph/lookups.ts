/**
 * The reads ingestion needs: what is already in the graph (document hashes,
 * entity ids), the synonym search's candidates, the curated types, the
 * re-embedding queue. Each is one statement through the store.
 */
import neo4j from 'neo4j-driver';
import type { GraphStore } from '../db/store.js';
import type { EmbeddedLabel } from './writes.js';

/** Content hash of each known document among ids. */
export async function knownDocumentHashes(store: GraphStore, ids: string[]): Promise<Map<string, string>> {
  const res = await store.read('UNWIND $ids AS id MATCH (d:Document {id: id}) RETURN d.id AS id, d.hash AS hash', { ids });
  return new Map(res.records.map((r) => [r.get('id'), r.get('hash')]));
}

/** Each document source with its number of documents, the largest first (GET /v1/sources). */
export async function documentSources(store: GraphStore): Promise<{ source: string; documents: number }[]> {
  const res = await store.read(
    'MATCH (d:Document) WHERE d.source IS NOT NULL RETURN d.source AS source, count(*) AS documents ORDER BY documents DESC, source',
  );
  return res.records.map((r) => ({ source: String(r.get('source')), documents: Number(r.get('documents')) }));
}

/** The ids among ids that name an existing entity. */
export async function existingEntityIds(store: GraphStore, ids: string[]): Promise<Set<string>> {
  const res = await store.read('UNWIND $ids AS id MATCH (e:Entity {id: id}) RETURN e.id AS id', { ids });
  return new Set(res.records.map((r) => r.get('id')));
}

/** Entities whose synonym search has not run yet. */
export async function synonymsPendingIds(store: GraphStore): Promise<string[]> {
  const res = await store.read('MATCH (e:Entity {synonymsPending: true}) RETURN e.id AS id');
  return res.records.map((r) => r.get('id'));
}

export interface SynonymCandidates {
  id: string;
  name: string;
  near: { id: string; name: string; cosine: number }[];
}

/**
 * For each of the entities ids, its nearest neighbours in the entity vector
 * index (k = 10) with cosine >= threshold. Entities of the excluded types and
 * curated entities neither look nor are found.
 */
export async function synonymCandidates(
  store: GraphStore,
  ids: string[],
  opts: { threshold: number; excludedTypes: readonly string[] },
): Promise<SynonymCandidates[]> {
  const res = await store.read(
    `UNWIND $ids AS id
     MATCH (e:Entity {id: id}) WHERE NOT e.type IN $valueTypes AND NOT e:Curated AND e.embedding IS NOT NULL
     CALL (e) {
       CALL db.index.vector.queryNodes('entity_embedding', 10, e.embedding) YIELD node, score
       WITH node, score WHERE node <> e AND NOT node.type IN $valueTypes AND NOT node:Curated
       // The index's score is (1 + cos) / 2: the cosine without reading the neighbour's vector.
       WITH node, 2.0 * score - 1.0 AS cosine
       WHERE cosine >= $threshold
       RETURN collect({id: node.id, name: node.name, cosine: cosine}) AS near
     }
     RETURN e.id AS id, e.name AS name, near`,
    { ids, valueTypes: [...opts.excludedTypes], threshold: opts.threshold },
  );
  return res.records.map((r) => ({ id: r.get('id'), name: r.get('name'), near: r.get('near') }));
}

/** Relationship types recorded by curated-graph ingestion (unchecked: the caller validates them). */
export async function recordedCuratedTypes(store: GraphStore): Promise<string[]> {
  const res = await store.read("OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'}) RETURN coalesce(m.curatedTypes, []) AS types");
  return res.records[0].get('types') as string[];
}

/** How many nodes wait for re-embedding. */
export async function reembedPendingCount(store: GraphStore): Promise<number> {
  const res = await store.read('MATCH (n {reembedPending: true}) RETURN count(n) AS n');
  return Number(res.records[0].get('n'));
}

/** Up to limit nodes of one label waiting for re-embedding, with the text their vectors come from. */
export async function reembedPendingBatch(
  store: GraphStore,
  label: EmbeddedLabel,
  limit: number,
): Promise<{ id: string; title: string | null; text: string | null; name: string | null; description: string | null }[]> {
  const res = await store.read(
    `MATCH (n:${label} {reembedPending: true}) RETURN n.id AS id, n.title AS title, n.text AS text, n.name AS name, n.description AS description LIMIT $k`,
    { k: neo4j.int(limit) },
  );
  return res.records.map((r) => r.toObject() as { id: string; title: string | null; text: string | null; name: string | null; description: string | null });
}
