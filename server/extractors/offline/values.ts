/**
 * Value mentions: calendar dates and years (own rules), numbers, money, percentages and leftover
 * dates (wink's NER).
 */
import { MONTHS } from './lexicon.js';
import { nlp, type WinkDoc } from './nlp.js';
import { displayOf, isCapWord, isSentenceInitial, type MentionSink, type Tok } from './tokens.js';

const DATE_PREV = /^(in|since|until|till|from|by|to|between|and|after|before|during|around|circa|c|ca|born|died|b|d|of|year|early|late|mid)\.?$/;

function isMonth(t: Tok | undefined): boolean {
  return !!t && t.kind === 'word' && t.cap && MONTHS.has(t.lower.replace(/\.$/, '')) && t.lower !== 'mar' && t.lower !== 'jun';
}
function isDay(t: Tok | undefined): boolean {
  return !!t && t.kind === 'number' && /^(0?[1-9]|[12]\d|3[01])$/.test(t.value);
}
function isYear(t: Tok | undefined, minDigits: 3 | 4 = 3): boolean {
  return !!t && t.kind === 'number' && (minDigits === 3 ? /^\d{3,4}$/ : /^\d{4}$/).test(t.value);
}

/** Calendar dates ("7 September 1864", "May 3, 1869", "March 1362") and years. */
export function findDateMentions(toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  const add = (start: number, end: number, yearAt: number | undefined): void => {
    for (let k = start; k <= end; k++) used[k] = 1;
    const name = displayOf(toks, start, end);
    sink.add({ start, end, name, type: 'Date', sent: toks[start].sent, primary: true });
    if (yearAt !== undefined && end > start)
      sink.add({ start: yearAt, end: yearAt, name: toks[yearAt].value, type: 'Date', sent: toks[start].sent, primary: false });
  };
  for (let i = 0; i < toks.length; i++) {
    if (used[i]) continue;
    const t = toks[i];
    const same = (k: number): boolean => k < toks.length && toks[k].sent === t.sent && !used[k];
    // D Month [Y]
    if (isDay(t) && same(i + 1) && isMonth(toks[i + 1])) {
      if (same(i + 2) && isYear(toks[i + 2])) add(i, i + 2, i + 2);
      else for (let k = i; k <= i + 1; k++) used[k] = 1; // a yearless date is not an entity
      i += 1;
      continue;
    }
    if (isMonth(t)) {
      // Month D, Y | Month D Y
      if (same(i + 1) && isDay(toks[i + 1])) {
        const c = same(i + 2) && toks[i + 2].value === ',' ? i + 3 : i + 2;
        if (same(c) && isYear(toks[c], 4)) add(i, c, c);
        else for (let k = i; k <= i + 1; k++) used[k] = 1;
        i = c;
        continue;
      }
      // Month Y
      if (same(i + 1) && isYear(toks[i + 1], 4)) {
        add(i, i + 1, i + 1);
        i += 1;
        continue;
      }
      continue;
    }
    // bare years: 4 digits 1000-2099, or 3 digits in a date context ("died in 875", "(177–216)")
    if (t.kind === 'number' && /^\d{3,4}$/.test(t.value)) {
      const v = Number(t.value);
      const prev = toks[i - 1];
      const next = toks[i + 1];
      const ctx =
        (prev && prev.sent === t.sent && DATE_PREV.test(prev.lower)) ||
        (prev &&
          (prev.value === '(' || prev.value === '\u2013' || prev.value === '-') &&
          next &&
          (next.value === ')' || next.value === '\u2013' || next.value === '-' || next.value === ','));
      if ((t.value.length === 4 && v >= 1000 && v <= 2099) || (v >= 100 && ctx)) {
        if (t.value.length === 4 || ctx) add(i, i, undefined);
      }
    }
  }
}

const SKIP_NER_TYPES = new Set(['ORDINAL', 'DURATION', 'TIME', 'EMOJI', 'EMOTICON', 'HASHTAG', 'MENTION', 'URL', 'EMAIL']);

/** Numbers, money, percentages and leftover dates ("1940s", "19th century") from wink's NER. */
export function findNerMentions(doc: WinkDoc, toks: Tok[], used: Uint8Array, sink: MentionSink): void {
  const its = nlp().its;
  const spans = doc.entities().out(its.span) as unknown as number[][];
  const types = doc.entities().out(its.type) as string[];
  for (let k = 0; k < spans.length; k++) {
    const type = types[k];
    if (SKIP_NER_TYPES.has(type)) continue;
    let [start, end] = spans[k];
    while (start < end && toks[start].kind === 'word' && !/\d/.test(toks[start].value)) start++; // "about 2,913,123"
    // "Studio 33", "Apollo 11": a short number right after a capitalised word belongs to the name
    if (
      type === 'CARDINAL' &&
      start === end &&
      /^\d{1,3}$/.test(toks[start].value) &&
      start > 0 &&
      isCapWord(toks[start - 1]) &&
      toks[start - 1].sent === toks[start].sent &&
      !isSentenceInitial(toks, start - 1)
    )
      continue;
    let clash = false;
    for (let i = start; i <= end; i++) if (used[i]) clash = true;
    if (clash) continue;
    const name = displayOf(toks, start, end);
    if (!/\d/.test(name)) continue; // "the summer", "one", a month
    // a lone single digit is only kept when it counts something ("4 children"), not "number 1" or list items
    const n1 = toks[end + 1]?.sent === toks[end].sent ? toks[end + 1] : undefined;
    const counts = n1 !== undefined && (n1.pos === 'NOUN' || (n1.pos === 'ADJ' && toks[end + 2]?.pos === 'NOUN'));
    if (type === 'CARDINAL' && /^\d$/.test(name) && !counts) continue;
    let etype: string;
    if (type === 'DATE') etype = 'Date';
    else if (type === 'MONEY') etype = 'Money';
    else if (type === 'PERCENT') etype = 'Percent';
    else etype = 'Number';
    for (let i = start; i <= end; i++) used[i] = 1;
    sink.add({ start, end, name, type: etype, sent: toks[start].sent, primary: true });
  }
}
