import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../server/config.js';
import { CYPHER_DIR, cypherLiteral } from '../server/db/cypher.js';
import {
  CONVERSE_WORDS,
  DEFAULT_PPR_GRAPH_NAME,
  IN_LAW_KIN,
  KIN_CHILD_WORDS,
  KIN_DIRECTIONS,
  KIN_GENDERS,
  KIN_PARENT_WORDS,
  KIN_SIDES,
  DEFAULT_TRAVERSE_TYPES,
  LITERAL_TYPES,
  PROJECTION_TYPES,
} from '../server/graph/facts.js';
import { GATED_DEEP_FILE, GATED_FILE_STEPS, MAX_PUSH_ROUNDS, MAX_STEPS, MODES, PPR_GDS_FILE, type Mode, type ParamSpec } from '../server/retrieval/params.js';

/**
 * The Cypher generator (`npm run cypher:render`; the server never loads it): renders the
 * committed cypher/ files from cypher/partials/ and the parameter table in
 * server/retrieval/params.ts, one file per mode and, for ppr, per engine. The gated
 * propagation block is unrolled GATED_FILE_STEPS times (MAX_STEPS in the deep file) and the push round
 * MAX_PUSH_ROUNDS times (each copy runs only when $steps / $pushRounds >= its
 * number), as in the authors' reference code: the first copy carries the
 * explanation, each later one a one-line banner and the same code.
 * `npm run cypher:render` rewrites the files; the render check
 * (test/unit/retrieval/render.test.ts, driftReport) names each line that differs and the
 * partial it comes from.
 */
const PARTIALS = path.join(CYPHER_DIR, 'partials');

/**
 * Macros shared by every statement that searches a full-text index, so the
 * rule lives in one place: {{WORDS(x)}} is x as lowercased words (no Lucene
 * operator or syntax survives), {{LUCENE(x)}} the first 256 of those words
 * (Lucene refuses queries of more than 1,024 clauses). And the semantic gate,
 * written once for the walk, ppr's read-out and the seeds' facts: {{GATE(n)}}
 * is max(0, cos(n's description embedding, question)), 0 without one; {{STEP_GATE(c)}}
 * is a walk step's gate for candidate c, read from the step-to-step cache first.
 * {{COS(x)}} is the cosine of vector x and the question embedding, {{SCORE_COS(s)}} the same
 * read off a vector index's score s; both on the embedder's scale, where unrelated texts score
 * $cosineFloor: (cos - $cosineFloor) / (1 - $cosineFloor), so 0 means unrelated with any model.
 */
const MACROS: [RegExp, string][] = [
  // {{SEARCH_WIDTH(k)}}: an approximate (HNSW) index search looks at least $searchWidth wide, as it
  // finds the nearest only among what it looks at. The hits past k are cut after the search.
  [/\{\{SEARCH_WIDTH\((.+?)\)\}\}/g, 'CASE WHEN $1 < $searchWidth THEN $searchWidth ELSE $1 END'],
  // The passage filter ($filter, docs/filter.md). {{FACT_IN_FILTER(r)}}: a fact read from a passage
  // (r.passageId) counts only when that passage is in the filter; a curated fact (no passageId) always.
  [
    /\{\{FACT_IN_FILTER\((.+?)\)\}\}/g,
    'CASE WHEN {{FILTERED}} AND $1.passageId IS NOT NULL THEN EXISTS { MATCH (fp_:Passage {id: $1.passageId}) WHERE {{IN_FILTER(fp_)}} } ELSE true END',
  ],
  // {{IN_FILTER(p)}}: passage p belongs to a document the filter selects (true without a filter,
  // and then nothing is read). Values of one field are alternatives, fields combine with AND;
  // metadata is one property per key, `metadata.<key>` (server/graph/writes.ts).
  [
    /\{\{IN_FILTER\((.+?)\)\}\}/g,
    'CASE WHEN {{FILTERED}} THEN ($filter.documentIds IS NULL OR $1.documentId IN $filter.documentIds) AND ' +
      '(($filter.sources IS NULL AND $filter.metadata IS NULL) OR EXISTS { MATCH ($1)-[:PART_OF]->(d_:Document) ' +
      "WHERE ($filter.sources IS NULL OR d_.source IN $filter.sources) AND all(k_ IN keys(coalesce($filter.metadata, {})) WHERE d_['metadata.' + k_] = $filter.metadata[k_]) }) " +
      'ELSE true END',
  ],
  // {{FILTER_K(k)}}: an index search's width, k without a filter; with one, $filterSearchK (or k if
  // larger), as the vector indexes cannot filter: the hits outside the filter are dropped after.
  [/\{\{FILTER_K\((.+?)\)\}\}/g, 'CASE WHEN {{FILTERED}} AND $filterSearchK > ($1) THEN $filterSearchK ELSE ($1) END'],
  // {{FILTERED}}: a filter is set (null and {} set none).
  [/\{\{FILTERED\}\}/g, '(coalesce($filter.sources, $filter.documentIds, $filter.metadata) IS NOT NULL)'],
  // {{SHARE(n, a)}}: what node n with activation a sends each neighbour in the gated walk, a / degree ^ $degreeDiscount,
  // the degree the store's count per type (no read of a hub); the walk's steps and its hub bound ($spreadEpsilon) use it.
  [
    /\{\{SHARE\((.+?), (.+?)\)\}\}/g,
    "$2 * CASE WHEN $degreeDiscount = 0 THEN 1.0 ELSE toFloat(apoc.node.degree($1, apoc.text.join($relTypes, '|'))) ^ (-$degreeDiscount) END",
  ],
  // {{FACT_HUB(n)}}: n has more than $hubFacts facts over the walked types but SAME_AS, by the store's count (no read of
  // a hub); its facts are then found through the fact indexes (partials/hub_fact_search.cypher, docs/statements.md#hubs).
  [/\{\{FACT_HUB\((.+?)\)\}\}/g, "($hubFacts > 0 AND apoc.node.degree($1, apoc.text.join([t_ IN $relTypes WHERE t_ <> 'SAME_AS'], '|')) > $hubFacts)"],
  // {{PUSHES(u, r)}}: ppr push's rule for a node u holding residual r: it pushes when its residual per relationship (the
  // store's count over pushTypes) exceeds $pushEpsilon x the teleport mass. The push step and the hub seeds both use it.
  [/\{\{PUSHES\((\S+?), (.+?)\)\}\}/g, '$2 > $$pushEpsilon * mass * apoc.node.degree($1, pushTypes)'],
  // A walk step's gate for candidate c: from the query's gate cache when an earlier step gated it.
  [/\{\{STEP_GATE\((.+?)\)\}\}/g, 'CASE WHEN $gate THEN coalesce(gates[$1.id], {{GATE($1.dst)}}) ELSE 1.0 END'],
  [
    /\{\{GATE\((.+?)\)\}\}/g,
    // The 384-float property is read once (reading it is most of the walk's time on a large graph).
    'reduce(gate_ = 0.0, cos_ IN [emb_ IN [$1.descriptionEmbedding] WHERE emb_ IS NOT NULL | {{COS(emb_)}}] | CASE WHEN cos_ > gate_ THEN cos_ ELSE gate_ END)',
  ],
  // Neo4j's own vector.similarity.cosine works on the stored array as it is (no list of boxed
  // numbers as gds.similarity.cosine takes): about twice as fast on 384 dimensions. It computes in
  // float, as the vector indexes do (within 1e-7 of the exact cosine), and returns (1 + cos) / 2.
  // It refuses a zero vector; no model writes one, and the API refuses a zero question embedding.
  [/\{\{COS\((.+?)\)\}\}/g, '{{CALIBRATED(2.0 * vector.similarity.cosine($1, $questionEmbedding) - 1.0)}}'],
  // A vector index's score is (1 + cos) / 2 of the same float cosine.
  [/\{\{SCORE_COS\((.+?)\)\}\}/g, '{{CALIBRATED(2.0 * $1 - 1.0)}}'],
  // $cosineFloor 0 (MiniLM) leaves the cosine as it is, to the bit.
  [/\{\{CALIBRATED\((.+?)\)\}\}/g, '(($1 - $cosineFloor) / (1.0 - $cosineFloor))'],
  // The relationship types ingestion reads from text (facts and synonyms); any other is curated.
  [/\{\{TEXT_REL_TYPES\}\}/g, cypherLiteral(DEFAULT_TRAVERSE_TYPES)],
  // Literal entity types (dates, numbers, nationalities): values, never walked from as seeds.
  [/\{\{LITERAL_TYPES\}\}/g, cypherLiteral(LITERAL_TYPES)],
  [/\{\{IN_LAW_KIN\}\}/g, cypherLiteral(IN_LAW_KIN)],
  [/\{\{KIN_GENDERS\}\}/g, cypherLiteral(KIN_GENDERS)],
  [/\{\{KIN_SIDES\}\}/g, cypherLiteral(KIN_SIDES)],
  [/\{\{CONVERSE_WORDS\}\}/g, cypherLiteral(CONVERSE_WORDS)],
  [/\{\{KIN_DIRECTIONS\}\}/g, cypherLiteral(KIN_DIRECTIONS)],
  [/\{\{KIN_PARENT_WORDS\}\}/g, cypherLiteral(KIN_PARENT_WORDS)],
  [/\{\{KIN_CHILD_WORDS\}\}/g, cypherLiteral(KIN_CHILD_WORDS)],
  // The capitalised words of a name, lower-cased, articles aside ("Princess Yolanda of Savoy" ->
  // princess, yolanda, savoy; "The Beatles" -> beatles: a question writes "the Beatles").
  [
    /\{\{CAPS\((.+?)\)\}\}/g,
    String.raw`[w_ IN split(trim(apoc.text.regreplace($1, '[^\\p{L}\\p{N}]+', ' ')), ' ') WHERE w_ =~ '\\p{Lu}.*' AND NOT toLower(w_) IN ['the', 'a', 'an'] | toLower(w_)]`,
  ],
  // A word with a final s aside (a plural's singular, near enough for matching type and predicate words).
  // {{ABOUT(p, w)}}: 1 + $aboutWeight where passage p is titled by the name of w ({name, initials}: the entity's
  // words and first two letters, lowercased), a trailing "(...)" aside; else 1. The two letters are compared first: a
  // regular expression per pair costs (docs/statements.md#about).
  [
    // ($$ is a dollar in a replacement.)
    /\{\{ABOUT\((\w+), (\w+)\)\}\}/g,
    String.raw`CASE WHEN $aboutWeight > 0 AND toLower(left($1.title, 2)) = $2.initials AND {{WORDS(apoc.text.regreplace($1.title, '\\s*\\([^)]*\\)\\s*$$', ''))}} = $2.name THEN 1.0 + $aboutWeight ELSE 1.0 END`,
  ],
  // {{OWN_PAGE(p, e)}}: passage p is entity e's own page, titled by its name as written (a trailing "(...)" allowed, read
  // through the title index) and mentioning it: a hub's page, a named entity's or a written hop's (docs/statements.md#fusion).
  [/\{\{OWN_PAGE\((\w+), (\w+)\)\}\}/g, "($1.title = $2.name OR $1.title STARTS WITH $2.name + ' (') AND ($1)-[:MENTIONS]->($2)"],
  // {{NAME_KEY(w)}}: a question word as an entity id's word (normalizeName in server/graph/facts.ts, word by word): lower
  // case, accents, dots (but between digits), a possessive's 's and every apostrophe dropped ("D'Annunzio" -> dannunzio).
  [
    /\{\{NAME_KEY\((.+?)\)\}\}/g,
    String.raw`apoc.text.regreplace(apoc.text.regreplace(apoc.text.regreplace(normalize(toLower($1), NFKD), '\\p{M}+|(?<!\\p{N})\\.|\\.(?!\\p{N})', ''), "[{{APOSTROPHES}}]s$$", ''), "[{{APOSTROPHES}}]", '')`,
  ],
  // The apostrophes normalizeName reads as one, for a character class.
  [/\{\{APOSTROPHES\}\}/g, "'\\u2018\\u2019\\u201a\\u201b\\u02bc\\u02b9`\\u00b4\\u2032"],
  [/\{\{SINGULAR\((.+?)\)\}\}/g, "CASE WHEN $1 ENDS WITH 's' THEN left($1, size($1) - 1) ELSE $1 END"],
  [/\{\{WORDS\((.+?)\)\}\}/g, String.raw`trim(apoc.text.regreplace(toLower($1), '[^\\p{L}\\p{N}]+', ' '))`],
  [/\{\{LUCENE\((.+?)\)\}\}/g, "apoc.text.join(split($1, ' ')[0..256], ' ')"],
];

/** A rendered line and where it comes from (a partial and its line, or the parameter table). */
export interface RenderedLine {
  text: string;
  from: string;
}

/** The longest line a rendered file may hold; longer ones are wrapped at a space outside any string. */
export const MAX_LINE = 160;

/**
 * A code line of more than MAX_LINE characters (a macro expanded in it) broken at spaces outside
 * string literals, each continuation indented 4 past the line. Cypher does not care where a line
 * breaks outside a string, so the statement stays the same.
 */
function wrap(line: string): string[] {
  if (line.length <= MAX_LINE) return [line];
  const indent = `${line.match(/^ */)![0]}    `;
  const out: string[] = [];
  let rest = line;
  while (rest.length > MAX_LINE) {
    let quote = '';
    let cut = -1;
    for (let i = 0; i < rest.length && i <= MAX_LINE; i++) {
      const c = rest[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === ' ' && i > indent.length && rest.slice(0, i).trim()) cut = i;
    }
    if (cut < 0) throw new Error(`cannot wrap a line of ${rest.length} characters: ${rest.slice(0, 80)}`);
    out.push(rest.slice(0, cut).trimEnd());
    rest = indent + rest.slice(cut + 1).trimStart();
  }
  out.push(rest);
  return out;
}

/**
 * A partial's lines, rendered: `{{NAME}}` variables replaced, `{{INCLUDE other NAME=value}}` lines
 * replaced by that partial (indented as the line), macros expanded, long lines wrapped; a section
 * line (`// ---- § title`) numbered from `section` (an included partial's is not numbered).
 */
function partial(name: string, vars: Record<string, string> = {}, section?: { n: number }, indent = ''): RenderedLine[] {
  const file = `${name}.cypher`;
  const lines = fs.readFileSync(path.join(PARTIALS, file), 'utf8').trimEnd().split('\n');
  return lines.flatMap((raw, i) => {
    const from = `cypher/partials/${file}:${i + 1}`;
    const line = Object.entries(vars).reduce((t, [k, v]) => t.replaceAll(`{{${k}}}`, v), raw);
    const include = line.match(/^( *)\{\{INCLUDE (\w+)((?: \w+=\S+)*)\}\}$/);
    if (include) {
      const args = Object.fromEntries(
        include[3]
          .trim()
          .split(/ +/)
          .filter(Boolean)
          .map((a) => a.split('=')),
      );
      return partial(include[2], { ...vars, ...args }, undefined, indent + include[1]);
    }
    const sec = line.match(/^\/\/ ---- § (.*)$/);
    if (sec) {
      // An included partial's section is a part of the including one: not numbered.
      const title = `// ---- ${section ? `${++section.n}. ` : ''}${sec[1]} (partials/${file}) `;
      return [{ text: indent + title.padEnd(100 - indent.length, '-'), from }];
    }
    const text = MACROS.reduce((t, [pattern, expansion]) => t.replace(pattern, expansion), line);
    if (/\{\{/.test(text)) throw new Error(`${from}: unexpanded ${text.match(/\{\{[^}]*\}\}/)![0]}`);
    return wrap(text ? indent + text : text).map((t) => ({ text: t, from }));
  });
}

/**
 * A block repeated `count` times with {{K}} = 1..count: the first copy as written, explanation
 * included; each later copy a one-line banner and the same code without its comments, so the
 * copies are visibly the same.
 */
function repeated(name: string, count: number, label: string, guard: string, vars: Record<string, string>, section: { n: number }): RenderedLine[] {
  const out: RenderedLine[] = [];
  for (let k = 1; k <= count; k++) {
    const lines = partial(name, { ...vars, K: String(k) }, section);
    const from = `cypher/partials/${name}.cypher`;
    if (k === 1) out.push({ text: `// ${label} 1 of ${count} (runs when ${guard} >= 1); each later ${label} is this block again with its own number.`, from });
    else out.push({ text: `// ${label} ${k} of ${count}: ${label} 1's block (comments left out), run when ${guard} >= ${k}.`, from });
    out.push(...(k === 1 ? lines : lines.filter((l) => !l.text.trimStart().startsWith('//'))));
  }
  return out;
}

const QUESTION_DOCS: Record<string, string> = {
  question: 'the question text (for exact-name seeds, may be empty)',
  questionEmbedding: 'here a passage stands in',
};
// The header's :param block runs unchanged: it borrows a passage's embedding as the question.
const DEMO_EXPRESSIONS = { questionEmbedding: 'COLLECT { MATCH (p:Passage) WHERE p.embedding IS NOT NULL RETURN p.embedding LIMIT 1 }[0]' };

/**
 * The file header: the title, a one-line summary and the :param block, each line with its one-line
 * meaning as a comment inside the expression (Browser and cypher-shell evaluate `RETURN <expression>`),
 * so a copied line sets the parameter as it is. The longer description of each file and every
 * parameter in full are in docs/parameters.md (`npm run docs:parameters`, from STATEMENT_NOTES and params.ts).
 */
function header(title: string, summary: string, params: { name: string; value: string; brief: string }[]): RenderedLine[] {
  const from = 'server/retrieval/params.ts (and scripts/render-cypher.ts: title, summary)';
  const set = params.map((p) => `:param ${p.name} => ${p.value}`);
  const width = Math.max(...set.filter((s) => s.length <= 48).map((s) => s.length));
  const block = params.map((p, i) => {
    if (/\*\/|;/.test(p.brief)) throw new Error(`${p.name}: a :param meaning may hold neither */ nor ;`);
    // A long expression (the demo question embedding) is not padded.
    const line = `// ${set[i].length > 48 ? set[i] : set[i].padEnd(width)} /* ${p.brief} */;`;
    if (line.length > MAX_LINE)
      throw new Error(`${p.name}: its :param line has ${line.length} characters (at most ${MAX_LINE}): give it a shorter brief in params.ts`);
    return line;
  });
  for (const l of [title, summary]) if (l.length + 3 > MAX_LINE) throw new Error(`header line over ${MAX_LINE} characters: ${l}`);
  return [
    `// ${title}`,
    `// ${summary}`,
    '// GENERATED by `npm run cypher:render` from cypher/partials/ (each section names its partial) and server/retrieval/params.ts: edit those.',
    '// To run in Neo4j Browser or cypher-shell, set the parameters first (copy, remove the leading "// "; each in full: docs/parameters.md):',
    ...block,
  ].map((text) => ({ text, from }));
}

/** The :param lines of a statement: the question, its embedding, then the table's parameters the statement reads. */
function headerParams(specs: Record<string, ParamSpec>, questionDoc: string): { name: string; value: string; brief: string }[] {
  return [
    { name: 'question', value: cypherLiteral(''), brief: questionDoc },
    { name: 'questionEmbedding', value: DEMO_EXPRESSIONS.questionEmbedding, brief: QUESTION_DOCS.questionEmbedding },
    ...Object.entries(specs).map(([name, s]) => ({ name, value: cypherLiteral(s.default), brief: s.brief ?? s.doc })),
  ];
}

interface Statement {
  mode: Mode;
  title: string;
  /** One line under the title. */
  summary: string;
  /** The longer description, in docs/parameters.md. */
  about: string[];
  /** Parameters of the mode's table this file does not read (the other engine's). */
  omit?: string[];
  body: (section: { n: number }) => RenderedLine[][];
}

const GDS_ONLY = ['graphName', 'maxIterations', 'tolerance', 'concurrency'];
const PUSH_ONLY = ['pushRounds', 'pushEpsilon', 'pushFrontier'];

/** The tail every graph mode shares: passage ranking, evidence, facts, the result. */
const graphTail = (section: { n: number }) => [partial('rank_passages', {}, section), partial('walk_facts', {}, section), partial('result', {}, section)];
/**
 * The key vector's and hybrid's seeds carry (partials/seeds.cypher): a named hub's facts, found through the fact indexes
 * for the fact seeds, which partials/seed_facts.cypher lists without searching the same indexes again.
 */
const SEED_HUB_FACTS =
  ', foundFacts: CASE WHEN s.namedActivation > 0 AND ($factSeedK > 0 OR $relationSeedK > 0) AND {{FACT_HUB(s.node)}} THEN [f IN namedFacts WHERE f.named = s.node | f.r] END';
/** vector's and hybrid's tail: seeds only where facts lie outside the passages, facts, the result. */
const baselineTail = (section: { n: number }) => [
  partial('seeds_if_needed', { SEED_HUB_FACTS: SEED_HUB_FACTS }, section),
  partial('passage_facts', {}, section),
  partial('seed_facts', {}, section),
  partial('result', {}, section),
];

const PPR_ABOUT = [
  'Seeds as in gated mode; Personalized PageRank from the seeds (weighted by activation) over',
  'entities and passages (MENTIONS, RELATED, SAME_AS; undirected, weighted), then the same passage',
  'scoring as gated mode, with each passage node also adding its own PageRank score.',
];

/** gated mode's statement with `steps` copies of the step; the default file refuses a $steps it cannot walk. */
function gatedFile(steps: number, which: string): Statement {
  return {
    mode: 'gated',
    title: 'graph-recall: gated mode - query-aware spreading activation (one statement, read-only)',
    summary:
      "Seeds, then $steps rounds of spreading activation over $relTypes, each hop x $decay x the gate; passages scored from their entities' activations.",
    about: [
      'Seeds from the entity vector index (plus exact-name, caller and fact seeds: the entities of the',
      "question's nearest facts in the fact_<TYPE> relationship vector indexes), then $steps rounds of",
      'spreading activation over $relTypes: each hop is multiplied by $decay and by the gate',
      "max(0, cos(neighbour's description embedding, question)). Passages are scored from the",
      'activations of the entities they mention, blended with their own cosine to the question.',
      which,
    ],
    body: (section) => [
      ...(steps < MAX_STEPS ? [partial('gated_steps_guard', { STEPS: String(steps), DEEP_FILE: GATED_DEEP_FILE }, section)] : []),
      partial('seeds', { SEED_HUB_FACTS: '' }, section),
      partial('gated_walk_start', {}, section),
      repeated('gated_walk_step', steps, 'step', '$steps', {}, section),
      partial('gated_walk_end', {}, section),
      ...graphTail(section),
    ],
  };
}

const FILES: Record<string, Statement> = {
  [MODES.gated.file]: gatedFile(
    GATED_FILE_STEPS,
    `It unrolls ${GATED_FILE_STEPS} steps ($steps 1-${GATED_FILE_STEPS}); for more the server runs ${GATED_DEEP_FILE}.`,
  ),
  [GATED_DEEP_FILE]: gatedFile(MAX_STEPS, `The same statement with ${MAX_STEPS} steps unrolled: the server runs it for $steps above ${GATED_FILE_STEPS}.`),
  [MODES.ppr.file]: {
    mode: 'ppr',
    title: 'graph-recall: ppr mode, engine push - Personalized PageRank by a local push in Cypher (one statement, read-only)',
    summary: 'Seeds as in gated mode, then Personalized PageRank by $pushRounds rounds of a local push on the stored graph; passages scored as in gated mode.',
    about: [
      ...PPR_ABOUT,
      'The push runs $pushRounds rounds on the stored graph: no projection, no GDS. The server runs',
      'this file for engine push (the default); engine gds runs retrieve_ppr_gds.cypher.',
    ],
    omit: ['engine', ...GDS_ONLY],
    body: (section) => [
      partial('seeds', { SEED_HUB_FACTS: '' }, section),
      partial('ppr_teleport', {}, section),
      partial('ppr_push_start', {}, section),
      repeated('ppr_push_step', MAX_PUSH_ROUNDS, 'push round', '$pushRounds', {}, section),
      partial('ppr_push_end', {}, section),
      partial('ppr_readout', { ENGINE: 'push', SCORE_INPUTS: 'estimate' }, section),
      ...graphTail(section),
    ],
  },
  [PPR_GDS_FILE]: {
    mode: 'ppr',
    title: 'graph-recall: ppr mode, engine gds - Personalized PageRank with Neo4j GDS (one statement, read-only)',
    summary: 'Seeds as in gated mode, then GDS Personalized PageRank on the projection $graphName; passages scored as in gated mode.',
    about: [
      ...PPR_ABOUT,
      'GDS PageRank runs on the projection $graphName (see cypher/ppr_projection.cypher). The server',
      'runs this file for engine gds; engine push (the default) runs retrieve_ppr.cypher.',
    ],
    omit: ['engine', ...PUSH_ONLY],
    body: (section) => [
      partial('seeds', { SEED_HUB_FACTS: '' }, section),
      partial('ppr_gds_check', {}, section),
      partial('ppr_teleport', {}, section),
      partial('ppr_gds_groups', {}, section),
      partial('ppr_readout', { ENGINE: 'gds', SCORE_INPUTS: 'entityGroups' }, section),
      ...graphTail(section),
    ],
  },
  [MODES.vector.file]: {
    mode: 'vector',
    title: 'graph-recall: vector mode - plain dense passage search, the baseline (one statement, read-only)',
    summary: 'The top $topK passages by cosine from the passage vector index, the facts read in them and the entities they mention.',
    about: [
      'The top $topK passages by cosine to the question from the passage vector index, the facts',
      'read in them and the entities they mention. On a graph without passages, or when $relTypes',
      'holds a curated type (not read from text), seeds are mapped as in the graph modes and their',
      'own facts come first; seeds never change the ranking.',
    ],
    body: (section) => [partial('vector_search', {}, section), ...baselineTail(section)],
  },
  [MODES.hybrid.file]: {
    mode: 'hybrid',
    title: 'graph-recall: hybrid mode - dense + full-text passage search, fused by rank (one statement, read-only)',
    summary: 'The passage vector index and a full-text index each give $hybridK passages, fused by rank (sum of 1 / ($rrfK + rank)); facts as in vector mode.',
    about: [
      'The strong cheap baseline: the passage vector index and a Lucene full-text index on passage',
      'title and text each give $hybridK passages; reciprocal rank fusion (sum of 1 / ($rrfK + rank))',
      'orders them. Facts, entities and seeds as in vector mode.',
    ],
    body: (section) => [partial('hybrid_search', {}, section), ...baselineTail(section)],
  },
};

/** A statement file's lines, each with its source. */
export function renderStatementLines(file: string): RenderedLine[] {
  const st = FILES[file];
  if (!st) throw new Error(`no statement file ${file}`);
  const specs = Object.fromEntries(Object.entries(MODES[st.mode].params as Record<string, ParamSpec>).filter(([k]) => !st.omit?.includes(k)));
  const questionDoc = st.mode === 'hybrid' ? 'the question text (full-text search and exact-name seeds, may be empty)' : QUESTION_DOCS.question;
  return [...header(st.title, st.summary, headerParams(specs, questionDoc)), ...st.body({ n: 0 }).flat()];
}

const PROJECTION_TITLE = 'graph-recall: the GDS projection used by ppr mode with engine gds - create, refresh, drop or inspect it';
const PROJECTION_ABOUT = [
  'The server runs this after ingestion (refresh) and on POST /v1/projection. A projection',
  'older than the last write to the graph is reported stale by retrieve_ppr_gds.cypher.',
];

/** What docs/parameters.md says of each rendered file: its title and its longer description. */
export function statementNotes(): { file: string; title: string; about: string[] }[] {
  return [
    ...Object.entries(FILES).map(([file, st]) => ({ file, title: st.title, about: st.about })),
    { file: 'ppr_projection.cypher', title: PROJECTION_TITLE, about: PROJECTION_ABOUT },
  ];
}

export const PROJECTION_PARAMS: Record<string, ParamSpec> = {
  action: { schema: null as never, default: 'status', doc: 'create (if missing) | refresh (drop and create) | drop | status' },
  graphName: { schema: null as never, default: DEFAULT_PPR_GRAPH_NAME, doc: 'projection name, as used by retrieve_ppr_gds.cypher' },
  projectionTypes: { schema: null as never, default: [...PROJECTION_TYPES], doc: 'relationship types projected' },
};

function renderProjectionLines(): RenderedLine[] {
  const h = header(
    PROJECTION_TITLE,
    'Run by the server after ingestion (refresh) and on POST /v1/projection; retrieve_ppr_gds.cypher reports an older projection stale.',
    Object.entries(PROJECTION_PARAMS).map(([name, s]) => ({ name, value: cypherLiteral(s.default), brief: s.doc })),
  );
  return [...h, ...partial('projection_body')];
}

/** Every rendered file, line by line with its source. */
export function renderAllLines(): Record<string, RenderedLine[]> {
  const files: Record<string, RenderedLine[]> = {};
  for (const file of Object.keys(FILES)) files[file] = renderStatementLines(file);
  files['ppr_projection.cypher'] = renderProjectionLines();
  return files;
}

const textOf = (lines: RenderedLine[]) => `${lines.map((l) => l.text).join('\n')}\n`;

export function renderAll(): Record<string, string> {
  return Object.fromEntries(Object.entries(renderAllLines()).map(([name, lines]) => [name, textOf(lines)]));
}

/**
 * What differs between a committed file and the renderer's output, for a DBA who edited the
 * file: the changed lines (the span between the first and the last difference), each with the
 * committed text, the rendered text, and the partial (and line) to edit instead. null: no drift.
 */
export function driftReport(name: string, committed: string, lines: RenderedLine[]): string | null {
  const want = textOf(lines).split('\n');
  const have = committed.split('\n');
  let top = 0;
  while (top < want.length && top < have.length && want[top] === have[top]) top++;
  if (top === want.length && top === have.length) return null;
  let wEnd = want.length;
  let hEnd = have.length;
  while (wEnd > top && hEnd > top && want[wEnd - 1] === have[hEnd - 1]) {
    wEnd--;
    hEnd--;
  }
  const shown = 12;
  const out = [`cypher/${name} differs from its partials at line ${top + 1}:`];
  for (let i = top; i < Math.min(hEnd, top + shown); i++) out.push(`  committed ${i + 1}: ${have[i]}`);
  if (hEnd - top > shown) out.push(`  ... ${hEnd - top - shown} more committed lines`);
  for (let i = top; i < Math.min(wEnd, top + shown); i++) out.push(`  rendered  ${i + 1}: ${want[i]}   <- ${lines[i]?.from ?? '(end of file)'}`);
  if (wEnd - top > shown) out.push(`  ... ${wEnd - top - shown} more rendered lines`);
  out.push('Make the change in the partial named after each rendered line (or params.ts for the header), then run `npm run cypher:render`.');
  return out.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, 'scripts/render-cypher.ts')) {
  for (const [name, text] of Object.entries(renderAll())) {
    fs.writeFileSync(path.join(CYPHER_DIR, name), text);
    console.log(`wrote cypher/${name}`);
  }
}
