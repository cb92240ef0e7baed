// ---- 2. dense passage search (the baseline) ----------------------------------
CALL () {
  // Searched at least 50 wide (HNSW is approximate: 10 wide returned a different top 10 for most
  // 2Wiki questions); the cosine is read off the index's score. With $filter: $filterSearchK wide,
  // the passages outside the filter dropped (the index cannot filter).
  CALL db.index.vector.queryNodes('passage_embedding', {{FILTER_K(CASE WHEN $topK < 50 THEN 50 ELSE $topK END)}}, $questionEmbedding) YIELD node, score
  WHERE {{IN_FILTER(node)}}
  WITH node, {{SCORE_COS(score)}} AS cosine
  ORDER BY cosine DESC, node.id
  LIMIT $topK
  RETURN collect({node: node, score: cosine, graphScore: 0.0, vectorScore: cosine}) AS ranked
}
