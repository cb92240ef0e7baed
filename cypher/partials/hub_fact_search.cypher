// A hub's facts through the fact indexes (docs/statements.md#hubs): of the $hubFactK nearest to the question in the index
// of each walked type it has (a search per index costs), those it is an end of.
UNWIND [t IN $relTypes WHERE t <> 'SAME_AS' AND apoc.node.degree({{NODE}}, t) > 0] AS t
CALL db.index.vector.queryRelationships('fact_' + t, $hubFactK, $questionEmbedding) YIELD relationship, score
WITH {{NODE}}, relationship AS r, score WHERE startNode(r) = {{NODE}} OR endNode(r) = {{NODE}}
