/**
 * Reference implementations of the retrieval statements as pure functions,
 * with no database: the executable specification the Cypher files are tested
 * against (same top-K, same scores within 1e-6). Readable first; fast enough
 * for the small random graphs of the property tests.
 */
import { CONVERSE_WORDS, IN_LAW_KIN, KIN_CHILD_WORDS, KIN_DIRECTIONS, KIN_GENDERS, KIN_PARENT_WORDS, KIN_SIDES } from '../../server/graph/facts.js';

export interface RefEntity {
  id: string;
  /** Where the question writes it, the nearest predicate word states its relation (defaultSeeds). */
  name?: string;
  type?: string;
  /** Of the curated layer: its name counts as written as a name (nameSeeds, factSeedTurns). */
  curated?: boolean;
  embedding: number[];
  descriptionEmbedding: number[] | null;
}
export interface RefPassage {
  id: string;
  /** An entity scores the passage titled by its name (a trailing parenthesis aside) 1 + aboutWeight times (selectPassages). */
  title?: string;
  embedding: number[];
  mentions: string[];
}
export interface RefRelation {
  from: string;
  to: string;
  type: string;
  weight?: number;
  predicate?: string;
  /** The fact sentence's embedding (fact seeds); none = not embedded. */
  embedding?: number[];
}
export interface RefGraph {
  entities: RefEntity[];
  passages: RefPassage[];
  relations: RefRelation[];
}

export interface RefSeed {
  id: string;
  activation: number;
}
export interface RefRanked {
  id: string;
  score: number;
  graphScore: number;
  vectorScore: number;
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** A cosine on the scale the statements use: unrelated texts (cosineFloor) score 0. */
export function calibrated(c: number, cosineFloor = 0): number {
  return (c - cosineFloor) / (1 - cosineFloor);
}

const byScoreThenId =
  <T extends { id: string }>(score: (x: T) => number) =>
  (a: T, b: T) =>
    score(b) - score(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Vector seeds: the seedK entities nearest the question with cosine >= seedMinScore, activation cos / best. */
export function vectorSeeds(g: RefGraph, q: number[], seedK: number, seedMinScore: number, cosineFloor = 0): RefSeed[] {
  const scored = g.entities
    .map((e) => ({ id: e.id, cos: calibrated(cosine(e.embedding, q), cosineFloor) }))
    .sort(byScoreThenId((x) => x.cos))
    .slice(0, seedK)
    .filter((x) => x.cos >= seedMinScore);
  const best = scored.length ? scored[0].cos : 0;
  return scored.map((x) => ({ id: x.id, activation: best > 0 ? x.cos / best : 0 }));
}

/** The text normalisation of the name rules: lower case, every run of non-letters and non-digits one space. */
const words = (s: string) =>
  s
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
const padded = (s: string) => ` ${words(s.toLowerCase()).join(' ')} `;
const capitalised = (ws: string[]) => ws.filter((w) => /^\p{Lu}/u.test(w)).map((w) => w.toLowerCase());

/**
 * Name seeds (docs/statements.md#name-seeds): of the full-text index's hits for the question (in
 * its order; the index is the input, as it is the statement's), those of 3 characters or more whose
 * whole name the question writes. An extracted name must be written as a name: the question's
 * capitalised words hold all of the name's capitalised words (articles aside), one of them past the
 * question's first word (a question with no capital past its first word is not read for case). A
 * curated name counts as written. A name inside another matched name is no second name. At most nameSeedK.
 */
export function nameSeeds(question: string, hits: { id: string; name: string; curated?: boolean }[], nameSeedK: number): string[] {
  const q = padded(question);
  const qWords = words(question);
  const caps = capitalised(qWords);
  const innerCaps = capitalised(qWords.slice(1));
  const matched = hits
    .filter((n) => n.name.length >= 3 && q.includes(padded(n.name)))
    .filter((n) => {
      if (n.curated) return true;
      const nameCaps = capitalised(words(n.name)).filter((w) => !['the', 'a', 'an'].includes(w));
      return (
        n.name !== n.name.toLowerCase() && (innerCaps.length === 0 || (nameCaps.every((w) => caps.includes(w)) && nameCaps.some((w) => innerCaps.includes(w))))
      );
    })
    .map((n) => ({ id: n.id, words: padded(n.name) }));
  return matched
    .filter((m) => !matched.some((o) => o.words.length > m.words.length && o.words.includes(m.words)))
    .slice(0, nameSeedK)
    .map((m) => m.id);
}

export interface DefaultSeedParams {
  seedK: number;
  seedMinScore: number;
  cosineFloor?: number;
  vectorSeedsWithNames: boolean;
  factSeedK: number;
  /** Each named entity's first this many facts take turns before the rest by rank (0 or absent: by rank alone). */
  factSeedTurns?: number;
  factWordBonus: number;
  /** A kin word also writes its converse predicates, and a kin word two hops away its first hop's (CONVERSE_WORDS); absent: true, the default. */
  converseWords?: boolean;
  /** A kin word writes a parent-child fact only where the named entity is the end it asks from (KIN_DIRECTIONS); absent: true, the default. */
  kinDirection?: boolean;
  /** A named entity's facts whose predicate the question writes take its turns first, whatever their rank; absent: true, the default. */
  writtenFirst?: boolean;
  /** At each named entity, its curated type with the best mean fact cosine seeds this many of its best facts (0 or absent: off). */
  relationSeedK?: number;
  relTypes: string[];
}

/** The relationship types ingestion reads from text: they hold every relation, so no relation seeds come from them. */
const TEXT_TYPES = ['RELATED', 'SAME_AS'];

/** Entity types that are values, not entities to walk from: a fact seeds neither of its ends of these types. */
const LITERAL_TYPES = ['Date', 'Number', 'Money', 'Percent', 'Nationality'];

/**
 * The seeds as the statements map them by default: the named entities (activation 1); the vector
 * seeds (vectorSeeds) unless the question names one and vectorSeedsWithNames is off; then fact
 * seeds. A question that names entities is matched to the named entities' own embedded facts of the
 * walked types (SAME_AS aside), any other to the fact index hits (factHits: each walked type's index
 * searched for the question, calibrated scores, given as input). A fact ranks by its cosine, plus
 * factWordBonus when a predicate word (4 letters or more, a final s aside, its first five letters)
 * begins a question word other than the answer type (the first word of 4 letters or more among the three after which or
 * what; of a curated type, only the type whose predicate word is nearest the named
 * entity's name in the question, when the question writes the name: the hop at that entity); the
 * factSeedK best (a fact between two named entities at its better rank) with score (its rank, at most 1) >= seedMinScore seed
 * both ends (literals aside) at the best such score. Relation seeds (relationSeedK): at each named entity, its curated
 * type (not read from text) whose embedded facts there have the highest mean cosine is the question's
 * relation (each fact ranked as a fact seed is, by cosine plus factWordBonus; the ranks averaged); that type's
 * relationSeedK best facts by cosine seed as fact seeds do, beside them. A seed's
 * activation: the largest of 1 if named, its vector cosine over the best vector seed's, its fact score.
 */
export function defaultSeeds(
  g: RefGraph,
  q: number[],
  question: string,
  named: string[],
  factHits: { relation: RefRelation; score: number }[],
  p: DefaultSeedParams,
): (RefSeed & { sources: string[]; fact?: number; ownPage?: boolean })[] {
  const floor = p.cosineFloor ?? 0;
  const vector = p.vectorSeedsWithNames || named.length === 0 ? vectorSeeds(g, q, p.seedK, p.seedMinScore, floor) : [];
  // "mother in law" is one word, "mother-in-law" (IN_LAW_KIN).
  const qWords = IN_LAW_KIN.reduce((q_, k) => q_.split(` ${k} in law `).join(` ${k}-in-law `), ` ${words(question.toLowerCase()).join(' ')} `)
    .trim()
    .split(' ');
  const predicateWords = (r: RefRelation) => words((r.predicate ?? r.type.replace(/_/g, ' ')).toLowerCase());
  const stems = (r: RefRelation) =>
    predicateWords(r)
      .filter((w) => w.length >= 4)
      .map((w) => (w.endsWith('s') ? w.slice(0, -1) : w).slice(0, 5));
  const walked = (r: RefRelation) => p.relTypes.includes(r.type) && r.type !== 'SAME_AS';
  // The answer type (the first word of four letters or more among the three after which or what) is not a hop.
  const answerType = new Set(
    qWords.flatMap((w, i) =>
      w === 'which' || w === 'what' ? [qWords.slice(i + 1, i + 4).findIndex((x) => x.length >= 4)].filter((k) => k >= 0).map((k) => i + 1 + k) : [],
    ),
  );
  // A question word writes a predicate that shares its stem, or that it names from the other end (CONVERSE_WORDS); a
  // gendered kin word none whose far end (from named entity n) holds, in its name and its synonyms', titles of the other
  // gender only (KIN_GENDERS).
  const letterWords = (id: string) =>
    (g.entities.find((e) => e.id === id)?.name ?? '')
      .replace(/[^\p{L}]+/gu, ' ')
      .toLowerCase()
      .split(' ');
  const farWords = (r: RefRelation, n: string) => {
    const far = r.from === n ? r.to : r.from;
    const synonyms = g.relations.filter((s) => s.type === 'SAME_AS' && (s.from === far || s.to === far)).map((s) => (s.from === far ? s.to : s.from));
    return [far, ...synonyms].flatMap(letterWords);
  };
  const otherGender = (w: string, names: string[]) =>
    KIN_GENDERS.some(([kin, titles]) => kin.includes(w) && !titles.some((t) => names.includes(t))) &&
    KIN_GENDERS.some(([kin, titles]) => !kin.includes(w) && titles.some((t) => names.includes(t)));
  // The kin word whose gender word j asks for: its own, or a side's ("paternal grandmother": a father's; KIN_SIDES).
  const kinWords = qWords.map((w, j) => KIN_SIDES.find(([side]) => j > 0 && qWords[j - 1] === side)?.[1] ?? w);
  // A parent-child fact's parent end (a parent word's subject, a child word's object): an ancestor's kin word is not
  // written by a fact whose parent is n, a descendant's only by one (KIN_DIRECTIONS); after n's name and a form of "be"
  // ("X was the father of"), the other way.
  const parentEnd = (r: RefRelation) =>
    predicateWords(r).some((w) => KIN_PARENT_WORDS.includes(w)) ? r.from : predicateWords(r).some((w) => KIN_CHILD_WORDS.includes(w)) ? r.to : null;
  const asks = (j: number, n: string) => {
    const nameWords = words((g.entities.find((e) => e.id === n)?.name ?? '').toLowerCase());
    const at = qWords.findIndex((_, i) => nameWords.length > 0 && nameWords.every((w, k) => qWords[i + k] === w));
    const be = at >= 0 && ['is', 'was', 'are', 'were'].includes(qWords[at + nameWords.length]) ? at + nameWords.length : -1;
    const reversed = be >= 0 && j > be && qWords.slice(be + 1, j).every((w) => ['the', 'a', 'an'].includes(w));
    const way = KIN_DIRECTIONS[0].includes(qWords[j]) ? 1 : KIN_DIRECTIONS[1].includes(qWords[j]) ? -1 : 0;
    return reversed ? -way : way;
  };
  const wrongWay = (r: RefRelation, j: number, n: string) => {
    const parent = p.kinDirection === false ? null : parentEnd(r);
    return parent !== null && ((asks(j, n) === 1 && parent === n) || (asks(j, n) === -1 && parent !== n));
  };
  const writesWord = (r: RefRelation, j: number, n: string) =>
    (stems(r).some((st) => qWords[j].startsWith(st)) ||
      (p.converseWords !== false && CONVERSE_WORDS.some(([asked, said]) => asked.includes(qWords[j]) && predicateWords(r).some((x) => said.includes(x))))) &&
    !wrongWay(r, j, n) &&
    !otherGender(kinWords[j], farWords(r, n));
  const writes = (r: RefRelation, n: string) => qWords.some((_, j) => !answerType.has(j) && writesWord(r, j, n));
  // Per named entity, the bonus of each of its facts: of a curated type, only for the types whose predicate word the
  // question writes nearest the entity's name (distance 0: not measured, a text-read type or a name the question lacks).
  const bonusAt = new Map(
    named.map((n) => {
      const nameWords = words((g.entities.find((e) => e.id === n)?.name ?? '').toLowerCase());
      const at = qWords.findIndex((_, i) => nameWords.length > 0 && nameWords.every((w, k) => qWords[i + k] === w));
      const distance = (r: RefRelation): number | null => {
        if (!writes(r, n)) return null;
        if (at < 0 || TEXT_TYPES.includes(r.type)) return 0;
        const ds = qWords
          .map((_, j) => (!answerType.has(j) && writesWord(r, j, n) ? j : -1))
          .filter((j) => j >= 0 && (j < at || j >= at + nameWords.length))
          .map((j) => (j < at ? at - j : j - at - nameWords.length + 1));
        return ds.length ? Math.min(...ds) : null;
      };
      const own = g.relations.filter((r) => walked(r) && r.embedding && (r.from === n || r.to === n));
      const distances = new Map(own.map((r) => [r, distance(r)]));
      const nearest = Math.min(...[...distances.values()].filter((d): d is number => d !== null && d > 0));
      const bonus = (r: RefRelation) => {
        const d = distances.get(r) ?? null;
        return p.factWordBonus > 0 && d !== null && (d === 0 || d === nearest) ? p.factWordBonus : 0;
      };
      return [n, bonus] as const;
    }),
  );
  const typeOf = new Map(g.entities.map((e) => [e.id, e.type ?? '']));
  const turns = p.factSeedTurns ?? 0;
  // A named entity's facts in rank order (writtenFirst: those whose predicate the question writes first); its first `turns`
  // take turns with the other names'. A value takes none, nor
  // does a name the question does not write as one (a question with no capital past its first word writes only curated names).
  const readForCase = capitalised(words(question).slice(1)).length > 0;
  const written = (n: string) => readForCase || g.entities.some((e) => e.id === n && e.curated);
  // Entities of one name are one name: their facts are ranked together.
  const nameOf = (n: string) => padded(g.entities.find((e) => e.id === n)?.name ?? n);
  const turnAt = new Map<RefRelation, number>();
  const hopFacts = new Set<RefRelation>();
  for (const name of new Set(named.map(nameOf))) {
    const own = named
      .filter((n) => nameOf(n) === name)
      .flatMap((n) =>
        g.relations
          .filter((r) => walked(r) && r.embedding && (r.from === n || r.to === n))
          .map((r) => {
            const bonus = bonusAt.get(n)?.(r) ?? 0;
            return {
              r,
              rank: calibrated(cosine(r.embedding!, q), floor) + bonus,
              first: p.writtenFirst !== false && bonus > 0 ? 1 : 0,
              written: bonus > 0,
              turns: LITERAL_TYPES.includes(typeOf.get(n) ?? '') || !written(n) ? 0 : turns,
            };
          }),
      )
      .sort((a, b) => b.first - a.first || b.rank - a.rank);
    own.forEach((f, i) => {
      turnAt.set(f.r, Math.min(turnAt.get(f.r) ?? turns, i < f.turns ? i : turns));
    });
    // The name's first fact, if the question writes its predicate: the hop the question asks for there.
    if (own[0]?.written) hopFacts.add(own[0].r);
  }
  const facts =
    p.factSeedK === 0
      ? []
      : named.length > 0
        ? g.relations
            .filter((r) => walked(r) && r.embedding && (named.includes(r.from) || named.includes(r.to)))
            .map((r) => {
              const fact = calibrated(cosine(r.embedding!, q), floor);
              const bonus = Math.max(...[r.from, r.to].flatMap((n) => bonusAt.get(n)?.(r) ?? []));
              return { r, fact, rank: fact + bonus, turn: turnAt.get(r) ?? 0 };
            })
        : factHits.filter((h) => walked(h.relation)).map((h) => ({ r: h.relation, fact: h.score, rank: h.score, turn: 0 }));
  const relationFacts: { r: RefRelation; fact: number; rank: number }[] = [];
  if ((p.relationSeedK ?? 0) > 0)
    for (const n of named) {
      const byType = new Map<string, { r: RefRelation; fact: number; rank: number }[]>();
      const bonusOf = bonusAt.get(n)!;
      for (const r of g.relations)
        if (walked(r) && r.embedding && !TEXT_TYPES.includes(r.type) && (r.from === n || r.to === n)) {
          if (!byType.has(r.type)) byType.set(r.type, []);
          const fact = calibrated(cosine(r.embedding, q), floor);
          byType.get(r.type)!.push({ r, fact, rank: fact + bonusOf(r) });
        }
      const mean = (fs: { rank: number }[]) => fs.reduce((t, f) => t + f.rank, 0) / fs.length;
      const best = [...byType.entries()].sort((a, b) => mean(b[1]) - mean(a[1]) || (a[0] < b[0] ? -1 : 1))[0];
      if (best)
        relationFacts.push(
          ...best[1]
            .sort((a, b) => b.fact - a.fact)
            .slice(0, p.relationSeedK)
            .map((f) => ({ ...f, rank: f.fact })),
        );
    }
  const top = facts.sort((a, b) => a.turn - b.turn || b.rank - a.rank).slice(0, p.factSeedK);
  // A fact seed's score is the rank that chose it, at most 1 (a relation seed's rank is its cosine).
  const kept = [
    ...top.map((f) => ({ ...f, hop: hopFacts.has(f.r) })),
    ...relationFacts.filter((x) => !top.some((t) => t.r === x.r)).map((f) => ({ ...f, hop: false })),
  ]
    .map((f) => ({ ...f, score: Math.min(1, f.rank) }))
    .filter((f) => f.score >= p.seedMinScore);
  const factOf = new Map<string, number>();
  const hops = new Set<string>();
  for (const f of kept)
    for (const id of [f.r.from, f.r.to])
      if (!LITERAL_TYPES.includes(typeOf.get(id) ?? '')) {
        factOf.set(id, Math.max(factOf.get(id) ?? Number.NEGATIVE_INFINITY, f.score));
        if (f.hop && !named.includes(id)) hops.add(id);
      }
  const ids = [...new Set([...vector.map((s) => s.id), ...named, ...factOf.keys()])];
  return ids.map((id) => {
    const v = vector.find((s) => s.id === id);
    const sources = [...(v ? ['vector'] : []), ...(named.includes(id) ? ['name'] : []), ...(factOf.has(id) ? ['fact'] : [])];
    // Its own page is kept ahead in rrf (ownPages): a name the question writes as one, or a hop it writes.
    const ownPage = (named.includes(id) && written(id)) || hops.has(id);
    return { id, activation: Math.max(named.includes(id) ? 1 : 0, v?.activation ?? 0, factOf.get(id) ?? 0), sources, fact: factOf.get(id), ownPage };
  });
}

/** A title that is the name as written, a trailing "(...)" allowed: an entity's own page (a hub's, a kept one's). */
function titledBy(title: string | undefined, name: string): boolean {
  return title === name || (title?.startsWith(`${name} (`) ?? false);
}

/**
 * The pages kept ahead in rrf by hopPageKeep and namePageKeep: the own page of each seed marked ownPage (defaultSeeds), the
 * one passage that mentions it and is titled by its name (a trailing "(...)" allowed); a name that titles several, the one
 * of them without a disambiguator (the primary topic), else none.
 */
export function ownPages(g: RefGraph, seeds: { id: string; ownPage?: boolean }[]): string[] {
  const pages = new Set<string>();
  for (const s of seeds.filter((x) => x.ownPage)) {
    const name = g.entities.find((e) => e.id === s.id)?.name ?? '';
    const own = g.passages.filter((x) => titledBy(x.title, name) && x.mentions.includes(s.id));
    const primary = own.length === 1 ? own : own.filter((x) => !/\([^()]*\)$/.test(x.title ?? ''));
    if (primary.length === 1) pages.add(primary[0].id);
  }
  return [...pages];
}

export interface GatedParams {
  steps: number;
  /** The embedder's cosine of unrelated texts (0: raw cosines). */
  cosineFloor?: number;
  decay: number;
  threshold: number;
  gate: boolean;
  frontier: number;
  degreeDiscount: number;
  /** A source spreads only when r(u) / deg(u)^degreeDiscount exceeds this (0 or absent: every source). */
  spreadEpsilon?: number;
  relTypes: string[];
}

/** Undirected neighbour sets over the given relationship types, self-loops dropped. */
function entityAdjacency(g: RefGraph, relTypes: string[]): Map<string, Set<string>> {
  const adj = new Map<string, Set<string>>(g.entities.map((e) => [e.id, new Set<string>()]));
  for (const r of g.relations) {
    if (!relTypes.includes(r.type) || r.from === r.to) continue;
    adj.get(r.from)?.add(r.to);
    adj.get(r.to)?.add(r.from);
  }
  return adj;
}

/** Relationship count per entity over relTypes (parallel relationships counted), as COUNT {} does. */
function relDegree(g: RefGraph, relTypes: string[]): Map<string, number> {
  const deg = new Map<string, number>();
  for (const r of g.relations) {
    if (!relTypes.includes(r.type)) continue;
    deg.set(r.from, (deg.get(r.from) ?? 0) + 1);
    deg.set(r.to, (deg.get(r.to) ?? 0) + 1);
  }
  return deg;
}

/**
 * Query-aware spreading activation. Per step, synchronously: the `frontier`
 * most active nodes above `threshold` spread to each distinct neighbour v that
 * is less active than themselves (a source whose share r(u) / deg(u)^degreeDiscount
 * is at most `spreadEpsilon` spreads nothing); v receives
 *   decay * gate(v) * sum_u r(u) / deg(u)^degreeDiscount,  gate(v) = max(0, cos(desc(v), q)),
 * kept if above threshold (the `frontier` largest), and added to r(v).
 */
export function gatedActivation(g: RefGraph, q: number[], seeds: RefSeed[], p: GatedParams): Map<string, number> {
  const adj = entityAdjacency(g, p.relTypes);
  const deg = relDegree(g, p.relTypes);
  const desc = new Map(g.entities.map((e) => [e.id, e.descriptionEmbedding]));
  const act = new Map(seeds.map((s) => [s.id, s.activation]));
  for (let step = 1; step <= p.steps; step++) {
    const sources = [...act.entries()]
      .filter(([, r]) => r > p.threshold)
      .map(([id, r]) => ({ id, r }))
      .sort(byScoreThenId((x) => x.r))
      .slice(0, p.frontier);
    const inflow = new Map<string, number>();
    for (const { id: u, r } of sources) {
      const discount = p.degreeDiscount === 0 ? 1 : (deg.get(u) ?? 0) ** -p.degreeDiscount;
      if (r * discount <= (p.spreadEpsilon ?? 0)) continue;
      for (const v of adj.get(u) ?? []) {
        if ((act.get(v) ?? 0) < r) inflow.set(v, (inflow.get(v) ?? 0) + r * discount);
      }
    }
    const deltas = [...inflow.entries()]
      .map(([id, sum]) => {
        const d = desc.get(id);
        const gate = !p.gate ? 1 : d == null ? 0 : Math.max(calibrated(cosine(d, q), p.cosineFloor), 0);
        return { id, incoming: p.decay * sum * gate };
      })
      .filter((x) => x.incoming > p.threshold)
      .sort(byScoreThenId((x) => x.incoming))
      .slice(0, p.frontier);
    for (const { id, incoming } of deltas) act.set(id, (act.get(id) ?? 0) + incoming);
  }
  return act;
}

/**
 * Personalized PageRank as GDS computes it (unnormalised): the fixed point of
 *   s(v) = (1 - d) * t(v) + d * sum_{u ~ v} s(u) * w(u, v) / W(u)
 * on the undirected weighted graph, t the teleport weights (1 per GDS source
 * node). Power iteration until the largest change is below tolerance.
 */
export function personalizedPageRank(
  nodes: string[],
  edges: { from: string; to: string; weight: number; toWeight?: number }[],
  teleport: Map<string, number>,
  damping: number,
  opts: { maxIterations?: number; tolerance?: number } = {},
): Map<string, number> {
  const index = new Map(nodes.map((n, i) => [n, i]));
  const out: { to: number; w: number }[][] = nodes.map(() => []);
  for (const e of edges) {
    const a = index.get(e.from)!;
    const b = index.get(e.to)!;
    out[a].push({ to: b, w: e.weight });
    // toWeight: the weight the edge has when walked from its `to` end (the default: the same).
    const back = e.toWeight ?? e.weight;
    if (back > 0) out[b].push({ to: a, w: back });
  }
  const total = out.map((list) => list.reduce((s, x) => s + x.w, 0));
  const base = nodes.map((n) => (1 - damping) * (teleport.get(n) ?? 0));
  let s = [...base];
  const maxIterations = opts.maxIterations ?? 1000;
  const tolerance = opts.tolerance ?? 1e-13;
  for (let it = 0; it < maxIterations; it++) {
    const next = [...base];
    for (let u = 0; u < nodes.length; u++) {
      if (s[u] === 0 || total[u] === 0) continue;
      for (const { to, w } of out[u]) next[to] += (damping * s[u] * w) / total[u];
    }
    const change = Math.max(...next.map((x, i) => Math.abs(x - s[i])));
    s = next;
    if (change < tolerance) break;
  }
  return new Map(nodes.map((n, i) => [n, s[i]]));
}

export interface SelectParams {
  cosineFloor?: number;
  entityK: number;
  candidateK: number;
  vectorK: number;
  topK: number;
  graphWeight: number;
  vectorWeight: number;
  hubExponent: number;
  /** A top entity mentioned by more passages (a hub) scores only the passages reached otherwise (0 or absent: no bound). */
  hubPassages?: number;
  /** The entities the question names (name and caller seeds) and the share of their activation that scores passages. */
  named?: readonly string[];
  namedPassageWeight?: number;
  /** An entity scores the passage titled by its name (a trailing "(...)" aside) 1 + aboutWeight times (0 or absent: off). */
  aboutWeight?: number;
  /**
   * blend (default); rrf: reciprocal rank fusion of the graph's ranking and the text's (dense and
   * lexical fused by rank first); rrf3: of the graph, dense and lexical rankings.
   */
  fusion?: 'blend' | 'rrf' | 'rrf3';
  rrfK?: number;
  /** rrf, rrf3: the least normalised graph score that ranks on the graph's side. */
  graphFloor?: number;
  /** rrf: the graph ranking's first graphKeep and the text ranking's first textKeep score 1 + their rrf score (absent: 0). */
  graphKeep?: number;
  /** rrf: passages kept ahead as the graph's first graphKeep are (ownPages). */
  keepPages?: readonly string[];
  textKeep?: number;
  /** rrf: textKeep keeps a passage only if it is first in both the dense and the full-text ranking. */
  textKeepAgreed?: boolean;
}

/**
 * Passage selection shared by the graph modes: the entityK most active
 * entities, each weighted activation / (passages mentioning it)^hubExponent,
 * summed per passage (the candidateK best), plus the vectorK dense passages and
 * any extra candidates (ppr passage scores); graph score normalised by the best
 * candidate and blended with the passage's cosine (clamped at 0).
 */
export function selectPassages(
  g: RefGraph,
  q: number[],
  act: Map<string, number>,
  extra: { id: string; g: number }[],
  p: SelectParams,
  lexical: string[] = [],
): { entities: { id: string; activation: number }[]; passages: RefRanked[] } {
  const top = [...act.entries()]
    .map(([id, activation]) => ({ id, activation }))
    .sort(byScoreThenId((x) => x.activation))
    .slice(0, p.entityK);
  const mentionedBy = new Map<string, string[]>();
  for (const passage of g.passages) {
    for (const e of new Set(passage.mentions)) mentionedBy.set(e, [...(mentionedBy.get(e) ?? []), passage.id]);
  }
  const graphSide = new Map<string, number>();
  const titleOf = new Map(g.passages.map((x) => [x.id, x.title]));
  const nameOf = new Map(g.entities.map((e) => [e.id, e.name]));
  const about = (pid: string, eid: string) => {
    const title = titleOf.get(pid);
    const name = nameOf.get(eid);
    // The statement compares the first two letters (case aside) before the words.
    return (
      (p.aboutWeight ?? 0) > 0 &&
      title !== undefined &&
      name !== undefined &&
      title.slice(0, 2).toLowerCase() === name.slice(0, 2).toLowerCase() &&
      padded(title.replace(/\s*\([^)]*\)\s*$/u, '')) === padded(name)
    );
  };
  const passageCos = new Map(g.passages.map((x) => [x.id, calibrated(cosine(x.embedding, q), p.cosineFloor)]));
  const vectorSide = [...g.passages]
    .map((x) => ({ id: x.id, c: passageCos.get(x.id)! }))
    .sort(byScoreThenId((x) => x.c))
    .slice(0, p.vectorK)
    .map((x) => ({ id: x.id, g: 0 }));
  const rrf = p.fusion === 'rrf' || p.fusion === 'rrf3';
  const lexicalSide = rrf ? lexical.map((id) => ({ id, g: 0 })) : [];
  const aboutFactor = (pid: string, eid: string) => (about(pid, eid) ? 1 + (p.aboutWeight ?? 0) : 1);
  // A hub (mentioned by more than hubPassages passages) is not read from its side: it scores the candidateK best of the
  // others' passages, its own pages (titled by its name as written, a trailing "(...)" allowed) and the text's candidates.
  const hubs: { id: string; weight: number }[] = [];
  for (const { id, activation } of top) {
    const ps = mentionedBy.get(id) ?? [];
    const share = p.named?.includes(id) ? (p.namedPassageWeight ?? 0) : 1;
    const weight = share * activation * ps.length ** -p.hubExponent;
    if ((p.hubPassages ?? 0) > 0 && ps.length > p.hubPassages!) hubs.push({ id, weight });
    else for (const pid of ps) graphSide.set(pid, (graphSide.get(pid) ?? 0) + weight * aboutFactor(pid, id));
  }
  const direct = [...graphSide.entries()]
    .map(([id, gs]) => ({ id, g: gs }))
    .sort(byScoreThenId((x) => x.g))
    .slice(0, p.candidateK);
  const viaHubs = new Map<string, number>();
  if (hubs.length > 0) {
    const reached = new Set([...direct, ...vectorSide, ...lexicalSide].map((c) => c.id));
    for (const hub of hubs) {
      const name = nameOf.get(hub.id)!;
      for (const pid of mentionedBy.get(hub.id) ?? []) if (titledBy(titleOf.get(pid), name)) reached.add(pid);
    }
    for (const hub of hubs)
      for (const pid of mentionedBy.get(hub.id) ?? []) if (reached.has(pid)) viaHubs.set(pid, (viaHubs.get(pid) ?? 0) + hub.weight * aboutFactor(pid, hub.id));
  }
  const graphCands = [...direct, ...[...viaHubs].map(([id, g]) => ({ id, g }))];
  const raw = new Map<string, number>();
  for (const c of [...graphCands, ...vectorSide, ...extra, ...lexicalSide]) raw.set(c.id, (raw.get(c.id) ?? 0) + c.g);
  const maxRaw = Math.max(0, ...raw.values());
  const cands = [...raw.entries()].map(([id, r]) => ({ id, graphScore: maxRaw > 0 ? r / maxRaw : 0, vectorScore: Math.max(passageCos.get(id)!, 0) }));
  const rankIn = (list: { id: string }[]) => new Map(list.map((x, i) => [x.id, i + 1]));
  const graphRank = rankIn(cands.filter((c) => c.graphScore > 0 && c.graphScore >= (p.graphFloor ?? 0)).sort(byScoreThenId((x) => x.graphScore)));
  const denseRank = rankIn([...cands].sort(byScoreThenId((x) => x.vectorScore)));
  const lexicalRank = rankIn(lexical.map((id) => ({ id })));
  const k = p.rrfK ?? 60;
  const part = (r: number | undefined) => (r === undefined ? 0 : 1 / (k + r));
  const text = new Map(cands.map((c) => [c.id, part(denseRank.get(c.id)) + part(lexicalRank.get(c.id))]));
  const textRank = rankIn([...cands].sort(byScoreThenId((x) => text.get(x.id)!)));
  const passages = cands
    .map((c) => ({
      ...c,
      score:
        p.fusion === 'rrf'
          ? part(graphRank.get(c.id)) +
            part(textRank.get(c.id)) +
            ((graphRank.get(c.id) ?? Infinity) <= (p.graphKeep ?? 0) ||
            (p.keepPages ?? []).includes(c.id) ||
            (textRank.get(c.id)! <= (p.textKeep ?? 0) && (!p.textKeepAgreed || (denseRank.get(c.id) === 1 && lexicalRank.get(c.id) === 1)))
              ? 1
              : 0)
          : p.fusion === 'rrf3'
            ? part(graphRank.get(c.id)) + part(denseRank.get(c.id)) + part(lexicalRank.get(c.id))
            : p.graphWeight * c.graphScore + p.vectorWeight * c.vectorScore,
    }))
    .sort(byScoreThenId((x) => x.score))
    .slice(0, p.topK);
  return { entities: top, passages };
}

/**
 * The ppr mode's scores: exact weighted PPR over entities, passages and their relationships.
 * opts.maxIterations with tolerance 0 gives the series cut after that many terms, as the push
 * engine computes it with pushRounds = maxIterations and nothing held back.
 */
export function pprScores(
  g: RefGraph,
  seeds: RefSeed[],
  damping: number,
  projectionTypes: string[],
  opts: { maxIterations?: number; tolerance?: number; named?: readonly string[]; namedPassageWeight?: number } = {},
): Map<string, number> {
  const nodes = [...g.entities.map((e) => e.id), ...g.passages.map((p) => p.id)];
  const edges = pprEdges(g, projectionTypes, opts.named, opts.namedPassageWeight);
  return personalizedPageRank(nodes, edges, new Map(seeds.map((s) => [s.id, s.activation])), damping, opts);
}

/**
 * The graph ppr walks: the relationships of the given types (weight, 1 when unset) and, when the
 * types hold MENTIONS, each passage-entity link (1; walked from an entity the question names, in
 * the push engine, namedPassageWeight).
 */
function pprEdges(g: RefGraph, types: string[], named?: readonly string[], namedPassageWeight?: number) {
  const fromEntity = (e: string) => (named?.includes(e) ? (namedPassageWeight ?? 0) : 1);
  return [
    ...g.relations.filter((r) => types.includes(r.type)).map((r) => ({ from: r.from, to: r.to, weight: r.weight ?? 1, toWeight: r.weight ?? 1 })),
    ...(types.includes('MENTIONS') ? g.passages.flatMap((p) => p.mentions.map((e) => ({ from: p.id, to: e, weight: 1, toWeight: fromEntity(e) }))) : []),
  ];
}

export interface PushParams {
  dampingFactor: number;
  pushRounds: number;
  pushEpsilon: number;
  pushFrontier: number;
  relTypes: string[];
  named?: readonly string[];
  namedPassageWeight?: number;
}

/**
 * The push engine's PageRank (docs/statements.md#push), as the statement runs it: the residual
 * starts at the teleport weights; each round every node whose residual r exceeds
 * pushEpsilon x (the starting mass) x its degree (relTypes and MENTIONS; the pushFrontier largest)
 * keeps (1 - d) r in its estimate and hands d r to its neighbours in proportion to the link weight
 * (MENTIONS 1, or namedPassageWeight from an entity the question names; parallel links each count);
 * after the last round what is left of each residual is kept as (1 - d) r.
 */
export function pushPpr(g: RefGraph, teleport: RefSeed[], p: PushParams): Map<string, number> {
  // Each relationship once from each end (a link of weight 0 still counts in the degree, as apoc.node.degree does).
  const links = new Map<string, { to: string; w: number }[]>();
  const link = (a: string, b: string, w: number) => links.set(a, [...(links.get(a) ?? []), { to: b, w }]);
  for (const e of pprEdges(g, [...p.relTypes, 'MENTIONS'], p.named, p.namedPassageWeight)) {
    link(e.from, e.to, e.weight);
    link(e.to, e.from, e.toWeight);
  }
  let residual = new Map(teleport.map((s) => [s.id, s.activation]));
  const mass = [...residual.values()].reduce((a, b) => a + b, 0);
  const estimate = new Map<string, number>();
  const d = p.dampingFactor;
  for (let round = 1; round <= p.pushRounds; round++) {
    const pushing = [...residual.entries()]
      .filter(([id, r]) => r > 0 && r > p.pushEpsilon * mass * (links.get(id) ?? []).length)
      .sort((a, b) => b[1] - a[1])
      .slice(0, p.pushFrontier);
    const next = new Map(residual);
    for (const [id] of pushing) next.delete(id);
    for (const [id, r] of pushing) {
      estimate.set(id, (estimate.get(id) ?? 0) + (1 - d) * r);
      const out = (links.get(id) ?? []).filter((l) => l.w > 0);
      const total = out.reduce((t, l) => t + l.w, 0);
      for (const l of out) next.set(l.to, (next.get(l.to) ?? 0) + (d * r * l.w) / total);
    }
    residual = next;
  }
  for (const [id, r] of residual) estimate.set(id, (estimate.get(id) ?? 0) + (1 - d) * r);
  return new Map([...estimate].filter(([, s]) => s > 0));
}

/**
 * ppr's read-out with gateScores: an entity's PageRank times the larger of its gate (max(0, the
 * calibrated cosine of its description to the question), 0 without one) and its fact cosine when it
 * is a fact seed; passages keep theirs. Scores of 0 drop out.
 */
export function gatedScores(g: RefGraph, q: number[], scores: Map<string, number>, facts: Map<string, number>, cosineFloor = 0): Map<string, number> {
  const desc = new Map(g.entities.map((e) => [e.id, e.descriptionEmbedding]));
  const out = new Map<string, number>();
  for (const [id, s] of scores) {
    const x = desc.has(id) ? s * Math.max(desc.get(id) ? Math.max(calibrated(cosine(desc.get(id)!, q), cosineFloor), 0) : 0, facts.get(id) ?? 0) : s;
    if (x > 0) out.set(id, x);
  }
  return out;
}
