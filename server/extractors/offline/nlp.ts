/**
 * The wink-nlp pipeline (loaded once, on first use) and the tokenizer that turns its output into
 * the extractor's token model.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { normalizeName } from '../../graph/facts.js';
import { JUNK_WORDS } from './lexicon.js';
import { CAP_RE, isParticiple, sentStartOf, stripAccentsLower, type Tok } from './tokens.js';

type WinkNlp = ReturnType<typeof winkNLP>;
export type WinkDoc = ReturnType<WinkNlp['readDoc']>;

let nlpInstance: WinkNlp | undefined;
export function nlp(): WinkNlp {
  nlpInstance ??= winkNLP(model, ['sbd', 'pos', 'ner']);
  return nlpInstance;
}

export interface Tokenized {
  doc: WinkDoc;
  toks: Tok[];
  sentSpans: number[][];
  sentTexts: string[];
}

/** `opening`: the passage title's short form, when the text may open with it (see joinLowercaseStarts). */
export function tokenize(text: string, opening = ''): Tokenized {
  const { its } = nlp();
  const doc = nlp().readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out() as string[];
  const poss = tokens.out(its.pos) as string[];
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const kinds = tokens.out(its.type) as string[];
  const { sentSpans, sentTexts } = joinLowercaseStarts(
    doc.sentences().out(its.span) as unknown as number[][],
    doc.sentences().out() as string[],
    values,
    opening,
  );
  const toks: Tok[] = new Array(values.length);
  const mk = (i: number, sent: number): Tok => {
    const v = values[i];
    return {
      value: v,
      lower: stripAccentsLower(v),
      pos: poss[i],
      lemma: (lemmas[i] ?? v).toLowerCase(),
      sp: spaces[i] !== '',
      kind: kinds[i],
      cap: CAP_RE.test(v),
      sent,
    };
  };
  for (let s = 0; s < sentSpans.length; s++) for (let i = sentSpans[s][0]; i <= sentSpans[s][1]; i++) toks[i] = mk(i, s);
  for (let i = 0; i < toks.length; i++) toks[i] ??= mk(i, sentSpans.length);
  retagSubjectVerbs(toks);
  retagOpeningNames(toks);
  retagNameVerbs(toks);
  return { doc, toks, sentSpans, sentTexts };
}

/** Verbs wink tags as plural nouns after "The film", with their lemmas ("The film stars Luke Goss"). */
const VERBS_TAGGED_AS_NOUNS: ReadonlyMap<string, string> = new Map([
  ['stars', 'star'],
  ['co-stars', 'co-star'],
  ['costars', 'costar'],
  ['features', 'feature'],
]);

/**
 * wink tags the verb of "The film stars Luke Goss" as a plural noun: after "the <noun>" that opens a sentence or follows
 * a comma, one of VERBS_TAGGED_AS_NOUNS with a name after it is the subject's verb.
 */
function retagSubjectVerbs(toks: Tok[]): void {
  for (let i = 2; i + 1 < toks.length; i++) {
    const [the, subject, word, next] = [toks[i - 2], toks[i - 1], toks[i], toks[i + 1]];
    const lemma = VERBS_TAGGED_AS_NOUNS.get(word.lower);
    const opensClause = i === 2 || toks[i - 3].sent !== the.sent || toks[i - 3].value === ',';
    if (lemma && opensClause && the.lower === 'the' && subject.pos === 'NOUN' && word.pos === 'NOUN' && next.pos === 'PROPN') {
      word.pos = 'VERB';
      word.lemma = lemma;
    }
  }
}

/**
 * wink tags a first name that is also a verb as that verb when it opens a sentence ("Drew Barrymore appeared", "Grant Gee
 * edited", "Sue Lyon"; in mid-sentence it tags them as names), and the name lost its first word. A capitalised verb
 * that opens a statement (not a question), with a name right after it, is that name's first word. These stay verbs:
 * a participle ("Directed by", "Starring"), "Born" ("Born Claude Lyon-Bowes, he ..."), an "-s" form, and the function
 * words a sentence-initial name never starts with (JUNK_WORDS: "Will Smith" keeps only "Smith").
 */
function retagOpeningNames(toks: Tok[]): void {
  let end = toks.length - 1;
  for (let i = toks.length - 2; i >= 0; i--) {
    if (toks[i + 1].sent !== toks[i].sent) end = i;
    const t = toks[i];
    const opens = i === 0 || toks[i - 1].sent !== t.sent;
    if (!opens || !t.cap || t.pos !== 'VERB' || toks[i + 1].pos !== 'PROPN' || toks[i + 1].sent !== t.sent) continue;
    if (isParticiple(t) || t.lower.endsWith('s') || t.lower === 'born' || JUNK_WORDS.has(t.lower) || toks[end].value === '?') continue;
    t.pos = 'PROPN';
    t.lemma = t.lower;
  }
}

/**
 * wink tags a past tense right after a name that opens a sentence (or follows its opening comma) as a noun or an
 * adjective: "Tom Hanks starred in", "Wingfield married Lady Julia Coke", "In 1864, Russell married the heiress". Such a
 * word ending in "-ed", before a preposition, a determiner, a name or a number, is the name's verb, lemmatised as one.
 */
function retagNameVerbs(toks: Tok[]): void {
  for (let i = 1; i + 1 < toks.length; i++) {
    const [t, next] = [toks[i], toks[i + 1]];
    if ((t.pos !== 'NOUN' && t.pos !== 'ADJ') || t.cap || t.kind !== 'word' || !t.lower.endsWith('ed') || toks[i - 1].pos !== 'PROPN') continue;
    if (next.sent !== t.sent || !['ADP', 'DET', 'PROPN', 'NUM'].includes(next.pos)) continue;
    let k = i - 1;
    while (k >= 0 && toks[k].sent === t.sent && toks[k].pos === 'PROPN') k--;
    if (k >= 0 && toks[k].sent === t.sent && toks[k].lower === 'the') k--;
    // the name may follow its opening comma, or a possessive kin phrase ("His younger sister Mary married John")
    const start = sentStartOf(toks, i);
    const afterKin = k >= 0 && toks[k].pos === 'NOUN' && /^(his|her|their)$/.test(toks[start].lower) && k - start <= 3;
    if (k >= 0 && toks[k].sent === t.sent && toks[k].value !== ',' && !afterKin) continue;
    t.pos = 'VERB';
    t.lemma = verbLemma(t.lower);
  }
}

/** The lemma wink gives a past tense tagged as a verb ("married" -> "marry", "starred" -> "star"). */
function verbLemma(word: string): string {
  const { its } = nlp();
  const tokens = nlp().readDoc(`They ${word} it.`).tokens();
  const pos = tokens.out(its.pos) as string[];
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
  return pos[1] === 'VERB' ? (lemmas[1] ?? word).toLowerCase() : word.replace(/ed$/, '');
}

/** Lowercase abbreviations that end no sentence: "lit.", "c.", "fl.", "b." ... */
const ABBREVIATIONS: ReadonlySet<string> = new Set(['lit', 'c', 'ca', 'fl', 'cf', 'viz', 'vs', 'aka', 'approx', 'b', 'd', 'r']);

/**
 * wink ends a sentence at every "!" and "?", also inside a title ("Monster a Go-Go! is a 1965 film",
 * "Where Does it Hurt? is a 1972 film") or an aside ("(died 1318?) was"): a sentence that would start
 * with a lowercase word continues the one before. So does one that would start with a comma, a closing bracket, a colon
 * or a semicolon ("Dove vai tutta nuda?, internationally released as ..."), with an opening bracket after "!" or "?"
 * ("Tabitha, Arise! (German: ...) is a"), or after an abbreviation ('lit. "The spies ...") is a'); and, at the passage's
 * opening, one that cuts its title in two ("Stop! | Or My Mom Will Shoot is a 1992 film", "Author! | Author! is a").
 */
function joinLowercaseStarts(spans: number[][], texts: string[], values: string[], opening: string): { sentSpans: number[][]; sentTexts: string[] } {
  const sentSpans: number[][] = [];
  const sentTexts: string[] = [];
  const titleKey = normalizeName(opening);
  for (let s = 0; s < spans.length; s++) {
    const first = values[spans[s][0]] ?? '';
    const prev = sentSpans[sentSpans.length - 1];
    const exclaimed = prev !== undefined && /^[!?]$/.test(values[prev[1]] ?? '');
    const abbreviated = prev !== undefined && values[prev[1]] === '.' && ABBREVIATIONS.has(values[prev[1] - 1] ?? '');
    // the passage's first sentence so far, when the title goes on past it ("Stop!" of "Stop! Or My Mom Will Shoot")
    const firstSoFar = prev !== undefined && sentSpans.length === 1 && titleKey ? normalizeName(values.slice(prev[0], prev[1] + 1).join(' ')) : '';
    const insideTitle = firstSoFar !== '' && titleKey.startsWith(`${firstSoFar} `);
    if (prev !== undefined && (/^\p{Ll}/u.test(first) || /^[,);:]$/.test(first) || (exclaimed && first === '(') || abbreviated || insideTitle)) {
      sentSpans[sentSpans.length - 1] = [sentSpans[sentSpans.length - 1][0], spans[s][1]];
      sentTexts[sentTexts.length - 1] += ` ${texts[s]}`;
    } else {
      sentSpans.push([...spans[s]]);
      sentTexts.push(texts[s]);
    }
  }
  return { sentSpans, sentTexts };
}
