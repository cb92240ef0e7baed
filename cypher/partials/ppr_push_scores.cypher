// The push's estimates.
WITH apoc.coll.sortMulti([id IN keys(estimate) WHERE estimate[id] > 0 | {id: id, score: estimate[id]}], ['score', '^id']) AS scored
// $filter: the passages outside it dropped before the cut.
UNWIND (CASE WHEN {{FILTERED}} THEN [x IN scored WHERE EXISTS { MATCH (n_) WHERE elementId(n_) = x.id AND (NOT n_:Passage OR {{IN_FILTER(n_)}}) }]
        ELSE scored END)[0..($entityK + $candidateK) * 4] AS x
MATCH (n) WHERE elementId(n) = x.id
RETURN n, x.score AS score
