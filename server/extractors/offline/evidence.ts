/**
 * Evidence that a word is a name when its capital letter is none (a capitalised word at the start of a
 * sentence) or when it has no capital at all (the drug in "patients given memantine"): the word is no
 * known English word, it has the morphology of a compound name, or the sentence defines it.
 */
import model from 'wink-eng-lite-web-model';
import { GIVEN_NAMES, JUNK_WORDS } from './lexicon.js';
import type { Tok } from './tokens.js';

interface WinkCore {
  features: { lexeme: { list: string[]; intrinsicSize: number } };
}

let vocabulary: ReadonlySet<string> | undefined;

/** wink's lexicon: the English vocabulary its model was built from (common words, no names of people or places). */
function knownWords(): ReadonlySet<string> {
  if (!vocabulary) {
    const { list, intrinsicSize } = (model as unknown as { core(): WinkCore }).core().features.lexeme;
    vocabulary = new Set(list.slice(0, intrinsicSize).map((w) => w.toLowerCase()));
  }
  return vocabulary;
}

/** True when the lowercase word is in wink's English vocabulary. */
export function isKnownWord(lower: string): boolean {
  return knownWords().has(lower);
}

/**
 * Word endings of compound names (WHO INN stems such as -statin, -pril, -mab, and a few of chemistry):
 * rare in common English, so a word ending in one names a substance whatever its case.
 */
const COMPOUND_SUFFIX =
  /(?:statin|pril|sartan|olol|azole|azol|mab|tinib|rafenib|ciclovir|navir|previr|buvir|cillin|mycin|micin|cycline|floxacin|pezil|stigmine|tidine|dipine|oxetine|afil|gliptin|gliflozin|glitazone|parin|triptan|azepam|azolam|profen|formin|lukast|setron|dronate|tecan|taxel|platin|rubicin|semide|thiazide|mantine|mantadine|zosin|dralazine|oxaban|gatran|tiapine|peridone|piprazole|lamide|barbital)$/;

/** A word that looks like the name of a compound ("atorvastatin", "lisinopril", "donepezil"). */
export function hasCompoundMorphology(lower: string): boolean {
  return lower.length >= 7 && COMPOUND_SUFFIX.test(lower);
}

/** "X is a ...", "X was an ...", "X, a ...": the sentence defines its first word. */
function isDefinedSubject(toks: Tok[], i: number): boolean {
  const t = toks[i];
  const n1 = toks[i + 1];
  const n2 = toks[i + 2];
  if (!n1 || !n2 || n1.sent !== t.sent || n2.sent !== t.sent) return false;
  if (t.lemma !== t.lower && /s$/.test(t.lower)) return false; // a plural is a class, not a name
  return (n1.lower === 'is' || n1.lower === 'was' || n1.value === ',') && (n2.lower === 'a' || n2.lower === 'an');
}

/** The word, its lemma or its singular is in the vocabulary ("Burials", "Others": wink lemmatises an unknown capitalised word to itself). */
function isVocabularyWord(t: Tok): boolean {
  const w = t.lower;
  if (isKnownWord(w) || isKnownWord(t.lemma)) return true;
  // plurals and inflections of a known word ("Burials", "Headquartered")
  const m = /^(.{3,}?)(ies|es|s|ed|ing|ly)$/.exec(w);
  if (!m) return false;
  const [, stem, end] = m;
  return (
    isKnownWord(stem) ||
    (end === 'ies' && isKnownWord(`${stem}y`)) ||
    (end === 'es' && isKnownWord(`${stem}e`)) ||
    ((end === 'ed' || end === 'ing') && isKnownWord(`${stem}e`))
  );
}

/** No common English word: outside the vocabulary, or with the morphology of a compound name. */
function isNameLikeWord(t: Tok): boolean {
  const { lower } = t;
  if (JUNK_WORDS.has(lower) || !/^\p{L}+$/u.test(lower)) return false;
  return hasCompoundMorphology(lower) || (lower.length >= 4 && !isVocabularyWord(t));
}

/** A capitalised word at the start of a sentence that is a name although the sentence start explains its capital. */
export function isSentenceInitialName(toks: Tok[], i: number): boolean {
  const t = toks[i];
  if (JUNK_WORDS.has(t.lower) || GIVEN_NAMES.has(t.lower)) return false; // a lone "Stephen" would merge every Stephen
  if (/^.+\p{Lu}/u.test(t.value)) return true; // a capital past the first letter ("NMDA", "McCaffrey") is not the sentence's
  return isNameLikeWord(t) || isDefinedSubject(toks, i);
}

/** A lowercase word that may be a name ("given memantine"): no common English word, tagged as a noun or adjective. */
export function isLowercaseNameWord(t: Tok): boolean {
  return !t.cap && t.kind === 'word' && (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'ADJ' || t.pos === 'X') && isNameLikeWord(t);
}
