// ---- § hybrid passage search: dense + full-text, fused by reciprocal rank
// Two ranked lists of $hybridK passages each: dense (vector index) and lexical (Lucene BM25 over passage title and text).
// A passage scores sum(1 / ($rrfK + rank)) over the lists it is in. Ranks, not
// scores, are fused: dense cosines bunched near the top cannot crowd out the
// full-text hits, as dividing each list by its maximum lets them do.
CALL () {
  CALL () {
    // With $filter each list is searched $filterSearchK wide, the passages outside the filter dropped.
    {{INCLUDE dense_passage_search WIDTH=$hybridK}}
    WITH collect({node: node, cosine: cosine}) AS hits
    UNWIND range(0, size(hits) - 1) AS i
    RETURN hits[i].node AS node, 1.0 / ($rrfK + i + 1) AS rrf, hits[i].cosine AS cosine
    UNION ALL
    // Lowercased words only, so no Lucene operator or syntax reaches the index,
    // and at most 256 of them (Lucene refuses more than 1,024 clauses).
    WITH {{WORDS(coalesce($question, ''))}} AS q
    WHERE q <> ''
    CALL db.index.fulltext.queryNodes('passage_text', {{LUCENE(q)}}, {limit: {{FILTER_K($hybridK)}}}) YIELD node
    WHERE {{IN_FILTER(node)}}
    WITH collect(node)[0..$hybridK] AS hits
    UNWIND range(0, size(hits) - 1) AS i
    RETURN hits[i] AS node, 1.0 / ($rrfK + i + 1) AS rrf, null AS cosine
  }
  // A dense hit's cosine is its index score's; only a full-text-only hit reads its stored vector.
  WITH node, sum(rrf) AS rrf, max(cosine) AS cosine
  WITH node, rrf, coalesce(cosine, {{COS(node.embedding)}}) AS cosine
  ORDER BY rrf DESC, cosine DESC, node.id LIMIT $topK
  RETURN collect({node: node, score: rrf, graphScore: 0.0, vectorScore: cosine}) AS ranked
}
