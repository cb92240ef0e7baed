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
    // $filter: a passage outside it is no candidate (its node is read only when a filter is set).
    WITH nodeId, score, CASE WHEN {{FILTERED}} THEN gds.util.asNode(nodeId) END AS node_
    WHERE node_ IS NULL OR NOT node_:Passage OR {{IN_FILTER(node_)}}
    ORDER BY score DESC, nodeId
    LIMIT ($entityK + $candidateK) * 4
    RETURN gds.util.asNode(nodeId) AS n, score
    UNION ALL
    WITH apoc.coll.sortMulti([id IN keys(est) WHERE est[id] > 0 | {id: id, score: est[id]}], ['score', '^id']) AS scored
    // $filter: the passages outside it dropped before the cut.
    UNWIND (CASE WHEN {{FILTERED}} THEN [x IN scored WHERE EXISTS { MATCH (n_) WHERE elementId(n_) = x.id AND (NOT n_:Passage OR {{IN_FILTER(n_)}}) }]
            ELSE scored END)[0..($entityK + $candidateK) * 4] AS x
    MATCH (n) WHERE elementId(n) = x.id
    RETURN n, x.score AS score
  }
  // $gateScores: an entity's score times the gated mode's gate, max(0, cos(its
  // description embedding, question)), or for a fact seed its fact's cosine when
  // that is larger (a compound's description may look nothing like "Which compounds
  // treat X?" while its fact does): structural proximity and query relevance.
  WITH n, score, [s IN seeds WHERE s.node = n AND s.fact IS NOT NULL | s.fact][0] AS fact
  WITH n, CASE WHEN $gateScores AND n:Entity THEN score * apoc.coll.max([{{GATE(n)}}, coalesce(fact, 0.0)]) ELSE score END AS score
  WHERE score > 0
  // Sorted as a list (see the push rounds: the rows here carry est).
  WITH apoc.coll.sortMulti(collect({n: n, id: n.id, score: score}), ['score', '^id']) AS scored
  RETURN apoc.map.fromPairs([x IN scored WHERE x.n:Entity | [elementId(x.n), x.score]]) AS act,
         [x IN scored WHERE x.n:Passage | {p: x.n, g: x.score}] AS extraCandidates,
         [x IN scored WHERE $trace | {id: x.id, name: coalesce(x.n.name, x.n.title, x.id), label: CASE WHEN x.n:Entity THEN 'Entity' ELSE 'Passage' END,
                                      score: x.score}][0..20] AS topScores
}
// The trace (explain): the teleport weights and the top PageRank scores.
WITH seeds, act, extraCandidates, CASE WHEN $trace THEN {
       teleport: [s IN entitySeeds | {id: s.node.id, name: s.node.name, label: 'Entity', weight: s.activation}]
               + [s IN passageSeeds | {id: s.node.id, name: coalesce(s.node.title, s.node.id), label: 'Passage', weight: s.activation}],
       top: topScores} END AS trace
