// ---- § seeds: on a graph without passages, or walking types not read from text
// vector and hybrid rank passages without seeds, and the facts read from text (RELATED) are
// their passages' own (below): on a text graph no seed is mapped. A knowledge graph without
// passages (Hetionet, a DBA's own graph), or one whose walked types include curated ones (a
// DBA's graph with documents added), has facts no passage holds: its seeds are mapped as in
// the graph modes and their own facts come first.
// Without a `seeding` row, no part of the seed mapping runs (its aggregations are in subqueries).
// No passage in a $filter is no graph without passages: the result is empty (see the return).
OPTIONAL CALL (ranked) {
  UNWIND CASE WHEN (size(ranked) = 0 AND NOT {{FILTERED}}) OR any(t IN $relTypes WHERE NOT t IN {{TEXT_REL_TYPES}}) THEN [true] ELSE [] END AS seeding
  {{INCLUDE seeds}}
  RETURN seeds
}
WITH coalesce(seeds, []) AS seeds, ranked
// The entities: the seeds when there are any; else those the passages mention, each at its best
// passage's score (no activation: nothing spreads). The first $entityK either way, best first, as in the graph modes.
CALL (ranked) {
  UNWIND ranked AS r
  WITH r.node AS p, r.score AS score
  MATCH (p)-[:MENTIONS]->(e:Entity)
  WITH e, max(score) AS score ORDER BY score DESC, e.id LIMIT $entityK
  RETURN collect({node: e, activation: score}) AS mentioned
}
WITH seeds, CASE WHEN size(seeds) > 0
       THEN [x IN apoc.coll.sortMulti([s IN seeds | {node: s.node, id: s.node.id, activation: s.activation}], ['activation', '^id'])[0..$entityK] |
             {node: x.node, activation: x.activation}]
       ELSE mentioned END AS topEntities,
     ranked, [] AS paths, null AS trace
