// ---- § evidence paths for entities, and the facts
// Evidence for the $pathK most activated non-seed entities: a seed's direct hop, else a shortest path (docs/statements.md#evidence).
CALL (topEntities, seeds) {
  UNWIND topEntities AS t
  WITH t, seeds WHERE NOT any(s IN seeds WHERE s.node = t.node)
  WITH t.node AS e, t.activation AS a, seeds ORDER BY a DESC, e.id LIMIT $pathK
  CALL (e, seeds) {
    UNWIND seeds AS s
    WITH e, s.node AS seed, s.activation AS seedActivation
    MATCH (seed)-[r]-(e) WHERE type(r) IN $relTypes
    WITH seed, r ORDER BY seedActivation DESC, seed.id, type(r) = 'SAME_AS', type(r), elementId(r) LIMIT 1
    RETURN collect({nodes: [seed, e], rels: [r]}) AS hop
  }
  CALL (e, seeds, hop) {
    WITH e, seeds WHERE size(hop) = 0
    UNWIND seeds AS s
    WITH e, s.node AS seed, s.activation AS seedActivation
    MATCH path = shortestPath((seed)-[*..5]-(e)) WHERE all(rel IN relationships(path) WHERE type(rel) IN $relTypes)
    WITH path ORDER BY length(path), seedActivation DESC, seed.id LIMIT 1
    RETURN nodes(path) AS pathNodes, relationships(path) AS pathRels
    UNION ALL
    WITH hop WHERE size(hop) > 0
    RETURN hop[0].nodes AS pathNodes, hop[0].rels AS pathRels
  }
  RETURN collect({passageId: null, entityId: e.id, nodes: pathNodes, rels: pathRels, score: a}) AS entityPaths
}
// Facts: the evidence paths' relationships, the seeds' own to activated entities, a hub seed's own x the other end's gate (docs/statements.md#evidence).
CALL (seeds, act) {
  UNWIND seeds AS s
  WITH s.node AS seed, s.activation AS a WHERE NOT coalesce(s.hub, false)
  MATCH (seed)-[r]-(n:Entity) WHERE type(r) IN $relTypes AND n <> seed
  WITH seed, a, collect({r: r, n: n, reached: act[elementId(n)]}) AS rels
  WITH a, rels, [x IN rels WHERE x.reached IS NOT NULL] AS reached
  UNWIND CASE WHEN size(reached) > 0 THEN [x IN reached | {rels: [x.r], score: x.reached}]
         ELSE [x IN rels | {rels: [x.r], score: a * {{GATE(x.n)}}}] END AS f
  RETURN collect(f) AS seedFacts
}
CALL (paths, entityPaths, seedFacts) {
  UNWIND paths + entityPaths + seedFacts AS x
  UNWIND x.rels AS r
  // $filter: a fact read from a passage outside it is no fact here (curated facts stay).
  WITH r, x WHERE {{FACT_IN_FILTER(r)}}
  WITH r, max(x.score) AS score ORDER BY score DESC, startNode(r).id, type(r), endNode(r).id LIMIT $factK
  RETURN collect({rel: r, score: score}) AS facts
}
