// ---- § facts: the passages' and the seeds'
// Facts without a walk (vector, hybrid). On a graph with passages: the facts the extractor read
// in the top passages (RELATED, found by their passageId), in the passages' order, each scored
// by its passage; the first $factK. Ranking them by their own vectors instead cost more than the
// passage search itself (bench/reports/code-notes/design-figures-2026-12-01).
CALL (ranked) {
  UNWIND range(0, size(ranked) - 1) AS i
  WITH i, ranked[i] AS r WHERE 'RELATED' IN $relTypes
  MATCH (a:Entity)-[rel:RELATED {passageId: r.node.id}]->(b:Entity)
  WITH i, r, a, rel, b ORDER BY i, a.id, rel.predicate, b.id, elementId(rel) LIMIT $factK
  RETURN collect({rel: rel, score: r.score}) AS passageFacts
}
