/**
 * Offline (embedded: no network, no model download) entity/relation extractor, id 'offline:v1'.
 *
 * Built on wink-nlp + wink-eng-lite-web-model (sentence splitting, POS tags, lemmas, a small
 * NER for numbers/dates); ~1,000 passages/s on one core. On top of that:
 *  - Entities
 *    - capitalised-span chunking: proper-noun sequences with name connectors ("Green Party of
 *      England and Wales", "Jean de la Fontaine", "Kim Jong-il", title-case "Back In The U.S.A."),
 *      without sentence-initial function words, pronouns or lone sentence-initial capitals;
 *    - components of long names ("Adalbert II of Tuscany" -> "Adalbert II", "Tuscany"), names
 *      without their titles ("Emperor Itzcoatl" -> "Itzcoatl"), "City, Region" places
 *      ("Burbank, California") and "Name, Nth Title of X" people ("Patrick Lyon, 3rd Earl of ...");
 *    - quoted titles ("Hello Love") as works; calendar dates ("7 September 1864", "May 3, 1869"),
 *      their years and other years; numbers, money and percentages;
 *    - the passage title (Wikipedia disambiguators such as "(1925 film)" stripped and used to
 *      guess the type) and the names inside it ("Prague astronomical clock" -> "Prague");
 *    - a lone surname that repeats a person named earlier ("Buxton") is that person, not a new entity;
 *    - types: Person, Place, Organization, Work, Date, Number, Money, Percent, Nationality, Entity
 *      (capitalised name of unknown kind), and Concept (optional, see {@link OfflineExtractorOptions}).
 *  - Relations
 *    - nearest co-occurring pairs in a sentence (the next two names and the next value after each
 *      name, at most {@link MAX_RELATIONS_PER_SENTENCE} per sentence); predicate = lemma of the verb
 *      between them plus a following preposition ("born_in", "direct_by"), or "<noun>_of"
 *      ("daughter_of"), or {@link ALIAS_PREDICATE} ("also known as", "(born Samuel Cook)"),
 *      else "related_to";
 *    - title -> every other entity of the passage: the verb that links them when the sentence is
 *      about the title (title mention, pronoun or "The film ..." subject), else "mentions";
 *    - a long name -> its components ("related_to") and variants ({@link ALIAS_PREDICATE}).
 *  - Descriptions: the sentences of the passage that mention the entity (the first sentences for
 *    the title), at most {@link DESCRIPTION_MAX_CHARS} characters.
 *
 * Entities are deduplicated within a passage by {@link normalizeName}; other code merges entities
 * across passages on the same key.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { ExtractedEntity, ExtractedRelation, Extraction, Extractor, PassageInput } from './types.js';
import {
  CITY_NAMES,
  COMPASS_ADJECTIVES,
  COMPONENT_SPLITTERS,
  DEMONYM_SUFFIX,
  DISAMBIGUATOR_TYPES,
  GENERIC_HEADS,
  GIVEN_NAMES,
  HYPHEN_SUFFIX_STOP,
  JUNK_WORDS,
  LOWER_NAME_HEADS,
  MONTHS,
  NAME_CONNECTORS,
  NOBLE_TITLES,
  NON_STRIPPABLE_TITLES,
  ORG_WORDS,
  PERSON_TITLES,
  PLACE_NAMES,
  PLACE_WORDS,
  REGION_NAMES,
  ROLE_WORDS,
} from './offline-lexicon.js';

export const OFFLINE_EXTRACTOR_ID = 'offline:v1';

/**
 * Predicate of a relation that says two names denote the same thing ("Emperor Itzcoatl" / "Itzcoatl",
 * "Publix Super Markets, Inc., commonly known as Publix", "Sam Cooke (born Samuel Cook)"); the ingest
 * pipeline turns it into a SAME_AS edge.
 */
export const ALIAS_PREDICATE = 'alias';

/** Maximum description length (characters). */
export const DESCRIPTION_MAX_CHARS = 300;
/** Maximum co-occurrence relations produced per sentence. */
export const MAX_RELATIONS_PER_SENTENCE = 10;

/**
 * Canonical matching key for an entity name. Deterministic, idempotent
 * (normalizeName(normalizeName(x)) === normalizeName(x)); entities are merged on it.
 *
 * Steps, in order:
 *  1. Unicode NFKD and removal of combining marks (accents: "Université" -> "universite").
 *  2. Lowercase.
 *  3. Typographic quotes/apostrophes -> ASCII; "&" -> " and ".
 *  4. Thousands separators between digits dropped ("273,282" -> "273282").
 *  5. Possessives dropped: "x's" -> "x", "xs'" -> "xs" ("The Beatles'" -> "the beatles");
 *     remaining apostrophes removed ("O'Brien" -> "obrien").
 *  6. Dots removed unless between digits ("U.S." -> "us", "St. Louis" -> "st louis", "5.1" kept).
 *  7. Every other non-letter/non-digit character -> space; whitespace collapsed and trimmed.
 *  8. One leading article ("the", "a", "an") removed when something follows it.
 */
export function normalizeName(name: string): string {
  let s = name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  s = s.replace(/[\u2018\u2019\u201a\u201b\u02bc\u02b9\u0060\u00b4\u2032]/g, "'").replace(/&/g, ' and ');
  s = s.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
  s = s.replace(/([\p{L}\p{N}])'s(?![\p{L}\p{N}])/gu, '$1').replace(/s'(?![\p{L}\p{N}])/gu, 's');
  s = s.replace(/'/g, '');
  s = s.replace(/(?<!\d)\.|\.(?!\d)/g, '');
  s = s.replace(/[^\p{L}\p{N}.]+/gu, ' ').replace(/\s+/g, ' ').trim();
  s = s.replace(/^(?:the|a|an) (?=\S)/, '');
  return s;
}

// ---------------------------------------------------------------------------------------------
// NLP singleton

type WinkNlp = ReturnType<typeof winkNLP>;
let nlpInstance: WinkNlp | undefined;
function nlp(): WinkNlp {
  nlpInstance ??= winkNLP(model, ['sbd', 'pos', 'ner']);
  return nlpInstance;
}

// ---------------------------------------------------------------------------------------------
// Token model

interface Tok {
  value: string;
  lower: string; // lowercase, accent-free
  pos: string;
  lemma: string;
  sp: boolean; // preceded by whitespace
  kind: string; // wink token type: word, number, punctuation, ...
  cap: boolean; // starts with an uppercase letter
  sent: number;
}

interface Mention {
  start: number; // token index, inclusive
  end: number; // token index, inclusive
  name: string; // display name
  key: string;
  type: string;
  sent: number;
  /** Components/aliases overlap their parent span and do not form co-occurrence pairs. */
  primary: boolean;
  /** Key of the name a component/variant was taken from. */
  parent?: string;
  /** A variant of the parent name (title stripped), not a part of it. */
  variant?: boolean;
}

const CAP_RE = /^\p{Lu}/u;
const PRONOUN_STARTS = new Set(['he', 'she', 'it', 'they', 'his', 'her', 'its', 'their', 'this']);
const QUOTE_OPEN = new Set(['"', '\u201c']);
const QUOTE_CLOSE = new Set(['"', '\u201d']);
const GLUE = new Set(['-', '\u2013', "'", '\u2019', '.']);
function stripAccentsLower(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

function displayOf(toks: Tok[], start: number, end: number): string {
  let s = '';
  for (let i = start; i <= end; i++) s += (i > start && toks[i].sp ? ' ' : '') + toks[i].value;
  return cleanDisplay(s);
}

/** Trim, drop surrounding punctuation/quotes and a trailing possessive; keeps "The" for display. */
function cleanDisplay(s: string): string {
  let out = s.replace(/\s+/g, ' ').trim();
  out = out.replace(/(?:'s|\u2019s|'|\u2019)$/u, '');
  out = out.replace(/^[^\p{L}\p{N}]+/u, '').replace(/[^\p{L}\p{N}.)!?]+$/u, '');
  // a trailing dot is only kept for abbreviations like "Jr." / "St." / "U.S."
  if (/\.$/.test(out) && !/(?:\b\p{Lu}\p{Ll}{0,2}|\b\p{Lu})\.$/u.test(out)) out = out.slice(0, -1);
  if (/\)$/.test(out) && !out.includes('(')) out = out.slice(0, -1).trimEnd();
  if (/^\(/.test(out) && !out.includes(')')) out = out.slice(1);
  return out.trim();
}

// ---------------------------------------------------------------------------------------------
// Type guessing

/** The type named by the *last* category word of a noun phrase ("film director" -> Person, "1925 film" -> Work). */
function lastTypeMatch(fragment: string): string | undefined {
  let best: { at: number; type: string } | undefined;
  for (const [re, type] of DISAMBIGUATOR_TYPES) {
    const g = new RegExp(re.source, 'gi');
    for (let m = g.exec(fragment); m; m = g.exec(fragment)) {
      const at = m.index + m[0].length; // rank by where the category word ends: "film director" beats "film"
      if (best === undefined || at > best.at) best = { at, type };
    }
  }
  return best?.type;
}

function guessSpanType(toks: Tok[], start: number, end: number, key: string): string {
  if (PLACE_NAMES.has(key)) return 'Place';
  const words: string[] = [];
  for (let i = start; i <= end; i++) if (toks[i].kind === 'word') words.push(toks[i].lower.replace(/\.$/, ''));
  if (words.length === 0) return 'Entity';
  const first = words[0];
  const last = words[words.length - 1];
  if (ORG_WORDS.has(last) || ORG_WORDS.has(first)) return 'Organization';
  if (PLACE_WORDS.has(last) || PLACE_FIRST_WORDS.has(first) || LOWER_NAME_HEADS.has(last)) return 'Place';
  if (PERSON_TITLES.has(first) && words.length >= 2) return 'Person';
  const prev = start > 0 && toks[start - 1].sent === toks[start].sent ? toks[start - 1] : undefined;
  const next = end + 1 < toks.length && toks[end + 1].sent === toks[end].sent ? toks[end + 1] : undefined;
  const next2 = end + 2 < toks.length ? toks[end + 2] : undefined;
  if (words.length === 1 && start === end && DEMONYM_SUFFIX.test(first) && next && !next.cap && next.kind === 'word' && (next.pos === 'NOUN' || (next.pos === 'ADJ' && toks[end + 2]?.pos === 'NOUN'))) return 'Nationality';
  if (prev && PERSON_TITLES.has(prev.lower.replace(/\.$/, ''))) return 'Person';
  if (next?.value === '(' && next2 && (next2.kind === 'number' || /^(born|died|nee|b|d|c)\.?$/.test(next2.lower))) return 'Person';
  if (next && (next.lower === 'born' || (next.lower === 'was' && next2?.lower === 'born'))) return 'Person';
  if (prev && (prev.lower === 'in' || prev.lower === 'at' || prev.lower === 'near') && words.length <= 2 && next?.value === ',') return 'Place';
  if (prev?.lower === 'by' && words.length >= 2 && words.length <= 3) return 'Person';
  if (words.length >= 2 && words.length <= 4 && GIVEN_NAMES.has(first)) return 'Person';
  // initials: "D. H. Lawrence", "George W. Jenkins"
  if (words.length >= 2 && words.length <= 4 && /^(?:\p{Lu}\p{L}+ (?:\p{Lu}\. ?)+|(?:\p{Lu}\. ?){2,})\p{Lu}\p{Ll}+$/u.test(displayOf(toks, start, end))) return 'Person';
  return 'Entity';
}

/** First words that make a place name ("Mount Everest", "Lake Victoria", "County Durham"). */
const PLACE_FIRST_WORDS = new Set(['mount', 'mt', 'lake', 'cape', 'fort', 'port', 'isle', 'gulf', 'bay', 'river', 'county', 'city', 'state', 'kingdom', 'republic', 'province', 'district']);

/** Parses a Wikipedia-style title "Name (disambiguator)". */
function parseTitle(title: string): { name: string; short: string; alias?: string; type?: string; dis?: string } {
  const clean = title.replace(/\s+/g, ' ').trim();
  const m = /^(.*\S)\s*\(([^()]+)\)$/.exec(clean);
  if (!m) return { name: clean, short: clean };
  const short = m[1].trim();
  const dis = m[2].trim();
  const type = lastTypeMatch(dis);
  if (type || dis.toLowerCase() === 'disambiguation' || !/\p{Lu}/u.test(dis)) return { name: short, short, type, dis };
  // A proper-noun disambiguator ("Leader of Opposition (Uganda)"): keep the full title, alias the short form.
  return { name: clean, short, alias: short, dis };
}

// ---------------------------------------------------------------------------------------------
// Mention finding

const FUNCTION_POS = new Set(['DET', 'ADP', 'CCONJ', 'SCONJ', 'AUX', 'PART', 'PRON', 'ADV']);

function isCapWord(t: Tok | undefined): t is Tok {
  return !!t && (t.kind === 'word' || t.kind === 'unk') && t.cap && t.pos !== 'PRON' && t.pos !== 'PUNCT';
}

/** A capitalised function word ("The", "Of", "And", "During"): only allowed inside a name, before another capitalised word. */
function isCapFunctionWord(t: Tok): boolean {
  return t.cap && JUNK_WORDS.has(t.lower.replace(/\.$/, '')) && (FUNCTION_POS.has(t.pos) || t.pos === 'VERB') && !/^[IVX]+\.?$/.test(t.value);
}

/** "Queen", "Margrave", "Baronet": a title on its own is not an entity. */
function isTitleWord(key: string): boolean {
  return PERSON_TITLES.has(key) || NOBLE_TITLES.has(key) || ROLE_WORDS.has(key);
}

function isSentenceInitial(toks: Tok[], i: number): boolean {
  for (let j = i - 1; j >= 0 && toks[j].sent === toks[i].sent; j--) {
    if (toks[j].kind !== 'punctuation' && toks[j].kind !== 'symbol') return false;
  }
  return true;
}

/** Index after the glued continuation of token i ("Sö|ğ|üt", "Jong|-|il", "O|'|Brien"), exclusive. */
function glueEnd(toks: Tok[], i: number, used: Uint8Array): number {
  let j = i + 1;
  const sent = toks[i].sent;
  while (j < toks.length && toks[j].sent === sent && !toks[j].sp && !used[j]) {
    const t = toks[j];
    if (t.kind === 'word' || t.kind === 'unk') {
      if (t.value === "'s" || t.value === '\u2019s') break;
      j++;
      continue;
    }
    if (t.kind === 'number' && j === i + 1) break;
    if (GLUE.has(t.value) && j + 1 < toks.length && toks[j + 1].sent === sent && !toks[j + 1].sp && (toks[j + 1].kind === 'word' || toks[j + 1].kind === 'unk') && !used[j + 1]) {
      const n = toks[j + 1];
      if (!n.cap && (HYPHEN_SUFFIX_STOP.has(n.lower) || (n.pos === 'VERB' && /(?:ed|ing)$/.test(n.lower)))) break; // "Canadian-born"
      j += 2;
      continue;
    }
    break;
  }
  return j;
}

function canStartSpan(toks: Tok[], i: number, used: Uint8Array): boolean {
  const t = toks[i];
  if (used[i]) return false;
  // "My Dear Muthachan", "Our Town": a capitalised possessive mid-sentence opens a title
  if (t.pos === 'PRON' && /^(My|Our|Your|His|Her|Their|Its|Me|You|We|She|He|It|They|Us|Him|Them)$/.test(t.value) && !isSentenceInitial(toks, i)) return isCapWord(toks[i + 1]) && !isCapFunctionWord(toks[i + 1]) && toks[i + 1].sent === t.sent;
  if (!isCapWord(t)) return false;
  if (!t.sp && i > 0 && toks[i - 1].kind === 'number' && /^(st|nd|rd|th)$/i.test(t.value)) return false; // "4|Th"
  if (i > 0 && toks[i - 1].kind === 'number' && /^[A-Z][A-Za-z]?[A-Z]?$/.test(t.value) && isCapWord(toks[i + 1])) return false; // "180 MW Tatanka"
  if (isCapFunctionWord(t)) {
    // Mid-sentence capitalised function words open titles ("The Beatles", "A Tale of Winter");
    // a sentence-initial "The"/"In"/"However" never does.
    if (isSentenceInitial(toks, i)) return false;
    let j = i + 1;
    while (j < toks.length && j - i <= 2 && toks[j].sent === t.sent && isCapWord(toks[j]) && isCapFunctionWord(toks[j])) j++;
    return isCapWord(toks[j]) && toks[j].sent === t.sent && !used[j] && !isCapFunctionWord(toks[j]);
  }
  if (isSentenceInitial(toks, i)) {
    // Sentence-initial capitals are weak evidence: accept proper nouns, or a noun followed by another capitalised word.
    if (t.pos === 'PROPN' || t.pos === 'X') return !JUNK_WORDS.has(t.lower);
    if (t.pos === 'NOUN' || t.pos === 'ADJ') return isCapWord(toks[i + 1]) && toks[i + 1].sent === t.sent && !isCapFunctionWord(toks[i + 1]);
    return false;
  }
  return true;
}

/** Extends a capitalised span from `start`; returns the inclusive end index. */
function extendSpan(toks: Tok[], start: number, used: Uint8Array): number {
  const sent = toks[start].sent;
  let end = glueEnd(toks, start, used) - 1;
  let sawOf = false;
  let andAt = -1; // end of the span before an "and" join
  let i = end + 1;
  while (i < toks.length && toks[i].sent === sent && !used[i]) {
    const t = toks[i];
    const monthBeforeNumber = MONTHS.has(t.lower.replace(/\.$/, '')) && toks[i + 1]?.kind === 'number';
    if ((isCapWord(t) && !monthBeforeNumber && !isCapFunctionWord(t)) || /^(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII)$/.test(t.value)) {
      end = glueEnd(toks, i, used) - 1;
      i = end + 1;
      continue;
    }
    // ordinals inside a name: "The First 7th Night", "4Th Baron" (title case splits "4|Th")
    if (t.kind === 'number' && /^\d{1,2}$/.test(t.value) && toks[i + 1] && !toks[i + 1].sp && /^(st|nd|rd|th)$/i.test(toks[i + 1].value) && isCapWord(toks[i + 2]) && toks[i + 2].sent === sent) {
      i += 2;
      continue;
    }
    if (t.kind === 'ordinal' && isCapWord(toks[i + 1]) && toks[i + 1].sent === sent && !used[i + 1]) {
      i += 1;
      continue;
    }
    // numbers after a name: "Apollo 11", "Studio 33" (not "Paris 1900")
    if (t.kind === 'number' && /^\d{1,3}$/.test(t.value) && t.sp) {
      const n = toks[i + 1];
      if (!n || n.sent !== sent || (n.kind !== 'number' && !isCapWord(n))) end = i;
      break;
    }
    // possessive inside a name: "St. Maurice's Abbey"
    if ((t.value === "'s" || t.value === '\u2019s') && isCapWord(toks[i + 1]) && !used[i + 1] && !isCapFunctionWord(toks[i + 1])) {
      i++;
      continue;
    }
    // connectors: "of", "of the", "de la", "Of The" (title case), "and"/"&" only after "of" ("Party of England and Wales")
    const isConn = (x: Tok): boolean =>
      x.kind === 'word' && (((NAME_CONNECTORS.has(x.lower) || x.lower === 'and') && !x.cap) || isCapFunctionWord(x) || x.lower === 'de');
    // "Forum for Democratic Change", "Institute for Advanced Study"
    if (t.lower === 'for' && !t.cap && ORG_WORDS.has(toks[end].lower) && isCapWord(toks[i + 1]) && toks[i + 1].sent === sent && !isCapFunctionWord(toks[i + 1])) {
      i++;
      continue;
    }
    if ((isConn(t) && (t.lower !== 'and' || sawOf || t.cap)) || t.value === '&') {
      let j = i;
      while (j < toks.length && toks[j].sent === sent && (isConn(toks[j]) || toks[j].value === '&') && j - i < 3) j++;
      const n = toks[j];
      // "and" joins inside titles and institutions ("Duke of Connaught and Strathearn", "Department of Health and
      // Human Services") or before a known place ("Party of England and Wales"), never two people
      // ("Adalbert of Tuscany and Bertha", "King X of Siam and Queen Y") nor "and the ..."
      // "Duke of ...", "Department of ...", not "Prince Richard I of Capua and Fressenda"
      const head = toks[start].lower.replace(/\.$/, '');
      const headOk = (NOBLE_TITLES.has(head) || ORG_WORDS.has(head) || GENERIC_HEADS.has(head) || ROLE_WORDS.has(head) || PLACE_WORDS.has(head)) && toks[start + 1]?.lower === 'of';
      const badAnd =
        (t.lower === 'and' || t.value === '&') &&
        !t.cap &&
        (j - i > 1 || (n !== undefined && PERSON_TITLES.has(n.lower.replace(/\.$/, ''))) || (!headOk && !(n !== undefined && PLACE_NAMES.has(n.lower))));
      if (n && n.sent === sent && !badAnd && isCapWord(n) && !used[j] && !isCapFunctionWord(n)) {
        // "X of A and Y of B" is two names: undo the "and" join when another "of" follows it
        if (t.lower === 'of' && andAt >= 0) {
          end = andAt;
          break;
        }
        if (t.lower === 'of') sawOf = true;
        if (t.lower === 'and' || t.value === '&') andAt = end;
        i = j;
        continue;
      }
      break;
    }
    // lowercase heads continuing a name: "Eastern Han dynasty"
    if (t.kind === 'word' && !t.cap && LOWER_NAME_HEADS.has(t.lower) && t.pos === 'NOUN') end = i;
    break;
  }
  return end;
}

interface MentionSink {
  add(m: Omit<Mention, 'key'> & { key?: string }): void;
}

const DATE_PREV = /^(in|since|until|till|from|by|to|between|and|after|before|during|around|circa|c|ca|born|died|b|d|of|year|early|late|mid)\.?$/;

function isMonth(t: Tok | undefined): boolean {
  return !!t && t.kind === 'word' && t.cap && MONTHS.has(t.lower.replace(/\.$/, '')) && t.lower !== 'mar' && t.lower !== 'jun';
}
function isDay(t: Tok | undefined): boolean {
  return !!t && t.kind === 'number' && /^(0?[1-9]|[12]\d|3[01])$/.test(t.value);
}
function isYear(t: Tok | undefined, minDigits: 3 | 4 = 3): boolean {
  return !!t && t.kind === 'number' && (minDigits === 3 ? /^\d{3,4}$/ : /^\d{4}$/).test(t.value);
}

/** Calendar dates ("7 September 1864", "May 3, 1869", "March 1362") and years. */
function findDateMentions(toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  const add = (start: number, end: number, yearAt: number | undefined): void => {
    for (let k = start; k <= end; k++) used[k] = 1;
    const name = displayOf(toks, start, end);
    sink.add({ start, end, name, type: 'Date', sent: toks[start].sent, primary: true });
    if (yearAt !== undefined && end > start) sink.add({ start: yearAt, end: yearAt, name: toks[yearAt].value, type: 'Date', sent: toks[start].sent, primary: false });
  };
  for (let i = 0; i < toks.length; i++) {
    if (used[i]) continue;
    const t = toks[i];
    const same = (k: number): boolean => k < toks.length && toks[k].sent === t.sent && !used[k];
    // D Month [Y]
    if (isDay(t) && same(i + 1) && isMonth(toks[i + 1])) {
      if (same(i + 2) && isYear(toks[i + 2])) add(i, i + 2, i + 2);
      else for (let k = i; k <= i + 1; k++) used[k] = 1; // a yearless date is not an entity
      i += 1;
      continue;
    }
    if (isMonth(t)) {
      // Month D, Y | Month D Y
      if (same(i + 1) && isDay(toks[i + 1])) {
        const c = same(i + 2) && toks[i + 2].value === ',' ? i + 3 : i + 2;
        if (same(c) && isYear(toks[c], 4)) add(i, c, c);
        else for (let k = i; k <= i + 1; k++) used[k] = 1;
        i = c;
        continue;
      }
      // Month Y
      if (same(i + 1) && isYear(toks[i + 1], 4)) {
        add(i, i + 1, i + 1);
        i += 1;
        continue;
      }
      continue;
    }
    // bare years: 4 digits 1000-2099, or 3 digits in a date context ("died in 875", "(177–216)")
    if (t.kind === 'number' && /^\d{3,4}$/.test(t.value)) {
      const v = Number(t.value);
      const prev = toks[i - 1];
      const next = toks[i + 1];
      const ctx =
        (prev && prev.sent === t.sent && DATE_PREV.test(prev.lower)) ||
        (prev && (prev.value === '(' || prev.value === '\u2013' || prev.value === '-') && next && (next.value === ')' || next.value === '\u2013' || next.value === '-' || next.value === ','));
      if ((t.value.length === 4 && v >= 1000 && v <= 2099) || (v >= 100 && ctx)) {
        if (t.value.length === 4 || ctx) add(i, i, undefined);
      }
    }
  }
}

const SKIP_NER_TYPES = new Set(['ORDINAL', 'DURATION', 'TIME', 'EMOJI', 'EMOTICON', 'HASHTAG', 'MENTION', 'URL', 'EMAIL']);

/** Numbers, money, percentages and leftover dates ("1940s", "19th century") from wink's NER. */
function findNerMentions(doc: ReturnType<WinkNlp['readDoc']>, toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  const its = nlp().its;
  const spans = doc.entities().out(its.span) as unknown as number[][];
  const types = doc.entities().out(its.type) as string[];
  for (let k = 0; k < spans.length; k++) {
    const type = types[k];
    if (SKIP_NER_TYPES.has(type)) continue;
    let [start, end] = spans[k];
    while (start < end && toks[start].kind === 'word' && !/\d/.test(toks[start].value)) start++; // "about 2,913,123"
    // "Studio 33", "Apollo 11": a short number right after a capitalised word belongs to the name
    if (type === 'CARDINAL' && start === end && /^\d{1,3}$/.test(toks[start].value) && start > 0 && isCapWord(toks[start - 1]) && toks[start - 1].sent === toks[start].sent && !isSentenceInitial(toks, start - 1)) continue;
    let clash = false;
    for (let i = start; i <= end; i++) if (used[i]) clash = true;
    if (clash) continue;
    const name = displayOf(toks, start, end);
    if (!/\d/.test(name)) continue; // "the summer", "one", a month
    // a lone single digit is only kept when it counts something ("4 children"), not "number 1" or list items
    const n1 = toks[end + 1]?.sent === toks[end].sent ? toks[end + 1] : undefined;
    const counts = n1 !== undefined && (n1.pos === 'NOUN' || (n1.pos === 'ADJ' && toks[end + 2]?.pos === 'NOUN'));
    if (type === 'CARDINAL' && /^\d$/.test(name) && !counts) continue;
    let etype: string;
    if (type === 'DATE') etype = 'Date';
    else if (type === 'MONEY') etype = 'Money';
    else if (type === 'PERCENT') etype = 'Percent';
    else etype = 'Number';
    for (let i = start; i <= end; i++) used[i] = 1;
    sink.add({ start, end, name, type: etype, sent: toks[start].sent, primary: true });
  }
}

function findQuotedMentions(toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  for (let i = 0; i < toks.length; i++) {
    if (!QUOTE_OPEN.has(toks[i].value)) continue;
    let j = i + 1;
    while (j < toks.length && j - i <= 12 && !QUOTE_CLOSE.has(toks[j].value) && toks[j].sent === toks[i].sent) j++;
    if (j >= toks.length || !QUOTE_CLOSE.has(toks[j].value) || j - i < 2 || j - i > 12) continue;
    const start = i + 1;
    const end = j - 1;
    if (!toks[start].cap || toks[start].kind !== 'word') {
      i = j;
      continue;
    }
    let words = 0;
    for (let k = start; k <= end; k++) if (toks[k].kind === 'word') words++;
    const name = displayOf(toks, start, end);
    if (words > 0 && !(words === 1 && JUNK_WORDS.has(toks[start].lower))) {
      for (let k = start; k <= end; k++) used[k] = 1;
      sink.add({ start, end, name, type: 'Work', sent: toks[start].sent, primary: true });
    }
    i = j;
  }
}

function addVariants(toks: Tok[], start: number, end: number, key: string, type: string, sink: MentionSink): void {
  // Person titles and roles: "Emperor Itzcoatl" -> "Itzcoatl", "HM King Mongkut" -> "Mongkut",
  // "North Korean Supreme Leader Kim Jong-il" -> "Kim Jong-il"
  if (type === 'Organization' || type === 'Place') return;
  let a = -1;
  for (let i = start; i < end; i++) {
    const w = toks[i].lower.replace(/\.$/, '');
    if (COMPONENT_SPLITTERS.has(w) || w === 'the') break; // "Duke of X": the title belongs to the name
    if ((PERSON_TITLES.has(w) || ROLE_WORDS.has(w)) && !NON_STRIPPABLE_TITLES.has(w)) a = i + 1;
  }
  if (a > start && a <= end && isCapWord(toks[a]) && !isCapFunctionWord(toks[a])) {
    const name = displayOf(toks, a, end);
    const k = normalizeName(name);
    if (k && k !== key && !GENERIC_HEADS.has(k) && !JUNK_WORDS.has(k) && k.length >= 3) sink.add({ start: a, end, name, key: k, type: 'Person', sent: toks[a].sent, primary: false, parent: key, variant: true });
  }
}

function findCapitalisedMentions(toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < toks.length; i++) {
    if (!canStartSpan(toks, i, used)) continue;
    const end = extendSpan(toks, i, used);
    spans.push([i, end]);
    i = end;
  }
  for (let s = 0; s < spans.length; s++) {
    const [start, end] = spans[s];
    let words = 0;
    for (let i = start; i <= end; i++) if (toks[i].sp || i === start) words++;
    const name = displayOf(toks, start, end);
    const key = normalizeName(name);
    if (!key || !/\p{L}/u.test(key)) continue;
    if (words === 1 && (JUNK_WORDS.has(key) || MONTHS.has(key) || key.length < 2 || GENERIC_HEADS.has(key) || isTitleWord(key))) continue;
    let type = guessSpanType(toks, start, end, key);
    const nxt = spans[s + 1];
    const prevTok = toks[start - 1];
    const placeContext = type === 'Place' || (prevTok !== undefined && prevTok.sent === toks[start].sent && /^(in|at|near|from|to|of|into|outside|between|and)$/.test(prevTok.lower));
    const cityRegion =
      nxt !== undefined && nxt[0] === end + 2 && toks[end + 1].value === ',' && toks[nxt[0]].sent === toks[start].sent && placeContext && !REGION_NAMES.has(key) && REGION_NAMES.has(normalizeName(displayOf(toks, nxt[0], nxt[1])));
    if (cityRegion) type = 'Place';
    sink.add({ start, end, name, key, type, sent: toks[start].sent, primary: true });
    addVariants(toks, start, end, key, type, sink);

    // Components of long names: conjuncts ("Philip of Artois and Blanche of Brittany"), then parts split on
    // connectors and hyphens ("Adalbert II of Tuscany" -> "Adalbert II", "Tuscany"); generic single words are dropped.
    let glued = true;
    for (let i = start + 1; i <= end; i++) if (toks[i].sp) glued = false;
    const isSplit = (i: number, conj: boolean): boolean => {
      const t = toks[i];
      if (t.value === '&') return true;
      if (t.kind !== 'word' || (t.cap && !isCapFunctionWord(t))) return (!conj && glued && (t.value === '-' || t.value === '\u2013') && isCapWord(toks[i + 1]) && isCapWord(toks[i - 1]));
      if (t.lower === 'and') return true;
      if (conj) return false;
      return COMPONENT_SPLITTERS.has(t.lower) || (LOWER_NAME_HEADS.has(t.lower) && i === end);
    };
    const splitRange = (a0: number, b0: number, conj: boolean): Array<[number, number]> => {
      const out: Array<[number, number]> = [];
      let cs = a0;
      for (let i = a0; i <= b0 + 1; i++) {
        if (i > b0 || isSplit(i, conj)) {
          if (i - 1 >= cs) out.push([cs, i - 1]);
          cs = i + 1;
        }
      }
      return out;
    };
    // the left conjunct of "Party of England and Wales" continues into the right one: not a name of its own
    const conjuncts = splitRange(start, end, true).filter(([a, b], idx, arr) => {
      if (idx === arr.length - 1) return true;
      for (let i = a; i <= b; i++) if (toks[i].lower === 'of') return false;
      return true;
    });
    const parts = conjuncts.length > 1 ? [...conjuncts, ...conjuncts.flatMap(([a, b]) => splitRange(a, b, false))] : splitRange(start, end, false);
    // hyphenated single words inside a longer name: "Duke of Mecklenburg-Schwerin" -> "Mecklenburg", "Schwerin"
    if (!glued) {
      for (const [ps, pe] of [...parts]) {
        if (pe - ps < 2) continue;
        let single = true;
        for (let i = ps + 1; i <= pe; i++) if (toks[i].sp) single = false;
        if (!single) continue;
        let cs = ps;
        for (let i = ps; i <= pe + 1; i++) {
          if (i > pe || ((toks[i].value === '-' || toks[i].value === '\u2013') && isCapWord(toks[i + 1]) && isCapWord(toks[i - 1]))) {
            if (cs > ps || i <= pe) parts.push([cs, i - 1]);
            cs = i + 1;
          }
        }
      }
    }
    if (parts.length > 1) {
      const done = new Set<string>([key]);
      for (const [ps, pe] of parts) {
        let a = ps;
        while (a <= pe && toks[a].lower === 'the') a++;
        if (a > pe || !isCapWord(toks[a])) continue;
        const pname = displayOf(toks, a, pe);
        const pkey = normalizeName(pname);
        if (!pkey || done.has(pkey)) continue;
        done.add(pkey);
        if (a === pe && (GENERIC_HEADS.has(pkey) || JUNK_WORDS.has(pkey) || isTitleWord(pkey) || pkey.length < 3 || toks[a].pos === 'VERB')) continue;
        // a lone plural common noun ("Representatives" of "House of Representatives") is not a name
        if (a === pe && toks[a].lemma !== toks[a].lower && /s$/.test(toks[a].lower) && !PLACE_NAMES.has(pkey)) continue;
        // a lone given name before "of"/"de"/"von" ("Marie" of "Marie of Artois") would merge every Marie: skip it
        // for people (not for "Kimber" of "Kimber of Oregon" nor "Figueira" of "Figueira da Foz")
        if (a === pe && pe < end && COMPONENT_SPLITTERS.has(toks[pe + 1].lower) && toks[pe + 1].lower !== 'and' && (type === 'Person' || GIVEN_NAMES.has(pkey))) continue;
        const ptype = guessSpanType(toks, a, pe, pkey);
        sink.add({ start: a, end: pe, name: pname, key: pkey, type: ptype, sent: toks[a].sent, primary: false, parent: key });
        addVariants(toks, a, pe, pkey, ptype, sink);
      }
    }

    // "Northern Indian" -> "Indian"
    if (words === 2 && COMPASS_ADJECTIVES.has(toks[start].lower) && isCapWord(toks[end]) && start + 1 === end && !PLACE_NAMES.has(key) && DEMONYM_SUFFIX.test(toks[end].lower)) {
      const rname = displayOf(toks, end, end);
      sink.add({ start: end, end, name: rname, type: guessSpanType(toks, end, end, normalizeName(rname)), sent: toks[end].sent, primary: false, parent: key });
    }

    if (nxt && toks[end + 1]?.value === ',' && toks[nxt[0]].sent === toks[start].sent) {
      // "born in Burbank, California" / "in Hamburg, Germany"
      if (cityRegion) sink.add({ start, end: nxt[1], name: displayOf(toks, start, nxt[1]), type: 'Place', sent: toks[start].sent, primary: false, parent: key });
      // "Patrick Lyon, 3rd Earl of Strathmore and Kinghorne" / "Karl August, Prince of Waldeck and Pyrmont"
      let b = end + 2;
      if (toks[b] && /^\d{1,2}(?:st|nd|rd|th)$/i.test(toks[b].value) && b + 1 === nxt[0]) b++;
      else if (toks[b]?.kind === 'number' && toks[b + 1] && !toks[b + 1].sp && /^(st|nd|rd|th)$/i.test(toks[b + 1].value)) b += 2;
      let hasOf = false;
      for (let i = nxt[0]; i <= nxt[1]; i++) if (toks[i].lower === 'of') hasOf = true;
      if (b === nxt[0] && NOBLE_TITLES.has(toks[nxt[0]].lower) && (hasOf || b > end + 2) && type !== 'Place' && type !== 'Organization' && !REGION_NAMES.has(key) && !CITY_NAMES.has(key)) {
        const pname = displayOf(toks, start, nxt[1]);
        sink.add({ start, end: nxt[1], name: pname, type: 'Person', sent: toks[start].sent, primary: false, parent: key, variant: true });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Predicates

function cleanPredicate(p: string): string {
  const s = stripAccentsLower(p).replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return s.slice(0, 40) || 'related_to';
}

function verbForm(t: Tok): string {
  if (t.lower === 'born') return 'born';
  return t.lemma || t.lower;
}

/** Predicate for a pair whose subject ends before `from` and whose object starts at `to`. */
function predicateBetween(toks: Tok[], from: number, to: number): string | undefined {
  // "<noun> of <object>" right before the object ("was a daughter of", "capital of") unless a full verb
  // comes between the subject and that noun ("married the daughter of" -> "marry")
  let k = to - 1;
  while (k > from && (toks[k].pos === 'DET' || toks[k].value === "'s" || toks[k].pos === 'ADJ')) k--;
  if (k > from && toks[k].lower === 'of' && k - 1 >= from && (toks[k - 1].pos === 'NOUN' || toks[k - 1].pos === 'PROPN') && !toks[k - 1].cap && toks[k - 1].kind === 'word') {
    if (lastVerb(toks, from, k - 1) === undefined) return cleanPredicate(`${toks[k - 1].lemma || toks[k - 1].lower}_of`);
  }
  const v = lastVerb(toks, from, to);
  if (v !== undefined) {
    let p = verbForm(toks[v]);
    let a = v + 1;
    while (a < to && (toks[a].pos === 'ADV' || toks[a].pos === 'PART')) a++;
    if (a < to && toks[a].pos === 'ADP' && toks[a].kind === 'word') p += `_${toks[a].lower}`;
    else if (to - 1 > v && toks[to - 1].pos === 'ADP' && toks[to - 1].kind === 'word' && to - 1 - v <= 3) p += `_${toks[to - 1].lower}`;
    return cleanPredicate(p);
  }
  return undefined;
}

const ALIAS_VERBS = new Set(['know_as', 'spell', 'spell_as', 'nickname', 'rename', 'rename_as', 'rename_to', 'title', 'retitle', 'dub', 'style']);

/**
 * Whether b is another name for a: "A, also/commonly known as B", "A, sometimes spelled B",
 * "A (born B; ...)" with B a name, "A, originally published as B", "A or B" inside parentheses.
 */
function isAliasLink(toks: Tok[], a: Mention, b: Mention, pred: string): boolean {
  if (b.type === 'Place' || b.type === 'Date' || b.type === 'Nationality' || b.type === 'Number') return false;
  if (ALIAS_VERBS.has(pred)) return true;
  let k = b.start - 1;
  while (k > a.end && (toks[k].pos === 'DET' || QUOTE_OPEN.has(toks[k].value) || toks[k].value === "'")) k--;
  const w = (i: number): string => (i > a.end ? (toks[i]?.lower ?? '') : '');
  // "also called B", "commonly called B"
  if (pred === 'call' && /^(also|commonly|often|sometimes|popularly|simply|usually|locally)$/.test(w(k - 1))) return true;
  // "originally published as B", "first released as B"
  if ((pred === 'publish_as' || pred === 'release_as') && w(k) === 'as' && /^(originally|first|initially|also)$/.test(w(k - 2))) return true;
  // "A (born Samuel Cook; ...)", "A (née Beauchamp)"
  if ((w(k) === 'born' || w(k) === 'nee') && b.type !== 'Work') {
    for (let i = a.end + 1; i < k; i++) if (toks[i].value === '(') return true;
  }
  return false;
}

/** Whether the name starting at `start` is governed by a preposition ("to Nashville", "in the United States"). */
function isPrepositionalObject(toks: Tok[], start: number): boolean {
  const sent = toks[start].sent;
  let k = start - 1;
  for (let hop = 0; hop < 3; hop++) {
    while (k >= 0 && toks[k].sent === sent && (toks[k].pos === 'DET' || toks[k].pos === 'ADJ' || toks[k].pos === 'NUM')) k--;
    // "to Nashville, Tennessee": look through an apposed name
    if (k > 0 && toks[k].value === ',' && isCapWord(toks[k - 1]) && toks[k - 1].sent === sent) {
      k--;
      while (k >= 0 && toks[k].sent === sent && (isCapWord(toks[k]) || NAME_CONNECTORS.has(toks[k].lower))) k--;
      continue;
    }
    break;
  }
  return k >= 0 && toks[k].sent === sent && toks[k].pos === 'ADP' && toks[k].lower !== 'of';
}

/** The last full verb in [from, to), ignoring closed parenthesised asides ("X (died 875) was ...");
 * verbs of a parenthesis that is still open at `to` count ("X (died 11 November 875)"). */
function lastVerb(toks: Tok[], from: number, to: number): number | undefined {
  let depth = 0;
  const verbs: Array<{ i: number; depth: number }> = [];
  for (let i = from; i < to; i++) {
    const v = toks[i].value;
    if (v === '(' || v === '[') depth++;
    else if ((v === ')' || v === ']') && depth > 0) {
      depth--;
      while (verbs.length && verbs[verbs.length - 1].depth > depth) verbs.pop();
    } else if (toks[i].pos === 'VERB') verbs.push({ i, depth });
  }
  return verbs.length ? verbs[verbs.length - 1].i : undefined;
}

// ---------------------------------------------------------------------------------------------
// Extraction

interface EntityAcc {
  key: string;
  name: string;
  type: string;
  typeVotes: Map<string, number>;
  sentences: number[];
  firstMention: Mention | undefined;
}

function truncate(s: string, max = DESCRIPTION_MAX_CHARS): string {
  const t = s.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[\s,;:]+$/, '')}\u2026`;
}

function titleTypeFromText(firstSentence: string, text: string, name: string): string | undefined {
  // "X is a 1925 American silent drama film directed by ..." -> the head of the predicate noun phrase
  const m = /\b(?:is|was|are|were)\s+(?:(?:one of )?(?:an?|the)\s+)?([^.;]{0,120})/i.exec(firstSentence);
  if (m) {
    const np = m[1].split(/,|;|\(| (?:who|which|that|from|in|of|by|for|with|on|at|based|directed|written|produced|published|released|founded|located|known|created|developed|starring|featuring|since|whose|where)\b/i)[0];
    const t = lastTypeMatch(np);
    if (t) return t;
  }
  if (/^[^.(]{0,80}\(\s*(?:born|died|b\.|d\.|c\.|\d{1,2} \p{L}+ \d{3,4}|\p{L}+ \d{1,2}, \d{4}|\d{3,4}\s*[\u2013-])/u.test(text) && /\b(he|she|his|her)\b/i.test(text.slice(0, 600))) return 'Person';
  const words = name.split(/\s+/);
  if (words.length >= 2 && words.length <= 5 && words.every((w) => CAP_RE.test(w) || /^(de|van|von|der|da|di|of|le|la|du|bin|ibn)$/.test(w))) {
    if (/\b(he|she|his|her)\b/i.test(text.slice(0, 400)) || /\(\s*(born|died|b\.|d\.|c\.|\d{1,4}\b)/.test(text.slice(0, 200))) return 'Person';
  }
  return undefined;
}

/** Name words of a person name: "Lambert, Margrave of Tuscany" -> [lambert]; "Francis William Buxton" -> [francis, william, buxton]. */
function personNameWords(name: string): string[] {
  const head = name.split(/,| of | de | von | van | \(/)[0];
  return normalizeName(head)
    .split(' ')
    .filter((w) => w.length >= 3 && !PERSON_TITLES.has(w) && !ROLE_WORDS.has(w) && !JUNK_WORDS.has(w) && !/^[ivx]+$/.test(w));
}

/**
 * In-passage coreference of partial person names: a single-word mention ("Buxton", "Cooke") that is a
 * word of a person named earlier in the passage (or of the title person) becomes a mention of that person,
 * instead of an entity that would merge every Buxton of the corpus.
 */
function resolvePartialNames(mentions: Mention[], title: { key: string; name: string; type: string } | undefined): void {
  const people: Array<{ key: string; name: string; words: string[]; at: number }> = [];
  if (title && title.type === 'Person') people.push({ key: title.key, name: title.name, words: personNameWords(title.name), at: -1 });
  for (const m of mentions) {
    const single = !m.name.includes(' ');
    if (!single && m.type === 'Person') {
      const words = personNameWords(m.name);
      if (words.length >= 2) people.push({ key: m.key, name: m.name, words, at: m.start });
      continue;
    }
    if (!single || (m.type !== 'Person' && m.type !== 'Entity') || PLACE_NAMES.has(m.key) || m.key.length < 3) continue;
    // the title person first, else the nearest person named before this mention
    let best = people.find((p) => p.at === -1 && p.words.includes(m.key));
    if (!best) for (const p of people) if (p.at < m.start && p.words.includes(m.key) && (best === undefined || p.at > best.at)) best = p;
    if (best && best.key !== m.key) {
      m.key = best.key;
      m.name = best.name;
      m.type = 'Person';
    }
  }
}

/**
 * A single capitalised word that only ever occurs at the start of a sentence ("Locations are found ...",
 * "Influential ...") is weak evidence of a name: dropped unless it is a known place, a word of the title,
 * or typed by context.
 */
function dropLoneSentenceInitialWords(mentions: Mention[], toks: Tok[], title: string): void {
  const titleWords = new Set(normalizeName(title).split(' '));
  const elsewhere = new Set<string>();
  for (const m of mentions) if (!(m.start === m.end && isSentenceInitial(toks, m.start))) elsewhere.add(m.key);
  for (let i = mentions.length - 1; i >= 0; i--) {
    const m = mentions[i];
    if (m.start !== m.end || !m.primary || m.type !== 'Entity' || !isSentenceInitial(toks, m.start)) continue;
    if (elsewhere.has(m.key) || titleWords.has(m.key) || PLACE_NAMES.has(m.key)) continue;
    mentions.splice(i, 1);
  }
}

/**
 * Common-noun concepts: lowercase noun compounds ("film director", "grocery chain", "opposition leader"),
 * optionally after one adjective. Typed 'Concept'; they never form co-occurrence pairs. Off by default
 * (see {@link OfflineExtractorOptions.concepts}).
 */
function findConceptMentions(toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (used[i] || t.cap || t.kind !== 'word' || (t.pos !== 'ADJ' && t.pos !== 'NOUN') || JUNK_WORDS.has(t.lower)) continue;
    let j = i;
    let nouns = t.pos === 'NOUN' ? 1 : 0;
    let k = i + 1;
    while (k < toks.length && toks[k].sent === t.sent && !used[k]) {
      const n = toks[k];
      if (n.kind === 'word' && !n.cap && (n.pos === 'NOUN' || (n.pos === 'ADJ' && nouns === 0)) && !JUNK_WORDS.has(n.lower)) {
        if (n.pos === 'NOUN') nouns++;
        j = k;
        k++;
        continue;
      }
      if ((n.value === '-' && !n.sp) && toks[k + 1] && !toks[k + 1].sp && toks[k + 1].kind === 'word' && !toks[k + 1].cap) {
        k += 2;
        j = k - 1;
        continue;
      }
      break;
    }
    while (j > i && toks[j].pos !== 'NOUN') j--;
    if (j > i && toks[j].pos === 'NOUN' && nouns >= 2) {
      const name = displayOf(toks, i, j);
      if (name.length >= 6 && !/\d/.test(name)) sink.add({ start: i, end: j, name, type: 'Concept', sent: t.sent, primary: false });
    }
    i = Math.max(i, j);
  }
}

interface Tokenized {
  doc: ReturnType<WinkNlp['readDoc']>;
  toks: Tok[];
  sentSpans: number[][];
  sentTexts: string[];
}

function tokenize(text: string): Tokenized {
  const { its } = nlp();
  const doc = nlp().readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out() as string[];
  const poss = tokens.out(its.pos) as string[];
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const kinds = tokens.out(its.type) as string[];
  const sentSpans = doc.sentences().out(its.span) as unknown as number[][];
  const sentTexts = doc.sentences().out() as string[];
  const toks: Tok[] = new Array(values.length);
  const mk = (i: number, sent: number): Tok => {
    const v = values[i];
    return { value: v, lower: stripAccentsLower(v), pos: poss[i], lemma: (lemmas[i] ?? v).toLowerCase(), sp: spaces[i] !== '', kind: kinds[i], cap: CAP_RE.test(v), sent };
  };
  for (let s = 0; s < sentSpans.length; s++) for (let i = sentSpans[s][0]; i <= sentSpans[s][1]; i++) toks[i] = mk(i, s);
  for (let i = 0; i < toks.length; i++) toks[i] ??= mk(i, sentSpans.length);
  return { doc, toks, sentSpans, sentTexts };
}

/** Capitalised names inside a title or disambiguator ("Prague astronomical clock" -> "Prague"). */
function namesIn(text: string): Mention[] {
  if (!text.trim()) return [];
  const { toks } = tokenize(text);
  const out: Mention[] = [];
  const sink: MentionSink = {
    add(m) {
      const key = m.key ?? normalizeName(m.name);
      if (key) out.push({ ...m, key });
    },
  };
  findCapitalisedMentions(toks, new Uint8Array(toks.length), sink);
  return out;
}

export interface OfflineExtractorOptions {
  /**
   * Also extract lowercase noun compounds ("film director", "grocery chain") as 'Concept' entities.
   * Default false: on the bundled datasets they add ~1.3 entities per passage and mostly create
   * high-degree hub nodes ("film director") rather than real multi-hop bridges.
   */
  concepts?: boolean;
}

/** Synchronous extraction of one passage (the Extractor wraps this in a Promise). */
export function extractPassage(passage: PassageInput, options: OfflineExtractorOptions = {}): Extraction {
  // Some corpora space out intra-word hyphens ("Park Geun - hye", "person - centered"): rejoin them.
  const text = (passage.text ?? '').replace(/(\p{L}) - (?=\p{L})/gu, '$1-');
  const { doc, toks, sentSpans, sentTexts } = tokenize(text);

  const mentions: Mention[] = [];
  const sink: MentionSink = {
    add(m) {
      const key = m.key ?? normalizeName(m.name);
      if (!key) return;
      mentions.push({ ...m, key });
    },
  };
  const used = new Uint8Array(toks.length);
  findDateMentions(toks, used, sink);
  findNerMentions(doc, toks, used, sink);
  findQuotedMentions(toks, used, sink);
  findCapitalisedMentions(toks, used, sink);
  if (options.concepts) findConceptMentions(toks, used, sink);
  mentions.sort((a, b) => a.start - b.start || b.end - a.end);
  dropLoneSentenceInitialWords(mentions, toks, passage.title ?? '');

  // ---- entities (title first)
  const entities = new Map<string, EntityAcc>();
  const title = parseTitle(passage.title ?? '');
  const titleKey = normalizeName(title.name);
  const firstSentence = sentTexts[0] ?? text;
  if (titleKey) {
    const t = title.type ?? titleTypeFromText(firstSentence, text, title.name) ?? 'Entity';
    entities.set(titleKey, { key: titleKey, name: title.name, type: t, typeVotes: new Map([[t, 100]]), sentences: [], firstMention: undefined });
  }
  let aliasKey: string | undefined;
  if (title.alias) {
    aliasKey = normalizeName(title.alias);
    if (aliasKey && aliasKey !== titleKey && !entities.has(aliasKey)) {
      const t = entities.get(titleKey)?.type ?? 'Entity';
      entities.set(aliasKey, { key: aliasKey, name: title.alias, type: t, typeVotes: new Map([[t, 100]]), sentences: [], firstMention: undefined });
    }
  }
  // names inside the title and its disambiguator: "Prague astronomical clock" -> "Prague", "(Uganda)" -> "Uganda"
  const titleParts: string[] = [];
  if (titleKey) {
    const parts = [...(/\p{Ll}/u.test(title.short) ? namesIn(title.short) : []), ...(title.dis && /\p{Lu}/u.test(title.dis) ? namesIn(title.dis) : [])];
    const ownName = entities.get(titleKey)!.type === 'Person' ? personNameWords(title.name) : [];
    for (const m of parts) {
      if (m.key === titleKey || m.key === aliasKey || titleParts.includes(m.key) || ownName.includes(m.key)) continue;
      if (!m.key.includes(' ') && (GENERIC_HEADS.has(m.key) || JUNK_WORDS.has(m.key) || isTitleWord(m.key))) continue;
      titleParts.push(m.key);
      if (!entities.has(m.key)) entities.set(m.key, { key: m.key, name: m.name, type: m.type, typeVotes: new Map([[m.type, 0.5]]), sentences: [], firstMention: undefined });
    }
  }
  resolvePartialNames(mentions, titleKey ? { key: titleKey, name: title.name, type: entities.get(titleKey)!.type } : undefined);
  for (const m of mentions) {
    let e = entities.get(m.key);
    if (!e) {
      e = { key: m.key, name: m.name, type: m.type, typeVotes: new Map(), sentences: [], firstMention: m };
      entities.set(m.key, e);
    }
    e.firstMention ??= m;
    e.typeVotes.set(m.type, (e.typeVotes.get(m.type) ?? 0) + (m.type === 'Entity' ? 0.5 : 1));
    if (e.sentences[e.sentences.length - 1] !== m.sent) e.sentences.push(m.sent);
  }
  for (const e of entities.values()) {
    let best = e.type;
    let bestV = -1;
    for (const [t, v] of e.typeVotes) if (v > bestV) [best, bestV] = [t, v];
    e.type = best;
  }

  // ---- relations
  const relations: ExtractedRelation[] = [];
  const seen = new Set<string>();
  const addRel = (sk: string, predicate: string, ok: string): void => {
    if (sk === ok) return;
    const id = `${sk}\u0000${predicate}\u0000${ok}`;
    if (seen.has(id)) return;
    seen.add(id);
    seen.add(`${sk}\u0000${ok}`);
    relations.push({ subject: entities.get(sk)!.name, predicate, object: entities.get(ok)!.name });
  };
  const bySentence = new Map<number, Mention[]>();
  for (const m of mentions) {
    const list = bySentence.get(m.sent) ?? [];
    list.push(m);
    bySentence.set(m.sent, list);
  }
  const VALUE_TYPES = new Set(['Date', 'Number', 'Money', 'Percent']);
  const OBJECT_ONLY = new Set([...VALUE_TYPES, 'Nationality']); // "American" or "1975" is never the subject
  for (const [, all] of bySentence) {
    const list = all.filter((m) => m.primary);
    let count = 0;
    for (let i = 0; i < list.length && count < MAX_RELATIONS_PER_SENTENCE; i++) {
      const a = list[i];
      if (OBJECT_ONLY.has(a.type)) continue;
      // nearest pairs only: the next two names and the next value (date/number/nationality) after `a`
      let names = 0;
      let values = 0;
      for (let j = i + 1; j < list.length && (names < 2 || values < 1) && count < MAX_RELATIONS_PER_SENTENCE; j++) {
        const b = list[j];
        if (b.start <= a.end || a.key === b.key) continue;
        const isValue = OBJECT_ONLY.has(b.type);
        if (isValue ? values >= 1 : names >= 2) continue;
        if (isValue) values++;
        else names++;
        if (seen.has(`${a.key}\u0000${b.key}`) || seen.has(`${b.key}\u0000${a.key}`)) continue;
        let pred = predicateBetween(toks, a.end + 1, b.start) ?? 'related_to';
        if (names === 1 && !isValue && isAliasLink(toks, a, b, pred)) pred = ALIAS_PREDICATE;
        // "He moved to Nashville, Tennessee and joined the Opry": a name inside a prepositional phrase is not the
        // subject of a verb that follows it
        else if (!pred.endsWith('_of') && pred !== 'related_to' && isPrepositionalObject(toks, a.start)) pred = 'related_to';
        addRel(a.key, pred, b.key);
        count++;
      }
    }
    // components and variants hang off the name they were taken from
    for (const m of all) {
      if (m.primary || !m.parent || m.parent === m.key || !entities.has(m.parent)) continue;
      if (!seen.has(`${m.parent}\u0000${m.key}`)) addRel(m.parent, m.variant ? ALIAS_PREDICATE : 'related_to', m.key);
    }
  }
  if (titleKey && aliasKey && entities.has(aliasKey) && aliasKey !== titleKey) addRel(titleKey, ALIAS_PREDICATE, aliasKey);
  for (const k of titleParts) addRel(titleKey, 'related_to', k);

  // title -> every other entity
  if (titleKey) {
    const titleMentionsBySent = new Map<number, Mention>();
    for (const m of mentions) if ((m.key === titleKey || m.key === aliasKey) && !titleMentionsBySent.has(m.sent)) titleMentionsBySent.set(m.sent, m);
    for (const e of entities.values()) {
      if (e.key === titleKey || e.key === aliasKey || !e.firstMention) continue;
      const m = e.firstMention;
      if (seen.has(`${titleKey}\u0000${e.key}`) || seen.has(`${e.key}\u0000${titleKey}`)) continue;
      const sentStart = sentSpans[m.sent]?.[0] ?? 0;
      const tm = titleMentionsBySent.get(m.sent);
      let pred: string | undefined;
      const from = tm && tm.end < m.start ? tm.end + 1 : !tm && refersToTitle(toks, sentStart, m.sent) ? sentStart : -1;
      // the sentence's verb only when no other name stands between the title and this entity
      // the sentence's verb when no other name stands between the title and this entity; otherwise only a
      // verb or "<noun> of" that follows the last name in between ("... in 1949 and joined the Opry")
      let lastBetween = -1;
      for (const o of mentions) if (o.primary && o.start >= from && o.end < m.start && o.key !== titleKey && !OBJECT_ONLY.has(o.type)) lastBetween = Math.max(lastBetween, o.end);
      if (from >= 0) pred = predicateBetween(toks, lastBetween >= 0 ? lastBetween + 1 : from, m.start);
      addRel(titleKey, pred ?? 'mentions', e.key);
    }
  }

  // ---- descriptions
  const out: ExtractedEntity[] = [];
  for (const e of entities.values()) {
    let description: string;
    if (e.key === titleKey || e.key === aliasKey) {
      let d = '';
      for (const s of sentTexts) {
        if (d.length >= 120) break;
        d += (d ? ' ' : '') + s;
      }
      description = truncate(d || text);
    } else if (e.sentences.length > 0) {
      description = truncate(e.sentences.map((s) => sentTexts[s] ?? '').join(' '));
    } else {
      description = truncate(`${passage.title}: ${sentTexts[0] ?? text}`);
    }
    out.push({ name: e.name, type: e.type, description });
  }
  return { entities: out, relations };
}

/** Whether a sentence without an explicit title mention is about the title (first sentence, pronoun or "The film ..." start). */
function refersToTitle(toks: Tok[], sentStart: number, sent: number): boolean {
  if (sent === 0) return true;
  const t0 = toks[sentStart];
  if (!t0) return false;
  if (PRONOUN_STARTS.has(t0.lower)) return true;
  const t1 = toks[sentStart + 1];
  const t2 = toks[sentStart + 2];
  return t0.lower === 'the' && !!t1 && t1.pos === 'NOUN' && !!t2 && (t2.pos === 'AUX' || t2.pos === 'VERB');
}

export function createOfflineExtractor(options: OfflineExtractorOptions = {}): Extractor {
  const opts = { ...options };
  return {
    id: opts.concepts ? `${OFFLINE_EXTRACTOR_ID}+concepts` : OFFLINE_EXTRACTOR_ID,
    async extract(passage: PassageInput): Promise<Extraction> {
      return extractPassage(passage, opts);
    },
  };
}
