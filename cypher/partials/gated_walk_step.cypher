// Each node above $threshold (the $frontier most active) spreads to less active neighbours: v gets decay * gate(v) * sum(r(u) / deg(u)^degreeDiscount).
CALL (act, gates) {
  UNWIND keys(act) AS srcId
  WITH srcId, act[srcId] AS srcAct WHERE $steps >= {{K}} AND srcAct > $threshold
  MATCH (src:Entity) WHERE elementId(src) = srcId
  WITH src, srcAct ORDER BY srcAct DESC, src.id LIMIT $frontier
  // A source's share per neighbour: activation / degree ^ degreeDiscount, the degree the store's count per type (no read of a hub).
  WITH src, srcAct, {{SHARE(src, srcAct)}} AS share
  // A hub whose share per neighbour is at most $spreadEpsilon does not spread: the cost of a step stays bounded as hubs grow (docs/statements.md#hubs).
  WITH src, srcAct, share WHERE share > $spreadEpsilon ORDER BY share DESC, src.id
  WITH collect({src: src, act: srcAct, share: share}) AS srcs
  // The receivers are found from the big sources; the small ones only top them up, as exact (docs/statements.md#big-and-small-sources).
  WITH srcs, size([i IN range(0, size(srcs) - 1) WHERE $decay * reduce(t = 0.0, x IN srcs[i..] | t + x.share) > $threshold * 0.999999]) AS bigCount
  WITH srcs[0..bigCount] AS big, srcs[bigCount..] AS small, reduce(t = 0.0, x IN srcs[bigCount..] | t + x.share) AS smallTotal
  CALL (act, big, smallTotal) {
    UNWIND big AS b
    WITH b.src AS src, b.act AS srcAct, b.share AS share
    MATCH (src)-[r]-(dst:Entity) WHERE type(r) IN $relTypes AND dst <> src AND coalesce(act[elementId(dst)], 0.0) < srcAct
    WITH DISTINCT src, srcAct, share, dst
    WITH dst, sum(share) AS inflow, collect(CASE WHEN $trace THEN {id: src.id, name: src.name, activation: srcAct, share: share} END) AS sources
    WHERE $decay * (inflow + smallTotal) > $threshold
    RETURN apoc.map.fromPairs(collect([elementId(dst), {dst: dst, inflow: inflow, sources: sources}])) AS reached
  }
  CALL (act, small, reached) {
    UNWIND small AS s
    WITH s.src AS src, s.act AS srcAct, s.share AS share
    MATCH (src)-[r]-(dst) WHERE reached[elementId(dst)] IS NOT NULL AND type(r) IN $relTypes AND dst <> src AND coalesce(act[elementId(dst)], 0.0) < srcAct
    WITH DISTINCT src, srcAct, share, dst
    WITH elementId(dst) AS id, sum(share) AS inflow, collect(CASE WHEN $trace THEN {id: src.id, name: src.name, activation: srcAct, share: share} END) AS sources
    RETURN apoc.map.fromPairs(collect([id, {inflow: inflow, sources: sources}])) AS topUp
  }
  UNWIND keys(reached) AS id
  WITH reached[id].dst AS dst, reached[id].inflow + coalesce(topUp[id].inflow, 0.0) AS inflow, reached[id].sources + coalesce(topUp[id].sources, []) AS sources
  // Only the receivers that can still make the $frontier best are gated, as exact as gating all (docs/statements.md#gating-the-head).
  WITH dst, inflow, sources WHERE $decay * inflow > $threshold ORDER BY inflow DESC, dst.id
  WITH collect({dst: dst, id: elementId(dst), inflow: inflow, sources: sources}) AS cands
  WITH cands, [c IN cands[0..10 * $frontier] | c {.*, gate: {{STEP_GATE(c)}}}] AS head
  WITH cands, head, [c IN head | $decay * c.inflow * c.gate] AS incs
  WITH cands, head, CASE WHEN size(incs) < $frontier THEN 0.0 ELSE apoc.coll.sort(incs)[size(incs) - $frontier] END AS bar
  RETURN head + [c IN cands[size(head)..] WHERE $decay * c.inflow >= bar | c {.*, gate: {{STEP_GATE(c)}}}] AS gated
}
CALL (act, gated) {
  UNWIND gated AS c
  WITH c.dst AS dst, c.inflow AS inflow, c.sources AS sources, c.gate AS gate, $decay * c.inflow * c.gate AS incoming WHERE incoming > $threshold
  WITH dst, inflow, sources, gate, incoming ORDER BY incoming DESC, dst.id LIMIT $frontier
  RETURN collect([elementId(dst), incoming]) AS deltas, collect(CASE WHEN $trace THEN {id: dst.id, name: dst.name, before: coalesce(act[elementId(dst)], 0.0),
         inflow: inflow, gate: gate, incoming: incoming, sources: sources} END) AS received
}
WITH seeds, apoc.map.merge(act, apoc.map.fromPairs([d IN deltas | [d[0], coalesce(act[d[0]], 0.0) + d[1]]])) AS act,
     CASE WHEN $gate THEN apoc.map.merge(gates, apoc.map.fromPairs([c IN gated | [c.id, c.gate]])) ELSE gates END AS gates,
     trace + CASE WHEN $trace AND $steps >= {{K}} THEN [{step: {{K}}, received: received}] ELSE [] END AS trace
