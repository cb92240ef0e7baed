/**
 * Capitalised-span chunking: where a name may start, and how far it extends through glued
 * pieces ("Kim Jong-il"), numerals, ordinals and name connectors ("Green Party of England and Wales").
 */
import {
  GENERIC_HEADS,
  HYPHEN_SUFFIX_STOP,
  JUNK_WORDS,
  KIN_WORDS,
  LOWER_NAME_HEADS,
  MONTHS,
  NAME_CONNECTORS,
  NOBLE_TITLES,
  ORG_WORDS,
  PERSON_TITLES,
  PLACE_NAMES,
  PLACE_WORDS,
  ROLE_WORDS,
} from './lexicon.js';
import { isCapFunctionWord, isCapWord, isSentenceInitial, type Tok } from './tokens.js';

const GLUE = new Set(['-', '\u2013', "'", '\u2019', '.']);

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
    if (
      GLUE.has(t.value) &&
      j + 1 < toks.length &&
      toks[j + 1].sent === sent &&
      !toks[j + 1].sp &&
      (toks[j + 1].kind === 'word' || toks[j + 1].kind === 'unk') &&
      !used[j + 1]
    ) {
      const n = toks[j + 1];
      if (!n.cap && (HYPHEN_SUFFIX_STOP.has(n.lower) || (n.pos === 'VERB' && /(?:ed|ing)$/.test(n.lower)))) break; // "Canadian-born"
      j += 2;
      continue;
    }
    break;
  }
  return j;
}

export function canStartSpan(toks: Tok[], i: number, used: Uint8Array): boolean {
  const t = toks[i];
  if (used[i]) return false;
  // "My Dear Muthachan", "Our Town": a capitalised possessive mid-sentence opens a title
  if (t.pos === 'PRON' && /^(My|Our|Your|His|Her|Their|Its|Me|You|We|She|He|It|They|Us|Him|Them)$/.test(t.value) && !isSentenceInitial(toks, i))
    return isCapWord(toks[i + 1]) && !isCapFunctionWord(toks[i + 1]) && toks[i + 1].sent === t.sent;
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
    // "Daughter of King Constantine I of Greece, Princess Helen ...": a kin noun before "of" relates the name after it
    if (KIN_WORDS.has(t.lower) && toks[i + 1]?.lower === 'of') return false;
    if (t.pos === 'PROPN' || t.pos === 'X') return !JUNK_WORDS.has(t.lower);
    if (t.pos === 'NOUN' || t.pos === 'ADJ') return isCapWord(toks[i + 1]) && toks[i + 1].sent === t.sent && !isCapFunctionWord(toks[i + 1]);
    return false;
  }
  return true;
}

/** Extends a capitalised span from `start`; returns the inclusive end index. */
export function extendSpan(toks: Tok[], start: number, used: Uint8Array): number {
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
    if (
      t.kind === 'number' &&
      /^\d{1,2}$/.test(t.value) &&
      toks[i + 1] &&
      !toks[i + 1].sp &&
      /^(st|nd|rd|th)$/i.test(toks[i + 1].value) &&
      isCapWord(toks[i + 2]) &&
      toks[i + 2].sent === sent
    ) {
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
    if (
      t.lower === 'for' &&
      !t.cap &&
      ORG_WORDS.has(toks[end].lower) &&
      isCapWord(toks[i + 1]) &&
      toks[i + 1].sent === sent &&
      !isCapFunctionWord(toks[i + 1])
    ) {
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
      const headOk =
        (NOBLE_TITLES.has(head) || ORG_WORDS.has(head) || GENERIC_HEADS.has(head) || ROLE_WORDS.has(head) || PLACE_WORDS.has(head)) &&
        toks[start + 1]?.lower === 'of';
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
