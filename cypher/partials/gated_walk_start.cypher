// ---- § gated spreading activation
// act: elementId -> activation (this statement's only, nothing is written); gates: elementId -> gate, each receiver's read once.
WITH seeds, apoc.map.fromPairs([s IN seeds | [elementId(s.node), s.activation]]) AS act, {} AS gates, [] AS trace
