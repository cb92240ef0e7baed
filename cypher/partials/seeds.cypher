// ---- § seed mapping
// Name seeds: entities whose whole name occurs in the question (full-text
// index, then a word-boundary check). Caller seeds: Entity.id in $seedIds.
// Vector seeds: the question embedding against the entity index; a hit's score is (1 + cos) / 2,
// the same float as vector.similarity.cosine on the stored vector, so the cosine is read off it.
// Fact seeds (HippoRAG 2's query-to-triple match) follow: each fact carries a
// vector of "subject predicate object" (fact_<TYPE> index; server/ingest/facts.ts).
// Each aggregation runs in its own CALL: one row in, one row out, and none without a row in
// (vector and hybrid map seeds in a subquery that has a row only when they need seeds).
CALL () {
  CALL () {
    WITH ' ' + {{WORDS(coalesce($question, ''))}} + ' ' AS q,
         split(trim(apoc.text.regreplace(coalesce($question, ''), '[^\\p{L}\\p{N}]+', ' ')), ' ') AS words
    WHERE $useNameSeeds AND $nameSeedK > 0 AND trim(q) <> ''
    // The question's capitalised words (lower-cased), and those after its first word.
    WITH q, [w IN words WHERE w =~ '\\p{Lu}.*' | toLower(w)] AS caps, [w IN words[1..] WHERE w =~ '\\p{Lu}.*' | toLower(w)] AS innerCaps
    // At most 256 words reach Lucene (it refuses queries of more than 1,024 clauses).
    CALL db.index.fulltext.queryNodes('entity_name', {{LUCENE(trim(q))}}, {limit: 50}) YIELD node
    WITH q, caps, innerCaps, node, ' ' + {{WORDS(node.name)}} + ' ' AS nameWords
    WHERE size(node.name) >= 3 AND q CONTAINS nameWords
    // Extracted names must hold a capital (no common words), and the question must write them as
    // names: each capitalised word of the name capitalised in the question, one of them past its
    // first word (the mouth of a river is not the rapper "The Mouth"; "What is the place of birth"
    // names neither "Place of birth" nor "What Is?"). A question with no capital past its first
    // word says nothing by case, so its words match as they are. A curated graph's names are
    // canonical as they are, lower case included (Hetionet's "melanoma").
    WITH caps, innerCaps, node, nameWords, {{CAPS(node.name)}} AS nameCaps
    WHERE node:Curated OR (node.name <> toLower(node.name)
          AND (size(innerCaps) = 0 OR (all(w IN nameCaps WHERE w IN caps) AND any(w IN nameCaps WHERE w IN innerCaps))))
    // The longest match wins: a name inside another matched name ("Half" in "The Half-Naked Truth",
    // "Guy" in "Free Guy") is a part of that name, not a second one named by the question.
    WITH collect({node: node, words: nameWords}) AS matched
    UNWIND matched AS m
    WITH m, matched WHERE none(o IN matched WHERE size(o.words) > size(m.words) AND o.words CONTAINS m.words)
    WITH m.node AS node LIMIT $nameSeedK
    RETURN node, 'name' AS source
    UNION ALL
    MATCH (node:Entity) WHERE node.id IN $seedIds
    RETURN node, 'caller' AS source
  }
  RETURN collect({node: node, cosine: null, namedActivation: 1.0, source: source}) AS named
}
// Without $vectorSeedsWithNames a question that names entities is seeded by them (and their
// facts) alone, so the vector index, whose look-alikes (melanoma's "Melanoma skin",
// "Melanosis") would be dropped, is searched only for a question that names none.
CALL (named) {
  WITH named WHERE $vectorSeedsWithNames OR size(named) = 0
  CALL db.index.vector.queryNodes('entity_embedding', {{SEARCH_WIDTH($seedK)}}, $questionEmbedding) YIELD node, score
  WITH node, {{SCORE_COS(score)}} AS cosine
  ORDER BY cosine DESC, node.id
  LIMIT $seedK
  WITH node, cosine
  WHERE cosine >= $seedMinScore
  RETURN collect({node: node, cosine: cosine, namedActivation: 0.0, source: 'vector'}) AS vectorHits
}
CALL (vectorHits, named) {
  UNWIND vectorHits + named AS s
  WITH s.node AS node, max(s.cosine) AS cosine, max(s.namedActivation) AS namedActivation, collect(DISTINCT s.source) AS sources
  RETURN collect({node: node, cosine: cosine, namedActivation: namedActivation, sources: sources}) AS raw, max(cosine) AS best
}
// Fact seeds. A question that names entities (name or caller seeds) is matched to their own
// facts, as the named entities alone replace the vector look-alikes; any other question to the
// nearest facts of every walked type's index. The $factSeedK best facts (cosine, from the index's
// score or the stored vector) seed both their entities.
CALL (raw) {
  CALL (raw) {
    WITH split({{WORDS(coalesce($question, ''))}}, ' ') AS qWords
    UNWIND [s IN raw WHERE s.namedActivation > 0 AND $factSeedK > 0 | s.node] AS named
    MATCH (named)-[r]-(:Entity)
    WHERE type(r) IN $relTypes AND type(r) <> 'SAME_AS' AND r.embedding IS NOT NULL
    WITH DISTINCT qWords, r, {{COS(r.embedding)}} AS fact
    // A named entity's fact whose predicate the question writes ranks $factWordBonus higher: the
    // question names that relation ("treat" for treats; a predicate word's first five letters,
    // a final s aside, begin a word of the question). The seed's activation stays the cosine.
    WITH qWords, r, fact, [w IN split({{WORDS(coalesce(r.predicate, replace(type(r), '_', ' ')))}}, ' ') WHERE size(w) >= 4 |
                   left(CASE WHEN w ENDS WITH 's' THEN left(w, size(w) - 1) ELSE w END, 5)] AS stems
    RETURN r, fact, fact + CASE WHEN $factWordBonus > 0 AND any(st IN stems WHERE any(w IN qWords WHERE w STARTS WITH st))
                                THEN $factWordBonus ELSE 0.0 END AS rank
    UNION
    UNWIND [t IN $relTypes WHERE t <> 'SAME_AS' AND $factSeedK > 0 AND none(s IN raw WHERE s.namedActivation > 0)] AS t
    CALL db.index.vector.queryRelationships('fact_' + t, {{SEARCH_WIDTH($factSeedK)}}, $questionEmbedding) YIELD relationship, score
    RETURN relationship AS r, {{SCORE_COS(score)}} AS fact, {{SCORE_COS(score)}} AS rank
  }
  WITH r, fact, rank
  ORDER BY rank DESC, elementId(r)
  LIMIT $factSeedK
  WITH r, fact WHERE fact >= $seedMinScore
  // A literal (a date, a number, a nationality) is a value, not an entity to walk from.
  UNWIND [x IN [startNode(r), endNode(r)] WHERE NOT coalesce(x.type, '') IN {{LITERAL_TYPES}}] AS node
  WITH node, max(fact) AS fact
  RETURN collect({node: node, fact: fact}) AS factHits
}
WITH raw + [f IN factHits WHERE none(s IN raw WHERE s.node = f.node) | {node: f.node, cosine: null, namedActivation: 0.0, sources: []}] AS raw,
     best, factHits
WITH [s IN raw | s {.*, fact: [f IN factHits WHERE f.node = s.node | f.fact][0]}] AS raw, best
WITH [s IN raw | s {.*, sources: s.sources + CASE WHEN s.fact IS NULL THEN [] ELSE ['fact'] END}] AS raw, best
// A seed's initial activation: the largest of its cosine over the best vector seed's, its best
// fact's cosine (the fact's own score: a weak match stays weak), and 1 for name and caller seeds.
WITH [s IN raw | s {.*, activation: apoc.coll.max([s.namedActivation,
        CASE WHEN s.cosine IS NULL OR best IS NULL OR best <= 0 THEN 0.0 ELSE s.cosine / best END,
        coalesce(s.fact, 0.0)])}] AS seeds
