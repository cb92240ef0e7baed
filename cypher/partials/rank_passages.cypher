// ---- § top entities, passage ranking, the passages' evidence paths
// The largest lists are sorted as lists, not by ORDER BY (memory: docs/statements.md#sorting).
CALL (act) {
  UNWIND keys(act) AS eid
  MATCH (e:Entity) WHERE elementId(e) = eid
  WITH collect({node: e, id: e.id, activation: act[eid]}) AS all
  RETURN [x IN apoc.coll.sortMulti(all, ['activation', '^id'])[0..$entityK] | {node: x.node, activation: x.activation}] AS topEntities
}
// A passage's graph score: the activations of the top entities it mentions, each / (passages mentioning it) ^ $hubExponent
// (named seeds: x $namedPassageWeight), plus its own score in ppr mode; normalised by the best, then fused with the text's ranking.
WITH *, [s IN seeds WHERE s.namedActivation > 0 | s.node] AS named
// The own pages of the hops the question writes (the far ends of its written facts: $hopPageKeep) and of the entities it names
// ($namePageKeep), found through the title index.
CALL (seeds) {
  UNWIND CASE WHEN $fusion = 'rrf' AND $hopPageKeep THEN [s IN seeds WHERE s.writtenHop | s.node] ELSE [] END +
         CASE WHEN $fusion = 'rrf' AND $namePageKeep THEN [s IN seeds WHERE s.namedActivation > 0 AND s.written | s.node] ELSE [] END AS e
  CALL (e) {
    MATCH (p:Passage) WHERE {{OWN_PAGE(p, e)}}
    RETURN p
    UNION ALL
    // An entity that titles no page ("King Victor Emmanuel III"): the pages its synonyms title ("Victor Emmanuel III of
    // Italy"), up to two SAME_AS hops away ("King Frederick IV" -> "King Frederick IV of Denmark" -> "Frederick IV of Denmark").
    WITH e WHERE NOT EXISTS { MATCH (q:Passage) WHERE {{OWN_PAGE(q, e)}} }
    MATCH (e)-[:SAME_AS*1..2]-(x:Entity) WHERE x <> e
    MATCH (p:Passage) WHERE {{OWN_PAGE(p, x)}}
    RETURN p
  }
  // Namesakes (several documents titled by the name) leave it open which page is the entity's, unless one alone has no
  // disambiguator (the primary topic: "Forbidden Ground", not "Forbidden Ground (2013 film)"); else none is kept. A document
  // split into chunks is one page: its first chunk (ids doc#0, doc#1...: the shortest id, then the least) is kept.
  WITH e, p ORDER BY size(p.id), p.id
  WITH e, collect(DISTINCT coalesce(p.documentId, p.id)) AS documents, collect(p) AS pages
  WITH e, CASE WHEN size(documents) = 1 THEN pages ELSE [x IN pages WHERE NOT x.title =~ '.*\\([^()]*\\)'] END AS kept
  WHERE size(apoc.coll.toSet([x IN kept | coalesce(x.documentId, x.id)])) = 1
  RETURN collect(DISTINCT elementId(kept[0])) AS ownPages
}
CALL (topEntities, extraCandidates, named, ownPages) {
  CALL () {
    {{INCLUDE dense_passage_search WIDTH=$vectorK}}
    RETURN collect({p: node, g: 0.0}) AS vectorSide
  }
  // Lexical candidates (rrf fusions only): the $lexicalK best passages by full-text (BM25 over title and text). The names of
  // the curated entities the question names are left out of the query: the graph holds them, resolved (docs/statements.md#fusion).
  CALL (named) {
    WITH [x IN named WHERE x:Curated] AS curated
    WITH curated, reduce(q_ = ' ' + {{WORDS(coalesce($question, ''))}} + ' ', n IN curated | replace(q_, ' ' + {{WORDS(n.name)}} + ' ', ' ')) AS q,
         reduce(ws = [], n IN curated | ws + split({{WORDS(n.name)}}, ' ')) AS curatedWords,
         split(trim(apoc.text.regreplace(coalesce($question, ''), '[^\\p{L}\\p{N}]+', ' ')), ' ')[1..] AS laterWords
    // A question anchored on curated entities with no other name left (no capital past its first word) has only its relation
    // and answer type for the index, words that every passage of that kind shares: no full-text candidates.
    WITH q WHERE size(curated) = 0 OR any(w IN laterWords WHERE w =~ '\\p{Lu}.*' AND NOT toLower(w) IN curatedWords)
    WITH trim(q) AS q WHERE $fusion <> 'blend' AND $lexicalK > 0 AND trim(q) <> ''
    CALL db.index.fulltext.queryNodes('passage_text', {{LUCENE(q)}}, {limit: {{FILTER_K($lexicalK)}}}) YIELD node
    WHERE {{IN_FILTER(node)}}
    WITH collect(node)[0..$lexicalK] AS hits
    RETURN [i IN range(0, size(hits) - 1) | {p: hits[i], g: 0.0, lexicalRank: i + 1}] AS lexicalSide
  }
  // An entity mentioned by more than $hubPassages passages (a hub) is not read from its side: it adds its weight to the
  // candidates the other top entities and the text reach, and to its own page, each read from the passage's side
  // (docs/statements.md#hubs).
  CALL (topEntities, named, vectorSide, lexicalSide) {
    UNWIND topEntities AS t
    WITH t.node AS e, CASE WHEN t.node IN named THEN $namedPassageWeight * t.activation ELSE t.activation END AS a
    // Only passages mention: the count reads the store's degree, not the relationships.
    WITH e, a, COUNT { (e)<-[:MENTIONS]-() } AS degree
    WITH collect({e: e, weight: a * toFloat(degree) ^ (-$hubExponent), hub: $hubPassages > 0 AND degree > $hubPassages,
                  name: {{WORDS(e.name)}}, initials: toLower(left(e.name, 2))}) AS weighted
    CALL (weighted) {
      UNWIND [w IN weighted WHERE NOT w.hub] AS w
      WITH w, w.e AS e
      // $filter: only passages of the documents it selects are candidates (the walk went everywhere).
      MATCH (e)<-[:MENTIONS]-(p:Passage) WHERE {{IN_FILTER(p)}}
      // A passage titled by the entity's name is about it: x (1 + $aboutWeight) (docs/statements.md#about).
      WITH p, sum(w.weight * {{ABOUT(p, w)}}) AS g
      WITH collect({p: p, id: p.id, g: g}) AS all
      RETURN [x IN apoc.coll.sortMulti(all, ['g', '^id'])[0..$candidateK] | {p: x.p, g: x.g}] AS direct
    }
    WITH direct, apoc.map.fromPairs([w IN weighted WHERE w.hub | [elementId(w.e), w]]) AS hubs
    // A hub's own page (titled by its name as written, a trailing "(...)" allowed) is found through the title index.
    CALL (hubs) {
      UNWIND keys(hubs) AS k
      WITH hubs[k].e AS e
      MATCH (p:Passage) WHERE {{OWN_PAGE(p, e)}} AND {{IN_FILTER(p)}}
      RETURN collect(p) AS hubPages
    }
    CALL (direct, hubs, hubPages, vectorSide, lexicalSide) {
      UNWIND CASE WHEN size(keys(hubs)) = 0 THEN [] ELSE apoc.coll.toSet([x IN direct | x.p] + hubPages + [c IN vectorSide + lexicalSide | c.p]) END AS p
      MATCH (p)-[:MENTIONS]->(e:Entity) WHERE hubs[elementId(e)] IS NOT NULL
      WITH p, hubs[elementId(e)] AS w
      WITH p, sum(w.weight * {{ABOUT(p, w)}}) AS g
      RETURN collect({p: p, g: g}) AS viaHubs
    }
    RETURN direct + viaHubs AS graphSide
  }
  // The answer type: the words of four letters or more among the three after "which" or "what" ("which side effects", "what
  // are the gene targets"), a final s aside. A passage linked to a curated entity of that type answers in kind (docs/statements.md#answer-type).
  WITH graphSide, vectorSide, extraCandidates, lexicalSide, ownPages, split({{WORDS(coalesce($question, ''))}}, ' ') AS qWords
  WITH graphSide, vectorSide, extraCandidates, lexicalSide, ownPages, reduce(a = [], i IN [i IN range(0, size(qWords) - 1) WHERE qWords[i] IN ['which', 'what']] |
      a + [w IN qWords[i + 1..i + 4] WHERE size(w) >= 4 | {{SINGULAR(w)}}]) AS asked
  UNWIND graphSide + vectorSide + extraCandidates + lexicalSide AS c
  WITH asked, ownPages, c.p AS p, sum(c.g) AS graphRaw, min(c.lexicalRank) AS lexicalRank
  WITH ownPages, p, lexicalRank, graphRaw * CASE WHEN $answerTypeWeight > 0 AND size(asked) > 0 AND graphRaw > 0 AND EXISTS { (p)-[:MENTIONS]->(x:Curated) WHERE
      any(w IN split({{WORDS(coalesce(x.type, ''))}}, ' ') WHERE w IN asked) } THEN 1.0 + $answerTypeWeight ELSE 1.0 END AS graphRaw
  WITH ownPages, collect({p: p, graphRaw: graphRaw, lexicalRank: lexicalRank}) AS cands, max(graphRaw) AS maxRaw
  UNWIND cands AS c
  WITH ownPages, c.p AS p, c.lexicalRank AS lexicalRank, CASE WHEN maxRaw > 0 THEN c.graphRaw / maxRaw ELSE 0.0 END AS graphScore
  WITH ownPages, p, lexicalRank, graphScore, {{COS(p.embedding)}} AS cosine
  WITH ownPages, collect({p: p, lexicalRank: lexicalRank, graphScore: graphScore, vectorScore: CASE WHEN cosine > 0 THEN cosine ELSE 0.0 END}) AS cands
  // blend: weighted sum; rrf: sum(1 / ($rrfK + rank)) over the graph's and the text's rankings, the graph's first passages
  // kept ahead; rrf3: over three (docs/statements.md#fusion).
  CALL (cands) {
    UNWIND cands AS c
    WITH c WHERE $fusion <> 'blend' AND c.graphScore > 0 AND c.graphScore >= $graphFloor ORDER BY c.graphScore DESC, c.p.id
    RETURN collect(elementId(c.p)) AS graphOrder
  }
  CALL (cands) {
    UNWIND cands AS c
    WITH c WHERE $fusion <> 'blend' ORDER BY c.vectorScore DESC, c.p.id
    RETURN collect(elementId(c.p)) AS denseOrder
  }
  WITH ownPages, cands, graphOrder, apoc.map.fromLists(denseOrder, range(1, size(denseOrder))) AS denseRank
  CALL (cands, denseRank) {
    UNWIND cands AS c
    WITH c, denseRank WHERE $fusion = 'rrf'
    WITH c, coalesce(1.0 / ($rrfK + denseRank[elementId(c.p)]), 0.0) + coalesce(1.0 / ($rrfK + c.lexicalRank), 0.0) AS text ORDER BY text DESC, c.p.id
    RETURN collect(elementId(c.p)) AS textOrder
  }
  WITH ownPages, cands, denseRank, apoc.map.fromLists(graphOrder, range(1, size(graphOrder))) AS graphRank,
       apoc.map.fromLists(textOrder, range(1, size(textOrder))) AS textRank
  UNWIND cands AS c
  WITH c.p AS p, c.graphScore AS graphScore, c.vectorScore AS vectorScore,
       CASE $fusion
         // The graph's first $graphKeep, the own pages of the hops the question writes and of the entities it names, and the
         // text's first $textKeep go ahead of the rest (1 + their rrf score); with $textKeepAgreed only a passage first both by
         // its vector and by full-text (docs/statements.md#fusion).
         WHEN 'rrf' THEN coalesce(1.0 / ($rrfK + graphRank[elementId(c.p)]), 0.0) + coalesce(1.0 / ($rrfK + textRank[elementId(c.p)]), 0.0)
                       + CASE WHEN graphRank[elementId(c.p)] <= $graphKeep OR elementId(c.p) IN ownPages OR (textRank[elementId(c.p)] <= $textKeep AND (NOT $textKeepAgreed OR (denseRank[elementId(c.p)] = 1 AND c.lexicalRank = 1))) THEN 1.0 ELSE 0.0 END
         WHEN 'rrf3' THEN coalesce(1.0 / ($rrfK + graphRank[elementId(c.p)]), 0.0) + coalesce(1.0 / ($rrfK + denseRank[elementId(c.p)]), 0.0)
                       + coalesce(1.0 / ($rrfK + c.lexicalRank), 0.0)
         ELSE $graphWeight * c.graphScore + $vectorWeight * c.vectorScore
       END AS score
  ORDER BY score DESC, p.id LIMIT $topK
  RETURN collect({node: p, score: score, graphScore: graphScore, vectorScore: vectorScore}) AS ranked
}
// Evidence: per passage, a path from a seed to its most activated entity: none for a seed, else a direct hop, else a shortest path.
CALL (ranked, seeds, act) {
  UNWIND ranked AS r
  WITH r.node AS p, seeds, act
  CALL (p, seeds, act) {
    MATCH (p)-[m:MENTIONS]->(e:Entity) WHERE act[elementId(e)] IS NOT NULL
    WITH e, m ORDER BY act[elementId(e)] DESC, e.id LIMIT 1
    // A link into the curated layer (docs/linking.md) says how the passage reached e.
    WITH e, CASE WHEN m.method IS NOT NULL THEN {method: m.method, confidence: m.confidence} END AS link, any(s IN seeds WHERE s.node = e) AS isSeed
    CALL (e, seeds, isSeed) {
      UNWIND CASE WHEN isSeed THEN [] ELSE range(0, size(seeds) - 1) END AS i
      WITH e, i, seeds[i].node AS seed
      MATCH (seed)-[r]-(e) WHERE type(r) IN $relTypes
      WITH seed, r ORDER BY i, type(r) = 'SAME_AS', type(r), elementId(r) LIMIT 1
      RETURN collect({nodes: [seed, e], rels: [r]}) AS hop
    }
    CALL (e, seeds, isSeed, hop) {
      WITH e WHERE isSeed
      RETURN [e] AS pathNodes, [] AS pathRels
      UNION ALL
      WITH hop WHERE size(hop) > 0
      RETURN hop[0].nodes AS pathNodes, hop[0].rels AS pathRels
      UNION ALL
      WITH e, seeds WHERE NOT isSeed AND size(hop) = 0
      UNWIND seeds AS s
      WITH e, s.node AS seed
      MATCH path = shortestPath((seed)-[*..5]-(e)) WHERE all(rel IN relationships(path) WHERE type(rel) IN $relTypes)
      WITH path ORDER BY length(path) LIMIT 1
      RETURN nodes(path) AS pathNodes, relationships(path) AS pathRels
    }
    RETURN pathNodes, pathRels, act[elementId(e)] AS reach, link
  }
  RETURN collect({passageId: p.id, entityId: null, nodes: pathNodes, rels: pathRels, score: reach, link: link}) AS paths
}
