// The same Personalized PageRank as GDS computes (retrieve_ppr_gds.cypher), by a local push in
// Cypher on the stored graph. PPR is the series s = (1 - d) sum_k (d P)^k t, t the teleport
// weights, P the walk over $relTypes and MENTIONS (entities and passages, undirected, each
// relationship weighted by its weight property, 1.0 when absent). A round pushes every node's
// residual r (round 1: its teleport weight): the node keeps (1 - d) r in its estimate and each
// neighbour v receives d r w(u,v) / W(u). A node whose residual per relationship is at most
// $pushEpsilon x (the total teleport weight) waits (its residual stays and may grow), as do nodes
// past the $pushFrontier largest residuals of a round. After $pushRounds rounds every residual
// left is kept as (1 - d) r. With $pushEpsilon 0 and no node held back this is the series to
// (d P)^$pushRounds: with d = 0.5, all but 0.5^($pushRounds + 1) of the mass.
WITH seeds, entitySeeds, passageSeeds,
     apoc.map.fromPairs([s IN entitySeeds + passageSeeds |
       [elementId(s.node), CASE WHEN $exactWeights THEN s.activation ELSE 1.0 END]]) AS residual, {} AS estimate
WITH seeds, entitySeeds, passageSeeds, residual, estimate,
     reduce(t = 0.0, k IN keys(residual) | t + residual[k]) AS mass, apoc.text.join($relTypes + ['MENTIONS'], '|') AS pushTypes,
     // The entities the question names push into the passages that name them with $namedPassageWeight
     // x the link's weight (0: only over the walked types), as they score passages in the other modes.
     [s IN seeds WHERE s.namedActivation > 0 | elementId(s.node)] AS named
