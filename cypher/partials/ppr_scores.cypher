// The scores: the GDS runs' weighted sum ($engine 'gds') or the push's (est).
CALL (entityGroups, entitySeeds, passageSeeds, seeds, est) {
  CALL (entityGroups, entitySeeds, passageSeeds, est) {
    UNWIND CASE WHEN $engine <> 'gds' THEN []
      WHEN $exactWeights THEN entityGroups
         + [b IN range(0, $teleportBuckets - 1) | {nodes: [x IN passageSeeds WHERE x.bucket = b | x.node],
             w: apoc.coll.avg([x IN passageSeeds WHERE x.bucket = b | x.activation])}]
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
    RETURN gds.util.asNode(nodeId) AS n, score
    UNION ALL
    UNWIND keys(est) AS id
    WITH id, est[id] AS score
    WHERE score > 0
    ORDER BY score DESC, id
    LIMIT ($entityK + $candidateK) * 4
    MATCH (n) WHERE elementId(n) = id
    RETURN n, score
  }
  // $gateScores: an entity's score times the gated mode's gate, max(0, cos(its
  // description embedding, question)), or for a fact seed its fact's cosine when
  // that is larger (a compound's description may look nothing like "Which compounds
  // treat X?" while its fact does): structural proximity and query relevance.
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
