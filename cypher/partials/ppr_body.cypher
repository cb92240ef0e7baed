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
// Teleport set (HippoRAG 2's elements, each a parameter): entity seeds weighted
// by activation, divided by the number of passages that mention them when
// $seedSpecificity (node specificity: a hub seeds less); plus the $passageSeedK
// densest passages, each at $passageSeedWeight x its cosine over the best one.
// GDS 2.13 takes only unweighted sourceNodes; PPR is linear in the teleport
// vector, so the weighted PPR is sum(w_i * PPR(source_i)). A run over a set S
// teleports uniformly, so it counts sum(w over S) x PPR(S): the entity seeds of
// equal weight (the name seeds, a fact's two entities) share one exact run, and
// the passage seeds are grouped by rank into $teleportBuckets runs.
CALL () {
  CALL db.index.vector.queryNodes('passage_embedding', CASE WHEN $passageSeedK < 50 THEN 50 ELSE $passageSeedK END, $questionEmbedding) YIELD node, score
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
  RETURN collect({nodes: nodes, w: w * size(nodes)}) AS entityGroups
}
CALL (entityGroups, entitySeeds, passageSeeds, seeds) {
  UNWIND CASE WHEN $exactWeights
    THEN entityGroups
         + [b IN range(0, $teleportBuckets - 1) | {nodes: [x IN passageSeeds WHERE x.bucket = b | x.node],
             w: reduce(t = 0.0, x IN passageSeeds | t + CASE WHEN x.bucket = b THEN x.activation ELSE 0.0 END)}]
    ELSE [{nodes: [s IN entitySeeds + passageSeeds | s.node], w: 1.0}] END AS grp
  WITH grp WHERE size(grp.nodes) > 0
  WITH grp.nodes AS sourceNodes, grp.w AS w
  CALL gds.pageRank.stream($graphName, {
    sourceNodes: sourceNodes, dampingFactor: $dampingFactor, maxIterations: $maxIterations,
    tolerance: $tolerance, relationshipWeightProperty: 'weight', logProgress: false, concurrency: $concurrency})
  YIELD nodeId, score
  WITH nodeId, sum(w * score) AS score
  WHERE score > 0
  ORDER BY score DESC, nodeId
  LIMIT ($entityK + $candidateK) * 4
  // $gateScores: an entity's score times the gated mode's gate, max(0, cos(its
  // description embedding, question)), or for a fact seed its fact's cosine when
  // that is larger (a compound's description may look nothing like "Which compounds
  // treat X?" while its fact does): structural proximity and query relevance.
  WITH gds.util.asNode(nodeId) AS n, score
  WITH n, score, [s IN seeds WHERE s.node = n AND s.fact IS NOT NULL | s.fact][0] AS fact
  WITH n, CASE WHEN $gateScores AND n:Entity THEN score * apoc.coll.max([{{GATE(n)}}, coalesce(fact, 0.0)]) ELSE score END AS score
  WHERE score > 0
  ORDER BY score DESC, n.id
  RETURN apoc.map.fromPairs(collect(CASE WHEN n:Entity THEN [elementId(n), score] END)) AS act,
         collect(CASE WHEN n:Passage THEN {p: n, g: score} END) AS extraCandidates,
         collect(CASE WHEN $trace THEN {id: n.id, name: coalesce(n.name, n.title, n.id), label: CASE WHEN n:Entity THEN 'Entity' ELSE 'Passage' END,
                                        score: score} END)[0..20] AS topScores
}
// The trace (explain): the teleport weights and the top PageRank scores.
WITH seeds, act, extraCandidates, CASE WHEN $trace THEN {
       teleport: [s IN entitySeeds | {id: s.node.id, name: s.node.name, label: 'Entity', weight: s.activation}]
               + [s IN passageSeeds | {id: s.node.id, name: coalesce(s.node.title, s.node.id), label: 'Passage', weight: s.activation}],
       top: topScores} END AS trace
