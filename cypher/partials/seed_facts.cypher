// The seeds' own relationships over $relTypes (when seeds were mapped, above), each
// scored by the seed's activation x max(0, cos(the other end's description
// embedding, question)); the $factK best, each an evidence path of one hop.
CALL (seeds) {
  UNWIND seeds AS s
  WITH s.node AS seed, s.activation AS a, s.foundFacts AS known
  // A hub seed (more than $hubFacts facts) is not read whole: its facts among the $hubFactK nearest of each type's fact
  // index are scored (docs/statements.md#hubs), those the seed mapping found for a named hub (known) or found here.
  CALL (seed, known) {
    WITH seed WHERE NOT {{FACT_HUB(seed)}}
    MATCH (seed)-[r]-(n:Entity) WHERE type(r) IN $relTypes AND n <> seed
    RETURN r, n
    UNION ALL
    WITH seed, known WHERE {{FACT_HUB(seed)}}
    CALL (seed, known) {
      WITH seed WHERE known IS NULL
      {{INCLUDE hub_fact_search NODE=seed}}
      RETURN collect(r) AS found
    }
    UNWIND coalesce(known, found) AS r
    WITH r, CASE WHEN startNode(r) = seed THEN endNode(r) ELSE startNode(r) END AS n
    WITH r, n WHERE n:Entity AND n <> seed
    RETURN r, n
  }
  WITH seed, a, r, n WHERE {{FACT_IN_FILTER(r)}}
  WITH seed, r, n, a * {{GATE(n)}} AS score
  // Ties (one seed, one neighbour, several predicates) in a fixed order: predicate, then the relationship.
  ORDER BY score DESC, n.id, type(r), seed.id, coalesce(r.predicate, ''), elementId(r) LIMIT $factK
  RETURN collect({passageId: null, entityId: n.id, nodes: [seed, n], rels: [r], score: score}) AS entityPaths
}
// The seeds' facts first (ranked by the question), then the passages' others, $factK in all.
WITH *, [x IN entityPaths | {rel: x.rels[0], score: x.score}] AS seedFacts
WITH *, (seedFacts + [f IN passageFacts WHERE none(s IN seedFacts WHERE s.rel = f.rel)])[0..$factK] AS facts
