// Cosine vector indexes; the dimension follows the configured embedder.
// Quantization is off so index scores are the float cosine, not an int8
// estimate. Note: vector.similarity.cosine and these indexes score (1 + cos) / 2.
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS
FOR (e:Entity) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: {{EMBEDDING_DIM}}, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
CREATE VECTOR INDEX passage_embedding IF NOT EXISTS
FOR (p:Passage) ON p.embedding
OPTIONS {indexConfig: {`vector.dimensions`: {{EMBEDDING_DIM}}, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
