/**
 * Entity linking: a passage's mentions of curated entities (Hetionet-style), found with the
 * curated names as a dictionary and resolved with a confidence. No database here: the
 * dictionary is built from rows, and the context check takes vectors the caller read.
 *
 * Matching (findMentions): case-insensitive over word tokens, so sentence-initial words match;
 * possessives ("Alzheimer's" = "Alzheimer"), hyphen and spacing variants ("beta-blocker" =
 * "beta blocker" = "betablocker"), a plural last word ("statins"; a plural that is a name
 * itself also stands for its singular's entities: "hallucinations"), multi-word names; the
 * longest match wins where two overlap. Symbols (a gene's name, or any name without a
 * lower-case letter) match only as written: "SET" the gene, never "set"; one word in mixed case
 * with two capitals is a symbol written its own way ("AChE" = ACHE). An abbreviation the
 * passage defines after a matched name ("chronic obstructive pulmonary disease (COPD)") stands
 * for that name's entities wherever the passage writes it.
 *
 * Resolution (resolveEach, resolveMentions): a match needs more evidence than itself when its
 * name is a common word ("iron", "pain"; common-words.txt), a short symbol that spells one
 * ("SET", "WAS") or has at most 2 characters, or when several curated entities share the name.
 * The evidence is context: the cosine of the passage's own embedding and the entity's
 * description embedding, both already stored. Such a weak match is linked only when that cosine
 * reaches minContext and the passage names some curated entity by a strong name (an off-topic
 * passage's "iron" and "star" are words). A shared name goes to its Disease when one of the
 * entities is a Disease, else to the entity whose description fits best.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CuratedName {
  id: string;
  name: string;
  type: string;
}

/** One entity a dictionary key stands for. */
interface Entry {
  id: string;
  name: string;
  type: string;
  /** Matched only as written (gene symbols, upper-case names). */
  symbol: boolean;
  /** Its name alone is weak evidence: a common word, or a short symbol. */
  weak: boolean;
}

export interface LinkDictionary {
  keys: Map<string, Entry[]>;
  /** Longest name, in tokens. */
  maxTokens: number;
  size: number;
}

/** A span of the text that names one or more curated entities. */
export interface Mention {
  start: number;
  end: number;
  surface: string;
  /** The entities the span may stand for (more than one: a shared name). */
  candidates: { id: string; name: string; type: string; weak: boolean }[];
  /** exact: the name's own words; variant: a plural, a joined or split compound. */
  match: 'exact' | 'variant';
}

export interface Link {
  entityId: string;
  /** Best over the passage's mentions of the entity. */
  confidence: number;
  /** How: exact or variant match, '+context' when the context check decided. */
  method: string;
  /** Mentions of the entity in the passage. */
  count: number;
  /** First mention, for display and evaluation. */
  surface: string;
  start: number;
  end: number;
}

export const LINK_DEFAULTS = {
  /** Raw cosine (passage embedding, entity description embedding) a weak match needs. */
  minContext: 0.3,
  /** Links under this confidence are not written. */
  minConfidence: 0.5,
};

/** Bumped when the rules change, so `graph-recall link` re-links every passage. */
export const LINKER_VERSION = 2;

const here = path.dirname(fileURLToPath(import.meta.url));
let common: ReadonlySet<string> | undefined;
/** Words general English writes in lower case (scripts/common-words.py). */
export function commonWords(): ReadonlySet<string> {
  common ??= new Set(
    fs
      .readFileSync(path.join(here, 'common-words.txt'), 'utf8')
      .split('\n')
      .map((w) => w.trim())
      .filter((w) => w && !w.startsWith('#')),
  );
  return common;
}

interface Token {
  text: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const APOSTROPHES = new Set(["'", '\u2019']);

/** Word tokens with offsets; a possessive 's (or a bare ' after s) is dropped. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const start = m.index;
    const prev = out[out.length - 1];
    // "Alzheimer's": the "s" right after an apostrophe that follows a word is the possessive.
    if (prev && (m[0] === 's' || m[0] === 'S') && start === prev.end + 1 && APOSTROPHES.has(text[prev.end])) continue;
    out.push({ text: m[0], start, end: start + m[0].length });
  }
  return out;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** A plural's singular forms ("statins" -> statin; "therapies" -> therapy; "lesions"). */
function singulars(word: string): string[] {
  if (word.length < 4 || !/[a-z]s$/.test(word)) return [];
  const out: string[] = [];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (/(ses|xes|zes|ches|shes)$/.test(word)) out.push(word.slice(0, -2));
  if (!word.endsWith('ss')) out.push(word.slice(0, -1));
  return out;
}

const isSymbolName = (name: string, type: string) => type === 'Gene' || !/\p{Ll}/u.test(name);

export function buildDictionary(names: Iterable<CuratedName>, words: ReadonlySet<string> = commonWords()): LinkDictionary {
  const keys = new Map<string, Entry[]>();
  let maxTokens = 1;
  let size = 0;
  const add = (key: string, e: Entry) => {
    let list = keys.get(key);
    if (!list) keys.set(key, (list = []));
    if (!list.some((x) => x.id === e.id)) list.push(e);
  };
  for (const n of names) {
    const tokens = tokenize(n.name);
    if (tokens.length === 0) continue;
    const joined = tokens.map((t) => t.text).join('');
    // Numbers and single characters name nothing in running text.
    if (/^\p{N}+$/u.test(joined) || joined.length < 2) continue;
    const symbol = isSymbolName(n.name, n.type);
    const lower = fold(joined);
    const weak = tokens.length === 1 && (words.has(lower) || joined.length <= 2);
    const entry: Entry = { id: n.id, name: n.name, type: n.type, symbol, weak };
    const spaced = tokens.map((t) => (symbol ? t.text : fold(t.text))).join(' ');
    add(symbol ? `S:${spaced}` : spaced, entry);
    if (tokens.length > 1 && (symbol || tokens.every((t) => /^\p{L}+$/u.test(t.text)))) add(symbol ? `S:${joined}` : fold(joined), entry);
    maxTokens = Math.max(maxTokens, tokens.length);
    size++;
  }
  return { keys, maxTokens: Math.min(maxTokens, 16), size };
}

/** Every span naming curated entities, left to right; overlapping spans: the longest. */
export function findMentions(dict: LinkDictionary, text: string): Mention[] {
  const tokens = tokenize(text);
  const folded = tokens.map((t) => fold(t.text));
  const out: Mention[] = [];
  for (let i = 0; i < tokens.length; ) {
    let found: Mention | undefined;
    for (let k = Math.min(dict.maxTokens, tokens.length - i); k >= 1 && !found; k--) {
      const span = folded.slice(i, i + k);
      const start = tokens[i].start;
      const end = tokens[i + k - 1].end;
      // A span must not run across a sentence or clause break.
      if (k > 1 && /[.;:!?()[\]]/.test(text.slice(tokens[i].end, tokens[i + k - 1].start))) continue;
      const raw = tokens.slice(i, i + k).map((t) => t.text);
      // One word in mixed case with two capitals ("AChE", "mTOR") is a symbol written its own way.
      const mixed = k === 1 && /\p{Ll}/u.test(raw[0]) && (raw[0].match(/\p{Lu}/gu) ?? []).length >= 2;
      const spaced = [
        ...(dict.keys.get(span.join(' ')) ?? []),
        ...(dict.keys.get(`S:${raw.join(' ')}`) ?? []),
        ...(mixed ? (dict.keys.get(`S:${raw[0].toUpperCase()}`) ?? []) : []),
      ];
      // Joined forms: "betablocker" for "beta-blocker", "IL-6" for the symbol IL6.
      const joined = k > 1 ? [...(dict.keys.get(span.join('')) ?? []), ...(dict.keys.get(`S:${raw.join('')}`) ?? [])] : [];
      const match: Mention['match'] = spaced.length ? 'exact' : 'variant';
      let entries = [...spaced, ...joined];
      // A plural's singular names too, even when the plural is a name itself: "hallucinations" is
      // the Symptom "Hallucinations" and the Side Effect "Hallucination" (a shared name).
      for (const s of singulars(span[k - 1])) {
        const alt = [...span.slice(0, -1), s];
        const found = [...(dict.keys.get(alt.join(' ')) ?? []), ...(k > 1 ? (dict.keys.get(alt.join('')) ?? []) : [])];
        if (found.length) {
          entries = [...entries, ...found];
          break;
        }
      }
      entries = entries.filter((e, n) => entries.findIndex((x) => x.id === e.id) === n);
      // Written in capitals ("ACHE", "AChE"), a span is an acronym or a symbol: the symbol wins over a word.
      if (entries.some((e) => e.symbol) && (mixed || !/\p{Ll}/u.test(raw.join('')))) entries = entries.filter((e) => e.symbol);
      if (entries.length) {
        found = {
          start,
          end,
          surface: text.slice(start, end),
          candidates: entries.map((e) => ({ id: e.id, name: e.name, type: e.type, weak: e.weak })),
          match,
        };
        i += k;
      }
    }
    if (found) out.push(found);
    else i++;
  }
  return withAbbreviations(text, tokens, out);
}

/**
 * Abbreviations the passage defines: "chronic obstructive pulmonary disease (COPD)" makes the
 * "COPD" in the parentheses, and every later "COPD" written so, a mention of the same entities.
 * The short form is one token with at least two capitals whose letters occur in the long form in
 * order, the first at its start (Schwartz and Hearst's test, 2003).
 */
function withAbbreviations(text: string, tokens: Token[], mentions: Mention[]): Mention[] {
  const defined = new Map<string, Mention>();
  for (const m of mentions) {
    const def = /^\s*\(([\p{L}\p{N}]{2,10})\)/u.exec(text.slice(m.end));
    if (!def) continue;
    const short = def[1];
    if ((short.match(/\p{Lu}/gu) ?? []).length < 2 || defined.has(short)) continue;
    const long = fold(m.surface);
    const letters = fold(short).replace(/[^\p{L}]/gu, '');
    if (!letters || letters[0] !== long[0]) continue;
    let at = 0;
    for (const ch of letters) at = at < 0 ? at : long.indexOf(ch, at) + 1 || -1;
    if (at > 0) defined.set(short, m);
  }
  if (defined.size === 0) return mentions;
  const out = [...mentions];
  for (const t of tokens) {
    const long = defined.get(t.text);
    if (!long || t.start < long.end || out.some((m) => m.start < t.end && t.start < m.end)) continue;
    out.push({ start: t.start, end: t.end, surface: t.text, candidates: long.candidates, match: 'variant' });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The entities of these mentions whose context must be checked (weak names, shared names). */
export function needsContext(mentions: Mention[]): string[] {
  const ids = new Set<string>();
  for (const m of mentions) {
    if (m.candidates.length > 1 || m.candidates[0].weak) for (const c of m.candidates) ids.add(c.id);
  }
  return [...ids];
}

/** The cosine of two vectors (0 when either is zero). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** One mention's decision: the entity it links, or null. */
export interface MentionLink {
  entityId: string;
  confidence: number;
  method: string;
}

/**
 * Each mention's link, in order (null: not linked). A plain match has confidence 0.95 (exact)
 * or 0.85 (variant). A match that needed context has that times min(1, 0.5 + cosine), and no
 * link when the cosine is under minContext. A shared name goes to its Disease when one of the
 * entities is a Disease (method '+kind'), else to the best-fitting entity, at a confidence
 * lowered when the runner-up fits nearly as well.
 *
 * Why the Disease: a Side Effect or Symptom with a Disease's exact name (Hetionet's SIDER and
 * MeSH terms "Asthma", "Migraine", "Hypertension" beside the Disease Ontology's) is the same
 * condition; whether a drug caused it is a relation, not another entity. And the context
 * cannot tell them apart: the passage's cosine with each description measures the
 * description (a Disease's lists random neighbour genes, a Side Effect's is often its name
 * alone, which wins) more than the passage.
 */
export function resolveEach(
  mentions: Mention[],
  passageVector: ArrayLike<number> | null | undefined,
  descriptionVectors: ReadonlyMap<string, ArrayLike<number>>,
  opts: Partial<typeof LINK_DEFAULTS> = {},
): (MentionLink | null)[] {
  const { minContext, minConfidence } = { ...LINK_DEFAULTS, ...opts };
  // A passage that names no curated entity by a strong name (history, sport) is no context for
  // a weak one: its "iron" and "star" are words.
  const anchored = mentions.some((m) => m.candidates.every((c) => !c.weak));
  return mentions.map((m) => {
    const base = m.match === 'exact' ? 0.95 : 0.85;
    const contextual = m.candidates.length > 1 || m.candidates[0].weak;
    let id = m.candidates[0].id;
    let confidence = base;
    let how = contextual ? '+context' : '';
    if (contextual) {
      const scored = m.candidates
        .map((c) => {
          const v = descriptionVectors.get(c.id);
          return { id: c.id, type: c.type, weak: c.weak, cos: passageVector && v ? cosine(passageVector, v) : 0 };
        })
        .sort((a, b) => b.cos - a.cos || (a.id < b.id ? -1 : 1));
      const diseases = scored.filter((c) => c.type === 'Disease');
      const byKind = diseases.length === 1 && scored.length > 1;
      const best = byKind ? diseases[0] : scored[0];
      if (best.weak && (!anchored || best.cos < minContext)) return null;
      id = best.id;
      confidence = base * Math.min(1, 0.5 + best.cos);
      if (byKind) how = '+kind';
      // Two entities fitting equally well: a coin toss, say so.
      else if (scored.length > 1) confidence *= Math.min(1, 0.75 + 5 * Math.max(0, best.cos - scored[1].cos));
    }
    if (confidence < minConfidence) return null;
    return { entityId: id, confidence, method: `${m.match}${how}` };
  });
}

/** One link per entity the passage names: resolveEach's decisions, merged per entity (best confidence). */
export function resolveMentions(
  mentions: Mention[],
  passageVector: ArrayLike<number> | null | undefined,
  descriptionVectors: ReadonlyMap<string, ArrayLike<number>>,
  opts: Partial<typeof LINK_DEFAULTS> = {},
): Link[] {
  const byEntity = new Map<string, Link>();
  resolveEach(mentions, passageVector, descriptionVectors, opts).forEach((l, i) => {
    if (!l) return;
    const m = mentions[i];
    const prev = byEntity.get(l.entityId);
    if (!prev) byEntity.set(l.entityId, { ...l, count: 1, surface: m.surface, start: m.start, end: m.end });
    else {
      prev.count++;
      if (l.confidence > prev.confidence) Object.assign(prev, { confidence: l.confidence, method: l.method });
    }
  });
  return [...byEntity.values()];
}
