/**
 * The offline extractor's token model: tokens as the NLP layer describes them, the mentions found
 * over them, display names cut from token ranges, and the word-class tests every stage shares.
 */
import { normalizeName } from '../../graph/facts.js';
import { JUNK_WORDS, NOBLE_TITLES, PERSON_TITLES, ROLE_WORDS } from './lexicon.js';

export interface Tok {
  value: string;
  lower: string; // lowercase, accent-free
  pos: string;
  lemma: string;
  sp: boolean; // preceded by whitespace
  kind: string; // wink token type: word, number, punctuation, ...
  cap: boolean; // starts with an uppercase letter
  sent: number;
}

export interface Mention {
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

export interface MentionSink {
  add(m: Omit<Mention, 'key'> & { key?: string }): void;
}

/** A sink that keys each mention by its normalised name (unless given) and keeps it when the key is not empty. */
export function collectInto(out: Mention[]): MentionSink {
  return {
    add(m) {
      const key = m.key ?? normalizeName(m.name);
      if (key) out.push({ ...m, key });
    },
  };
}

export const CAP_RE = /^\p{Lu}/u;
export const QUOTE_OPEN = new Set(['"', '\u201c']);
export const QUOTE_CLOSE = new Set(['"', '\u201d']);

export function stripAccentsLower(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function displayOf(toks: Tok[], start: number, end: number): string {
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

const FUNCTION_POS = new Set(['DET', 'ADP', 'CCONJ', 'SCONJ', 'AUX', 'PART', 'PRON', 'ADV']);

export function isCapWord(t: Tok | undefined): t is Tok {
  return !!t && (t.kind === 'word' || t.kind === 'unk') && t.cap && t.pos !== 'PRON' && t.pos !== 'PUNCT';
}

/** A capitalised function word ("The", "Of", "And", "During"): only allowed inside a name, before another capitalised word. */
export function isCapFunctionWord(t: Tok): boolean {
  return t.cap && JUNK_WORDS.has(t.lower.replace(/\.$/, '')) && (FUNCTION_POS.has(t.pos) || t.pos === 'VERB') && !/^[IVX]+\.?$/.test(t.value);
}

/** "Queen", "Margrave", "Baronet": a title on its own is not an entity. */
export function isTitleWord(key: string): boolean {
  return PERSON_TITLES.has(key) || NOBLE_TITLES.has(key) || ROLE_WORDS.has(key);
}

/** A verb form that may be a participle ("written", "directed", "starring"). */
export function isParticiple(t: Tok): boolean {
  return /(ing|ed|en)$/.test(t.lower);
}

/** The first token of the sentence token i is in. */
export function sentStartOf(toks: Tok[], i: number): number {
  let k = i;
  while (k > 0 && toks[k - 1].sent === toks[i].sent) k--;
  return k;
}

/** The last token of the sentence token i is in. */
export function sentEndOf(toks: Tok[], i: number): number {
  let k = i;
  while (k + 1 < toks.length && toks[k + 1].sent === toks[i].sent) k++;
  return k;
}

export function isSentenceInitial(toks: Tok[], i: number): boolean {
  for (let j = i - 1; j >= 0 && toks[j].sent === toks[i].sent; j--) {
    if (toks[j].kind !== 'punctuation' && toks[j].kind !== 'symbol') return false;
  }
  return true;
}
