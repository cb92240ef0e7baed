/**
 * Type guessing for the offline extractor: the type of a capitalised span from its words and
 * context, and the type of a passage's title from its Wikipedia disambiguator or first sentence.
 */
import { DEMONYM_SUFFIX, DISAMBIGUATOR_TYPES, GIVEN_NAMES, LOWER_NAME_HEADS, ORG_WORDS, PERSON_TITLES, PLACE_NAMES, PLACE_WORDS } from './lexicon.js';
import { CAP_RE, displayOf, type Tok } from './tokens.js';

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

export function guessSpanType(toks: Tok[], start: number, end: number, key: string): string {
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
  if (
    words.length === 1 &&
    start === end &&
    DEMONYM_SUFFIX.test(first) &&
    next &&
    !next.cap &&
    next.kind === 'word' &&
    (next.pos === 'NOUN' || (next.pos === 'ADJ' && toks[end + 2]?.pos === 'NOUN'))
  )
    return 'Nationality';
  if (prev && PERSON_TITLES.has(prev.lower.replace(/\.$/, ''))) return 'Person';
  if (next?.value === '(' && next2 && (next2.kind === 'number' || /^(born|died|nee|b|d|c)\.?$/.test(next2.lower))) return 'Person';
  if (next && (next.lower === 'born' || (next.lower === 'was' && next2?.lower === 'born'))) return 'Person';
  if (prev && (prev.lower === 'in' || prev.lower === 'at' || prev.lower === 'near') && words.length <= 2 && next?.value === ',') return 'Place';
  if (prev?.lower === 'by' && words.length >= 2 && words.length <= 3) return 'Person';
  if (words.length >= 2 && words.length <= 4 && GIVEN_NAMES.has(first)) return 'Person';
  // initials: "D. H. Lawrence", "George W. Jenkins"
  if (words.length >= 2 && words.length <= 4 && /^(?:\p{Lu}\p{L}+ (?:\p{Lu}\. ?)+|(?:\p{Lu}\. ?){2,})\p{Lu}\p{Ll}+$/u.test(displayOf(toks, start, end)))
    return 'Person';
  return 'Entity';
}

/** First words that make a place name ("Mount Everest", "Lake Victoria", "County Durham"). */
const PLACE_FIRST_WORDS = new Set([
  'mount',
  'mt',
  'lake',
  'cape',
  'fort',
  'port',
  'isle',
  'gulf',
  'bay',
  'river',
  'county',
  'city',
  'state',
  'kingdom',
  'republic',
  'province',
  'district',
]);

export interface ParsedTitle {
  /** The entity name: the title without a common-noun disambiguator. */
  name: string;
  /** The title without any disambiguator. */
  short: string;
  /** The short form, when a proper-noun or dated disambiguator is kept in the name. */
  alias?: string;
  /** The type the disambiguator names ("1925 film" -> Work). */
  type?: string;
  /** The disambiguator. */
  dis?: string;
}

/** Parses a Wikipedia-style title "Name (disambiguator)". */
export function parseTitle(title: string): ParsedTitle {
  const clean = title.replace(/\s+/g, ' ').trim();
  const m = /^(.*\S)\s*\(([^()]+)\)$/.exec(clean);
  if (!m) return { name: clean, short: clean };
  const short = m[1].trim();
  const dis = m[2].trim();
  const type = lastTypeMatch(dis);
  // A type alone ("(film)", "(poet)") names the kind of page: the short form is the title. A proper noun ("Leader of
  // Opposition (Uganda)") or a date ("The Picture of Dorian Gray (1913 film)", "Bill Smith (footballer, born 1897)",
  // "Aleksander Koniecpolski (1555–1609)") tells the page from its namesakes: the full title is the page's entity, so its
  // facts are its own, and the short form, which the namesakes share, is its alias.
  if (dis.toLowerCase() === 'disambiguation' || (!/\d/.test(dis) && (type !== undefined || !/\p{Lu}/u.test(dis)))) return { name: short, short, type, dis };
  return { name: clean, short, alias: short, type, dis };
}

export function titleTypeFromText(firstSentence: string, text: string, name: string): string | undefined {
  // "X is a 1925 American silent drama film directed by ..." -> the head of the predicate noun phrase
  const m = /\b(?:is|was|are|were)\s+(?:(?:one of )?(?:an?|the)\s+)?([^.;]{0,120})/i.exec(firstSentence);
  if (m) {
    const np = m[1].split(
      /,|;|\(| (?:who|which|that|from|in|of|by|for|with|on|at|based|directed|written|produced|published|released|founded|located|known|created|developed|starring|featuring|since|whose|where)\b/i,
    )[0];
    const t = lastTypeMatch(np);
    if (t) return t;
  }
  if (
    /^[^.(]{0,80}\(\s*(?:born|died|b\.|d\.|c\.|\d{1,2} \p{L}+ \d{3,4}|\p{L}+ \d{1,2}, \d{4}|\d{3,4}\s*[\u2013-])/u.test(text) &&
    /\b(he|she|his|her)\b/i.test(text.slice(0, 600))
  )
    return 'Person';
  const words = name.split(/\s+/);
  if (words.length >= 2 && words.length <= 5 && words.every((w) => CAP_RE.test(w) || /^(de|van|von|der|da|di|of|le|la|du|bin|ibn)$/.test(w))) {
    if (/\b(he|she|his|her)\b/i.test(text.slice(0, 400)) || /\(\s*(born|died|b\.|d\.|c\.|\d{1,4}\b)/.test(text.slice(0, 200))) return 'Person';
  }
  return undefined;
}
