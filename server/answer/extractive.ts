/** The offline answer generator: extractive, no network. */
import { asInput, citationsIn, drain } from './shared.js';
import type { AnswerEntity, AnswerFact, AnswerInput, AnswerPassage, AnswerResult, Generator } from './types.js';

const STOP = new Set(
  'a an the of in on at to for from by with and or is are was were be been who whom whose what which when where why how did does do that this these those as it its his her their into than then'.split(
    ' ',
  ),
);
const terms = (s: string) =>
  s
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.filter((t) => !STOP.has(t)) ?? [];

/** A crude stem, enough to meet "treat" / "treats" / "treated", "symptoms" / "symptom", "Ugandan" / "Uganda". */
const stem = (t: string) => (t.length <= 4 ? t : t.replace(/(?:ings|ing|ies|ied|es|ed|s|ans|an|a|e|y)$/u, '').slice(0, 6));
const stems = (s: string) => new Set(terms(s).map(stem));

/** Words that start sentences without naming anything. */
const OPENERS = new Set(
  'he she they we you i there here however today also although after before during following since while many some most all both'.split(' '),
);
/** Stems of the capitalised words of a sentence (names: "Kansas", "Uganda", "Ugandan"). */
const capitalised = (s: string) =>
  new Set(
    (s.match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((w) => /^\p{Lu}/u.test(w) && !STOP.has(w.toLowerCase()) && !OPENERS.has(w.toLowerCase()))
      .map((w) => stem(w.toLowerCase())),
  );

/** Titles and abbreviations after which a period does not end a sentence ("Hon. Winnie Kiiza"). */
const ABBREVIATIONS = new Set(
  'hon dr mr mrs ms st jr sr prof gen col lt sgt capt cmdr adm rev gov sen rep pres mt ft no nos vs etc inc ltd co corp dept est fig maj op vol jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);

/** True when a chunk ends with an abbreviation, an initial ("A.") or a dotted acronym ("U.S."). */
function endsWithAbbreviation(chunk: string): boolean {
  const m = chunk.match(/(?:^|[\s("'])((?:\p{L}\.)*\p{L}+)\.$/u);
  if (!m) return false;
  const word = m[1];
  if (/^\p{Lu}$/u.test(word)) return true;
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/** Sentences, keeping titles ("Hon.", "Dr."), initials ("A. B. Smith") and acronyms ("U.S.") inside them. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u)) {
    const last = out.length - 1;
    if (last >= 0 && endsWithAbbreviation(out[last])) out[last] = `${out[last]} ${piece}`;
    else out.push(piece);
  }
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

const NO_ANSWER = 'The retrieved passages do not answer this question.';

/** True when every content word of a name is, stemmed, among the given stems ("Uganda" in "first Ugandan female"). */
const named = (name: string, ...sets: Set<string>[]) => {
  const ts = terms(name).map(stem);
  return ts.length > 0 && ts.every((t) => sets.some((set) => set.has(t)));
};

/**
 * The graph evidence an answer leans on: the passages that connect to the
 * question's seeds (an evidence path from a seed reaches them), and the
 * entities that bridge the hops, with a weight: those on the evidence paths
 * and in the facts (not the seeds themselves: the question names those), then
 * the most activated entities. (Counting a passage that merely names a seed as
 * connected cost vector and hybrid, which return no paths, answer containment:
 * bench/reports/devsets/answer-containment-2026-11-30.)
 */
function evidence(input: AnswerInput) {
  const seedIds = new Set((input.seeds ?? []).map((s) => s.id));
  const connected = new Set<string>();
  const bridges = new Map<string, number>();
  const bridge = (name: string, w: number) => bridges.set(name, Math.max(bridges.get(name) ?? 0, w));
  for (const p of input.paths ?? []) {
    if (p.passageId) connected.add(p.passageId);
    for (const n of p.nodes) if (!seedIds.has(n.id) && n.name !== null) bridge(n.name, 1);
  }
  const facts = input.facts ?? [];
  const topFact = Math.max(0, ...facts.map((f) => f.score));
  for (const f of facts) for (const e of [f.subject, f.object]) if (!seedIds.has(e.id)) bridge(e.name, topFact > 0 ? 0.5 + (0.5 * f.score) / topFact : 0.5);
  const ranked = (input.entities ?? []).filter((e) => !seedIds.has(e.id)).slice(0, 10);
  const topAct = Math.max(0, ...ranked.map((e) => e.activation));
  for (const e of ranked) bridge(e.name, topAct > 0 ? (0.5 * e.activation) / topAct : 0);
  return { connected, bridges };
}

interface Candidate {
  s: string;
  id: string;
  rank: number;
  i: number;
  /** stems of the sentence, and of its passage's title (a sentence is read in its passage's light). */
  own: Set<string>;
  title: Set<string>;
  /** stems of its capitalised words (names). */
  names: Set<string>;
}

/**
 * The offline answer: sentences of the top passages, each followed by its
 * citation, chosen by the question's terms they carry and the bridge they
 * share (see pickSentences), so the answer carries the entity that links the
 * hops. When the retrieval gives evidence paths (gated, ppr), only passages a
 * path from a seed reaches are used, unless none is. Extractive: it never
 * states anything the passages do not. Without passages, or when no sentence
 * matches, it answers from the facts.
 */
export function extractiveAnswer(question: string, given: AnswerPassage[] | AnswerInput, maxSentences = 2): { text: string; citations: string[] } {
  const input = asInput(given);
  const { passages } = input;
  const q = new Set(terms(question).map(stem));
  const { connected, bridges } = evidence(input);
  const usable = passages.some((p) => connected.has(p.id)) ? passages.filter((p) => connected.has(p.id)) : passages;
  const cands: Candidate[] = usable.flatMap((p) => {
    const rank = passages.indexOf(p);
    const title = stems(p.title ?? '');
    return sentences(p.text).map((s, i) => ({ s, id: p.id, rank, i, own: stems(s), title, names: capitalised(s) }));
  });
  const picked = q.size ? pickSentences(cands, q, bridges, maxSentences) : [];
  if (!picked.length) {
    if (input.facts?.length) return { text: factsAnswer(question, input), citations: [] };
    return { text: NO_ANSWER, citations: [] };
  }
  const text = picked.map((c) => `${c.s} [${c.id}]`).join(' ');
  return { text, citations: citationsIn(text, passages) };
}

/** Tunables of the sentence choice (measured on the dev sets: bench/reports/devsets/answer-containment-2026-11-30). */
const TITLE_WEIGHT = 0.5;
const BRIDGE_WEIGHT = 1;
const TEXT_BRIDGE_WEIGHT = 1;
const RANK_DISCOUNT = 0.05;

/**
 * Picks the sentences: with room for two, the best PAIR, scored by the
 * question words the two carry together (rarer words weigh more; in the
 * title only: half) plus the bridge they share: an entity of the evidence
 * both name, or else a rare word both use, from two passages. So a
 * two-hop answer is "Buyende is a town in ... Uganda." + "... first Ugandan
 * female ... is Hon. Winnie Kiiza", and not the best word match about another
 * country. Higher-ranked passages win ties.
 */
function pickSentences(cands: Candidate[], q: Set<string>, bridges: Map<string, number>, maxSentences: number): Candidate[] {
  const df = new Map<string, number>();
  for (const c of cands) for (const t of new Set([...c.own, ...c.title])) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + cands.length / (df.get(t) ?? 1));
  // Per sentence: the question words it carries (1 in the sentence, TITLE_WEIGHT in its title only).
  const cover = cands.map((c) => {
    const m = new Map<string, number>();
    for (const t of q) {
      if (c.own.has(t)) m.set(t, 1);
      else if (c.title.has(t)) m.set(t, TITLE_WEIGHT);
    }
    return m;
  });
  // Per sentence: the bridge entities it names (a bridge whose words are all in the question adds nothing).
  const bridgeList = [...bridges].filter(([name]) => terms(name).some((t) => !q.has(stem(t))));
  const bridgeIdf = (name: string) => Math.max(...terms(name).map((t) => idf(stem(t))));
  const names = cands.map((c) => new Map(bridgeList.filter(([name]) => named(name, c.own, c.title))));
  const single = (k: number) => {
    let s = 0;
    for (const [t, w] of cover[k]) s += w * idf(t);
    return s / (1 + RANK_DISCOUNT * cands[k].rank);
  };
  const ranked = cands.map((_, k) => k).filter((k) => cover[k].size > 0);
  if (!ranked.length) return [];
  ranked.sort((a, b) => single(b) - single(a) || a - b);
  if (maxSentences < 2 || cands.length < 2) return ranked.slice(0, maxSentences).map((k) => cands[k]);
  let best: [number, number] | null = null;
  let bestScore = 0;
  for (let a = 0; a < cands.length; a++) {
    for (let b = a + 1; b < cands.length; b++) {
      if (!cover[a].size && !cover[b].size) continue;
      let s = 0;
      for (const t of q) s += Math.max(cover[a].get(t) ?? 0, cover[b].get(t) ?? 0) * idf(t);
      // The bridge: an evidence entity both name, else (across passages) a rare word both use.
      let bridge = 0;
      for (const [name, w] of names[a]) if (names[b].has(name)) bridge = Math.max(bridge, w * BRIDGE_WEIGHT * bridgeIdf(name));
      if (!bridge && cands[a].id !== cands[b].id) {
        for (const t of cands[a].names) if (!q.has(t) && cands[b].names.has(t)) bridge = Math.max(bridge, TEXT_BRIDGE_WEIGHT * idf(t));
      }
      // Each sentence must carry a question word or the bridge.
      if ((!cover[a].size || !cover[b].size) && !bridge) continue;
      const score = (s + bridge) / (1 + RANK_DISCOUNT * (cands[a].rank + cands[b].rank));
      if (score > bestScore) [best, bestScore] = [[a, b], score];
    }
  }
  const picked = best ? best.map((k) => cands[k]) : ranked.slice(0, 1).map((k) => cands[k]);
  // More than two: the next best single sentences.
  for (const k of ranked) if (picked.length < maxSentences && !picked.includes(cands[k])) picked.push(cands[k]);
  return picked.slice(0, Math.max(maxSentences, 0)).sort((a, b) => a.rank - b.rank || a.i - b.i);
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * An answer from facts alone (a knowledge graph without passages): the
 * entities the question asks for, each with the facts that support it.
 * "Asked for" = reached by the facts from the seeds and, when the question
 * says so, of the type it names ("Which compounds ...") or linked by the
 * predicate it uses ("... treat ...", "... localize ..."): "Compounds linked:
 * Rivastigmine (Rivastigmine treats Alzheimer's disease), ...".
 */
export function factsAnswer(question: string, input: Pick<AnswerInput, 'facts' | 'seeds'>, maxEntities = 10): string {
  const facts = [...(input.facts ?? [])].sort((a, b) => a.rank - b.rank);
  if (!facts.length) return NO_ANSWER;
  const seedIds = new Set((input.seeds ?? []).map((s) => s.id));
  const q = new Set(terms(question).map(stem));
  const predicateMatches = (f: AnswerFact) => terms(f.predicate).some((t) => q.has(stem(t)));
  const typeWord = (e: AnswerEntity) => (e.type ? terms(question).find((t) => stems(e.type!).has(stem(t))) : undefined);
  // The candidates: the ends of facts that are not seeds, with their facts, in fact order.
  const found = new Map<string, { entity: AnswerEntity; facts: AnswerFact[] }>();
  for (const f of facts) {
    for (const e of [f.subject, f.object]) {
      if (seedIds.has(e.id)) continue;
      const c = found.get(e.id) ?? { entity: e, facts: [] };
      c.facts.push(f);
      found.set(e.id, c);
    }
  }
  let cands = [...found.values()];
  if (!cands.length)
    return `Facts: ${facts
      .slice(0, maxEntities)
      .map((f) => f.text)
      .join('; ')}.`;
  // Narrow to what the question asks for: its type word first, else its predicate, else the commonest type.
  let label: string | undefined;
  const byType = cands.filter((c) => typeWord(c.entity));
  if (byType.length) {
    cands = byType;
    label = capitalise(typeWord(byType[0].entity)!);
  } else {
    const byPredicate = cands.filter((c) => c.facts.some(predicateMatches));
    if (byPredicate.length) cands = byPredicate;
    const counts = new Map<string, number>();
    for (const c of cands) if (c.entity.type) counts.set(c.entity.type, (counts.get(c.entity.type) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (common && counts.get(common)! > cands.length / 2) {
      cands = cands.filter((c) => c.entity.type === common);
      label = common;
    }
  }
  const items = cands.slice(0, maxEntities).map((c) => {
    const support = [...c.facts.filter(predicateMatches), ...c.facts.filter((f) => !predicateMatches(f))].slice(0, 2);
    return `${c.entity.name} (${support.map((f) => f.text).join('; ')})`;
  });
  const more = cands.length > maxEntities ? ` and ${cands.length - maxEntities} more` : '';
  return `${label ?? 'Entities'} linked: ${items.join(', ')}${more}.`;
}

export function createExtractiveGenerator(): Generator {
  const gen: Generator = {
    id: 'offline:extractive-v2',
    async *stream(question, input, signal): AsyncGenerator<string, AnswerResult> {
      const { text, citations } = extractiveAnswer(question, input);
      // Streamed word by word, like a model's tokens, so clients use one code path.
      for (const piece of text.match(/\S+\s*/g) ?? []) {
        if (signal?.aborted) break;
        yield piece;
        await new Promise((r) => setImmediate(r));
      }
      return { answer: text, citations, usage: null, generator: gen.id };
    },
    complete: (question, input) => drain(gen.stream(question, input)),
  };
  return gen;
}
