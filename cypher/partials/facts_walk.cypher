// Evidence for entities: a shortest path over $relTypes from a seed to each of
// the $pathK most activated entities that are not seeds themselves.
CALL (topEntities, seeds) {
  UNWIND topEntities AS t
  WITH t, seeds WHERE NOT any(s IN seeds WHERE s.node = t.node)
  WITH t.node AS e, t.activation AS a, seeds
  ORDER BY a DESC, e.id
  LIMIT $pathK
  CALL (e, seeds) {
    UNWIND seeds AS s
    WITH e, s.node AS seed, s.activation AS seedActivation
    MATCH path = shortestPath((seed)-[*..5]-(e))
    WHERE all(rel IN relationships(path) WHERE type(rel) IN $relTypes)
    WITH path ORDER BY length(path), seedActivation DESC, seed.id LIMIT 1
    RETURN nodes(path) AS pathNodes, relationships(path) AS pathRels
  }
  RETURN collect({passageId: null, entityId: e.id, nodes: pathNodes, rels: pathRels, score: a}) AS entityPaths
}
// Facts: the relationships on the evidence paths (passages' and entities'),
// each scored by the highest activation among the path ends it leads to, and
// the seeds' own relationships to activated entities, scored by that activation.
CALL (seeds, act) {
  UNWIND seeds AS s
  WITH s.node AS seed
  MATCH (seed)-[r]-(n:Entity)
  WHERE type(r) IN $relTypes AND n <> seed AND act[elementId(n)] IS NOT NULL
  RETURN collect({rels: [r], score: act[elementId(n)]}) AS seedFacts
}
CALL (paths, entityPaths, seedFacts) {
  UNWIND paths + entityPaths + seedFacts AS x
  UNWIND x.rels AS r
  WITH r, max(x.score) AS score
  ORDER BY score DESC, startNode(r).id, type(r), endNode(r).id
  LIMIT $factK
  RETURN collect({rel: r, score: score}) AS facts
}
