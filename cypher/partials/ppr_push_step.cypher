// The residuals are sorted as a list, not by ORDER BY: a sort buffers its rows, and Neo4j counts
// the imported map (residual) against the transaction's memory once per buffered row.
CALL (residual, mass, pushTypes, named) {
  UNWIND apoc.coll.sortMulti([id IN keys(residual) WHERE $pushRounds >= {{K}} AND residual[id] > 0 |
                              {id: id, r: residual[id]}], ['r', '^id']) AS c
  WITH c.id AS id, c.r AS r
  MATCH (u) WHERE elementId(u) = id
  // The degree from the store's per-type counts: no read of a hub's relationships to hold it back.
  WITH u, id, r WHERE {{PUSHES(u, r)}} LIMIT $pushFrontier
  OPTIONAL MATCH (u)-[rel]-(v) WHERE type(rel) IN $relTypes + ['MENTIONS'] AND (v:Entity OR v:Passage)
  WITH id, r, collect(CASE WHEN v IS NOT NULL THEN [elementId(v), coalesce(toFloatOrNull(rel.weight), 1.0)
         * CASE WHEN type(rel) = 'MENTIONS' AND id IN named THEN $namedPassageWeight ELSE 1.0 END] END) AS nbrs
  WITH id, r, [n IN nbrs WHERE n[1] > 0] AS nbrs
  RETURN collect({id: id, r: r, nbrs: nbrs, total: reduce(t = 0.0, n IN nbrs | t + n[1])}) AS pushed
}
CALL (pushed) {
  UNWIND pushed AS p
  UNWIND p.nbrs AS n
  WITH n[0] AS id, sum($dampingFactor * p.r * n[1] / p.total) AS inflow
  RETURN apoc.map.fromPairs(collect([id, inflow])) AS inflow
}
WITH seeds, entitySeeds, passageSeeds, mass, pushTypes, named, inflow,
     apoc.map.merge(estimate, apoc.map.fromPairs([p IN pushed | [p.id, coalesce(estimate[p.id], 0.0) + (1.0 - $dampingFactor) * p.r]])) AS estimate,
     apoc.map.removeKeys(residual, [p IN pushed | p.id]) AS residual
WITH seeds, entitySeeds, passageSeeds, mass, pushTypes, named, estimate,
     apoc.map.merge(residual, apoc.map.fromPairs([id IN keys(inflow) | [id, coalesce(residual[id], 0.0) + inflow[id]]])) AS residual
