/**
 * Relation predicates from the tokens between two mentions: the lemma of the verb plus a following
 * preposition ("born_in"), "<noun>_of" ("daughter_of"), alias links ("also known as"), and whether a
 * sentence is about the passage's title.
 */
import { isKnownWord } from './evidence.js';
import { NAME_CONNECTORS } from './lexicon.js';
import { QUOTE_OPEN, isCapWord, isParticiple, stripAccentsLower, type Mention, type Tok } from './tokens.js';

const PRONOUN_STARTS = new Set(['he', 'she', 'it', 'they', 'his', 'her', 'its', 'their', 'this']);
const SUBJECT_PRONOUNS = new Set(['he', 'she', 'it', 'they', 'i', 'we', 'you']);
/** The subject pronouns that stand for the title after an opening phrase ("In 1864, he married X"). */
const TITLE_PRONOUNS = new Set(['he', 'she', 'it', 'they']);
/** The most tokens an opening phrase before "the film ..." may have (titleSubjectStart). */
const OPENING_PHRASE_MAX = 12;

function cleanPredicate(p: string): string {
  const s = stripAccentsLower(p)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return s.slice(0, 40) || 'related_to';
}

function verbForm(t: Tok): string {
  if (t.lower === 'born') return 'born';
  return t.lemma || t.lower;
}

/** Predicate for a pair whose subject ends before `from` and whose object starts at `to`. */
export function predicateBetween(toks: Tok[], from: number, to: number): string | undefined {
  // "<noun> of <object>" right before the object ("was a daughter of", "capital of"; a role word or two may stand
  // before the object: "daughter of novelist J. G. Ballard", "wife of film director X") unless a full verb comes
  // between the subject and that noun ("married the daughter of" -> "marry")
  let k = to - 1;
  let roleWords = 0;
  while (
    k > from &&
    (toks[k].pos === 'DET' ||
      toks[k].value === "'s" ||
      toks[k].pos === 'ADJ' ||
      (toks[k].pos === 'NOUN' && !toks[k].cap && toks[k].kind === 'word' && ++roleWords <= 2))
  )
    k--;
  if (
    k > from &&
    toks[k].lower === 'of' &&
    k - 1 >= from &&
    (toks[k - 1].pos === 'NOUN' || toks[k - 1].pos === 'PROPN') &&
    !toks[k - 1].cap &&
    toks[k - 1].kind === 'word'
  ) {
    if (lastVerb(toks, from, k - 1) === undefined) return cleanPredicate(`${toks[k - 1].lemma || toks[k - 1].lower}_of`);
  }
  // "Kimballton is an unincorporated community in Giles County": a copula's "<noun> in" right before the object
  // ("community_in"), as "<noun> of" is ("township_of")
  if (
    k > from + 1 &&
    roleWords === 0 &&
    toks[k].lower === 'in' &&
    toks[k - 1].pos === 'NOUN' &&
    !toks[k - 1].cap &&
    toks[k - 1].kind === 'word' &&
    lastVerb(toks, from, k - 1) === undefined &&
    toks.slice(from, k - 1).some((t) => t.pos === 'AUX' && t.lemma === 'be')
  )
    return cleanPredicate(`${toks[k - 1].lemma || toks[k - 1].lower}_in`);
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
export function isAliasLink(toks: Tok[], a: Mention, b: Mention, pred: string): boolean {
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
export function isPrepositionalObject(toks: Tok[], start: number): boolean {
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

/**
 * A full verb, or a participle the tagger reads as an adjective after "is", "was" or "been" (perhaps with an adverb
 * between) and before a preposition: "She is married to X", "he was educated at Y".
 */
function isVerb(toks: Tok[], i: number): boolean {
  const t = toks[i];
  if (t.pos === 'VERB') return true;
  if (t.pos !== 'ADJ' || !t.lower.endsWith('ed') || toks[i + 1]?.pos !== 'ADP') return false;
  let k = i - 1;
  while (k >= 0 && toks[k].pos === 'ADV') k--;
  return k >= 0 && toks[k].pos === 'AUX';
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
    } else if (isVerb(toks, i)) verbs.push({ i, depth });
  }
  return verbs.length ? verbs[verbs.length - 1].i : undefined;
}

/**
 * A sentence with no verb of its own that opens with a participle: "Starring A, B in the lead roles and music composed by
 * C". A word the tagger calls a verb right after a preposition is none ("in lead roles": wink tags "lead" a verb there).
 */
function isParticipleFragment(toks: Tok[], sentStart: number): boolean {
  const first = toks[sentStart];
  if (first?.pos !== 'VERB' || !isParticiple(first)) return false;
  for (let k = sentStart + 1; k < toks.length && toks[k].sent === first.sent; k++) {
    const t = toks[k];
    const finiteVerb = t.pos === 'VERB' && !isParticiple(t) && toks[k - 1].pos !== 'ADP';
    if (t.pos === 'AUX' || finiteVerb || SUBJECT_PRONOUNS.has(t.lower)) return false;
  }
  return true;
}

/**
 * Where the subject of a sentence without an explicit title mention starts when that subject is the title, else -1:
 * - the sentence start for the first sentence, a pronoun, a "The film ..." start or one of its parts ("The film's music
 *   was ...", "Music of the film has been ..."), and a participle fragment ("Starring A, B ...");
 * - the "the" of "the film ..." after an opening phrase that ends in a comma and holds no verb of its own ("Like its
 *   predecessor, the film was directed by ...", "Released in 1945 by MGM, the film is ..."; not "He left, the band
 *   was ...").
 */
export function titleSubjectStart(toks: Tok[], sentStart: number, sent: number): number {
  if (sent === 0) return sentStart;
  const t0 = toks[sentStart];
  if (!t0) return -1;
  if (PRONOUN_STARTS.has(t0.lower)) return sentStart;
  const theNounVerb = (i: number) => {
    const verbAt = (k: number) => toks[k]?.pos === 'AUX' || toks[k]?.pos === 'VERB';
    const theNoun = (k: number) => toks[k]?.lower === 'the' && toks[k + 1]?.pos === 'NOUN';
    // "the film was ...", and a part of it: "the film's music was ...", "(the) music of / for the film was ..."
    if (theNoun(i) && (verbAt(i + 2) || (toks[i + 2]?.value === "'s" && toks[i + 3]?.pos === 'NOUN' && verbAt(i + 4)))) return true;
    const head = toks[i]?.lower === 'the' ? i + 1 : i;
    const common = toks[head]?.pos === 'NOUN' || (head === sentStart && toks[head]?.pos === 'PROPN' && isKnownWord(toks[head].lower));
    return common && (toks[head + 1]?.lower === 'of' || toks[head + 1]?.lower === 'for') && theNoun(head + 2) && verbAt(head + 4);
  };
  if (theNounVerb(sentStart)) return sentStart;
  if (isParticipleFragment(toks, sentStart)) return sentStart;
  for (let i = sentStart + 1; i < sentStart + OPENING_PHRASE_MAX && toks[i] && toks[i].value !== '.'; i++) {
    if (toks[i].value !== ',') continue;
    const phrase = toks.slice(sentStart, i);
    // A participle opens the phrase ("Released in 1945"), perhaps with others after "and" ("Directed by A and written by
    // B") or after a preposition ("After leaving school"); any other verb, an auxiliary or a subject pronoun makes it a clause.
    const clause = phrase.some(
      (t, k) =>
        t.pos === 'AUX' ||
        (t.pos === 'VERB' && k > 0 && !(isParticiple(t) && (['and', 'or'].includes(phrase[k - 1].lower) || phrase[k - 1].pos === 'ADP'))) ||
        SUBJECT_PRONOUNS.has(t.lower),
    );
    if (clause) return -1;
    return theNounVerb(i + 1) || TITLE_PRONOUNS.has(toks[i + 1]?.lower) ? i + 1 : -1;
  }
  // "In 1880 he directed ...": a pronoun after an opening prepositional phrase without a comma.
  if (toks[sentStart].pos === 'ADP') {
    for (let i = sentStart + 1; i < sentStart + OPENING_PHRASE_MAX && toks[i]?.sent === sent; i++) {
      const t = toks[i];
      if (TITLE_PRONOUNS.has(t.lower)) return i > sentStart + 1 && (toks[i + 1]?.pos === 'VERB' || toks[i + 1]?.pos === 'AUX') ? i : -1;
      if (t.pos === 'AUX' || t.pos === 'VERB' || t.pos === 'PRON' || t.pos === 'SCONJ' || t.value === ',') return -1;
    }
  }
  return -1;
}
