// The GDS runs' weighted sum: one run per group of seeds of equal weight.
UNWIND CASE WHEN $exactWeights THEN entityGroups
    + [b IN range(0, $teleportBuckets - 1) | {nodes: [x IN passageSeeds WHERE x.bucket = b | x.node],
        w: apoc.coll.avg([x IN passageSeeds WHERE x.bucket = b | x.activation])}]
  ELSE [{nodes: [s IN entitySeeds + passageSeeds | s.node], w: 1.0}] END AS grp
WITH grp WHERE size(grp.nodes) > 0
WITH grp.nodes AS sourceNodes, grp.w AS w
CALL gds.pageRank.stream($graphName, {
  sourceNodes: sourceNodes, dampingFactor: $dampingFactor, maxIterations: $maxIterations,
  tolerance: $tolerance, relationshipWeightProperty: 'weight', logProgress: false, concurrency: $concurrency})
YIELD nodeId, score
WITH nodeId, sum(w * score) AS score WHERE score > 0
// $filter: a passage outside it is no candidate (its node is read only when a filter is set).
WITH nodeId, score, CASE WHEN {{FILTERED}} THEN gds.util.asNode(nodeId) END AS node_
WHERE node_ IS NULL OR NOT node_:Passage OR {{IN_FILTER(node_)}}
// The best as a sorted list, not by ORDER BY ... LIMIT: from a named hub PageRank reaches most of the graph, and that
// sort's rows, counted with what they carry, passed db.memory.transaction.max at 100 k passages (docs/statements.md#sorting).
WITH collect({id: nodeId, score: score}) AS reached
UNWIND apoc.coll.sortMulti(reached, ['score', '^id'])[0..($entityK + $candidateK) * 4] AS top
RETURN gds.util.asNode(top.id) AS n, top.score AS score
