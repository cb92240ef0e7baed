// ---- § result and context
// A $filter that no passage matches: an empty result (no entities, paths or facts either).
WITH *, {{FILTERED}} AND size(ranked) = 0 AS filteredOut
WITH *, CASE WHEN filteredOut THEN [] ELSE topEntities END AS topEntities, CASE WHEN filteredOut THEN [] ELSE paths END AS paths,
     CASE WHEN filteredOut THEN [] ELSE entityPaths END AS entityPaths, CASE WHEN filteredOut THEN [] ELSE facts END AS facts
// A fact reads as a sentence: subject, predicate (the relationship's predicate property, else its type in lower case), object.
WITH *, [f IN facts | f {.*, predicate: CASE
           WHEN f.rel.predicate IS NOT NULL THEN f.rel.predicate
           WHEN type(f.rel) = 'SAME_AS' THEN 'is the same as'
           ELSE toLower(replace(type(f.rel), '_', ' ')) END}] AS facts
// How the returned passages reach each curated entity they name (links: docs/linking.md).
CALL (ranked) {
  UNWIND ranked AS r
  WITH r.node AS p
  MATCH (p)-[m:MENTIONS]->(e:Curated) WHERE m.method IS NOT NULL
  WITH elementId(e) AS eid, collect({passageId: p.id, method: m.method, confidence: m.confidence}) AS links
  RETURN apoc.map.fromPairs(collect([eid, links])) AS linksOf
}
RETURN
  [s IN seeds | {id: s.node.id, name: s.node.name, type: s.node.type, score: s.cosine,
                 factScore: s.fact, activation: s.activation, sources: s.sources}] AS seeds,
  [t IN topEntities | {id: t.node.id, name: t.node.name, type: t.node.type, activation: t.activation,
                        links: coalesce(linksOf[elementId(t.node)], [])}] AS entities,
  [i IN range(0, size(ranked) - 1) | {rank: i + 1, id: ranked[i].node.id, documentId: ranked[i].node.documentId, title: ranked[i].node.title,
     text: ranked[i].node.text, score: ranked[i].score, graphScore: ranked[i].graphScore, vectorScore: ranked[i].vectorScore}] AS passages,
  [x IN paths + entityPaths | {passageId: x.passageId, entityId: x.entityId, score: x.score, link: x.link, nodes: [n IN x.nodes | {id: n.id, name: n.name}],
     relationships: [j IN range(0, size(x.rels) - 1) | {type: type(x.rels[j]), predicate: x.rels[j].predicate,
       direction: CASE WHEN startNode(x.rels[j]) = x.nodes[j] THEN 'forward' ELSE 'backward' END}]}] AS paths,
  [i IN range(0, size(facts) - 1) | {rank: i + 1, type: type(facts[i].rel), predicate: facts[i].predicate, score: facts[i].score,
     subject: {id: startNode(facts[i].rel).id, name: startNode(facts[i].rel).name, type: startNode(facts[i].rel).type},
     object: {id: endNode(facts[i].rel).id, name: endNode(facts[i].rel).name, type: endNode(facts[i].rel).type},
     text: startNode(facts[i].rel).name + ' ' + facts[i].predicate + ' ' + endNode(facts[i].rel).name}] AS facts,
  // The context: the passages, then the facts (all of it when there are no passages).
  apoc.text.join([i IN range(0, size(ranked) - 1) |
     '[' + toString(i + 1) + '] ' + coalesce(ranked[i].node.title, ranked[i].node.id) + '\n' + ranked[i].node.text]
     + CASE WHEN size(facts) = 0 THEN [] ELSE ['Facts:\n' + apoc.text.join([f IN facts |
         '- ' + startNode(f.rel).name + ' ' + f.predicate + ' ' + endNode(f.rel).name], '\n')] END, '\n\n') AS context,
  trace
