// ---- § gated spreading activation
// act: elementId -> activation, in this statement only (nothing is written). gates: elementId ->
// gate of each receiver gated so far (a gate does not change: its embedding is read once).
WITH seeds, apoc.map.fromPairs([s IN seeds | [elementId(s.node), s.activation]]) AS act, {} AS gates, [] AS trace
