// ---- 2. Personalized PageRank (GDS) -----------------------------------------
// Fails with a clear message when the projection is missing or older than the
// last write to the graph (GraphRecallMeta {key: 'graph'}.updatedAt).
CALL () {
  CALL gds.graph.list($graphName) YIELD creationTime
  RETURN collect(creationTime) AS created
}
CALL () {
  OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'})
  RETURN m.updatedAt AS updatedAt
}
CALL apoc.util.validate(size(created) = 0,
  'GDS projection %s does not exist. Create it: run cypher/ppr_projection.cypher with :param action => "create", or POST /v1/projection',
  [$graphName])
CALL apoc.util.validate(size(created) > 0 AND updatedAt IS NOT NULL AND updatedAt > created[0],
  'GDS projection %s is stale: the graph changed at %s, after the projection was made at %s. Refresh it: run cypher/ppr_projection.cypher with :param action => "refresh", or POST /v1/projection',
  [$graphName, toString(updatedAt), toString(created[0])])
// Teleport set: seeds weighted by activation, plus (optionally) the dense top
// passages weighted by $passageSeedWeight * cosine. GDS 2.13 takes only
// unweighted sourceNodes; PPR is linear in the teleport vector, so the exact
// weighted PPR is sum(w_i * PPR(source_i)): one GDS run per source.
CALL () {
  CALL db.index.vector.queryNodes('passage_embedding', CASE WHEN $vectorK < 50 THEN 50 ELSE $vectorK END, $questionEmbedding) YIELD node
  WITH node, gds.similarity.cosine(node.embedding, $questionEmbedding) AS cosine
  ORDER BY cosine DESC, node.id
  LIMIT $vectorK
  WITH node, cosine
  WHERE $passageSeedWeight > 0 AND cosine > 0
  RETURN collect({node: node, activation: $passageSeedWeight * cosine}) AS passageSeeds
}
CALL (seeds, passageSeeds) {
  WITH seeds + passageSeeds AS sources
  UNWIND CASE WHEN $exactWeights THEN [s IN sources | [s]] ELSE [sources] END AS grp
  WITH grp WHERE size(grp) > 0
  WITH grp, CASE WHEN $exactWeights THEN grp[0].activation ELSE 1.0 END AS w
  CALL gds.pageRank.stream($graphName, {
    sourceNodes: [s IN grp | s.node], dampingFactor: $dampingFactor, maxIterations: $maxIterations,
    tolerance: $tolerance, relationshipWeightProperty: 'weight', logProgress: false})
  YIELD nodeId, score
  WITH nodeId, sum(w * score) AS score
  WHERE score > 0
  ORDER BY score DESC, nodeId
  LIMIT ($entityK + $candidateK) * 4
  WITH gds.util.asNode(nodeId) AS n, score
  RETURN apoc.map.fromPairs(collect(CASE WHEN n:Entity THEN [elementId(n), score] END)) AS act,
         collect(CASE WHEN n:Passage THEN {p: n, g: score} END) AS extraCandidates
}
WITH seeds, act, extraCandidates
