// ---- § gated spreading activation
// act: elementId -> activation (this statement's only, nothing is written); gates: elementId -> gate, each receiver's read once.
// A seed whose share per neighbour is at most $spreadEpsilon (a hub) neither spreads nor gives facts of its own (docs/statements.md#hubs).
WITH [s IN seeds | s {.*, hub: $spreadEpsilon > 0 AND {{SHARE(s.node, s.activation)}} <= $spreadEpsilon}] AS seeds
WITH seeds, apoc.map.fromPairs([s IN seeds | [elementId(s.node), s.activation]]) AS act, {} AS gates, [] AS trace
