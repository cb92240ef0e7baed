/**
 * A passage's relations: a sentence's opening kin phrase ("The son of X, he ...", "His father John Smith ..."), its
 * parents or spouse after "born/married ... to", nearest co-occurring pairs in each sentence, components and variants of
 * long names, the title's alias and parts, and the title -> every other entity.
 */
import { ALIAS_PREDICATE, LITERAL_TYPES, normalizeName } from '../../graph/facts.js';
import type { ExtractedRelation } from '../types.js';
import type { Entities, TitleKeys } from './entities.js';
import { isAliasLink, isPrepositionalObject, predicateBetween, titleSubjectStart } from './predicates.js';
import { PERSON_TITLES } from './lexicon.js';
import { sentEndOf, sentStartOf, type Mention, type Tok } from './tokens.js';

/** Maximum co-occurrence relations produced per sentence. */
export const MAX_RELATIONS_PER_SENTENCE = 10;

/** "American" or "1975" is never the subject. */
const OBJECT_ONLY: ReadonlySet<string> = new Set(LITERAL_TYPES);

/** The relations found so far; at most one per (subject, predicate, object), and none from an entity to itself. */
class RelationSet {
  readonly relations: ExtractedRelation[] = [];
  /** The keys of each relation's subject and object, by index. */
  private readonly ends: Array<[string, string]> = [];
  /** Triples added, and the directed pairs they link. */
  private readonly seen = new Set<string>();

  constructor(private readonly entities: Entities) {}

  add(sk: string, predicate: string, ok: string): void {
    if (sk === ok) return;
    const id = `${sk}\u0000${predicate}\u0000${ok}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.seen.add(`${sk}\u0000${ok}`);
    this.relations.push({ subject: this.entities.get(sk)!.name, predicate, object: this.entities.get(ok)!.name });
    this.ends.push([sk, ok]);
  }

  /**
   * Gives `to` every relation `from` is the subject of (but those to `to` and to `except`); where `to` is linked to the
   * object already, only a verb, in place of its own `related_to`.
   */
  copySubject(from: string, to: string, except: readonly string[]): void {
    const n = this.relations.length;
    for (let i = 0; i < n; i++) {
      const [sk, ok] = this.ends[i];
      if (sk !== from || ok === to || except.includes(ok)) continue;
      const { predicate } = this.relations[i];
      if (!this.linked(to, ok)) this.add(to, predicate, ok);
      else if (predicate !== 'related_to' && predicate !== 'mentions') this.refine(to, ok, predicate);
    }
  }

  /** Gives the `related_to` relation from `sk` to `ok`, if there is one, the predicate instead. */
  refine(sk: string, ok: string, predicate: string): void {
    const i = this.ends.findIndex(([s, o], j) => s === sk && o === ok && this.relations[j].predicate === 'related_to');
    if (i < 0 || this.seen.has(`${sk}\u0000${predicate}\u0000${ok}`)) return;
    this.seen.delete(`${sk}\u0000related_to\u0000${ok}`);
    this.seen.add(`${sk}\u0000${predicate}\u0000${ok}`);
    this.relations[i].predicate = predicate;
  }

  /** Whether a relation from `sk` to `ok` exists. */
  has(sk: string, ok: string): boolean {
    return this.seen.has(`${sk}\u0000${ok}`);
  }

  /** Whether a relation links the two, in either direction. */
  linked(a: string, b: string): boolean {
    return this.has(a, b) || this.has(b, a);
  }
}

export function extractRelations(toks: Tok[], sentSpans: number[][], mentions: Mention[], entities: Entities, keys: TitleKeys): ExtractedRelation[] {
  const rels = new RelationSet(entities);
  const bySentence = new Map<number, Mention[]>();
  for (const m of mentions) {
    const list = bySentence.get(m.sent) ?? [];
    list.push(m);
    bySentence.set(m.sent, list);
  }
  for (const [, all] of bySentence) {
    const primary = all.filter((m) => m.primary);
    addFrontedKin(rels, toks, sentSpans, primary, keys.titleKey);
    addPossessiveKin(rels, toks, sentSpans, primary, keys.titleKey);
    addKinTo(rels, toks, sentSpans, primary, all, keys.titleKey);
    addCooccurrences(rels, toks, primary, keys.titleKey);
    // components and variants hang off the name they were taken from
    for (const m of all) {
      if (m.primary || !m.parent || m.parent === m.key || !entities.has(m.parent)) continue;
      if (!rels.has(m.parent, m.key)) rels.add(m.parent, m.variant ? ALIAS_PREDICATE : 'related_to', m.key);
    }
  }
  const { titleKey, aliasKey } = keys;
  if (titleKey && aliasKey && entities.has(aliasKey) && aliasKey !== titleKey) rels.add(titleKey, ALIAS_PREDICATE, aliasKey);
  for (const k of keys.parts) rels.add(titleKey, 'related_to', k);
  if (titleKey) addTitleRelations(rels, toks, sentSpans, mentions, entities, keys);
  // "The Picture of Dorian Gray (1913 film)": the page's relations are the title's, and also its short form's, the name
  // that namesakes share and a question that does not write the disambiguator asks about
  if (titleKey && aliasKey && aliasKey !== titleKey && entities.has(aliasKey)) rels.copySubject(titleKey, aliasKey, keys.parts);
  return rels.relations;
}

/** The kin nouns a sentence may open with ("The son of X, he ..."). */
const KIN_NOUNS = new Set(['son', 'daughter', 'child', 'grandson', 'granddaughter', 'nephew', 'niece', 'brother', 'sister', 'widow', 'wife', 'husband']);

/**
 * A sentence that opens with a kin phrase: "The son of Henry Sturt, he was created ...", "Daughter of King Constantine I
 * of Greece and his wife, Princess Sophia of Prussia, Princess Helen spent ...". Its subject (the title for "he" or
 * "she" after a comma; else the first name after a comma that a verb follows) is <kin>_of every name in the phrase.
 * Before the co-occurrence pass, so the pairs it links get no other predicate. `primary` are the sentence's primary mentions.
 */
function addFrontedKin(rels: RelationSet, toks: Tok[], sentSpans: number[][], primary: readonly Mention[], titleKey: string | undefined): void {
  const names = primary.filter((m) => !OBJECT_ONLY.has(m.type));
  if (names.length === 0) return;
  const [start, end] = sentSpans[names[0].sent] ?? [0, -1];
  let i = start;
  if (toks[i]?.pos === 'DET') i++;
  // "eldest", "second", "only", "illegitimate": at most two lower-case words before the kin noun
  for (let n = 0; n < 2 && i <= end && !toks[i].cap && !KIN_NOUNS.has(toks[i].lower) && (toks[i].pos === 'ADJ' || toks[i].pos === 'NUM'); n++) i++;
  if (i + 1 > end || !KIN_NOUNS.has(toks[i].lower) || toks[i + 1].lower !== 'of') return;
  const kin = toks[i].lower;
  for (let j = i + 2; j < end; j++) {
    if (toks[j].value !== ',') continue;
    const next = toks[j + 1];
    const named = names.find((m) => m.start === j + 1);
    let subject: string | undefined;
    if (next.lower === 'he' || next.lower === 'she') subject = titleKey;
    else if (named && (toks[named.end + 1]?.pos === 'VERB' || toks[named.end + 1]?.pos === 'AUX')) subject = asTitle(named, titleKey);
    else continue;
    if (!subject) return;
    for (const p of names) if (p.start > i + 1 && p.end < j && p.key !== subject) rels.add(subject, `${kin}_of`, p.key);
    return;
  }
}

/** The kin nouns after "His" or "Her" that name the title's kin ("His father John Smith", "Her elder sister, Mary"). */
const POSSESSIVE_KIN = new Set([...KIN_NOUNS, 'father', 'mother', 'grandfather', 'grandmother', 'uncle', 'aunt', 'cousin', 'stepfather', 'stepmother']);

/**
 * Where a sentence that opens with "His", "Her" or "Their" and a kin noun names that kin: "His brother Carlos Torres
 * Ríos was ...", "His father, John Smith, was ...", "Her mother was Mary Jones" (at most two lower-case words before the
 * noun: "His elder brother", "Her only son"). The token index of the kin noun and of the name's first token, or undefined.
 */
function possessiveKinAt(toks: Tok[], sentStart: number, sentEnd: number): { kin: number; name: number } | undefined {
  if (!['his', 'her', 'their'].includes(toks[sentStart]?.lower ?? '')) return undefined;
  let i = sentStart + 1;
  // wink tags "elder" a noun
  for (let n = 0; n < 2 && i <= sentEnd && !toks[i].cap && !POSSESSIVE_KIN.has(toks[i].lower) && ['ADJ', 'NUM', 'NOUN'].includes(toks[i].pos); n++) i++;
  if (i + 1 > sentEnd || !POSSESSIVE_KIN.has(toks[i].lower)) return undefined;
  let after = toks[i + 1].value === ',' || toks[i + 1].pos === 'AUX' ? i + 2 : i + 1;
  // "Their daughter was the novelist and poet Vita Sackville-West": the kin's descriptive words after "was the"
  if (toks[i + 1].pos === 'AUX' && toks[after]?.lower === 'the') {
    let k = after + 1;
    for (let n = 0; n < 4 && k <= sentEnd && !toks[k].cap && ['ADJ', 'NOUN', 'CCONJ'].includes(toks[k].pos); n++) k++;
    if (k > after + 1 && k <= sentEnd && toks[k].cap) after = k;
  }
  return after <= sentEnd ? { kin: i, name: after } : undefined;
}

/**
 * "His father John Smith ...", "Her mother was Mary Jones": the name is <kin>_of the title (John Smith father_of the
 * title), the direction the other kin facts take ("A son_of B": A is B's son). Before the co-occurrence and title
 * passes, so the pair gets no other predicate. `primary` are the sentence's primary mentions.
 */
function addPossessiveKin(rels: RelationSet, toks: Tok[], sentSpans: number[][], primary: readonly Mention[], titleKey: string | undefined): void {
  if (!titleKey || primary.length === 0) return;
  const [start, end] = sentSpans[primary[0].sent] ?? [0, -1];
  const at = possessiveKinAt(toks, start, end);
  const named = at && primary.find((m) => m.start === at.name && (m.type === 'Person' || m.type === 'Entity'));
  if (!at || !named || named.key === titleKey || rels.linked(named.key, titleKey)) return;
  // as written: not a lone first name read as a person named earlier ("His younger brother Thomas" is no Thomas Harley)
  if (
    normalizeName(
      toks
        .slice(named.start, named.end + 1)
        .map((t) => t.value)
        .join(' '),
    ) !== named.key
  )
    return;
  // "His father, John Smith, was ...": an apposition closes with a comma ("His mother, Johann Ernst and his brothers" is a list)
  if (toks[at.kin + 1].value === ',' && toks[named.end + 1]?.value !== ',') return;
  rels.add(named.key, `${toks[at.kin].lower}_of`, titleKey);
}

/**
 * Kin verbs whose person comes after "to", past places and dates: "She was born in England to John II, Duke of Brittany
 * and Beatrice of England" (the parents), "He was married at Covington, Kentucky, on February 23, 1898, to Julia Arthur"
 * (the spouse). The predicate each writes; whether names coordinated with the first are more of them (parents are;
 * "married in 1244 to A, and had B" names one spouse); and whether the sentence's opening subject is the verb's when no
 * name stands right before it (a birth sentence is about its subject; a marriage names both).
 */
const TO_VERBS: ReadonlyMap<string, { predicate: string; coordinated: boolean; opening: boolean }> = new Map([
  ['born', { predicate: 'child_of', coordinated: true, opening: true }],
  ['married', { predicate: 'married_to', coordinated: false, opening: false }],
]);

/**
 * A kin verb's person after "to" (TO_VERBS). Only places, dates, parenthesised asides and the words of BORN_PLACE_WORDS
 * stand between the verb and "to"; the name comes right after "to" (at most two lower-case words between: "to actress
 * Siri Schnéevoigt"), and is no place, organisation or "<nationality> parents". The subject (verbSubject) takes the
 * verb's predicate to that name, to the names coordinated with it for "born" ("born at Dublin to Alice Maud Knox, and her
 * husband, John Henry Pigot"), and to their whole names ("John II, Duke of Brittany", a variant of "John II"). Before
 * the co-occurrence pass, like the fronted kin. `primary` are the sentence's primary mentions, `all` all its mentions.
 */
function addKinTo(
  rels: RelationSet,
  toks: Tok[],
  sentSpans: number[][],
  primary: readonly Mention[],
  all: readonly Mention[],
  titleKey: string | undefined,
): void {
  const names = primary.filter((m) => !OBJECT_ONLY.has(m.type));
  if (names.length === 0) return;
  const [start, end] = sentSpans[names[0].sent] ?? [0, -1];
  for (let at = start; at <= end; at++) {
    const verb = TO_VERBS.get(toks[at].lower);
    const to = verb && toAfter(toks, at, end);
    if (!verb || to === undefined) continue;
    // The person: a name no place or organisation, not "Russian-Jewish parents".
    const first = names.find((m) => m.start > to && m.start <= to + 3);
    if (!first || first.type === 'Place' || first.type === 'Organization' || toks[first.end + 1]?.lower === 'parents') continue;
    // Only lower-case words between ("to actress X"), not "to parents from X" nor "to his Punar Milan co-star".
    const between = toks.slice(to + 1, first.start);
    if (between.some((t) => t.cap || t.kind !== 'word' || t.lower === 'parents') || ['his', 'her', 'their'].includes(toks[first.start - 1].lower)) continue;
    const subject = verbSubject(toks, primary, at, start, verb.opening, titleKey);
    if (!subject) continue;
    const objects = [first];
    for (const m of names) {
      if (!verb.coordinated || m.start <= objects[objects.length - 1].end || objects.length >= 4) continue;
      if (coordinatedBefore(toks, names, m, to) !== objects[objects.length - 1]) break;
      objects.push(m);
    }
    const whole = all.filter((v) => !v.primary && v.variant && objects.some((o) => o.key === v.parent));
    for (const o of [...objects, ...whole]) if (o.key !== subject && !rels.linked(subject, o.key)) rels.add(subject, verb.predicate, o.key);
  }
}

/** Words between a subject and its verb: "she was later married", "he had been born". */
const VERB_LEAD = new Set(['was', 'were', 'is', 'had', 'has', 'been', 'later', 'first', 'then', 'also', 'subsequently', 'briefly', 'once']);

/**
 * The subject of a kin verb at `at`: the title for "he" or "she" (pronounAt); else the name right before the verb
 * ("Isabella of Portugal was married to", "Mathilde (also Machteld), who was married to"); else the sentence's opening
 * subject: for a birth (`opening`) "he"/"she" (the title) or its first name ('Hermann II, called "the Scholar", was
 * born'), for another verb only a first name that is the title. A name that is the title's shortened ("Pettersen") is
 * the title.
 */
function verbSubject(toks: Tok[], primary: readonly Mention[], at: number, start: number, opening: boolean, titleKey: string | undefined): string | undefined {
  let k = verbLead(toks, at, start);
  if (pronounAt(toks, k, start)) return titleKey;
  if (toks[k]?.lower === 'who') k -= toks[k - 1]?.value === ',' ? 2 : 1;
  for (let depth = 0; k >= start && (depth > 0 || toks[k].value === ')'); k--) {
    if (toks[k].value === ')') depth++;
    else if (toks[k].value === '(') depth--;
  }
  const adjacent = primary.find((m) => m.end === k && !OBJECT_ONLY.has(m.type));
  if (adjacent) return asTitle(adjacent, titleKey);
  // The sentence's opening subject: "he"/"she" or its first name, for a birth; for another verb only when it is the title
  // ("Yolande Louise of Savoy (1487–1499), was a Duchess Consort of Savoy; married to Philibert II").
  if (toks[start]?.lower === 'he' || toks[start]?.lower === 'she') return opening ? titleKey : undefined;
  const firstName = nameBefore(primary, at);
  if (opening) return asTitle(firstName, titleKey);
  return firstName?.start === start && asTitle(firstName, titleKey) === titleKey ? titleKey : undefined;
}

/** The token before the verb at `at` and the words that lead to it ("was later", "had been"). */
function verbLead(toks: Tok[], at: number, start: number): number {
  let k = at - 1;
  while (k >= start && VERB_LEAD.has(toks[k].lower)) k--;
  return k;
}

/**
 * Whether "he" or "she" is the verb's subject, `k` the token before the verb and its lead (verbLead): that token ("The
 * daughter of X, she was married in 1781 to ..."), or the sentence's opening one when the verb follows "and" ("She was
 * the daughter of X and married in 1781 to ...").
 */
function pronounAt(toks: Tok[], k: number, start: number): boolean {
  const pronoun = (t: Tok | undefined) => t?.lower === 'he' || t?.lower === 'she';
  return k >= start && (pronoun(toks[k]) || (toks[k].lower === 'and' && pronoun(toks[start])));
}

/** The "to" after the verb at `at`, past places, dates, asides and BORN_PLACE_WORDS only (at most 20 tokens), or undefined. */
function toAfter(toks: Tok[], at: number, end: number): number | undefined {
  for (let k = at + 1, depth = 0; k <= end && k <= at + 20; k++) {
    const t = toks[k];
    if (t.value === '(') depth++;
    else if (t.value === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && t.lower === 'to') return k;
    else if (depth === 0 && !(t.kind === 'number' || t.cap || BORN_PLACE_WORDS.has(t.lower) || t.lower === 'and' || t.lower === 'between')) return undefined;
  }
  return undefined;
}

/** Whether a name is the title's, shortened: its words but titles ("Princess Helen") are all the title's ("Helen of Greece and Denmark"). */
function namesTitle(key: string, titleKey: string): boolean {
  const own = key.split(' ').filter((w) => !PERSON_TITLES.has(w));
  const title = new Set(titleKey.split(' '));
  return own.length > 0 && own.every((w) => title.has(w));
}

/** A name as a subject: the title when it is the title's name shortened (namesTitle), else itself; undefined for none. */
function asTitle(m: Mention | undefined, titleKey: string | undefined): string | undefined {
  return m && titleKey && namesTitle(m.key, titleKey) ? titleKey : m?.key;
}

const CLAUSE_OPENERS = new Set([',', ';', 'where', 'when', 'while', 'whereas', 'after', 'before', 'until']);

/**
 * Whether a name stands after a clause opener and before a verb of its own: "..., where Isabella of Portugal was married".
 * Not a comma after a name ("a house in Kirkwood, Missouri designed by ..."), "and" without a comma ("She and Richard
 * Abruzzo won") nor a passive participle ("designed by").
 */
function opensOwnClause(toks: Tok[], m: Mention): boolean {
  const sent = toks[m.start].sent;
  let k = m.start - 1;
  while (k >= 0 && toks[k].sent === sent && toks[k].pos === 'DET') k--;
  // "and" or "but" only after a comma: "She and Richard Abruzzo won" has one subject
  if (k > 0 && (toks[k].lower === 'and' || toks[k].lower === 'but') && toks[k - 1].value === ',') k--;
  // "His brother Carlos was ...", "Her mother, Mary Jones, died in 1900": the kin's own clause
  const kin = possessiveKinAt(toks, sentStartOf(toks, m.start), sentEndOf(toks, m.start));
  if (kin?.name === m.start && toks[kin.kin + 1]?.pos !== 'AUX') {
    const verb = toks[m.end + 1]?.value === ',' ? toks[m.end + 2] : toks[m.end + 1];
    return verb?.sent === sent && (verb.pos === 'AUX' || verb.pos === 'VERB');
  }
  if (k < 0 || toks[k].sent !== sent || !CLAUSE_OPENERS.has(toks[k].lower) || (toks[k].value === ',' && toks[k - 1]?.cap)) return false;
  const [verb, next] = [toks[m.end + 1], toks[m.end + 2]];
  return verb?.sent === sent && (verb.pos === 'AUX' || (verb.pos === 'VERB' && next?.lower !== 'by'));
}

/**
 * Whether "who" follows a person's name ("actor Todd Allen who were married from 1990", "Mick Fleetwood, who later
 * formed"): its clause's verb is that person's. Not "which" ("an institution of India, which was established in 1968").
 */
function opensRelativeClause(toks: Tok[], m: Mention): boolean {
  const k = toks[m.end + 1]?.value === ',' ? m.end + 2 : m.end + 1;
  return m.type === 'Person' && toks[k]?.sent === toks[m.start].sent && toks[k].lower === 'who';
}

/** Whether a name between a and b has b in a "<noun> of" apposition: "A married B, daughter of C". */
function appositionOfBetween(toks: Tok[], list: Mention[], a: Mention, b: Mention): boolean {
  const between = list.filter((m) => m.start > a.end && m.end < b.start && !OBJECT_ONLY.has(m.type));
  const last = between[between.length - 1];
  // not a kin phrase coordinated with the one the name in between is the object of, when a is their subject ("A was
  // the son of B, and grandson of C")
  return (
    last !== undefined &&
    toks[last.end + 1]?.value === ',' &&
    (predicateBetween(toks, last.end + 1, b.start) ?? '').endsWith('_of') &&
    !(coordinatedKinObject(toks, last) && !kinObject(toks, a))
  );
}

/**
 * Mention a is the object of a kin phrase ("the son of [the film director] A") and an "and" follows it, after at most a comma: the
 * kin phrase after that "and" ("and the father of B", ", and grandson of B") is coordinated with the first, so it
 * belongs to that phrase's subject.
 */
function coordinatedKinObject(toks: Tok[], a: Mention): boolean {
  let n = a.end + 1;
  if (toks[n]?.value === ',') n++;
  return toks[n]?.lower === 'and' && kinObject(toks, a);
}

/** Mention m is the object of a kin phrase, or coordinated with it: "son of [the film director] m", "child of A and m". */
function kinObject(toks: Tok[], m: Mention): boolean {
  const describes = (t: Tok | undefined) => t !== undefined && t.sent === m.sent && !t.cap && ['DET', 'ADJ', 'NOUN'].includes(t.pos);
  let k = m.start - 1;
  for (let n = 0; n < 6 && describes(toks[k]); n++) k--;
  if (toks[k]?.lower === 'and') {
    k--;
    for (let n = 0; n < 6 && toks[k]?.sent === m.sent && toks[k].cap; n++) k--;
    for (let n = 0; n < 6 && describes(toks[k]); n++) k--;
  }
  return toks[k]?.lower === 'of' && KIN_OF.test(`${toks[k - 1]?.lower ?? ''}_of`);
}

/** Nearest co-occurring pairs among the primary mentions of one sentence. */
function addCooccurrences(rels: RelationSet, toks: Tok[], list: Mention[], titleKey: string | undefined): void {
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
      if (rels.linked(a.key, b.key)) continue;
      let pred = predicateBetween(toks, a.end + 1, b.start) ?? coordinatedPredicate(toks, list, a.end + 1, b) ?? 'related_to';
      if (names === 1 && !isValue && isAliasLink(toks, a, b, pred)) pred = ALIAS_PREDICATE;
      // "He moved to Nashville, Tennessee and joined the Opry": a name inside a prepositional phrase is not the
      // subject of a verb that follows it
      else if (!pred.endsWith('_of') && pred !== 'related_to' && isPrepositionalObject(toks, a.start)) pred = 'related_to';
      // "married to Polish film director Roman Polanski": the nationality describes the name after it, which the
      // predicate reaches ("married_to Roman Polanski"); it is not the predicate's object itself
      else if (pred !== 'related_to' && describesNextName(toks, list, b)) pred = 'related_to';
      // "Wingfield married Lady Julia Coke, daughter of the Earl of Leicester": a "<noun> of" in apposition to a name in
      // between is that name's (the pair after it gets it), not a's
      else if (names === 2 && appositionOfBetween(toks, list, a, b)) pred = 'related_to';
      // "the son of Kızıl Buğa and the father of Suleyman Shah": a kin phrase coordinated with the one a is the object of
      // has that phrase's subject, not a (Kızıl Buğa is no one's father here)
      else if (KIN_OF.test(pred) && coordinatedKinObject(toks, a)) pred = 'related_to';
      // "Hermann II ... was born in 1345 in Burg Grebenstein, the son of Louis the Junker": the place of birth is no
      // one's son; the kin relation is the person's born before it, when the sentence names one (the title's, when
      // that name is the title's shortened)
      else if (KIN_OF.test(pred)) {
        const born = bornAt(toks, a);
        if (born !== undefined) {
          const subject = asTitle(nameBefore(list, born), titleKey);
          if (subject && !rels.linked(subject, b.key)) rels.add(subject, pred, b.key);
          pred = 'related_to';
        }
      }
      rels.add(a.key, pred, b.key);
      count++;
    }
  }
}

/** Kin predicates ("son_of", "eldest_daughter_of"): their subject is a person. */
const KIN_OF = new RegExp(`(?:^|_)(?:${[...KIN_NOUNS, 'father', 'mother', 'heir'].join('|')})_of$`);

/** Words that may stand between "born" and the place it introduces: "born in 1345 in", "born on 8 May 1866 at". */
const BORN_PLACE_WORDS = new Set(['in', 'at', 'near', 'on', ',', '(', ')', 'c', 'c.', 'circa', 'about']);

/**
 * The token index of the "born" whose place mention m is ("born in 1345 in Burg Grebenstein", "born at New Haven,
 * Connecticut"), or undefined: looking back at most 12 tokens of m's sentence through numbers, months and other
 * capitalised words, commas and "in", "at", "on".
 */
function bornAt(toks: Tok[], m: Mention): number | undefined {
  for (let k = m.start - 1; k >= 0 && k >= m.start - 12 && toks[k].sent === m.sent; k--) {
    const t = toks[k];
    if (t.lower === 'born') return toks[k + 1] && ['in', 'at', 'near', 'on'].includes(toks[k + 1].lower) ? k : undefined;
    if (!(t.kind === 'number' || t.cap || BORN_PLACE_WORDS.has(t.lower))) return undefined;
  }
  return undefined;
}

/** The sentence's first name (no value), when it ends before token `at`: "Hermann II" for 'Hermann II, called "the Scholar", was born in'. */
function nameBefore(list: readonly Mention[], at: number): Mention | undefined {
  let first: Mention | undefined;
  for (const o of list) if (!OBJECT_ONLY.has(o.type) && (!first || o.start < first.start)) first = o;
  return first && first.end < at ? first : undefined;
}

/**
 * Whether nationality mention b describes the name that follows it: only lower-case nouns and adjectives (at most
 * three: "film director", "alternative rock band") and articles ("rock band the Beach Boys") stand between b and the
 * sentence's next mention, itself no value.
 */
function describesNextName(toks: Tok[], list: readonly Mention[], b: Mention): boolean {
  if (b.type !== 'Nationality') return false;
  let next: Mention | undefined;
  for (const o of list) if (o.sent === b.sent && o.start > b.end && (!next || o.start < next.start)) next = o;
  if (!next || OBJECT_ONLY.has(next.type)) return false;
  let words = 0;
  for (let i = b.end + 1; i < next.start; i++) {
    const t = toks[i];
    if (t.kind !== 'word' || t.cap) return false;
    if (t.pos === 'DET') continue;
    if ((t.pos !== 'NOUN' && t.pos !== 'ADJ') || ++words > 3) return false;
  }
  return true;
}

/** What may stand between two coordinated names: "A and B", "A, B", "A or B", "A and of his wife B", "A and his wife, née B". */
const COORDINATION_WORDS = new Set([',', 'and', 'or', '&', 'of', 'the', 'his', 'her', 'their', 'wife', 'husband', 'spouse', 'consort', 'nee']);

/** An ordinal before a title: "William Douglas, 7th Earl of Morton". */
const ORDINAL = /^\d+(st|nd|rd|th)$/i;

/**
 * The name coordinated before `m` in its sentence ("the son of A and B": A, for B), not starting before `from`: the
 * nearest earlier name, when only commas, "and", "or", "of", "his wife" and closed parenthesised asides ("A (died 1563)
 * and his wife, née B") stand between them, with at least one comma or conjunction. A value (a date, a nationality) is
 * never coordinated. `names` are the sentence's primary mentions.
 */
function coordinatedBefore(toks: Tok[], names: readonly Mention[], m: Mention, from: number): Mention | undefined {
  let prev: Mention | undefined;
  // the last name before m; of two that end together, the longer
  for (const o of names)
    if (o.sent === m.sent && o.end < m.start && o.start >= from && (!prev || o.end > prev.end || (o.end === prev.end && o.start < prev.start))) prev = o;
  if (!prev || OBJECT_ONLY.has(prev.type)) return undefined;
  let depth = 0;
  let joined = false;
  for (let i = prev.end + 1; i < m.start; i++) {
    const v = toks[i].value;
    if (v === '(') depth++;
    else if (v === ')') {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0) {
      if (!COORDINATION_WORDS.has(toks[i].lower)) return undefined;
      if (v === ',' || toks[i].lower === 'and' || toks[i].lower === 'or' || v === '&') joined = true;
    }
  }
  if (depth !== 0 || !joined) return undefined;
  // "William Douglas, 7th Earl of Morton and Lady Anne Keith": a title after a comma and an ordinal is the man's before it,
  // who is the name coordinated (the title alone, shared by every earl, is not)
  const person = names.find((o) => o.sent === m.sent && o.start >= from && o.end === prev.start - 3);
  return person && ORDINAL.test(toks[prev.start - 1].value) && toks[prev.start - 2].value === ',' ? person : prev;
}

/**
 * "X was the son of A and B": the predicate from `from` to the first name coordinated with b that has one (A's
 * "son_of"), or undefined.
 */
function coordinatedPredicate(toks: Tok[], names: readonly Mention[], from: number, b: Mention): string | undefined {
  for (let c = coordinatedBefore(toks, names, b, from); c; c = coordinatedBefore(toks, names, c, from)) {
    const p = predicateBetween(toks, from, c.start);
    if (p !== undefined) return p;
  }
  return undefined;
}

/**
 * Title -> every other entity: the verb of the first of its mentions that a sentence about the title links to it (a title
 * mention before it, else the subject titleSubjectStart finds: a pronoun, "The film ...", a part of the film, a participle
 * fragment, "the film ..." after an opening phrase), else "mentions". A pair already linked keeps its link; the verb
 * replaces its "related_to".
 */
function addTitleRelations(
  rels: RelationSet,
  toks: Tok[],
  sentSpans: number[][],
  mentions: Mention[],
  entities: Entities,
  { titleKey, aliasKey }: TitleKeys,
): void {
  const titleMentionsBySent = new Map<number, Mention>();
  for (const m of mentions) if ((m.key === titleKey || m.key === aliasKey) && !titleMentionsBySent.has(m.sent)) titleMentionsBySent.set(m.sent, m);
  const names = mentions.filter((o) => o.primary && o.key !== titleKey && !OBJECT_ONLY.has(o.type));
  // the sentence's verb when no other name stands between the title and m; otherwise only a verb or "<noun> of" that
  // follows the last name in between ("... in 1949 and joined the Opry"), or the predicate of a name m is coordinated
  // with ("was the son of A and B")
  const predicateAt = (m: Mention, from: number): string | undefined => {
    let lastBetween = -1;
    for (const o of names) if (o.start >= from && o.end < m.start) lastBetween = Math.max(lastBetween, o.end);
    // the last name in between
    const before = names.find((o) => o.end === lastBetween);
    // "..., where Isabella of Portugal was married to Duke Philip": a name that opens a clause of its own, with its own
    // verb, is that verb's subject, unless the title names it ("Target profile of X": "In vitro, X binds Y")
    if (before && !` ${titleKey} `.includes(` ${before.key} `) && (opensOwnClause(toks, before) || opensRelativeClause(toks, before))) return undefined;
    const p = predicateBetween(toks, lastBetween >= 0 ? lastBetween + 1 : from, m.start);
    // "son of Godfrey I and Matilda Billung, daughter of Herman": a kin noun in apposition to a name the title is kin to
    // (or married to) describes that name, not the title; the co-occurrence pass gives it that name. Only right after the
    // comma, no verb, "and" or "the" before its "of" ("son of A, and the grandson of B", "granddaughter of A, the daughter of B": a
    // list of the title's kin), and not after a name the title is no kin to ("Count of Hesbaye and Count of Wormsgau, son
    // of Robert I", "a member of the House of Dampierre, the son of").
    if (p !== undefined && before && KIN_OF.test(p) && toks[lastBetween + 1]?.value === ',') {
      let of = m.start - 1;
      while (of > lastBetween && toks[of].lower !== 'of') of--;
      const apposition = toks.slice(lastBetween + 2, of).every((t) => t.lower !== 'and' && t.lower !== 'the' && !t.cap && t.pos !== 'VERB' && t.pos !== 'AUX');
      // the title's kin: the name a possessive kin phrase names ("His mother was Georgina, daughter of George Dodwell"), or
      // one a kin or marriage predicate links to the title (read only for an apposition)
      const titleKin = (): boolean => {
        if (possessiveKinAt(toks, sentStartOf(toks, before.start), sentEndOf(toks, before.start))?.name === before.start) return true;
        const kinOfTitle = predicateAt(before, from);
        return kinOfTitle !== undefined && (KIN_OF.test(kinOfTitle) || /marr|wife|husband|spouse/.test(kinOfTitle));
      };
      if (apposition && titleKin()) return undefined;
    }
    if (p !== undefined || lastBetween < 0) return p;
    const c = coordinatedBefore(toks, names, m, from);
    return c ? predicateAt(c, from) : undefined;
  };
  const predicateOf = (m: Mention): string | undefined => {
    const sentStart = sentSpans[m.sent]?.[0] ?? 0;
    const tm = titleMentionsBySent.get(m.sent);
    const subject = tm ? -1 : titleSubjectStart(toks, sentStart, m.sent);
    // A name in an opening participle phrase before that subject is the title's too ("Directed by Jon Favreau, the film stars ...").
    const inOpening = subject > m.start && toks[sentStart].pos === 'VERB';
    const from = tm && tm.end < m.start ? tm.end + 1 : inOpening ? sentStart : subject;
    return from >= 0 && from < m.start && !describesNextName(toks, names, m) ? predicateAt(m, from) : undefined;
  };
  for (const e of entities.values()) {
    if (e.key === titleKey || e.key === aliasKey || !e.firstMention) continue;
    const m = e.firstMention;
    // the first of the entity's mentions that a verb links to the title, in any sentence ("..., Princess of Anhalt-Zerbst
    // by marriage to ..., and regent of Anhalt-Zerbst from 1747": regent_of; "a 1987 film with Sam Raimi. It was written
    // by Sam Raimi": write_by)
    const there = names.filter((o) => o.key === e.key && o.start >= m.start);
    if (!there.includes(m)) there.unshift(m);
    let predicate: string | undefined;
    for (const o of there) {
      predicate = predicateOf(o);
      if (predicate !== undefined) break;
    }
    // A pair the co-occurrence pass linked first keeps its link; a verb replaces its related_to.
    if (rels.linked(titleKey, e.key)) {
      if (predicate !== undefined) rels.refine(titleKey, e.key, predicate);
      continue;
    }
    rels.add(titleKey, predicate ?? 'mentions', e.key);
  }
}
