// ---- § seed mapping
// Name seeds (whole names the question writes), caller seeds ($seedIds), vector seeds (the entity index), then fact seeds
// (the fact_<TYPE> indexes of "subject predicate object"). Each aggregation runs in its own CALL: one row in, one row out.
CALL () {
  CALL () {
    WITH ' ' + {{WORDS(coalesce($question, ''))}} + ' ' AS q,
         split(trim(apoc.text.regreplace(coalesce($question, ''), '[^\\p{L}\\p{N}]+', ' ')), ' ') AS words
    WHERE $useNameSeeds AND $nameSeedK > 0 AND trim(q) <> ''
    WITH q, [w IN words WHERE w =~ '\\p{Lu}.*' | toLower(w)] AS caps, [w IN words[1..] WHERE w =~ '\\p{Lu}.*' | toLower(w)] AS innerCaps,
         // The index keeps a word with an apostrophe whole ("alzheimer's"): such words are searched as written too.
         [w IN split(apoc.text.regreplace(toLower(coalesce($question, '')), "[^\\p{L}\\p{N}'\u2019]+", ' '), ' ') WHERE w =~ "\\p{L}+['\u2019]\\p{L}+"] AS apostrophed
    // Two searches. The name index's first 50 hits for the question's words: at most 256 words reach Lucene (it refuses
    // queries of more than 1,024 clauses). And, as a name the question writes can rank below those 50 when other names
    // share its words, each run of up to 12 words that starts at a capital or a digit, looked up by entity id: an extracted
    // entity's id is its normalised name (normalizeName in server/graph/facts.ts; docs/statements.md#name-seeds).
    CALL (q, apostrophed) {
      CALL db.index.fulltext.queryNodes('entity_name', {{LUCENE(trim(q + apoc.text.join(apostrophed, ' ')))}}, {limit: 50}) YIELD node
      RETURN node
      UNION
      WITH [w IN split(trim(apoc.text.regreplace(replace(coalesce($question, ''), '&', ' and '), "[^\\p{L}\\p{N}.{{APOSTROPHES}}]+", ' ')), ' ') WHERE w <> ''] AS words
      WITH [w IN words | {start: w =~ '[\\p{Lu}\\p{N}].*', key: {{NAME_KEY(w)}}}] AS words
      WITH [w IN words WHERE w.key <> ''] AS words
      UNWIND [i IN range(0, size(words) - 1) WHERE words[i].start] AS i
      UNWIND range(i + 1, apoc.coll.min([size(words), i + 12])) AS j
      MATCH (node:Entity {id: 'e:' + apoc.text.join([w IN words[i..j] | w.key], ' ')})
      // One word only as a name the extractor typed: an untyped word ("German") or a value is as often no name asked about.
      WHERE j - i >= 2 OR NOT coalesce(node.type, 'Entity') IN ['Entity'] + {{LITERAL_TYPES}}
      RETURN node
    }
    WITH q, caps, innerCaps, node, ' ' + {{WORDS(node.name)}} + ' ' AS nameWords
    WHERE size(node.name) >= 3 AND q CONTAINS nameWords
    // The question must write an extracted name as a name (its capitals, one past its first word); curated names as they are
    // (docs/statements.md#name-seeds).
    WITH caps, innerCaps, node, nameWords, {{CAPS(node.name)}} AS nameCaps
    WHERE node:Curated OR (node.name <> toLower(node.name)
          AND (size(innerCaps) = 0 OR (all(w IN nameCaps WHERE w IN caps) AND any(w IN nameCaps WHERE w IN innerCaps))))
    // The longest match wins: a name inside another matched name ("Guy" in "Free Guy") is no second name.
    WITH innerCaps, collect({node: node, words: nameWords}) AS matched
    UNWIND matched AS m
    WITH innerCaps, m, matched WHERE none(o IN matched WHERE size(o.words) > size(m.words) AND o.words CONTAINS m.words)
    // A name a curated entity holds is that entity: an extracted entity of the same name is the text's mention of it (docs/linking.md).
      AND (m.node:Curated OR none(o IN matched WHERE o.words = m.words AND o.node:Curated))
    // Written as a name: curated, or its capitals checked above (a question with no capital past its first word checks none).
    WITH m.node AS node, m.node:Curated OR size(innerCaps) > 0 AS written LIMIT $nameSeedK
    RETURN node, 'name' AS source, written
    UNION ALL
    MATCH (node:Entity) WHERE node.id IN $seedIds
    RETURN node, 'caller' AS source, true AS written
  }
  RETURN collect({node: node, cosine: null, namedActivation: 1.0, source: source, written: written}) AS named
}
// Without $vectorSeedsWithNames the vector index is searched only for a question that names no entity.
CALL (named) {
  WITH named WHERE $vectorSeedsWithNames OR size(named) = 0
  CALL db.index.vector.queryNodes('entity_embedding', {{SEARCH_WIDTH($seedK)}}, $questionEmbedding) YIELD node, score
  WITH node, {{SCORE_COS(score)}} AS cosine
  ORDER BY cosine DESC, node.id LIMIT $seedK
  WITH node, cosine WHERE cosine >= $seedMinScore
  RETURN collect({node: node, cosine: cosine, namedActivation: 0.0, source: 'vector'}) AS vectorHits
}
CALL (vectorHits, named) {
  UNWIND vectorHits + named AS s
  WITH s.node AS node, max(s.cosine) AS cosine, max(s.namedActivation) AS namedActivation, collect(DISTINCT s.source) AS sources,
       max(CASE WHEN s.written THEN 1 ELSE 0 END) = 1 AS written
  RETURN collect({node: node, cosine: cosine, namedActivation: namedActivation, sources: sources, written: written}) AS raw, max(cosine) AS best
}
// A named entity's own facts over $relTypes (SAME_AS aside), each with its cosine to the question, read once for the
// fact seeds and the relation seeds below.
CALL (raw) {
  // "mother in law" is one word, "mother-in-law" (CONVERSE_WORDS).
  WITH split(trim(reduce(q_ = ' ' + {{WORDS(coalesce($question, ''))}} + ' ', k_ IN {{IN_LAW_KIN}} | replace(q_, ' ' + k_ + ' in law ', ' ' + k_ + '-in-law '))), ' ')
       AS qWords
  // The answer type ("which film", "what country": the first word of four letters or more among the three after which or
  // what) names the kind of thing asked for, not a hop: a film's "filmed in" facts do not answer "which film has the director".
  // The other question words may write a predicate.
  WITH qWords, reduce(a = [], i IN [i IN range(0, size(qWords) - 1) WHERE qWords[i] IN ['which', 'what']] |
      a + [k IN range(i + 1, i + 3) WHERE k < size(qWords) AND size(qWords[k]) >= 4][0..1]) AS answerType
  WITH qWords, [j IN range(0, size(qWords) - 1) WHERE NOT j IN answerType] AS relationWords
  // The kin word whose gender each word asks for: its own, or a side's ("paternal grandmother": a father's; KIN_SIDES).
  WITH qWords, relationWords, [j IN range(0, size(qWords) - 1) | coalesce([s IN {{KIN_SIDES}} WHERE j > 0 AND s[0] = qWords[j - 1] | s[1]][0], qWords[j])]
       AS kinWords
  UNWIND [s IN raw WHERE s.namedActivation > 0 AND ($factSeedK > 0 OR $relationSeedK > 0) | s.node] AS named
  // Where the question writes the entity's name (null for a caller's seed): the relation words nearest it are its hop.
  WITH qWords, relationWords, kinWords, named, split({{WORDS(named.name)}}, ' ') AS nameWords
  WITH qWords, relationWords, kinWords, named, size(nameWords) AS nameLength,
       [i IN range(0, size(qWords) - size(nameWords)) WHERE qWords[i..i + size(nameWords)] = nameWords][0] AS at
  // The way each question word asks kin of this entity (KIN_DIRECTIONS): 1 for an ancestor, -1 for a descendant, 0 for
  // no kin word; the other way after the name and a form of "be" ("X was the father of which actress").
  WITH qWords, relationWords, kinWords, named, nameLength, at,
       CASE WHEN at IS NOT NULL AND qWords[at + nameLength] IN ['is', 'was', 'are', 'were'] THEN at + nameLength END AS be
  WITH qWords, relationWords, kinWords, named, nameLength, at,
       [j IN range(0, size(qWords) - 1) | CASE WHEN qWords[j] IN {{KIN_DIRECTIONS}}[0] THEN 1 WHEN qWords[j] IN {{KIN_DIRECTIONS}}[1] THEN -1 ELSE 0 END
           * CASE WHEN be IS NOT NULL AND j > be AND all(w IN qWords[be + 1..j] WHERE w IN ['the', 'a', 'an']) THEN -1 ELSE 1 END] AS asks
  // A named hub (more than $hubFacts facts over the walked types, the store's count) is not read whole: its facts are
  // those among the $hubFactK nearest of each type's fact index (docs/statements.md#hubs).
  CALL (named) {
    WITH named WHERE NOT {{FACT_HUB(named)}}
    MATCH (named)-[r]-(:Entity) WHERE type(r) IN $relTypes AND type(r) <> 'SAME_AS' AND r.embedding IS NOT NULL
    RETURN r, {{COS(r.embedding)}} AS fact
    UNION ALL
    WITH named WHERE {{FACT_HUB(named)}}
    {{INCLUDE hub_fact_search NODE=named}}
    RETURN r, {{SCORE_COS(score)}} AS fact
  }
  WITH qWords, relationWords, kinWords, named, nameLength, at, asks, r, fact
  // A named entity's fact whose predicate the question writes (a predicate word's first five letters, a final s aside,
  // begin a question word; or the question writes it from the other end, "father" for "daughter of": the converse
  // words) ranks $factWordBonus higher, and seeds its ends that much higher (at most 1).
  WITH qWords, relationWords, kinWords, named, nameLength, at, asks, r, fact, split({{WORDS(coalesce(r.predicate, replace(type(r), '_', ' ')))}}, ' ') AS predicateWords
  WITH qWords, relationWords, kinWords, named, nameLength, at, asks, r, fact, predicateWords, [w IN predicateWords WHERE size(w) >= 4 | left({{SINGULAR(w)}}, 5)] AS stems
  // A parent-child fact's parent end: a parent word's subject ("father of"), a child word's object ("son of"); null for
  // any other fact. "X's father" is not written by a fact whose parent is X, "X's son" only by one (asks, above).
  WITH qWords, relationWords, kinWords, named, nameLength, at, asks, r, fact, predicateWords, stems,
       CASE WHEN NOT $kinDirection THEN null WHEN any(w IN predicateWords WHERE w IN {{KIN_PARENT_WORDS}}) THEN startNode(r)
           WHEN any(w IN predicateWords WHERE w IN {{KIN_CHILD_WORDS}}) THEN endNode(r) END AS parent
  WITH qWords, relationWords, kinWords, named, nameLength, at, r, fact,
       [j IN relationWords WHERE (any(st IN stems WHERE qWords[j] STARTS WITH st)
        OR $converseWords AND any(c IN {{CONVERSE_WORDS}} WHERE qWords[j] IN c[0] AND any(w IN predicateWords WHERE w IN c[1])))
        AND (parent IS NULL OR NOT (asks[j] = 1 AND parent = named OR asks[j] = -1 AND parent <> named))] AS candidates
  // A gendered kin word ("father") does not write a fact whose far end's names (its own and its synonyms') hold titles of
  // the other gender only ("Princess Sophia of Prussia"; "Adolph I", SAME_AS "Adolph I, Duke of Cleves"): KIN_GENDERS.
  // Read only for a fact such a word would write.
  WITH named, nameLength, at, r, fact, kinWords, candidates,
       CASE WHEN any(j IN candidates WHERE any(g IN {{KIN_GENDERS}} WHERE kinWords[j] IN g[0])) THEN CASE WHEN startNode(r) = named THEN endNode(r) ELSE startNode(r) END END AS far
  WITH named, nameLength, at, r, fact, kinWords, candidates,
       CASE WHEN far IS NULL THEN [] ELSE reduce(ws = [], n IN [far.name] + [(far)-[:SAME_AS]-(x) | x.name] |
         ws + split(toLower(apoc.text.regreplace(n, '[^\\p{L}]+', ' ')), ' ')) END AS farWords
  WITH named, nameLength, at, r, fact, [j IN candidates WHERE NOT any(g IN {{KIN_GENDERS}} WHERE NOT kinWords[j] IN g[0] AND any(t IN g[1] WHERE t IN farWords)
       AND any(h IN {{KIN_GENDERS}} WHERE kinWords[j] IN h[0] AND none(t IN h[1] WHERE t IN farWords)))] AS written
  // Of a curated type, the distance in words from the name to the nearest question word of its predicate: in "genes
  // upregulated by the compounds that treat X" the hop at X is "treat", not "upregulated" (docs/statements.md#relation-seeds).
  WITH named, r, fact, size(written) > 0 AS writes, CASE WHEN at IS NULL OR type(r) IN {{TEXT_REL_TYPES}} THEN 0
      ELSE apoc.coll.min([j IN written WHERE j < at OR j >= at + nameLength | CASE WHEN j < at THEN at - j ELSE j - at - nameLength + 1 END]) END AS distance
  WITH named, collect({r: r, fact: fact, writes: writes, distance: distance}) AS facts
  WITH named, facts, apoc.coll.min([f IN facts WHERE f.writes AND f.distance > 0 | f.distance]) AS nearest
  UNWIND facts AS f
  WITH named, f, $factWordBonus > 0 AND f.writes AND (f.distance = 0 OR f.distance = nearest) AS written
  RETURN collect({named: named, r: f.r, fact: f.fact, written: written, rank: f.fact + CASE WHEN written THEN $factWordBonus ELSE 0.0 END}) AS namedFacts
}
// Relation seeds: the question's relation at each named entity is the curated relationship type whose facts there rank
// highest on average (one fact's cosine is mostly its names; the mean over a type is its relation; a
// text-read type, RELATED, holds every relation). That type's $relationSeedK best facts seed (docs/statements.md#relation-seeds).
CALL (namedFacts) {
  UNWIND namedFacts AS f
  WITH f WHERE $relationSeedK > 0 AND NOT type(f.r) IN {{TEXT_REL_TYPES}}
  WITH f.named AS named, type(f.r) AS t, collect(f) AS facts
  WITH named, t, facts, reduce(s = 0.0, f IN facts | s + f.rank) / size(facts) AS affinity
  ORDER BY affinity DESC, t
  WITH named, collect(facts)[0] AS facts
  UNWIND facts AS f
  WITH named, f ORDER BY f.fact DESC, elementId(f.r)
  WITH named, collect(f)[0..$relationSeedK] AS best
  UNWIND best AS f
  RETURN collect({r: f.r, fact: f.fact}) AS relationFacts
}
// Fact seeds: a question that names entities is matched to their own facts, any other to the nearest
// facts of every walked type's index; the $factSeedK best facts seed both their entities.
CALL (raw, namedFacts, relationFacts) {
  CALL (raw, namedFacts) {
    // Each name's facts in rank order (entities of one name, a disease and a side effect, are one name): its first
    // $factSeedTurns take turns with the other names' (each name's best, then each one's second...), so a name whose facts
    // all rank below another's still seeds its hop. No turn for a value (a nationality, a date: its facts are every
    // entity of that value) or a name the question does not write as one (docs/statements.md#fact-seeds).
    WITH [s IN raw WHERE s.namedActivation > 0 AND s.written AND NOT coalesce(s.node.type, '') IN {{LITERAL_TYPES}} | s.node] AS turning
    UNWIND namedFacts AS f
    WITH turning, f ORDER BY $writtenFirst AND f.written DESC, f.rank DESC, elementId(f.r)
    WITH turning, {{WORDS(f.named.name)}} AS name, collect(f) AS own
    UNWIND range(0, size(own) - 1) AS i
    // A fact between two named entities: at its better rank and its earlier turn.
    WITH own[i].r AS r, own[i].fact AS fact, max(own[i].rank) AS rank,
         min(CASE WHEN i < $factSeedTurns AND own[i].named IN turning THEN i ELSE $factSeedTurns END) AS turn,
         max(CASE WHEN i = 0 AND own[i].written THEN 1 ELSE 0 END) = 1 AS written
    WHERE $factSeedK > 0
    RETURN r, fact, rank, turn, written
    // UNION ALL: the two branches never both run (named entities, or none), and each gives a fact once. A
    // UNION would keep every row with the lists this subquery imports: out of memory at a named hub (docs/statements.md#hubs).
    UNION ALL
    UNWIND [t IN $relTypes WHERE t <> 'SAME_AS' AND $factSeedK > 0 AND none(s IN raw WHERE s.namedActivation > 0)] AS t
    CALL db.index.vector.queryRelationships('fact_' + t, {{SEARCH_WIDTH($factSeedK)}}, $questionEmbedding) YIELD relationship, score
    RETURN relationship AS r, {{SCORE_COS(score)}} AS fact, {{SCORE_COS(score)}} AS rank, 0 AS turn, false AS written
  }
  WITH r, fact, rank, written ORDER BY turn, rank DESC, elementId(r) LIMIT $factSeedK
  // A fact seeds at the rank that chose it (at most 1): where the question writes its predicate, its ends start the walk
  // as much higher as it ranked (docs/statements.md#fact-seeds).
  WITH collect({r: r, fact: CASE WHEN rank > 1.0 THEN 1.0 ELSE rank END, written: written}) AS top
  UNWIND top + [x IN relationFacts WHERE none(t IN top WHERE t.r = x.r)] AS x
  WITH x.r AS r, x.fact AS fact, coalesce(x.written, false) AS written WHERE x.fact >= $seedMinScore
  // A literal (a date, a number, a nationality) is a value, not an entity to walk from.
  UNWIND [x IN [startNode(r), endNode(r)] WHERE NOT coalesce(x.type, '') IN {{LITERAL_TYPES}}] AS node
  // written: the far end of a fact whose predicate the question writes (a hop it asks for: "the director of X").
  WITH node, max(fact) AS fact, max(CASE WHEN written THEN 1 ELSE 0 END) = 1 AS written
  RETURN collect({node: node, fact: fact, written: written}) AS factHits
}
WITH raw + [f IN factHits WHERE none(s IN raw WHERE s.node = f.node) | {node: f.node, cosine: null, namedActivation: 0.0, sources: []}] AS raw, best, factHits,
     namedFacts
// vector and hybrid list a seed's facts (partials/seed_facts.cypher): there a named hub carries its facts found above
// through the fact indexes (foundFacts), not to search the same indexes again; the graph modes carry nothing more.
WITH [s IN raw | s {.*, fact: [f IN factHits WHERE f.node = s.node | f.fact][0], writtenHop: s.namedActivation = 0 AND any(f IN factHits WHERE f.node = s.node AND
     f.written){{SEED_HUB_FACTS}}}] AS raw, best
WITH [s IN raw | s {.*, sources: s.sources + CASE WHEN s.fact IS NULL THEN [] ELSE ['fact'] END}] AS raw, best
// A seed's initial activation: the largest of its cosine over the best vector seed's, its best fact's score, and 1 for named seeds.
WITH [s IN raw | s {.*, activation: apoc.coll.max([s.namedActivation, CASE WHEN s.cosine IS NULL OR best IS NULL OR best <= 0 THEN 0.0 ELSE s.cosine / best END,
        coalesce(s.fact, 0.0)])}] AS seeds
