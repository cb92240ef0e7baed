import { z } from 'zod';
import { DEFAULT_PPR_GRAPH_NAME, DEFAULT_TRAVERSE_TYPES, GRAPH_NAME_PATTERN, IDENTIFIER_PATTERN } from '../graph/facts.js';

/**
 * Every tunable of the retrieval statements, with its default, range and
 * meaning. The cypher/ file headers and their :param blocks are rendered from
 * this table (scripts/render-cypher.ts), and requests are validated by it,
 * so the three can never disagree.
 */
export interface ParamSpec {
  schema: z.ZodTypeAny;
  default: unknown;
  /** The full meaning (OpenAPI, docs/parameters.md). */
  doc: string;
  /** The one-line meaning in a statement file's :param block, where doc is too long for it. */
  brief?: string;
}

/** The push rounds unrolled in retrieve_ppr.cypher (engine push; engine gds is retrieve_ppr_gds.cypher). */
export const MAX_PUSH_ROUNDS = 6;
/** The most gated propagation steps; retrieve_gated_deep.cypher unrolls this many. */
export const MAX_STEPS = 5;
/**
 * The steps retrieve_gated.cypher unrolls (the default and below). A statement plans in proportion to
 * its length, and planning is what a restarted database waits for, so the default file carries no
 * step it does not run; $steps above this runs retrieve_gated_deep.cypher (docs/statements.md).
 */
export const GATED_FILE_STEPS = 3;
export const GATED_DEEP_FILE = 'retrieve_gated_deep.cypher';

const num = (min: number, max: number) => z.number().finite().min(min).max(max);
const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** A document metadata value, as stored (one property per key) and as a filter compares it. */
export const metadataValueSchema = z.union([z.string().max(10_000), z.number().finite(), z.boolean()], {
  errorMap: () => ({ message: 'must be a string, a number or a boolean (metadata is a flat map)' }),
});
/** A metadata key: the Document property is `metadata.<key>`. */
export const metadataKeySchema = z.string().min(1, 'a metadata key must not be empty').max(200);
const nonEmpty = 'must not be empty (leave the field out not to filter by it)';

/**
 * The passage filter. Values inside one field are alternatives, fields combine with AND, an absent
 * field does not restrict; an empty list is refused (almost always a client bug).
 */
export const filterSchema = z
  .object({
    sources: z.array(z.string().min(1).max(1000)).min(1, nonEmpty).max(1000).optional(),
    documentIds: z.array(z.string().min(1).max(1024)).min(1, nonEmpty).max(10_000).optional(),
    metadata: z
      .record(metadataKeySchema, metadataValueSchema)
      .refine((m) => Object.keys(m).length > 0, nonEmpty)
      .optional(),
  })
  .strict()
  .nullable();
export type RetrievalFilter = NonNullable<z.infer<typeof filterSchema>>;

/** How wide the index searches look, and the passage filter: in every mode. */
const SEARCH_PARAMS = {
  filter: {
    schema: filterSchema,
    default: null,
    doc: 'only passages of documents that match are candidates, in the context or read for facts: {sources: [..], documentIds: [..], metadata: {key: value}}, any value of a field, every field given (Document.source, Document.id, Document.`metadata.<key>`); the walk still passes through all entities; null = no filter',
    brief: 'only passages of matching documents: {sources, documentIds, metadata} (null = no filter)',
  },
  searchWidth: {
    schema: int(10, 10000),
    // 100: 50 wide, the vector index's top five differed from the exact top five often enough to cost vector 1.7 points of
    // 2Wiki Recall@5 (bench/reports/devsets/search-width-2026-12-06).
    default: 100,
    doc: 'every vector index search (passages, entities, facts) looks at least this wide, and its hits past the width asked for are cut afterwards: the index is approximate (HNSW), and a search looks as wide as it is asked to, so a narrow search misses some of the nearest',
    brief: 'every vector index search looks at least this wide (the index is approximate)',
  },
  filterSearchK: {
    schema: int(50, 10000),
    // The vector indexes cannot filter in Neo4j 5.26: with a filter they are searched this wide and the hits filtered.
    default: 1000,
    doc: 'with a filter: each vector and full-text index search looks this wide (or its unfiltered width if larger), then drops the passages outside the filter (Neo4j 5.26 vector indexes cannot filter)',
    brief: 'with a filter: how wide each index search looks before the passages outside it are dropped',
  },
} satisfies Record<string, ParamSpec>;

export const COMMON_PARAMS = {
  seedK: { schema: int(1, 100), default: 5, doc: 'entities taken from the entity vector index as seeds' },
  seedMinScore: { schema: num(-1, 1), default: 0.2, doc: 'minimum cosine (on the cosineFloor scale) for a vector seed' },
  cosineFloor: {
    schema: num(-1, 0.99),
    // The server sets it from its embedder (Embedder.cosineFloor: MiniLM 0, e5 E5_COSINE_FLOOR, measured there).
    default: 0,
    doc: "the embedder's cosine between unrelated texts: every cosine to the question (gate, seeds, passages) is used as (cos - cosineFloor) / (1 - cosineFloor), so 0 means unrelated whatever the model; the server sets it from its embedder",
    brief: "the embedder's cosine between unrelated texts: cosines are rescaled so 0 means unrelated",
  },
  useNameSeeds: { schema: z.boolean(), default: true, doc: 'also seed entities whose full name appears in the question (full-text index)' },
  nameSeedK: { schema: int(0, 50), default: 5, doc: 'at most this many exact-name seeds' },
  vectorSeedsWithNames: {
    schema: z.boolean(),
    // false: the vector index's look-alikes stop seeding named questions (bench/reports/code-notes/design-figures-2026-12-01).
    default: false,
    doc: 'keep the vector seeds when the question names entities (name or caller seeds); false = the named entities alone',
    brief: 'keep the vector seeds when the question names entities (false: the named ones alone)',
  },
  seedIds: { schema: z.array(z.string().min(1).max(512)).max(100), default: [], doc: 'extra seed entity ids (Entity.id), activation 1' },
  factSeedK: {
    schema: int(0, 100),
    // 5: a curated graph's answers are its facts; the text sets barely move (bench/reports/code-notes/design-figures-2026-12-01).
    default: 5,
    doc: "facts whose two entities become seeds, activation = the fact's cosine (plus factWordBonus where the question writes its predicate, at most 1): a question that names entities is matched to their own facts, any other to the fact vector indexes (fact_<TYPE> for each type in relTypes but SAME_AS) (0 = off)",
    brief: "facts whose ends seed, at the fact's cosine (+ factWordBonus if its predicate is written) (0 = off)",
  },
  hubFacts: {
    schema: int(0, 1000000000),
    // 1000: one entity of the 2Wiki graph has more (1,665); the 100 k scale graph's named hubs have thousands (bench/reports/scale/hub-passages-2026-12-05).
    default: 1000,
    doc: "an entity with more facts than this over the walked types (a hub; the store's count) is not read whole for its facts (a named entity's, for the fact seeds; in vector and hybrid, a seed's own): they are its facts among the hubFactK nearest to the question in the fact index of each walked type it has (docs/statements.md#hubs; 0 = always read whole)",
    brief: 'an entity with more facts has them found through the fact indexes, not read whole (0 = always read)',
  },
  hubFactK: {
    schema: int(1, 10000),
    // 50: at 100 k, 200 made the questions naming a hub slower than reading it whole (an index search costs with its width).
    default: 50,
    doc: "a hub's facts (hubFacts): how many of each fact index's nearest to the question are searched for the hub's",
    brief: "how wide each fact index is searched for a hub's facts",
  },
  factSeedTurns: {
    schema: int(0, 100),
    // 2: a comparison's second name seeds its bridge too (bench/reports/devsets/fact-seed-turns-2026-12-04).
    default: 2,
    doc: "when the question names several entities, each one's first this many facts (in rank order) are taken in turns among the fact seeds (every name's best, then every name's second...) before the rest by rank, so one name's facts cannot fill all factSeedK places (0 = by rank alone)",
    brief: "each named entity's first this many facts are taken in turns among the fact seeds (0 = by rank alone)",
  },
  relationSeedK: {
    schema: int(0, 100),
    // 10: the two-layer probe and the Hetionet templates gain, 5 and 20 do no better; no effect without a curated graph (bench/reports/twolayer/2026-12-03-relation-seeds).
    default: 10,
    doc: "at each curated entity the question names, its relationship type whose facts rank highest on average (cosine to the question, plus factWordBonus; the question's relation there) seeds the other ends of that type's this many best facts, at their cosines, beside the fact seeds (0 = off)",
    brief: "best facts of the question's relation (best mean rank) at a named curated entity that seed (0 = off)",
  },
  factWordBonus: {
    schema: num(0, 1),
    // 0.1: a question's relation word picks its facts over look-alikes (bench/reports/twolayer/2026-12-01-words).
    default: 0.1,
    doc: "a named entity's fact whose predicate the question writes (a predicate word's first five letters begin a question word other than the answer type, the first of four letters or more after which or what: 'treat' for treats; or a kin word from the other end: 'father' for daughter of, docs/statements.md#fact-seeds) ranks this much higher among the fact seeds; of a curated type, only when its predicate word is the one the question writes nearest the entity's name (docs/statements.md#relation-seeds); its two entities then seed that much higher too, at most 1 (0 = off)",
    brief: 'rank bonus among fact seeds for a fact whose predicate the question writes (0 = off)',
  },
  writtenFirst: {
    schema: z.boolean(),
    default: true,
    doc: "each named entity's facts whose predicate the question writes (as factWordBonus reads it) come before its others in its fact-seed turns, whatever their cosines: a name's facts embed mostly its names, so 'directed by' can score below 'based on the play' for 'the director' (docs/statements.md#fact-seeds); their activation is still the fact's cosine plus factWordBonus; false = turns by that rank alone",
    brief: "a named entity's facts whose predicate the question writes take its fact-seed turns first",
  },
  converseWords: {
    schema: z.boolean(),
    default: true,
    doc: "factWordBonus also counts a predicate the question writes from its other end, kinship only: 'father', 'mother' and 'parent' write son, daughter and child, and back; 'husband', 'wife' and 'spouse' write marry and each other; and kin two hops away writes its first hop: 'grandfather' and 'son-in-law' a parent or a child, 'mother-in-law' a spouse, 'sister-in-law' a spouse or a sibling (CONVERSE_WORDS, docs/statements.md#fact-seeds); false = the shared stem alone",
    brief: "factWordBonus: a kin word writes its converse predicate, 'father' daughter_of (false = stem only)",
  },
  kinDirection: {
    schema: z.boolean(),
    // true: a son's fact no longer competes with the father's for "X's grandmother" (bench/reports/devsets/kin-direction-2026-12-07).
    default: true,
    doc: "factWordBonus reads a parent-child fact's direction: a kin word asking for an ancestor ('father', 'grandmother', 'parents') writes it only where the named entity is the child (X son_of F, F father_of X), one asking for a descendant ('son', 'grandson', 'son-in-law') only where it is the parent (KIN_DIRECTIONS, docs/statements.md#fact-seeds); false = either end",
    brief: "factWordBonus: 'X's father' writes X son_of F, not S son_of X (false = either end)",
  },
  topK: { schema: int(1, 100), default: 10, doc: 'passages returned' },
  entityK: { schema: int(1, 500), default: 60, doc: 'top entities used for passage scoring and returned' },
  vectorK: { schema: int(0, 200), default: 10, doc: 'passages from the passage vector index added as candidates' },
  candidateK: { schema: int(1, 5000), default: 300, doc: 'graph-side candidate passages kept before blending' },
  graphWeight: { schema: num(0, 1), default: 0.4, doc: 'weight of the normalised graph score in the blend' },
  vectorWeight: { schema: num(0, 1), default: 0.6, doc: "weight of the passage's own cosine to the question" },
  namedPassageWeight: {
    schema: num(0, 1),
    // 0: passages that only repeat the question's names stop outranking the walk's (bench/reports/named-passages-2026-12-01.md).
    default: 0,
    doc: 'the entities the question names (name and caller seeds) score the passages that mention them with this share of their activation (gated, ppr), and ppr push pushes into those passages at this share of the link weight',
    brief: "share of a named seed's activation (and push link weight) given to passages naming it",
  },
  aboutWeight: {
    schema: num(0, 10),
    // 2: the passage about a bridge entity (a director's own page) above his other films' (bench/reports/devsets/fact-seed-turns-2026-12-04).
    default: 2,
    doc: "an entity scores a passage titled by its name (a trailing parenthesis aside: 'Jack Arnold (director)') with 1 + aboutWeight times its weight, the passage about it above the passages that only mention it (0 = off)",
    brief: 'an entity scores the passage titled by its name x (1 + this) (0 = off)',
  },
  hubExponent: { schema: num(0, 2), default: 0.5, doc: 'entity weight is divided by (passages mentioning it) ^ hubExponent' },
  hubPassages: {
    schema: int(0, 1000000000),
    // 1000: no entity of the dev corpora but 2Wiki's most mentioned (1,131 passages) is above it (bench/reports/scale/hub-passages-2026-12-05).
    default: 1000,
    doc: "a top entity mentioned by more passages than this (a hub) is not read from its side: it adds its share only to the candidateK best passages of the other top entities, the text's candidates and its own page (titled by its name), each read from the passage's side, so what passage ranking reads stays bounded as hubs grow (docs/statements.md#hubs; 0 = no bound)",
    brief: 'a top entity mentioned by more passages adds only to passages reached otherwise (0 = no bound)',
  },
  answerTypeWeight: {
    schema: num(0, 10),
    // 1: on the two-layer probes the figure barely moves between 0.5 and 3 (bench/reports/twolayer/2026-12-04-answer-type).
    default: 1,
    doc: "a passage linked to a curated entity whose type the question asks for (a word of the type's name among the three words after which or what: 'which side effects', 'what genes') has its graph score multiplied by 1 + answerTypeWeight; no effect without a curated graph (0 = off)",
    brief: 'graph score x (1 + this) for a passage linked to a curated entity of the asked type (0 = off)',
  },
  fusion: {
    schema: z.enum(['blend', 'rrf', 'rrf3']),
    // rrf: graph and text get one vote each, so a bridge passage that does not look like the question
    // still competes (bench/reports/<set>/fusion, bench/reports/code-notes/design-figures-2026-12-01).
    default: 'rrf',
    doc: "passage ranking: blend = graphWeight x graph score + vectorWeight x cosine; rrf = reciprocal rank fusion of two rankings, the graph's and the text's (dense and full-text fused by rank); rrf3 = of three, graph, dense and full-text",
    brief: 'passage ranking: blend (weighted sum), rrf (graph vs text ranks) or rrf3 (graph, dense, full-text)',
  },
  lexicalK: {
    schema: int(0, 200),
    default: 20,
    doc: 'rrf and rrf3 only: passages from the full-text index (BM25 over title and text) added as candidates and ranked',
    brief: 'rrf, rrf3: passages from the full-text index (BM25) added as candidates',
  },
  rrfK: {
    schema: num(0, 1000),
    // 20, not the customary 60: at 60 ranks 1 and 30 weigh nearly alike, so a passage low in both rankings outvotes the
    // graph's first, a bridge the text does not find (bench/reports/devsets/rrf-k-2026-12-03).
    default: 20,
    doc: 'rrf and rrf3 only: a passage scores sum(1 / (rrfK + rank)) over the rankings it is in',
  },
  graphKeep: {
    schema: int(0, 100),
    // 3: the passage only the graph puts first (the walk's bridge, unlike the question) was outvoted by look-alikes both
    // rankings put in the middle; 2Wiki and MuSiQue dev Recall@5 rose in both graph modes, the two-layer probes held
    // within a point (bench/reports/devsets/keep-2026-12-05).
    default: 3,
    doc: "rrf only: the graph ranking's first graphKeep passages are kept ahead of every other passage (their score is 1 + their rrf score): consensus lower down does not outvote the walk's first passages, its hops (docs/statements.md#fusion; 0 = plain rrf)",
    brief: "rrf: the graph ranking's first this many passages go ahead of the rest (0 = off)",
  },
  hopPageKeep: {
    schema: z.boolean(),
    // true: a comparison's second director's page, a hop the question writes, was outvoted by look-alike film pages both
    // text rankings put in the middle (bench/reports/devsets/hop-pages-2026-12-06).
    default: true,
    doc: 'rrf only: at each entity the question names, its first fact whose predicate the question writes ("the director of X") leads to a hop, whose own page (titled by its name) is kept ahead as graphKeep keeps the graph ranking\'s first passages, unless several pages carry that title (docs/statements.md#fusion)',
    brief: 'rrf: the pages of the hops the question writes go ahead of the rest',
  },
  namePageKeep: {
    schema: z.boolean(),
    // true: a comparison's film page, named by the question, was outvoted as its director's was (hopPageKeep); with
    // namesakes (several pages titled by the name) none is kept (bench/reports/devsets/name-pages-2026-12-06).
    default: true,
    doc: "rrf only: the own page (titled by its name) of each entity the question names is kept ahead as graphKeep keeps the graph ranking's first passages, unless several pages carry that title (docs/statements.md#fusion)",
    brief: 'rrf: the pages of the entities the question names go ahead of the rest',
  },
  textKeep: {
    schema: int(0, 100),
    // 1, with textKeepAgreed: the passage first by both text voices lifts HotpotQA dev and changes nothing on the other
    // sets or the two-layer probes; kept whatever the voices say, it cost those probes 6 points
    // (bench/reports/devsets/text-keep-agreed-2026-12-05, bench/reports/devsets/keep-2026-12-05).
    default: 1,
    doc: "rrf only: the text ranking's (dense and full-text fused by rank) first textKeep passages are kept ahead of every other passage, as graphKeep keeps the graph's, with textKeepAgreed only a passage both text rankings put first (0 = off)",
    brief: "rrf: the text ranking's first this many passages go ahead of the rest (0 = off)",
  },
  textKeepAgreed: {
    schema: z.boolean(),
    default: true,
    doc: "rrf only: textKeep keeps a passage ahead only if it is first in both the dense and the full-text ranking (the two text voices agree; false: the text ranking's first whatever they say)",
    brief: 'rrf: textKeep keeps only a passage first in both dense and full-text',
  },
  graphFloor: {
    schema: num(0, 1),
    // 0.05, not higher: the QA sets' bridge passages are reached at the walk's last step, with small graph scores, and a
    // higher floor took their vote (bench/reports/twolayer/2026-12-04-graph-floor).
    default: 0.05,
    doc: "rrf and rrf3 only: a passage is in the graph's ranking only if its graph score (normalised by the best candidate's) is at least graphFloor; a rank drops the score's size, so a passage the walk barely reached would otherwise vote like one it reached (docs/statements.md#fusion; 0 = every passage with a graph score)",
    brief: "rrf, rrf3: the least graph score (of the best's) that ranks on the graph's side",
  },
  relTypes: {
    schema: z.array(z.string().regex(IDENTIFIER_PATTERN)).min(1).max(50),
    default: [...DEFAULT_TRAVERSE_TYPES],
    doc: 'relationship types walked between entities (server allow-list)',
  },
  pathK: { schema: int(0, 100), default: 10, doc: 'evidence paths from a seed are found for this many of the most activated non-seed entities' },
  factK: {
    schema: int(0, 200),
    default: 20,
    doc: "facts returned and added to the context: relationships on the evidence paths (vector, hybrid: the RELATED facts read in their passages, in the passages' order, after the seeds' own relationships where seeds are mapped)",
    brief: 'facts returned and added to the context',
  },
  ...SEARCH_PARAMS,
} satisfies Record<string, ParamSpec>;

export const GATED_PARAMS = {
  ...COMMON_PARAMS,
  steps: { schema: int(1, MAX_STEPS), default: GATED_FILE_STEPS, doc: `propagation steps T (1-${MAX_STEPS})` },
  decay: { schema: num(0, 1), default: 0.7, doc: 'activation multiplier per hop' },
  threshold: {
    schema: num(0, 1),
    default: 0.01,
    doc: 'a node spreads only when its activation exceeds this; smaller inflows are dropped',
    brief: 'a node spreads only when its activation exceeds this',
  },
  gate: {
    schema: z.boolean(),
    default: true,
    doc: "multiply each hop by max(0, cos(neighbour's description embedding, question)); false is the ungated ablation",
    brief: "multiply each hop by max(0, cos(neighbour's description, question)), false = ungated",
  },
  frontier: { schema: int(1, 10000), default: 100, doc: 'per step, at most this many sources spread and this many nodes receive' },
  degreeDiscount: {
    schema: num(0, 2),
    // 1: without it many seeds flood the 2-hop hubs, as every source hands each neighbour its whole
    // activation (bench/reports/code-notes/design-figures-2026-12-01).
    default: 1,
    doc: "a source's outflow is divided by its degree ^ degreeDiscount (hub damping, as a random walk divides by the out-degree; 0 = off)",
    brief: "a source's outflow is divided by its degree ^ this (hub damping, 0 = off)",
  },
  spreadEpsilon: {
    schema: num(0, 1),
    // 1e-3, as push's pushEpsilon: the same results as 1e-4 on the three dev sets, Hetionet and the two-layer benchmark, and
    // gated cheaper on the 100 k scale graph (bench/reports/scale/gds-phase-2026-12-04).
    default: 1e-3,
    doc: "a source spreads only when its share per neighbour (activation / degree ^ degreeDiscount) exceeds this, as push's pushEpsilon: a hub's cost is then bounded however large it grows (0 = every source above threshold spreads)",
    brief: 'a source spreads only when its share per neighbour exceeds this (0 = off)',
  },
  trace: {
    schema: z.boolean(),
    default: false,
    doc: 'also return the trace: per step, each node that received activation, its sources, gate value and inflow (explain: true sets it)',
    brief: 'also return the trace of each step (explain: true sets it)',
  },
} satisfies Record<string, ParamSpec>;

export const PPR_PARAMS = {
  ...COMMON_PARAMS,
  // 0.5/0.5: better than 0.7/0.3 on the three dev sets (bench/reports/code-notes/design-figures-2026-12-01).
  graphWeight: { ...COMMON_PARAMS.graphWeight, default: 0.5 },
  vectorWeight: { ...COMMON_PARAMS.vectorWeight, default: 0.5 },
  graphName: {
    schema: z.string().regex(GRAPH_NAME_PATTERN).max(100),
    default: DEFAULT_PPR_GRAPH_NAME,
    doc: 'GDS projection name (see cypher/ppr_projection.cypher)',
  },
  engine: {
    schema: z.enum(['gds', 'push']),
    // push: the same ranking as gds at a fraction of the time, and no projection to keep fresh
    // (bench/reports/devsets/ppr-engines-2026-12-01, bench/reports/code-notes/design-figures-2026-12-01).
    default: 'push',
    doc: 'how PageRank is computed: gds = GDS runs over the projection $graphName; push = a local push in Cypher over the stored graph (no projection, no GDS; pushRounds, pushEpsilon, pushFrontier)',
    brief: 'how PageRank is computed: gds (retrieve_ppr_gds.cypher) or push (retrieve_ppr.cypher)',
  },
  pushRounds: {
    schema: int(1, MAX_PUSH_ROUNDS),
    default: 5,
    doc: `engine push: rounds (1-${MAX_PUSH_ROUNDS}); what is left after them is (damping ^ rounds) of the teleport weight`,
    brief: 'push rounds (1-6)',
  },
  pushEpsilon: {
    schema: num(0, 1),
    // 1e-3: the same recall as 1e-4 in less time, most on a curated graph's hubs (bench/reports/code-notes/design-figures-2026-12-01).
    default: 1e-3,
    doc: 'engine push: a node pushes only when its residual exceeds this x the total teleport weight x its degree (smaller residuals wait; 0 = every node pushes)',
    brief: 'a node pushes only when its residual exceeds this x total teleport weight x its degree',
  },
  pushFrontier: { schema: int(1, 10000), default: 1000, doc: 'engine push: at most this many nodes push per round, the largest residuals first' },
  dampingFactor: {
    schema: num(0, 0.99),
    // 0.65, not HippoRAG's 0.5: at 0.5 the seeds kept half the mass and the bridge's page ranked below the seeds' look-alikes;
    // above 0.65 the two-layer probes lose more (bench/reports/devsets/ppr-damping-2026-12-07).
    default: 0.65,
    doc: 'PageRank damping: the share of the score that follows an edge at each step, the rest returns to the seeds (HippoRAG 0.5; GDS default 0.85)',
    brief: 'PageRank damping: the share that follows an edge per step (HippoRAG 0.5, GDS default 0.85)',
  },
  maxIterations: { schema: int(1, 200), default: 30, doc: 'PageRank iterations at most' },
  tolerance: { schema: num(0, 1), default: 1e-7, doc: 'PageRank convergence tolerance' },
  exactWeights: {
    schema: z.boolean(),
    default: true,
    doc: 'exact weighted PPR as sum of w_i * PPR(seed_i), one GDS run per distinct seed weight; false = one run with unweighted seeds',
    brief: 'exact weighted PPR (one GDS run per seed weight), false = one run with unweighted seeds',
  },
  concurrency: {
    // At most 4: GDS Community refuses more ("Community users cannot exceed concurrency=4").
    schema: int(1, 4),
    // 2: more threads than cores only contend; GDS's own default is 4 (bench/reports/code-notes/design-figures-2026-12-01).
    default: 2,
    doc: "threads per GDS PageRank run, at most 4 (GDS Community's limit; a question runs several, and concurrent questions share the cores)",
    brief: 'threads per GDS PageRank run (at most 4, GDS Community)',
  },
  passageSeedWeight: {
    schema: num(0, 1),
    default: 0,
    doc: 'also teleport to the passageSeedK densest passages, each at this times its cosine over the best one (HippoRAG 2 uses 0.05)',
    brief: 'also teleport to the passageSeedK densest passages at this x their relative cosine',
  },
  passageSeedK: { schema: int(0, 500), default: 10, doc: 'dense passages seeded when passageSeedWeight > 0' },
  teleportBuckets: { schema: int(1, 20), default: 4, doc: 'exact weights: the passage seeds are grouped by rank into this many GDS runs' },
  trace: {
    schema: z.boolean(),
    default: false,
    doc: 'also return the trace: the teleport weights and the top PageRank scores (explain: true sets it)',
    brief: 'also return the teleport weights and top PageRank scores (explain: true sets it)',
  },
  gateScores: {
    schema: z.boolean(),
    // true: PageRank alone ranks the seeds' hub neighbours, not what the question asks for (bench/reports/code-notes/design-figures-2026-12-01).
    default: true,
    doc: "multiply each entity's PageRank score by max(0, cos(its description embedding, question)), gated mode's gate, before ranking",
    brief: "multiply each entity's PageRank score by gated mode's gate before ranking",
  },
  seedSpecificity: {
    schema: z.boolean(),
    default: false,
    doc: "divide each entity seed's weight by the number of passages that mention it (HippoRAG 2's node specificity)",
  },
} satisfies Record<string, ParamSpec>;

const { cosineFloor, topK, relTypes, factK } = COMMON_PARAMS;
/** vector and hybrid map seeds (and return their facts) only where facts lie outside the passages. */
const withoutPassages = <T extends ParamSpec>(spec: T): T => ({
  ...spec,
  brief: spec.brief ?? spec.doc,
  doc: `${spec.doc}; vector and hybrid: only on a graph without passages or when relTypes holds a curated type (one not read from text)`,
});
export const VECTOR_PARAMS = {
  seedK: withoutPassages(COMMON_PARAMS.seedK),
  seedMinScore: withoutPassages(COMMON_PARAMS.seedMinScore),
  cosineFloor,
  useNameSeeds: withoutPassages(COMMON_PARAMS.useNameSeeds),
  nameSeedK: withoutPassages(COMMON_PARAMS.nameSeedK),
  vectorSeedsWithNames: withoutPassages(COMMON_PARAMS.vectorSeedsWithNames),
  seedIds: withoutPassages(COMMON_PARAMS.seedIds),
  factSeedK: withoutPassages(COMMON_PARAMS.factSeedK),
  factSeedTurns: withoutPassages(COMMON_PARAMS.factSeedTurns),
  hubFacts: withoutPassages(COMMON_PARAMS.hubFacts),
  hubFactK: withoutPassages(COMMON_PARAMS.hubFactK),
  factWordBonus: withoutPassages(COMMON_PARAMS.factWordBonus),
  writtenFirst: withoutPassages(COMMON_PARAMS.writtenFirst),
  converseWords: withoutPassages(COMMON_PARAMS.converseWords),
  kinDirection: withoutPassages(COMMON_PARAMS.kinDirection),
  relationSeedK: withoutPassages(COMMON_PARAMS.relationSeedK),
  topK,
  entityK: {
    ...COMMON_PARAMS.entityK,
    doc: "entities returned: those the top passages mention, each at its best passage's score, best first (the seeds instead, where seeds are mapped)",
    brief: 'entities returned (those the top passages mention, best first)',
  },
  relTypes,
  factK,
  ...SEARCH_PARAMS,
} satisfies Record<string, ParamSpec>;

export const HYBRID_PARAMS = {
  ...VECTOR_PARAMS,
  hybridK: { schema: int(1, 500), default: 50, doc: 'passages taken from each list (dense and full-text) before fusion' },
  rrfK: { schema: num(0, 1000), default: 60, doc: 'reciprocal rank fusion constant: a passage scores sum(1 / (rrfK + rank)) over both lists' },
} satisfies Record<string, ParamSpec>;

export const MODES = {
  gated: { file: 'retrieve_gated.cypher', params: GATED_PARAMS },
  ppr: { file: 'retrieve_ppr.cypher', params: PPR_PARAMS },
  vector: { file: 'retrieve_vector.cypher', params: VECTOR_PARAMS },
  hybrid: { file: 'retrieve_hybrid.cypher', params: HYBRID_PARAMS },
} as const;

export type Mode = keyof typeof MODES;
export const MODE_NAMES = Object.keys(MODES) as Mode[];

/**
 * ppr's GDS engine has a statement of its own, and so has gated with more than GATED_FILE_STEPS
 * steps; MODES[mode].file is each mode's default (ppr: push; gated: up to GATED_FILE_STEPS steps).
 */
export const PPR_GDS_FILE = 'retrieve_ppr_gds.cypher';

/** The statement a request runs: one file per mode, and for ppr one per engine (params: the effective ones). */
export function statementFile(mode: Mode, params: Record<string, unknown> = {}): string {
  if (mode === 'ppr' && params.engine === 'gds') return PPR_GDS_FILE;
  if (mode === 'gated' && Number(params.steps ?? GATED_FILE_STEPS) > GATED_FILE_STEPS) return GATED_DEEP_FILE;
  return MODES[mode].file;
}

/** Every statement file, with its mode and the params that pick it. */
export const STATEMENTS: { file: string; mode: Mode; params: Record<string, unknown> }[] = [
  ...MODE_NAMES.map((mode) => ({ file: MODES[mode].file as string, mode, params: {} })),
  { file: PPR_GDS_FILE, mode: 'ppr', params: { engine: 'gds' } },
  { file: GATED_DEEP_FILE, mode: 'gated', params: { steps: MAX_STEPS } },
];

const schemas = new Map<Mode, z.ZodTypeAny>();

/**
 * A strict schema for a mode's params: unknown keys and out-of-range values are rejected. Built
 * once per mode: every request parses with it.
 */
export function paramsSchema(mode: Mode) {
  let schema = schemas.get(mode);
  if (!schema) {
    const specs = MODES[mode].params as Record<string, ParamSpec>;
    schema = z.object(Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, s.schema.optional()]))).strict();
    schemas.set(mode, schema);
  }
  return schema;
}

/** Names of integer parameters: the driver must send them as Cypher integers, not floats. */
export const INTEGER_PARAMS: ReadonlySet<string> = new Set(
  Object.values(MODES).flatMap((m) =>
    Object.entries(m.params as Record<string, ParamSpec>)
      .filter(([, s]) => s.schema instanceof z.ZodNumber && s.schema.isInt)
      .map(([k]) => k),
  ),
);

export function defaultParams(mode: Mode): Record<string, unknown> {
  const specs = MODES[mode].params as Record<string, ParamSpec>;
  return Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, structuredClone(s.default)]));
}
