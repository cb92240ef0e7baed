// The residual left after the last round is kept as (1 - d) r.
WITH seeds, entitySeeds, passageSeeds,
     apoc.map.merge(estimate, apoc.map.fromPairs([id IN keys(residual) | [id, coalesce(estimate[id], 0.0) + (1.0 - $dampingFactor) * residual[id]]])) AS estimate
