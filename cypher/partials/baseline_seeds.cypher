// ---- seeds, on a graph without passages only ---------------------------------
// vector and hybrid rank passages without seeds, and on a graph with passages their facts are
// the passages' own (below): no seed is mapped there. A knowledge graph without passages
// (Hetionet, a DBA's own graph) has only entities and facts to answer with, so its seeds are
// mapped as in the graph modes and their own facts follow.
// The seed mapping's aggregations are grouped by `seeding`, so with no row here they make none
// (an aggregation without a grouping key makes one row of nothing), and nothing below runs.
OPTIONAL CALL (ranked) {
  UNWIND CASE WHEN size(ranked) = 0 THEN [true] ELSE [] END AS seeding
{{SEEDS}}
  RETURN seeds
}
WITH coalesce(seeds, []) AS seeds, ranked
// The entities: on a graph with passages, those the passages mention, each at its best passage's
// score (no activation: nothing spreads); else the seeds.
CALL (ranked) {
  UNWIND ranked AS r
  WITH r.node AS p, r.score AS score
  MATCH (p)-[:MENTIONS]->(e:Entity)
  WITH e, max(score) AS score
  ORDER BY score DESC, e.id
  RETURN collect({node: e, activation: score}) AS mentioned
}
WITH seeds, CASE WHEN size(ranked) = 0 THEN [s IN seeds | {node: s.node, activation: s.activation}] ELSE mentioned END AS topEntities,
     ranked, [] AS paths, null AS trace
