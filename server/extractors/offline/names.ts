/**
 * Capitalised names: each capitalised span becomes a primary mention, plus non-primary mentions
 * derived from it: variants without titles ("Emperor Itzcoatl" -> "Itzcoatl"), components of long
 * names ("Adalbert II of Tuscany" -> "Adalbert II", "Tuscany"), "City, Region" places and
 * "Name, Nth Title of X" people.
 */
import { normalizeName } from '../../graph/facts.js';
import { guessSpanType } from './entity-types.js';
import {
  CITY_NAMES,
  COMPASS_ADJECTIVES,
  COMPONENT_SPLITTERS,
  DEMONYM_SUFFIX,
  GENERIC_HEADS,
  GIVEN_NAMES,
  JUNK_WORDS,
  LOWER_NAME_HEADS,
  MONTHS,
  NOBLE_TITLES,
  NON_STRIPPABLE_TITLES,
  PERSON_TITLES,
  PLACE_NAMES,
  REGION_NAMES,
  ROLE_WORDS,
} from './lexicon.js';
import { tokenize } from './nlp.js';
import { canStartSpan, extendSpan } from './spans.js';
import { collectInto, displayOf, isCapFunctionWord, isCapWord, isTitleWord, type Mention, type MentionSink, type Tok } from './tokens.js';

type Span = [number, number];

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
    if (k && k !== key && !GENERIC_HEADS.has(k) && !JUNK_WORDS.has(k) && k.length >= 3)
      sink.add({ start: a, end, name, key: k, type: 'Person', sent: toks[a].sent, primary: false, parent: key, variant: true });
  }
}

/** The capitalised spans of the text, left to right, not overlapping. */
function capitalisedSpans(toks: Tok[], used: Uint8Array): Span[] {
  const spans: Span[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (!canStartSpan(toks, i, used)) continue;
    const end = extendSpan(toks, i, used);
    spans.push([i, end]);
    i = end;
  }
  return spans;
}

/** "born in Burbank, California": a non-region name in a place context, then a comma and a region. */
function isCityRegion(toks: Tok[], [start, end]: Span, key: string, type: string, nxt: Span | undefined): boolean {
  const prevTok = toks[start - 1];
  const placeContext =
    type === 'Place' ||
    (prevTok !== undefined && prevTok.sent === toks[start].sent && /^(in|at|near|from|to|of|into|outside|between|and)$/.test(prevTok.lower));
  return (
    nxt !== undefined &&
    nxt[0] === end + 2 &&
    toks[end + 1].value === ',' &&
    toks[nxt[0]].sent === toks[start].sent &&
    placeContext &&
    !REGION_NAMES.has(key) &&
    REGION_NAMES.has(normalizeName(displayOf(toks, nxt[0], nxt[1])))
  );
}

export function findCapitalisedMentions(toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  const spans = capitalisedSpans(toks, used);
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
    const cityRegion = isCityRegion(toks, spans[s], key, type, nxt);
    if (cityRegion) type = 'Place';
    sink.add({ start, end, name, key, type, sent: toks[start].sent, primary: true });
    addVariants(toks, start, end, key, type, sink);
    addComponents(toks, start, end, key, type, sink);

    // "Northern Indian" -> "Indian"
    if (
      words === 2 &&
      COMPASS_ADJECTIVES.has(toks[start].lower) &&
      isCapWord(toks[end]) &&
      start + 1 === end &&
      !PLACE_NAMES.has(key) &&
      DEMONYM_SUFFIX.test(toks[end].lower)
    ) {
      const rname = displayOf(toks, end, end);
      sink.add({ start: end, end, name: rname, type: guessSpanType(toks, end, end, normalizeName(rname)), sent: toks[end].sent, primary: false, parent: key });
    }

    if (nxt && toks[end + 1]?.value === ',' && toks[nxt[0]].sent === toks[start].sent) addAppositions(toks, spans[s], nxt, key, type, cityRegion, sink);
  }
}

/**
 * Components of long names: conjuncts ("Philip of Artois and Blanche of Brittany"), then parts split on
 * connectors and hyphens ("Adalbert II of Tuscany" -> "Adalbert II", "Tuscany"), as token ranges.
 */
function componentRanges(toks: Tok[], start: number, end: number): Span[] {
  let glued = true;
  for (let i = start + 1; i <= end; i++) if (toks[i].sp) glued = false;
  const isSplit = (i: number, conj: boolean): boolean => {
    const t = toks[i];
    if (t.value === '&') return true;
    if (t.kind !== 'word' || (t.cap && !isCapFunctionWord(t)))
      return !conj && glued && (t.value === '-' || t.value === '\u2013') && isCapWord(toks[i + 1]) && isCapWord(toks[i - 1]);
    if (t.lower === 'and') return true;
    if (conj) return false;
    return COMPONENT_SPLITTERS.has(t.lower) || (LOWER_NAME_HEADS.has(t.lower) && i === end);
  };
  const splitRange = (a0: number, b0: number, conj: boolean): Span[] => {
    const out: Span[] = [];
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
  return parts;
}

/** Component mentions of the name [start, end] (key, type); generic single words are dropped. */
function addComponents(toks: Tok[], start: number, end: number, key: string, type: string, sink: MentionSink): void {
  const parts = componentRanges(toks, start, end);
  if (parts.length <= 1) return;
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
    if (a === pe && pe < end && COMPONENT_SPLITTERS.has(toks[pe + 1].lower) && toks[pe + 1].lower !== 'and' && (type === 'Person' || GIVEN_NAMES.has(pkey)))
      continue;
    const ptype = guessSpanType(toks, a, pe, pkey);
    sink.add({ start: a, end: pe, name: pname, key: pkey, type: ptype, sent: toks[a].sent, primary: false, parent: key });
    addVariants(toks, a, pe, pkey, ptype, sink);
  }
}

/** Longer names formed with the next span after a comma in the same sentence. */
function addAppositions(toks: Tok[], [start, end]: Span, nxt: Span, key: string, type: string, cityRegion: boolean, sink: MentionSink): void {
  // "born in Burbank, California" / "in Hamburg, Germany"
  if (cityRegion) sink.add({ start, end: nxt[1], name: displayOf(toks, start, nxt[1]), type: 'Place', sent: toks[start].sent, primary: false, parent: key });
  // "Patrick Lyon, 3rd Earl of Strathmore and Kinghorne" / "Karl August, Prince of Waldeck and Pyrmont"
  let b = end + 2;
  if (toks[b] && /^\d{1,2}(?:st|nd|rd|th)$/i.test(toks[b].value) && b + 1 === nxt[0]) b++;
  else if (toks[b]?.kind === 'number' && toks[b + 1] && !toks[b + 1].sp && /^(st|nd|rd|th)$/i.test(toks[b + 1].value)) b += 2;
  let hasOf = false;
  for (let i = nxt[0]; i <= nxt[1]; i++) if (toks[i].lower === 'of') hasOf = true;
  if (
    b === nxt[0] &&
    NOBLE_TITLES.has(toks[nxt[0]].lower) &&
    (hasOf || b > end + 2) &&
    type !== 'Place' &&
    type !== 'Organization' &&
    !REGION_NAMES.has(key) &&
    !CITY_NAMES.has(key)
  ) {
    const pname = displayOf(toks, start, nxt[1]);
    sink.add({ start, end: nxt[1], name: pname, type: 'Person', sent: toks[start].sent, primary: false, parent: key, variant: true });
  }
}

/** Capitalised names inside a title or disambiguator ("Prague astronomical clock" -> "Prague"). */
export function namesIn(text: string): Mention[] {
  if (!text.trim()) return [];
  const { toks } = tokenize(text);
  const out: Mention[] = [];
  findCapitalisedMentions(toks, new Uint8Array(toks.length), collectInto(out));
  return out;
}
