// ---- § gated spreading activation
// act maps elementId -> activation and lives only in this statement: nothing
// is written to the graph. Each step block below runs when $steps >= its number.
// gates maps elementId -> gate for every receiver gated so far: a node's gate does
// not change between steps, so it is computed (its embedding read) once per query.
WITH seeds, apoc.map.fromPairs([s IN seeds | [elementId(s.node), s.activation]]) AS act, {} AS gates, [] AS trace
