/**
 * Relation predicates from the tokens between two mentions: the lemma of the verb plus a following
 * preposition ("born_in"), "<noun>_of" ("daughter_of"), alias links ("also known as"), and whether a
 * sentence is about the passage's title.
 */
import { NAME_CONNECTORS } from './lexicon.js';
import { QUOTE_OPEN, isCapWord, stripAccentsLower, type Mention, type Tok } from './tokens.js';

const PRONOUN_STARTS = new Set(['he', 'she', 'it', 'they', 'his', 'her', 'its', 'their', 'this']);

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

/** Whether a sentence without an explicit title mention is about the title (first sentence, pronoun or "The film ..." start). */
export function refersToTitle(toks: Tok[], sentStart: number, sent: number): boolean {
  if (sent === 0) return true;
  const t0 = toks[sentStart];
  if (!t0) return false;
  if (PRONOUN_STARTS.has(t0.lower)) return true;
  const t1 = toks[sentStart + 1];
  const t2 = toks[sentStart + 2];
  return t0.lower === 'the' && !!t1 && t1.pos === 'NOUN' && !!t2 && (t2.pos === 'AUX' || t2.pos === 'VERB');
}
