// ---- 2. Personalized PageRank (GDS, or a local push in Cypher) ---------------
// With $engine 'gds', fails with a clear message when the projection is missing
// or older than the last write to the graph (GraphRecallMeta {key: 'graph'}.updatedAt).
// $engine 'push' reads the graph itself and needs no projection.
CALL () {
  WITH 1 AS one WHERE $engine = 'gds'
  CALL gds.graph.list($graphName) YIELD creationTime
  RETURN collect(creationTime) AS created
}
CALL () {
  OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'})
  RETURN m.updatedAt AS updatedAt
}
CALL apoc.util.validate($engine = 'gds' AND size(created) = 0,
  'GDS projection %s does not exist. Create it: run cypher/ppr_projection.cypher with :param action => "create", or POST /v1/projection',
  [$graphName])
CALL apoc.util.validate($engine = 'gds' AND size(created) > 0 AND updatedAt IS NOT NULL AND updatedAt > created[0],
  'GDS projection %s is stale: the graph changed at %s, after the projection was made at %s. Refresh it: run cypher/ppr_projection.cypher with :param action => "refresh", or POST /v1/projection',
  [$graphName, toString(updatedAt), toString(created[0])])
// Teleport set (HippoRAG 2's elements, each a parameter): entity seeds weighted
// by activation, divided by the number of passages that mention them when
// $seedSpecificity (node specificity: a hub seeds less); plus the $passageSeedK
// densest passages, each at $passageSeedWeight x its cosine over the best one.
// GDS 2.13 takes only unweighted sourceNodes; PPR is linear in the teleport
// vector, so the weighted PPR is sum(w_i * PPR(source_i)). A GDS run over a set S
// returns sum(PPR(s) for s in S) (it teleports 1 - d to each source, not divided
// by |S|): the entity seeds of equal weight w (the name seeds, a fact's two
// entities) share one exact run counted w times, and the passage seeds are
// grouped by rank into $teleportBuckets runs, each counted at its mean weight.
CALL () {
  // $filter: only passages it selects are seeds (searched $filterSearchK wide, then filtered).
  CALL db.index.vector.queryNodes('passage_embedding', {{FILTER_K(CASE WHEN $passageSeedK < 50 THEN 50 ELSE $passageSeedK END)}}, $questionEmbedding) YIELD node, score
  WHERE {{IN_FILTER(node)}}
  WITH node, {{SCORE_COS(score)}} AS cosine
  ORDER BY cosine DESC, node.id
  LIMIT $passageSeedK
  WITH collect({node: node, cosine: cosine}) AS hits
  WITH [h IN hits WHERE $passageSeedWeight > 0 AND h.cosine > 0] AS hits
  WITH hits, CASE WHEN size(hits) > 0 THEN hits[0].cosine ELSE 1.0 END AS best
  RETURN [i IN range(0, size(hits) - 1) | {node: hits[i].node, activation: $passageSeedWeight * hits[i].cosine / best,
          bucket: i * $teleportBuckets / size(hits)}] AS passageSeeds
}
CALL (seeds) {
  UNWIND seeds AS s
  WITH s.node AS e, s.activation AS a
  WITH e, a, CASE WHEN $seedSpecificity THEN COUNT { (e)<-[:MENTIONS]-(:Passage) } ELSE 1 END AS n
  RETURN collect({node: e, activation: a / toFloat(CASE WHEN n > 1 THEN n ELSE 1 END)}) AS entitySeeds
}
CALL (entitySeeds) {
  UNWIND entitySeeds AS s
  WITH s.activation AS w, collect(s.node) AS nodes
  RETURN collect({nodes: nodes, w: w}) AS entityGroups
}
