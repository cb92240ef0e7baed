/**
 * Every write statement of ingestion: documents and their passages, entities,
 * mentions, relations, synonyms, curated graphs, re-embedding, document
 * deletion. Ingestion hands data here; nothing outside server/graph (and the
 * schema in server/db) writes to the graph.
 */
import type { ManagedTransaction, QueryResult } from 'neo4j-driver';
import { TOUCH_GRAPH } from './facts.js';
import { type PassageLinks, writeLinksInTx } from './links.js';
import type { GraphStore } from '../db/store.js';

/** One batch of documents, ready to write: ids are stable, vectors computed. */
export interface DocumentBatch {
  /** metadata: a flat map of strings, numbers and booleans, stored as one property per key (writeDocumentBatch). */
  documents: { id: string; title: string; source: string; hash: string; metadata: Record<string, unknown> | null }[];
  /** Documents of the batch already in the graph: their passages are removed first. */
  replaced: string[];
  passages: { id: string; documentId: string; title: string; text: string; embedding: number[] }[];
  /** New entities only (existing ones keep what they have). */
  entities: { id: string; name: string; type: string; description: string; embedding: number[]; descriptionEmbedding: number[] }[];
  mentions: { p: string; e: string }[];
  relations: { a: string; b: string; predicate: string; passageId: string }[];
  aliases: { a: string; b: string }[];
  /** The passages' links to curated entities (server/ingest/link.ts), written with them. */
  links?: { rows: PassageLinks[]; version: string };
}

/** What a batch actually created (MERGE may find what a concurrent writer made). */
export interface BatchWritten {
  entities: number;
  /** SAME_AS edges from alias relations that did not exist before. */
  aliases: number;
}

/**
 * Rows per statement when rows carry vectors. The driver encodes a statement's parameters on
 * the event loop in one go: a few hundred rows of 384-float vectors stalled the server (health,
 * retrievals) during a large ingest, and so did 64 (bench/reports/jobs/health-under-ingest-2026-12-02).
 * Slices of this many rows keep each stall short;
 * they run one after another in the caller's transaction, so a batch is still written whole or
 * not at all.
 */
export const VECTOR_ROWS_PER_STATEMENT = 16;

/** Runs `query` (which UNWINDs `$<key>`) over `rows` in slices, in the given transaction. */
export async function runInSlices(tx: ManagedTransaction, query: string, key: string, rows: unknown[]): Promise<QueryResult[]> {
  const results: QueryResult[] = [];
  for (let i = 0; i < rows.length || i === 0; i += VECTOR_ROWS_PER_STATEMENT) {
    results.push(await tx.run(query, { [key]: rows.slice(i, i + VECTOR_ROWS_PER_STATEMENT) }));
  }
  return results;
}

const byKey = <T>(items: T[], key: (x: T) => string): T[] => [...items].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));

/**
 * One transaction: a batch is written whole or not at all. The graph's meta
 * node is locked first, so concurrent batches (HTTP requests, other
 * processes) queue behind each other instead of deadlocking on shared
 * entities; rows are also written in id order.
 */
export async function writeDocumentBatch(store: GraphStore, b: DocumentBatch): Promise<BatchWritten> {
  return store.writeTransaction(async (tx) => {
    await tx.run(TOUCH_GRAPH);
    if (b.replaced.length) await removePassagesOf(tx, b.replaced, false);
    // Metadata, filterable inside a statement: one property per key, `metadata.<key>` (read as
    // d['metadata.' + key]), and the keys in metadataKeys, so a replaced document loses the keys it
    // no longer has. A nested value is refused (Neo4j stores no maps; callers validate first).
    await tx.run(
      `UNWIND $documents AS d
       WITH d, coalesce(d.metadata, {}) AS meta
       CALL apoc.util.validate(any(k IN keys(meta) WHERE NOT meta[k] IS :: STRING | INTEGER | FLOAT | BOOLEAN),
         'document %s: metadata values must be strings, numbers or booleans', [d.id])
       MERGE (x:Document {id: d.id})
       SET x.title = d.title, x.source = d.source, x.hash = d.hash, x.ingestedAt = datetime()
       SET x += apoc.map.fromPairs([k IN coalesce(x.metadataKeys, []) | ['metadata.' + k, null]])
       SET x += apoc.map.fromPairs([k IN keys(meta) WHERE meta[k] IS NOT NULL | ['metadata.' + k, meta[k]]]),
           x.metadataKeys = CASE WHEN size([k IN keys(meta) WHERE meta[k] IS NOT NULL]) > 0 THEN [k IN keys(meta) WHERE meta[k] IS NOT NULL] END
       REMOVE x.metadata`,
      { documents: byKey(b.documents, (d) => d.id) },
    );
    // Passage ids are unique per document (sources/chunking.ts passageId); a passage of another
    // document under the same id (data written before that scheme) is refused, never taken over.
    await runInSlices(
      tx,
      `UNWIND $passages AS p
       MATCH (d:Document {id: p.documentId})
       MERGE (x:Passage {id: p.id})
       WITH p, d, x
       CALL apoc.util.validate(x.documentId IS NOT NULL AND x.documentId <> p.documentId,
         'passage id %s already belongs to document %s', [p.id, x.documentId])
       SET x.title = p.title, x.text = p.text, x.embedding = p.embedding, x.documentId = p.documentId
       MERGE (x)-[:PART_OF]->(d)`,
      'passages',
      byKey(b.passages, (p) => p.id),
    );
    const entities = await runInSlices(
      tx,
      `UNWIND $entities AS e
       MERGE (x:Entity {id: e.id})
       ON CREATE SET x.name = e.name, x.type = e.type, x.description = e.description,
                     x.embedding = e.embedding, x.descriptionEmbedding = e.descriptionEmbedding, x.synonymsPending = true, x.isNew = true
       WITH x WHERE x.isNew
       REMOVE x.isNew
       RETURN count(DISTINCT x) AS made`,
      'entities',
      byKey(b.entities, (e) => e.id),
    );
    await tx.run(
      `UNWIND $mentions AS m
       MATCH (p:Passage {id: m.p}), (e:Entity {id: m.e})
       MERGE (p)-[r:MENTIONS]->(e) ON CREATE SET r.weight = 1.0`,
      { mentions: byKey(b.mentions, (m) => `${m.e}\u0000${m.p}`) },
    );
    await tx.run(
      `UNWIND $relations AS r
       MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b})
       MERGE (a)-[x:RELATED {predicate: r.predicate, passageId: r.passageId}]->(b) ON CREATE SET x.weight = 1.0`,
      { relations: byKey(b.relations, (r) => `${r.a}\u0000${r.b}`) },
    );
    const aliases = await tx.run(
      `UNWIND $aliases AS r
       MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b}) WHERE a <> b
       MERGE (a)-[x:SAME_AS]-(b) ON CREATE SET x.score = 1.0, x.weight = 1.0, x.source = 'alias', x.isNew = true
       WITH x WHERE x.isNew
       REMOVE x.isNew
       RETURN count(DISTINCT x) AS made`,
      { aliases: byKey(b.aliases, (r) => `${r.a}\u0000${r.b}`) },
    );
    if (b.links) await writeLinksInTx(tx, b.links.rows, b.links.version);
    // Again last: the graph's change time as close to the commit as a statement can be.
    await tx.run(TOUCH_GRAPH);
    return { entities: entities.reduce((n, r) => n + Number(r.records[0].get('made')), 0), aliases: Number(aliases.records[0].get('made')) };
  });
}

/**
 * Removes the passages of the given documents (only those the document owns:
 * PART_OF it and carrying its id), the RELATED facts they supported, and every
 * extracted entity left with no mention and no curated label; with
 * deleteDocuments the documents go too. Runs inside the caller's transaction;
 * marks the graph changed first, which also queues concurrent writers.
 */
export async function removePassagesOf(tx: ManagedTransaction, documentIds: string[], deleteDocuments: boolean): Promise<void> {
  await tx.run(TOUCH_GRAPH);
  await tx.run(
    `UNWIND $ids AS id
     MATCH (:Document {id: id})<-[:PART_OF]-(p:Passage) WHERE p.documentId = id
     OPTIONAL MATCH ()-[r:RELATED {passageId: p.id}]->()
     DELETE r`,
    { ids: documentIds },
  );
  await tx.run(
    `UNWIND $ids AS id
     MATCH (:Document {id: id})<-[:PART_OF]-(p:Passage) WHERE p.documentId = id
     OPTIONAL MATCH (p)-[:MENTIONS]->(e:Entity)
     WITH p, collect(DISTINCT e) AS touched
     DETACH DELETE p
     WITH touched UNWIND touched AS e
     WITH DISTINCT e WHERE NOT e:Curated AND NOT EXISTS { (e)<-[:MENTIONS]-(:Passage) }
     DETACH DELETE e`,
    { ids: documentIds },
  );
  if (deleteDocuments) await tx.run('UNWIND $ids AS id MATCH (d:Document {id: id}) DETACH DELETE d', { ids: documentIds });
}

/** Deletes a document and whatever only it supported, in one transaction; false when there is no such document. */
export async function deleteDocument(store: GraphStore, id: string): Promise<boolean> {
  return store.writeTransaction(async (tx) => {
    const found = await tx.run('MATCH (d:Document {id: $id}) RETURN count(d) AS n', { id });
    if (Number(found.records[0].get('n')) === 0) return false;
    await removePassagesOf(tx, [id], true);
    await tx.run(TOUCH_GRAPH);
    return true;
  });
}

/** Marks the graph as changed (the projection compares its creation time with this). */
export async function touchGraph(store: GraphStore): Promise<void> {
  await store.write(TOUCH_GRAPH);
}

/**
 * SAME_AS edges for the given pairs, and the end of the synonym search for the
 * given entities, in one transaction (an interrupted pass resumes). Returns
 * how many edges are new.
 */
export async function writeSynonyms(store: GraphStore, pairs: { a: string; b: string; score: number }[], doneIds: string[]): Promise<number> {
  return store.writeTransaction(async (tx) => {
    const res = await tx.run(
      `UNWIND $pairs AS p
       MATCH (a:Entity {id: p.a}), (b:Entity {id: p.b})
       WHERE a <> b
       MERGE (a)-[r:SAME_AS]-(b)
       ON CREATE SET r.score = p.score, r.weight = p.score, r.source = 'embedding', r.isNew = true
       WITH r WHERE r.isNew
       REMOVE r.isNew
       RETURN count(DISTINCT r) AS made`,
      { pairs },
    );
    await tx.run('UNWIND $ids AS id MATCH (e:Entity {id: id}) REMOVE e.synonymsPending', { ids: doneIds });
    return Number(res.records[0].get('made'));
  });
}

/** Curated entities (labelled :Entity:Curated), in one transaction; existing ones keep their properties. */
export async function writeCuratedEntities(
  store: GraphStore,
  entities: { id: string; name: string; type: string; description: string; embedding: number[]; descriptionEmbedding: number[] }[],
): Promise<void> {
  await store.write(
    `UNWIND $entities AS e
     MERGE (x:Entity {id: e.id})
     ON CREATE SET x.name = e.name, x.type = e.type, x.description = e.description,
                   x.embedding = e.embedding, x.descriptionEmbedding = e.descriptionEmbedding
     // No synonym search for a curated entity (its id is its identity): never pending.
     SET x:Curated REMOVE x.synonymsPending
     ${TOUCH_GRAPH}`,
    { entities },
  );
}

/**
 * Curated edges of one relationship type, in one transaction; the type is
 * recorded in GraphRecallMeta so the server can walk it and the projection
 * can include it. The caller validates the type against the identifier
 * pattern: a relationship type cannot be a parameter.
 */
export async function writeCuratedEdges(
  store: GraphStore,
  type: string,
  edges: { from: string; to: string; predicate: string; gloss?: string }[],
): Promise<void> {
  // A gloss that changed (a re-import after the table grew) drops the fact's vector: the import's fact pass embeds it anew.
  await store.write(
    `UNWIND $edges AS r
     MATCH (a:Entity {id: r.from}), (b:Entity {id: r.to})
     MERGE (a)-[x:${type}]->(b) ON CREATE SET x.predicate = r.predicate, x.weight = 1.0
     WITH x, r WHERE coalesce(x.gloss, '') <> coalesce(r.gloss, '')
     SET x.gloss = r.gloss REMOVE x.embedding
     WITH count(*) AS n
     ${TOUCH_GRAPH}, m.curatedTypes = apoc.coll.toSet(coalesce(m.curatedTypes, []) + [$type])`,
    { edges: edges.map((e) => ({ ...e, gloss: e.gloss ?? null })), type },
  );
}

export type EmbeddedLabel = 'Passage' | 'Entity';

/** Flags every passage and entity for re-embedding (an interrupted reembed resumes from the flags). */
export async function markForReembed(store: GraphStore): Promise<void> {
  await store.write('MATCH (n) WHERE (n:Passage OR n:Entity) SET n.reembedPending = true');
}

/** New vectors for nodes of one label, in one transaction, clearing their re-embed flag. */
export async function writeEmbeddings(
  store: GraphStore,
  label: EmbeddedLabel,
  updates: { id: string; embedding: number[]; descriptionEmbedding: number[] | null }[],
): Promise<void> {
  await store.writeTransaction((tx) =>
    runInSlices(
      tx,
      `UNWIND $updates AS u MATCH (n:${label} {id: u.id})
       SET n.embedding = u.embedding, n.descriptionEmbedding = coalesce(u.descriptionEmbedding, n.descriptionEmbedding)
       REMOVE n.reembedPending`,
      'updates',
      updates,
    ),
  );
}
