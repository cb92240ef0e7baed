/**
 * The write statements of a bulk import's online load (server/ingest/import/online.ts): one
 * transaction per batch, MERGE on the user's stable ids, vectors stored as float32 by
 * db.create.set*VectorProperty (half the store of a list of doubles set with SET).
 */
import { isIdentifier, TOUCH_GRAPH } from './facts.js';
import type { GraphStore } from '../db/store.js';
import type { EntityRow, MentionRow, PassageRow, RelationshipRow } from '../ingest/import/types.js';

export async function writeEntityRows(store: GraphStore, rows: EntityRow[]): Promise<void> {
  await store.write(
    `UNWIND $rows AS r
     MERGE (x:Entity {id: r.id})
     SET x.name = r.name, x.type = r.type, x.description = r.description
     FOREACH (_ IN CASE WHEN r.curated THEN [1] ELSE [] END | SET x:Curated)
     WITH x, r
     CALL db.create.setNodeVectorProperty(x, 'embedding', r.embedding)
     CALL db.create.setNodeVectorProperty(x, 'descriptionEmbedding', r.descriptionEmbedding)`,
    { rows },
  );
}

export async function writePassageRows(store: GraphStore, rows: PassageRow[]): Promise<void> {
  await store.write(
    `UNWIND $rows AS r
     MERGE (d:Document {id: r.documentId})
     ON CREATE SET d.title = r.title, d.source = r.source, d.ingestedAt = datetime()
     MERGE (x:Passage {id: r.id})
     SET x.title = r.title, x.text = r.text, x.documentId = r.documentId
     MERGE (x)-[:PART_OF]->(d)
     WITH x, r
     CALL db.create.setNodeVectorProperty(x, 'embedding', r.embedding)`,
    { rows },
  );
}

export async function writeMentionRows(store: GraphStore, rows: MentionRow[]): Promise<void> {
  await store.write(
    `UNWIND $rows AS r
     MATCH (p:Passage {id: r.passage}), (e:Entity {id: r.entity})
     MERGE (p)-[m:MENTIONS]->(e)
     SET m.weight = r.weight, m.confidence = r.confidence, m.method = r.method`,
    { rows },
  );
}

/**
 * Relationships of one type (a type cannot be a parameter: it is checked to be an identifier
 * before it is spliced). A relationship is identified by its ends, type and predicate, and by
 * the passage it was read from when it has one (as the text ingest merges RELATED facts).
 */
export async function writeRelationshipRows(store: GraphStore, type: string, rows: RelationshipRow[]): Promise<void> {
  if (!isIdentifier(type)) throw new Error(`relationship type "${type}" is not an identifier`);
  const vectors = `WITH x, r WHERE r.embedding IS NOT NULL
     CALL db.create.setRelationshipVectorProperty(x, 'embedding', r.embedding)`;
  await store.writeTransaction(async (tx) => {
    await tx.run(
      `UNWIND $rows AS r
       MATCH (a:Entity {id: r.from}), (b:Entity {id: r.to})
       MERGE (a)-[x:${type} {predicate: r.predicate, passageId: r.passageId}]->(b)
       SET x.weight = r.weight
       ${vectors}`,
      { rows: rows.filter((r) => r.passageId !== null) },
    );
    await tx.run(
      `UNWIND $rows AS r
       MATCH (a:Entity {id: r.from}), (b:Entity {id: r.to})
       MERGE (a)-[x:${type} {predicate: r.predicate}]->(b)
       SET x.weight = r.weight
       ${vectors}`,
      { rows: rows.filter((r) => r.passageId === null) },
    );
  });
}

/** Records curated relationship types (walked by the server, included in the projection) and marks the graph changed. */
export async function recordImport(store: GraphStore, curatedTypes: string[]): Promise<void> {
  await store.write(`${TOUCH_GRAPH}, m.curatedTypes = apoc.coll.toSet(coalesce(m.curatedTypes, []) + $types)`, { types: curatedTypes });
}

/** Which of these ids exist as nodes of the label (an online load may refer to them). */
export async function existingIds(store: GraphStore, label: 'Passage' | 'Entity', ids: string[]): Promise<Set<string>> {
  const q =
    label === 'Passage' ? 'UNWIND $ids AS id MATCH (x:Passage {id: id}) RETURN x.id AS id' : 'UNWIND $ids AS id MATCH (x:Entity {id: id}) RETURN x.id AS id';
  const r = await store.read(q, { ids });
  return new Set(r.records.map((x) => x.get('id') as string));
}
