// ---- 3. entity and passage selection, evidence paths, context -----------------
CALL (act) {
  UNWIND keys(act) AS eid
  MATCH (e:Entity) WHERE elementId(e) = eid
  WITH e, act[eid] AS activation
  ORDER BY activation DESC, e.id
  LIMIT $entityK
  RETURN collect({node: e, activation: activation}) AS topEntities
}
// A passage's graph score: the activations of the top entities it mentions,
// each divided by (passages mentioning the entity) ^ $hubExponent, plus its own
// score in ppr mode; normalised by the best candidate, then blended with the
// passage's own cosine to the question.
CALL (topEntities, extraCandidates) {
  CALL (topEntities) {
    UNWIND topEntities AS t
    WITH t.node AS e, t.activation AS a
    WITH e, a * toFloat(COUNT { (e)<-[:MENTIONS]-(:Passage) }) ^ (-$hubExponent) AS weight
    MATCH (e)<-[:MENTIONS]-(p:Passage)
    WITH p, sum(weight) AS g
    ORDER BY g DESC, p.id
    LIMIT $candidateK
    RETURN collect({p: p, g: g}) AS graphSide
  }
  CALL () {
    CALL db.index.vector.queryNodes('passage_embedding', CASE WHEN $vectorK < 50 THEN 50 ELSE $vectorK END, $questionEmbedding) YIELD node
    WITH node, gds.similarity.cosine(node.embedding, $questionEmbedding) AS cosine
    ORDER BY cosine DESC, node.id
    LIMIT $vectorK
    RETURN collect({p: node, g: 0.0}) AS vectorSide
  }
  UNWIND graphSide + vectorSide + extraCandidates AS c
  WITH c.p AS p, sum(c.g) AS graphRaw
  WITH collect({p: p, graphRaw: graphRaw}) AS cands, max(graphRaw) AS maxRaw
  UNWIND cands AS c
  WITH c.p AS p, CASE WHEN maxRaw > 0 THEN c.graphRaw / maxRaw ELSE 0.0 END AS graphScore
  WITH p, graphScore, gds.similarity.cosine(p.embedding, $questionEmbedding) AS cosine
  WITH p, graphScore, CASE WHEN cosine > 0 THEN cosine ELSE 0.0 END AS vectorScore
  WITH p, graphScore, vectorScore, $graphWeight * graphScore + $vectorWeight * vectorScore AS score
  ORDER BY score DESC, p.id
  LIMIT $topK
  RETURN collect({node: p, score: score, graphScore: graphScore, vectorScore: vectorScore}) AS ranked
}
// Evidence: for each passage, a shortest path over $relTypes from a seed to
// the most activated entity the passage mentions.
CALL (ranked, seeds, act) {
  UNWIND ranked AS r
  WITH r.node AS p, seeds, act
  CALL (p, seeds, act) {
    MATCH (p)-[:MENTIONS]->(e:Entity)
    WHERE act[elementId(e)] IS NOT NULL
    WITH e ORDER BY act[elementId(e)] DESC, e.id LIMIT 1
    WITH e, [s IN seeds WHERE s.node = e] AS self
    CALL (e, self, seeds) {
      WITH e, self WHERE size(self) > 0
      RETURN [e] AS pathNodes, [] AS pathRels, 0 AS len
      UNION
      WITH e, self, seeds WHERE size(self) = 0
      UNWIND seeds AS s
      WITH e, s.node AS seed
      MATCH path = shortestPath((seed)-[*..5]-(e))
      WHERE all(rel IN relationships(path) WHERE type(rel) IN $relTypes)
      RETURN nodes(path) AS pathNodes, relationships(path) AS pathRels, length(path) AS len
    }
    WITH pathNodes, pathRels ORDER BY len LIMIT 1
    RETURN pathNodes, pathRels
  }
  RETURN collect({passageId: p.id,
                  nodes: [n IN pathNodes | {id: n.id, name: n.name}],
                  relationships: [x IN pathRels | {type: type(x), predicate: x.predicate}]}) AS paths
}
