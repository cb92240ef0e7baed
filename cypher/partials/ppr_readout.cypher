// ---- § the PageRank scores, gated
CALL ({{SCORE_INPUTS}}, entitySeeds, passageSeeds, seeds) {
  CALL ({{SCORE_INPUTS}}, entitySeeds, passageSeeds) {
    {{INCLUDE ppr_{{ENGINE}}_scores}}
  }
  // $gateScores: an entity's score times the gated mode's gate, max(0, cos(its
  // description embedding, question)), or for a fact seed its fact's score when
  // that is larger (a compound's description may look nothing like "Which compounds
  // treat X?" while its fact does): structural proximity and query relevance.
  WITH n, score, [s IN seeds WHERE s.node = n AND s.fact IS NOT NULL | s.fact][0] AS fact
  WITH n, CASE WHEN $gateScores AND n:Entity THEN score * apoc.coll.max([{{GATE(n)}}, coalesce(fact, 0.0)]) ELSE score END AS score
  WHERE score > 0
  // Sorted as a list, not by ORDER BY (a sort buffers its rows, and rows here may carry a large map).
  WITH apoc.coll.sortMulti(collect({n: n, id: n.id, score: score}), ['score', '^id']) AS scored
  RETURN apoc.map.fromPairs([x IN scored WHERE x.n:Entity | [elementId(x.n), x.score]]) AS act,
         [x IN scored WHERE x.n:Passage | {p: x.n, g: x.score}] AS extraCandidates,
         [x IN scored WHERE $trace | {id: x.id, name: coalesce(x.n.name, x.n.title, x.id), label: CASE WHEN x.n:Entity THEN 'Entity' ELSE 'Passage' END,
                                      score: x.score}][0..20] AS topScores
}
// The trace (explain): the teleport weights and the top PageRank scores.
WITH seeds, act, extraCandidates, CASE WHEN $trace THEN {
       teleport: [s IN entitySeeds | {id: s.node.id, name: s.node.name, label: 'Entity', weight: s.activation}]
               + [s IN passageSeeds | {id: s.node.id, name: coalesce(s.node.title, s.node.id), label: 'Passage', weight: s.activation}],
       top: topScores} END AS trace
