// The residual left after the last round is kept as (1 - d) r.
WITH seeds, entitySeeds, passageSeeds, entityGroups,
     apoc.map.merge(est, apoc.map.fromPairs([id IN keys(res) | [id, coalesce(est[id], 0.0) + (1.0 - $dampingFactor) * res[id]]])) AS est
