// ---- 4. result and context ---------------------------------------------------
RETURN
  [s IN seeds | {id: s.node.id, name: s.node.name, type: s.node.type, score: s.cosine,
                 activation: s.activation, sources: s.sources}] AS seeds,
  [t IN topEntities | {id: t.node.id, name: t.node.name, type: t.node.type, activation: t.activation}] AS entities,
  [i IN range(0, size(ranked) - 1) | {rank: i + 1, id: ranked[i].node.id, documentId: ranked[i].node.documentId, title: ranked[i].node.title,
     text: ranked[i].node.text, score: ranked[i].score, graphScore: ranked[i].graphScore,
     vectorScore: ranked[i].vectorScore}] AS passages,
  paths,
  apoc.text.join([i IN range(0, size(ranked) - 1) |
     '[' + toString(i + 1) + '] ' + coalesce(ranked[i].node.title, ranked[i].node.id) + '\n' + ranked[i].node.text], '\n\n') AS context
