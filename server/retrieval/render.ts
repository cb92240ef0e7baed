import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../config.js';
import { DEFAULT_PPR_GRAPH_NAME, DEFAULT_TRAVERSE_TYPES, LITERAL_TYPES, PROJECTION_TYPES } from '../graph/facts.js';
import { MAX_PUSH_ROUNDS, MODES, type Mode, type ParamSpec } from './params.js';

/**
 * Renders the committed cypher/ files from cypher/partials/ and the parameter
 * table in params.ts. The gated propagation block is unrolled MAX_STEPS times
 * (each copy runs only when $steps >= its number), as in the authors' reference
 * code. `npm run cypher:render` rewrites the files; a test fails when a
 * committed file differs from this output.
 */
export const MAX_STEPS = 5;
export const CYPHER_DIR = path.join(ROOT, 'cypher');
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
  [/\{\{TEXT_REL_TYPES\}\}/g, `[${DEFAULT_TRAVERSE_TYPES.map((t) => `'${t}'`).join(', ')}]`],
  // Literal entity types (dates, numbers, nationalities): values, never walked from as seeds.
  [/\{\{LITERAL_TYPES\}\}/g, `[${LITERAL_TYPES.map((t) => `'${t}'`).join(', ')}]`],
  // The capitalised words of a name, lower-cased, articles aside ("Princess Yolanda of Savoy" ->
  // princess, yolanda, savoy; "The Beatles" -> beatles: a question writes "the Beatles").
  [
    /\{\{CAPS\((.+?)\)\}\}/g,
    String.raw`[w_ IN split(trim(apoc.text.regreplace($1, '[^\\p{L}\\p{N}]+', ' ')), ' ') WHERE w_ =~ '\\p{Lu}.*' AND NOT toLower(w_) IN ['the', 'a', 'an'] | toLower(w_)]`,
  ],
  [/\{\{WORDS\((.+?)\)\}\}/g, String.raw`trim(apoc.text.regreplace(toLower($1), '[^\\p{L}\\p{N}]+', ' '))`],
  [/\{\{LUCENE\((.+?)\)\}\}/g, "apoc.text.join(split($1, ' ')[0..256], ' ')"],
];

const partial = (name: string) =>
  MACROS.reduce((text, [pattern, expansion]) => text.replace(pattern, expansion), fs.readFileSync(path.join(PARTIALS, `${name}.cypher`), 'utf8')).trimEnd();

const SHORT_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * The body of a single-quoted Cypher string that reads back as `s` and stays on one line:
 * backslash, quote and the usual control characters get their short escapes; every other
 * control character (C0, DEL, C1), U+2028, U+2029 and lone surrogates become \uXXXX.
 */
function escapeString(s: string): string {
  return s.replace(
    /[\\'\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A Cypher literal for a parameter value (used in :param blocks only, never in statements). */
export function cypherLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return `'${escapeString(v)}'`;
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? v.toFixed(1).replace(/\.0$/, '') : String(v)) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(cypherLiteral).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : `\`${k.replaceAll('`', '``')}\``}: ${cypherLiteral(x)}`)
      .join(', ')}}`;
  }
  throw new Error(`cannot render ${typeof v} as Cypher`);
}

/** The `:param` lines that set every parameter, for Neo4j Browser or cypher-shell. */
export function paramBlock(values: Record<string, unknown>, expressions: Record<string, string> = {}): string {
  const lines = Object.entries(values).map(([k, v]) => `:param ${k} => ${cypherLiteral(v)};`);
  for (const [k, expr] of Object.entries(expressions)) lines.push(`:param ${k} => ${expr};`);
  return lines.join('\n');
}

const QUESTION_DOCS: Record<string, string> = {
  question: 'the question text (used only for exact-name seeds; may be empty)',
  questionEmbedding: 'the question embedding, same model and dimension as the entity and passage vectors',
};
// The header's :param block runs unchanged: it borrows a passage's embedding as the question.
const DEMO_EXPRESSIONS = { questionEmbedding: 'COLLECT { MATCH (p:Passage) WHERE p.embedding IS NOT NULL RETURN p.embedding LIMIT 1 }[0]' };

function header(
  title: string,
  about: string[],
  specs: Record<string, ParamSpec>,
  runtime: Record<string, string>,
  demoValues: Record<string, unknown>,
  expressions: Record<string, string>,
): string {
  const width = Math.max(...[...Object.keys(specs), ...Object.keys(runtime)].map((k) => k.length));
  const rows = [
    ...Object.entries(runtime).map(([k, doc]) => `//   ${k.padEnd(width)}  ${doc}`),
    ...Object.entries(specs).map(([k, s]) => `//   ${k.padEnd(width)}  ${s.doc} (default ${cypherLiteral(s.default)})`),
  ];
  const block = paramBlock({ ...demoValues, ...Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, s.default])) }, expressions)
    .split('\n')
    .map((l) => `// ${l}`);
  return [
    `// ${title}`,
    '// GENERATED by `npm run cypher:render` from cypher/partials/ and server/retrieval/params.ts: edit those, not this file.',
    '//',
    ...about.map((l) => `// ${l}`),
    '//',
    '// Parameters:',
    ...rows,
    '//',
    '// To run in Neo4j Browser or cypher-shell, set the parameters first (copy, remove the leading "// "):',
    ...block,
  ].join('\n');
}

/** vector's and hybrid's seeds: the graph modes' seed mapping, run only where facts lie outside the passages. */
const baselineSeeds = () =>
  partial('baseline_seeds').replace(
    '{{SEEDS}}',
    partial('seeds')
      .split('\n')
      .map((l) => (l ? `  ${l}` : l))
      .join('\n'),
  );

const MODE_ABOUT: Record<Mode, { title: string; about: string[]; body: () => string[] }> = {
  gated: {
    title: 'graph-recall: gated mode - query-aware spreading activation (one statement, read-only)',
    about: [
      'Seeds from the entity vector index (plus exact-name, caller and fact seeds: the entities of the',
      "question's nearest facts in the fact_<TYPE> relationship vector indexes), then $steps rounds of",
      'spreading activation over $relTypes: each hop is multiplied by $decay and by the gate',
      "max(0, cos(neighbour's description embedding, question)). Passages are scored from the",
      'activations of the entities they mention, blended with their own cosine to the question.',
    ],
    body: () => [
      partial('seeds'),
      partial('gated_start'),
      ...Array.from({ length: MAX_STEPS }, (_, i) => partial('gated_step').replaceAll('{{K}}', String(i + 1))),
      partial('gated_end'),
      partial('select'),
      partial('facts_walk'),
      partial('return'),
    ],
  },
  ppr: {
    title: 'graph-recall: ppr mode - Personalized PageRank with Neo4j GDS or a local push (one statement, read-only)',
    about: [
      'Seeds as in gated mode; Personalized PageRank from the seeds (weighted by activation) over',
      'entities and passages (MENTIONS, RELATED, SAME_AS; undirected, weighted). $engine gds runs',
      'GDS PageRank on the projection $graphName (see cypher/ppr_projection.cypher); $engine push',
      'computes it in Cypher on the stored graph, $pushRounds rounds, no projection. Then the same',
      'passage scoring as gated mode, with each passage node also adding its own PageRank score.',
    ],
    body: () => [
      partial('seeds'),
      partial('ppr_body'),
      partial('ppr_push_start'),
      ...Array.from({ length: MAX_PUSH_ROUNDS }, (_, i) => partial('ppr_push_step').replaceAll('{{K}}', String(i + 1))),
      partial('ppr_push_end'),
      partial('ppr_scores'),
      partial('select'),
      partial('facts_walk'),
      partial('return'),
    ],
  },
  vector: {
    title: 'graph-recall: vector mode - plain dense passage search, the baseline (one statement, read-only)',
    about: [
      'The top $topK passages by cosine to the question from the passage vector index, the facts',
      'read in them and the entities they mention. On a graph without passages, or when $relTypes',
      'holds a curated type (not read from text), seeds are mapped as in the graph modes and their',
      'own facts come first; seeds never change the ranking.',
    ],
    body: () => [partial('vector_body'), baselineSeeds(), partial('facts_passages'), partial('facts_seeds'), partial('return')],
  },
  hybrid: {
    title: 'graph-recall: hybrid mode - dense + full-text passage search, fused by rank (one statement, read-only)',
    about: [
      'The strong cheap baseline: the passage vector index and a Lucene full-text index on passage',
      'title and text each give $hybridK passages; reciprocal rank fusion (sum of 1 / ($rrfK + rank))',
      'orders them. Facts, entities and seeds as in vector mode.',
    ],
    body: () => [partial('hybrid_body'), baselineSeeds(), partial('facts_passages'), partial('facts_seeds'), partial('return')],
  },
};

export function renderMode(mode: Mode): string {
  const m = MODE_ABOUT[mode];
  const specs = MODES[mode].params as Record<string, ParamSpec>;
  const docs = mode === 'hybrid' ? { ...QUESTION_DOCS, question: 'the question text (full-text search and exact-name seeds; may be empty)' } : QUESTION_DOCS;
  const h = header(m.title, m.about, specs, docs, { question: '' }, DEMO_EXPRESSIONS);
  const body = m.body().join('\n');
  return `${h}\n${body}\n`;
}

export const PROJECTION_PARAMS: Record<string, ParamSpec> = {
  action: { schema: null as never, default: 'status', doc: 'create (if missing) | refresh (drop and create) | drop | status' },
  graphName: { schema: null as never, default: DEFAULT_PPR_GRAPH_NAME, doc: 'projection name, as used by retrieve_ppr.cypher' },
  projectionTypes: { schema: null as never, default: [...PROJECTION_TYPES], doc: 'relationship types projected' },
};

export function renderProjection(): string {
  const h = header(
    'graph-recall: the GDS projection used by ppr mode with engine gds - create, refresh, drop or inspect it',
    [
      'The server runs this after ingestion (refresh) and on POST /v1/projection. A projection',
      'older than the last write to the graph is reported stale by retrieve_ppr.cypher.',
    ],
    PROJECTION_PARAMS,
    {},
    {},
    {},
  );
  return `${h}\n${partial('projection_body')}\n`;
}

export function renderAll(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const mode of Object.keys(MODES) as Mode[]) files[MODES[mode].file] = renderMode(mode);
  files['ppr_projection.cypher'] = renderProjection();
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, 'server/retrieval/render.ts')) {
  for (const [name, text] of Object.entries(renderAll())) {
    fs.writeFileSync(path.join(CYPHER_DIR, name), text);
    console.log(`wrote cypher/${name}`);
  }
}
