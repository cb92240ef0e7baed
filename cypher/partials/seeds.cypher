// ---- 1. seed mapping -------------------------------------------------------
// Vector seeds: the question embedding against the entity index. HNSW is
// approximate, so it searches at least 50 wide and the hits are rescored with
// the exact cosine (the index's own score is (1 + cos) / 2, in float).
// Name seeds: entities whose whole name occurs in the question (full-text
// index, then a word-boundary check). Caller seeds: Entity.id in $seedIds.
CALL () {
  CALL db.index.vector.queryNodes('entity_embedding', CASE WHEN $seedK < 50 THEN 50 ELSE $seedK END, $questionEmbedding) YIELD node
  WITH node, gds.similarity.cosine(node.embedding, $questionEmbedding) AS cosine
  ORDER BY cosine DESC, node.id
  LIMIT $seedK
  WITH node, cosine
  WHERE cosine >= $seedMinScore
  RETURN node, cosine, 0.0 AS fixed, 'vector' AS source
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
  RETURN node, null AS cosine, 1.0 AS fixed, 'name' AS source
  UNION ALL
  MATCH (node:Entity) WHERE node.id IN $seedIds
  RETURN node, null AS cosine, 1.0 AS fixed, 'caller' AS source
}
WITH node, max(cosine) AS cosine, max(fixed) AS fixed, collect(source) AS sources
WITH collect({node: node, cosine: cosine, fixed: fixed, sources: sources}) AS raw, max(cosine) AS best
// Without $vectorSeedsWithNames, a question that names entities is seeded by them alone:
// the vector index's look-alikes (melanoma's "Melanoma skin", "Melanosis") are dropped.
WITH [s IN raw WHERE $vectorSeedsWithNames OR s.fixed > 0 OR none(x IN raw WHERE x.fixed > 0)] AS raw, best
// A seed's initial activation: its cosine over the best vector seed's (1 for name and caller seeds).
WITH [s IN raw | s {.*, activation: CASE
        WHEN s.cosine IS NULL OR best IS NULL OR best <= 0 THEN s.fixed
        WHEN s.cosine / best > s.fixed THEN s.cosine / best
        ELSE s.fixed END}] AS seeds
