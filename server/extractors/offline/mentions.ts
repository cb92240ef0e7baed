/**
 * Mention finding for a passage: values first (dates, numbers), then quoted titles, capitalised
 * names, lowercase names and, optionally, common-noun concepts, each claiming its tokens so later finders
 * skip them; then the passes that clean the mention list up (lone sentence-initial words, partial person names).
 */
import { normalizeName } from '../../graph/facts.js';
import { JUNK_WORDS, PERSON_TITLES, PLACE_NAMES, ROLE_WORDS } from './lexicon.js';
import { hasCompoundMorphology, isLowercaseNameWord, isSentenceInitialName } from './evidence.js';
import { findCapitalisedMentions } from './names.js';
import type { Tokenized } from './nlp.js';
import { QUOTE_CLOSE, QUOTE_OPEN, collectInto, displayOf, isSentenceInitial, type Mention, type MentionSink, type Tok } from './tokens.js';
import { findDateMentions, findNerMentions } from './values.js';

/** All mentions of a tokenized passage, in text order (longer first at the same start). */
/** `title` is the passage's title as written, `opening` its short form (parseTitle), which the text may open with. */
export function findMentions({ doc, toks }: Tokenized, title: string, opening: string, concepts: boolean): Mention[] {
  const mentions: Mention[] = [];
  const sink = collectInto(mentions);
  const used = new Uint8Array(toks.length);
  findDateMentions(toks, used, sink);
  findNerMentions(doc, toks, used, sink);
  findQuotedMentions(toks, used, sink);
  findCapitalisedMentions(toks, used, sink);
  findLowercaseNameMentions(toks, used, mentions, sink);
  if (concepts) findConceptMentions(toks, used, sink);
  mentions.sort((a, b) => a.start - b.start || b.end - a.end);
  dropLoneSentenceInitialWords(mentions, toks, title);
  claimOpeningTitle(mentions, toks, opening);
  return mentions;
}

/** The most tokens a title written at the passage's opening may span. */
const OPENING_TITLE_MAX_TOKENS = 24;

/**
 * A passage that opens with its own title ("Dr. Goldfoot and the Girl Bombs is a 1966 film", "Stop! Or My Mom Will Shoot
 * is a 1992 film", "Get Carter is a 1971 film") names the title there, whatever names the finders above made of those
 * words ("Dr. Goldfoot" and "Girl Bombs", "My Mom Will Shoot", "Carter"): the span becomes one mention of the title (its
 * short form, without the disambiguator), so the opening sentence's verbs are the title's.
 */
function claimOpeningTitle(mentions: Mention[], toks: Tok[], opening: string): void {
  const key = normalizeName(opening);
  if (!key) return;
  let start = 0;
  while (start < toks.length && QUOTE_OPEN.has(toks[start].value)) start++;
  let end = -1;
  for (let k = start; k < toks.length && k - start < OPENING_TITLE_MAX_TOKENS; k++) {
    const seen = normalizeName(displayOf(toks, start, k));
    // the title ends where a name ends: not "Dana Blankstein" of "Dana Blankstein-Cohen", nor "Publix" of "Publix Super
    // Markets, Inc., commonly known as Publix"
    const next = toks[k + 1];
    if (seen === key && (!next || (next.sp && !next.cap) || (next.kind === 'punctuation' && next.value !== '-'))) {
      end = k;
      break;
    }
    if (!key.startsWith(seen)) return;
  }
  if (end < 0 || mentions.some((m) => m.start === start && m.end === end && m.key === key)) return;
  for (let i = mentions.length - 1; i >= 0; i--) if (mentions[i].start <= end && mentions[i].end >= start) mentions.splice(i, 1);
  const at = mentions.findIndex((m) => m.start > end);
  const claimed: Mention = { start, end, name: displayOf(toks, start, end), key, type: 'Entity', sent: toks[start].sent, primary: true };
  mentions.splice(at < 0 ? mentions.length : at, 0, claimed);
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

/**
 * Lowercase names: a word with the morphology of a compound name ("given atorvastatin"), or a word
 * outside the English vocabulary that the passage also writes capitalised ("Memantine is ... given memantine").
 */
function findLowercaseNameMentions(toks: Tok[], used: Uint8Array, mentions: Mention[], sink: MentionSink): void {
  const capitalised = new Map<string, string>();
  for (const m of mentions) if (m.start === m.end && m.primary && m.type === 'Entity' && toks[m.start].cap) capitalised.set(m.key, m.name);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (used[i] || !isLowercaseNameWord(t)) continue;
    const key = normalizeName(t.value);
    const name = capitalised.get(key);
    if (name === undefined && !hasCompoundMorphology(t.lower)) continue;
    used[i] = 1;
    sink.add({ start: i, end: i, name: name ?? t.value, key, type: 'Entity', sent: t.sent, primary: true });
  }
}

/**
 * Common-noun concepts: lowercase noun compounds ("film director", "grocery chain", "opposition leader"),
 * optionally after one adjective. Typed 'Concept'; they never form co-occurrence pairs. Off by default
 * (see OfflineExtractorOptions.concepts in extract.ts).
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
      if (n.value === '-' && !n.sp && toks[k + 1] && !toks[k + 1].sp && toks[k + 1].kind === 'word' && !toks[k + 1].cap) {
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

/** Name words of a person name: "Lambert, Margrave of Tuscany" -> [lambert]; "Francis William Buxton" -> [francis, william, buxton]. */
export function personNameWords(name: string): string[] {
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
export function resolvePartialNames(mentions: Mention[], title: { key: string; name: string; type: string } | undefined): void {
  const people: Array<{ key: string; name: string; words: string[]; at: number }> = [];
  const dropped = new Set<Mention>();
  // the name a part or a variant was taken from, and the one that was taken from, up to a name of the text
  const byKey = new Map(mentions.map((m) => [m.key, m]));
  const rootName = (m: Mention): string => {
    let r = m;
    for (let n = 0; n < 4 && r.parent !== undefined && byKey.has(r.parent) && r.parent !== r.key; n++) r = byKey.get(r.parent)!;
    return r.name;
  };
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
      // a part or a variant of another person's longer name ("Muhammad" of "Muhammad bin Musafir" on Marzuban ibn
      // Muhammad's page, "Zeid" of "Prince Zeid bin Ra'ad" on Princess Fahrelnissa Zeid's: its name words are not all
      // this person's) is no reference to this person: it is dropped, or it would link the longer name to the person as
      // its part. One of a name that may be this person's ("Sackville" of "Sackville-West" on Mortimer Sackville-West's
      // page, "Irene" of "Princess Irene of Greece" on Princess Irene, Duchess of Aosta's) still is.
      const person = best;
      if (m.parent !== undefined && !personNameWords(rootName(m)).every((w) => person.words.includes(w))) {
        dropped.add(m);
        continue;
      }
      m.key = best.key;
      m.name = best.name;
      m.type = 'Person';
    }
  }
  for (let i = mentions.length - 1; i >= 0; i--) if (dropped.has(mentions[i])) mentions.splice(i, 1);
}

/**
 * A single capitalised word that only ever occurs at the start of a sentence ("Locations are found ...",
 * "Influential ...") is weak evidence of a name: dropped unless it is a known place, a word of the title,
 * typed by context, or a name by evidence other than its capital ("Memantine is ...", see evidence.ts).
 */
function dropLoneSentenceInitialWords(mentions: Mention[], toks: Tok[], title: string): void {
  const titleWords = new Set(normalizeName(title).split(' '));
  const elsewhere = new Set<string>();
  for (const m of mentions) if (!(m.start === m.end && isSentenceInitial(toks, m.start))) elsewhere.add(m.key);
  for (let i = mentions.length - 1; i >= 0; i--) {
    const m = mentions[i];
    if (m.start !== m.end || !m.primary || m.type !== 'Entity' || !isSentenceInitial(toks, m.start)) continue;
    if (elsewhere.has(m.key) || titleWords.has(m.key) || PLACE_NAMES.has(m.key) || isSentenceInitialName(toks, m.start)) continue;
    mentions.splice(i, 1);
  }
}
