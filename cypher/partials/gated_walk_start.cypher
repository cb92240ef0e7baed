// ---- § gated spreading activation
// act: elementId -> activation (this statement's only, nothing is written); gates: elementId -> gate, each receiver's read once.
// A seed whose share per neighbour is at most $spreadEpsilon (a hub) neither spreads nor gives facts of its own (docs/statements.md#hubs).
WITH [s IN seeds | s {.*, hub: $spreadEpsilon > 0 AND s.activation * CASE WHEN $degreeDiscount = 0 THEN 1.0
        ELSE toFloat(apoc.node.degree(s.node, apoc.text.join($relTypes, '|'))) ^ (-$degreeDiscount) END <= $spreadEpsilon}] AS seeds
WITH seeds, apoc.map.fromPairs([s IN seeds | [elementId(s.node), s.activation]]) AS act, {} AS gates, [] AS trace
