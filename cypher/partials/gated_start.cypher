// ---- 2. gated spreading activation ------------------------------------------
// act maps elementId -> activation and lives only in this statement: nothing
// is written to the graph. Each step block below runs when $steps >= its number.
WITH seeds, apoc.map.fromPairs([s IN seeds | [elementId(s.node), s.activation]]) AS act, [] AS trace
