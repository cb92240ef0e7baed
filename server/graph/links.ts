/**
 * The statements of entity linking (server/ingest/link.ts): the curated names, the vectors
 * the context check reads, and the links themselves. A link is a MENTIONS relationship from
 * a passage to a curated entity carrying {weight, confidence, method, count}; extracted
 * mentions have no method. Each passage records the dictionary it was linked with
 * (linkedWith), so a re-link after a new curated import skips what is already done.
 */
import neo4j, { type ManagedTransaction } from 'neo4j-driver';
import { TOUCH_GRAPH } from './facts.js';
import type { GraphStore } from '../db/store.js';

/** A passage's links, as the linker (server/ingest/linking.ts) resolved them. */
export interface PassageLinks {
  passageId: string;
  links: { entityId: string; confidence: number; method: string; count: number }[];
}

/** How many curated entities the graph holds (the label count store: no scan). */
export async function curatedCount(store: GraphStore): Promise<number> {
  const res = await store.read('MATCH (e:Curated) RETURN count(e) AS n');
  return Number(res.records[0].get('n'));
}

export async function passageCount(store: GraphStore): Promise<number> {
  const res = await store.read('MATCH (p:Passage) RETURN count(p) AS n');
  return Number(res.records[0].get('n'));
}

/** Every curated entity's id, name and type: the linker's dictionary. */
export async function curatedNames(store: GraphStore): Promise<{ id: string; name: string; type: string }[]> {
  const res = await store.read('MATCH (e:Curated) WHERE e.name IS NOT NULL RETURN e.id AS id, e.name AS name, coalesce(e.type, "") AS type');
  return res.records.map((r) => ({ id: r.get('id'), name: r.get('name'), type: r.get('type') }));
}

/** The description embeddings of these entities (the linker's context check). */
export async function descriptionVectors(store: GraphStore, ids: string[]): Promise<Map<string, number[]>> {
  if (ids.length === 0) return new Map();
  const res = await store.read(
    'UNWIND $ids AS id MATCH (e:Entity {id: id}) WHERE e.descriptionEmbedding IS NOT NULL RETURN e.id AS id, e.descriptionEmbedding AS v',
    { ids },
  );
  return new Map(res.records.map((r) => [r.get('id'), r.get('v')]));
}

/** One page of passages in id order (the uniqueness index gives the order); the vector only of those not linked with version. */
export async function passagePage(
  store: GraphStore,
  after: string,
  limit: number,
  version: string,
): Promise<{ id: string; title: string; text: string; embedding: number[] | null; linkedWith: string | null }[]> {
  const res = await store.read(
    `MATCH (p:Passage) WHERE p.id > $after
     WITH p ORDER BY p.id LIMIT $limit
     RETURN p.id AS id, coalesce(p.title, '') AS title, coalesce(p.text, '') AS text,
            CASE WHEN coalesce(p.linkedWith, '') <> $version THEN p.embedding END AS embedding, p.linkedWith AS linkedWith`,
    { after, limit: neo4j.int(limit), version },
  );
  return res.records.map((r) => ({
    id: r.get('id'),
    title: r.get('title'),
    text: r.get('text'),
    embedding: r.get('embedding'),
    linkedWith: r.get('linkedWith'),
  }));
}

/**
 * Replaces the links of these passages with the given ones and records the dictionary
 * version, inside the caller's transaction (a document batch writes its passages and their
 * links together). Extracted mentions (no method) are left alone.
 */
export async function writeLinksInTx(tx: ManagedTransaction, rows: PassageLinks[], version: string): Promise<number> {
  const ids = rows.map((r) => r.passageId);
  await tx.run(
    `UNWIND $ids AS id
     MATCH (p:Passage {id: id})-[r:MENTIONS]->(:Curated) WHERE r.method IS NOT NULL
     DELETE r`,
    { ids },
  );
  const links = rows.flatMap((r) => r.links.map((l) => ({ p: r.passageId, e: l.entityId, confidence: l.confidence, method: l.method, count: l.count })));
  // In entity order, as the batch writes: concurrent writers lock shared entities in one order.
  await tx.run(
    `UNWIND $links AS l
     MATCH (p:Passage {id: l.p}), (e:Entity {id: l.e}) WHERE e:Curated
     // Found through the Entity id constraint (no index on :Curated(id)), then checked for the label.
     MERGE (p)-[r:MENTIONS]->(e)
     SET r.weight = l.confidence, r.confidence = l.confidence, r.method = l.method, r.count = l.count`,
    { links: links.sort((a, b) => (a.e < b.e ? -1 : a.e > b.e ? 1 : a.p < b.p ? -1 : 1)) },
  );
  await tx.run('UNWIND $ids AS id MATCH (p:Passage {id: id}) SET p.linkedWith = $version', { ids, version });
  return links.length;
}

/** writeLinksInTx in a transaction of its own (a re-link of passages already in the graph). */
export async function writeLinks(store: GraphStore, rows: PassageLinks[], version: string): Promise<number> {
  return store.writeTransaction(async (tx) => {
    await tx.run(TOUCH_GRAPH);
    const n = await writeLinksInTx(tx, rows, version);
    await tx.run(TOUCH_GRAPH);
    return n;
  });
}
