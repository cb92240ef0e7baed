// The Personalized PageRank GDS computes (retrieve_ppr_gds.cypher), by a local push over $relTypes
// and MENTIONS: each round a node keeps (1 - d) x its residual in its estimate and hands d x the
// residual to its neighbours by link weight; small residuals ($pushEpsilon) and those past the
// $pushFrontier largest wait. The series and its error bound: docs/statements.md#push.
WITH seeds, entitySeeds, passageSeeds,
     apoc.map.fromPairs([s IN entitySeeds + passageSeeds |
       [elementId(s.node), CASE WHEN $exactWeights THEN s.activation ELSE 1.0 END]]) AS residual, {} AS estimate
WITH seeds, entitySeeds, passageSeeds, residual, estimate,
     reduce(t = 0.0, k IN keys(residual) | t + residual[k]) AS mass, apoc.text.join($relTypes + ['MENTIONS'], '|') AS pushTypes,
     // The entities the question names push into the passages that name them with $namedPassageWeight
     // x the link's weight (0: only over the walked types), as they score passages in the other modes.
     [s IN seeds WHERE s.namedActivation > 0 | elementId(s.node)] AS named
// A seed the first round does not push from (its residual per neighbour at most $pushEpsilon: a hub) gives no facts of
// its own either, as in the gated walk: its relationships would be read for them (docs/statements.md#hubs).
WITH [s IN seeds | s {.*, hub: NOT ({{PUSHES(s.node, coalesce(residual[elementId(s.node)], 0.0))}})}] AS seeds,
     entitySeeds, passageSeeds, residual, estimate, mass, pushTypes, named
