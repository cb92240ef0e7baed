CALL db.index.vector.queryNodes('passage_embedding', {{FILTER_K({{SEARCH_WIDTH({{WIDTH}})}})}}, $questionEmbedding) YIELD node, score
WHERE {{IN_FILTER(node)}}
WITH node, {{SCORE_COS(score)}} AS cosine ORDER BY cosine DESC, node.id LIMIT {{WIDTH}}
