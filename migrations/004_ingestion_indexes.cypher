// Deleting a document removes the RELATED facts its passages supported, found by passageId.
CREATE INDEX related_passage IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.passageId);
// Entities created since the last synonym pass (SAME_AS edges are found for them only).
CREATE INDEX entity_synonyms_pending IF NOT EXISTS FOR (e:Entity) ON (e.synonymsPending);
// Meta key/value nodes (graph.updatedAt, the embedder in use).
CREATE CONSTRAINT meta_key IF NOT EXISTS FOR (m:GraphRecallMeta) REQUIRE m.key IS UNIQUE;
