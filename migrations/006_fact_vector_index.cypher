// Fact seeds: each RELATED fact's sentence ("Winnie Kiiza member of Forum for Democratic
// Change") is embedded at ingest into r.embedding. A vector index holds one relationship
// type, so each walked type has its own, fact_<TYPE> (server/db/fact-indexes.ts creates
// those of curated and configured types); the statements search 'fact_' + t for t in $relTypes.
CREATE VECTOR INDEX fact_RELATED IF NOT EXISTS
FOR ()-[r:RELATED]-() ON r.embedding
OPTIONS {indexConfig: {`vector.dimensions`: {{EMBEDDING_DIM}}, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
