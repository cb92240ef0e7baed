// ---- 1. seed mapping -------------------------------------------------------
// Vector seeds: the question embedding against the entity index. HNSW is
// approximate, so it searches at least 50 wide and the hits are rescored with
// the exact cosine (the index's own score is (1 + cos) / 2, in float).
// Name seeds: entities whose whole name occurs in the question (full-text
// index, then a word-boundary check). Caller seeds: Entity.id in $seedIds.
// Fact seeds (HippoRAG 2's query-to-triple match): the question against each
// walked type's fact index (fact_<TYPE>: the embedding of the sentence
// "subject predicate object"); both entities of the $factSeedK nearest facts.
CALL () {
  CALL db.index.vector.queryNodes('entity_embedding', CASE WHEN $seedK < 50 THEN 50 ELSE $seedK END, $questionEmbedding) YIELD node
  WITH node, gds.similarity.cosine(node.embedding, $questionEmbedding) AS cosine
  ORDER BY cosine DESC, node.id
  LIMIT $seedK
  WITH node, cosine
  WHERE cosine >= $seedMinScore
  RETURN node, cosine, null AS fact, 0.0 AS fixed, 'vector' AS source
  UNION ALL
  WITH ' ' + {{WORDS(coalesce($question, ''))}} + ' ' AS q
  WHERE $useNameSeeds AND $nameSeedK > 0 AND trim(q) <> ''
  // At most 256 words reach Lucene (it refuses queries of more than 1,024 clauses).
  CALL db.index.fulltext.queryNodes('entity_name', {{LUCENE(trim(q))}}, {limit: 50}) YIELD node
  WITH q, node
  // Extracted names must hold a capital (no common words); a curated graph's names are canonical
  // as they are, lower case included (Hetionet's "melanoma").
  WHERE size(node.name) >= 3 AND (node.name <> toLower(node.name) OR node:Curated)
    AND q CONTAINS ' ' + {{WORDS(node.name)}} + ' '
  WITH node LIMIT $nameSeedK
  RETURN node, null AS cosine, null AS fact, 1.0 AS fixed, 'name' AS source
  UNION ALL
  MATCH (node:Entity) WHERE node.id IN $seedIds
  RETURN node, null AS cosine, null AS fact, 1.0 AS fixed, 'caller' AS source
  UNION ALL
  UNWIND [t IN $relTypes WHERE t <> 'SAME_AS' AND $factSeedK > 0] AS t
  CALL db.index.vector.queryRelationships('fact_' + t, CASE WHEN $factSeedK < 50 THEN 50 ELSE $factSeedK END, $questionEmbedding) YIELD relationship
  WITH relationship AS r, gds.similarity.cosine(relationship.embedding, $questionEmbedding) AS fact
  ORDER BY fact DESC, elementId(r)
  LIMIT $factSeedK
  WITH r, fact WHERE fact >= $seedMinScore
  UNWIND [startNode(r), endNode(r)] AS node
  RETURN node, null AS cosine, fact, 0.0 AS fixed, 'fact' AS source
}
WITH node, max(cosine) AS cosine, max(fact) AS fact, max(fixed) AS fixed, collect(DISTINCT source) AS sources
WITH collect({node: node, cosine: cosine, fact: fact, fixed: fixed, sources: sources}) AS raw, max(cosine) AS best, max(fact) AS bestFact
// Without $vectorSeedsWithNames, a question that names entities is seeded by them (and the
// facts) alone: the vector index's look-alikes (melanoma's "Melanoma skin", "Melanosis") are dropped.
WITH [s IN raw WHERE $vectorSeedsWithNames OR s.fixed > 0 OR s.fact IS NOT NULL OR none(x IN raw WHERE x.fixed > 0)] AS raw, best, bestFact
// A seed's initial activation: the largest of its cosine over the best vector seed's, its best
// fact's cosine over the best fact's, and 1 for name and caller seeds.
WITH [s IN raw | s {.*, activation: apoc.coll.max([s.fixed,
        CASE WHEN s.cosine IS NULL OR best IS NULL OR best <= 0 THEN 0.0 ELSE s.cosine / best END,
        CASE WHEN s.fact IS NULL OR bestFact IS NULL OR bestFact <= 0 THEN 0.0 ELSE s.fact / bestFact END])}] AS seeds
