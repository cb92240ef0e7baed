/** Chunking: documents into passages, the unit that is embedded, extracted and retrieved. */
import type { SourceDocument, SourcePassage } from '../types.js';

const WS = /\s/;
const SENTENCE_END = new Set(['.', '!', '?', '…']);
const CJK_SENTENCE_END = new Set(['。', '！', '？']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '»', '*', '_']);
const PARAGRAPH_BREAK = /\r?\n[ \t]*\r?\n/y;

function isParagraphBreakAt(text: string, p: number): boolean {
  PARAGRAPH_BREAK.lastIndex = p;
  return PARAGRAPH_BREAK.test(text);
}

/** A chunk may end at p (exclusive) right after a sentence: `end.` + whitespace, or CJK `。`. */
function isSentenceEndAt(text: string, p: number): boolean {
  if (p > 0 && CJK_SENTENCE_END.has(text[p - 1])) return true;
  if (p >= text.length || !WS.test(text[p])) return false;
  let q = p - 1;
  while (q > 0 && CLOSERS.has(text[q])) q--;
  return q >= 0 && SENTENCE_END.has(text[q]);
}

/**
 * Split text into chunks of at most `size` characters, consecutive chunks sharing up to `overlap`
 * characters. Cuts prefer paragraph breaks, then sentence ends, then whitespace, in the second half
 * of the window (and past `overlap`); a word is cut only when it alone is longer than the window. Chunks are trimmed
 * substrings of the text, in order, together covering all of its non-whitespace characters.
 * Texts no longer than `size` give `[text.trim()]`; blank text gives `[]`.
 */
export function chunkText(text: string, size = 1200, overlap = 200): string[] {
  if (!Number.isInteger(size) || !Number.isInteger(overlap) || !(size > overlap && overlap >= 0)) {
    throw new RangeError(`chunkText: need integers size > overlap >= 0 (got size=${size}, overlap=${overlap})`);
  }
  const n = text.length;
  let start = 0;
  while (start < n && WS.test(text[start])) start++;
  let stop = n;
  while (stop > start && WS.test(text[stop - 1])) stop--;
  if (start >= stop) return [];
  if (stop - start <= size) return [text.slice(start, stop)];

  const chunks: string[] = [];
  while (start < stop) {
    if (stop - start <= size) {
      chunks.push(text.slice(start, stop));
      break;
    }
    const limit = start + size;
    // Paragraph and sentence cuts only in the second half of the window, and far enough in that
    // the next chunk, starting `overlap` back, still moves forward.
    const soft = start + Math.max(Math.floor(size / 2), overlap + 1);
    let end = -1;
    let clean = true;
    for (let p = limit; p >= soft && end < 0; p--) if (isParagraphBreakAt(text, p)) end = p;
    for (let p = limit; p >= soft && end < 0; p--) if (isSentenceEndAt(text, p)) end = p;
    for (let p = limit; p > start && end < 0; p--) if (WS.test(text[p])) end = p;
    if (end < 0) {
      // A single word longer than the window: cut it, but not inside a surrogate pair.
      end = limit;
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c <= 0xdbff && end - 1 > start) end--;
      clean = false;
    }
    chunks.push(text.slice(start, end).trimEnd());

    // Next chunk starts `overlap` characters back: at a word start after a clean cut; anywhere
    // inside the over-long word after a hard cut. Always strictly after the current start.
    let next = end - overlap;
    if (clean) {
      if (next <= start) next = end;
      while (next < end && next > 0 && !WS.test(text[next - 1]) && !WS.test(text[next])) next++;
    } else if (next <= start) {
      next = start + 1;
    }
    while (next < stop && WS.test(text[next])) next++;
    start = next;
  }
  return chunks;
}

/**
 * The document-id part of a passage id: `%` and `#` percent-encoded, so a
 * passage id never holds a `#` except the one before a chunk number. Ids
 * without those characters are unchanged (existing passage ids stay stable).
 */
export function escapeIdPart(id: string): string {
  return id.replace(/%/g, '%25').replace(/#/g, '%23');
}

/**
 * The id of chunk i of n of a document: the escaped document id for a single
 * chunk, else `${escaped}#${i}`. Injective over (document id, i, n > 1): two
 * documents can never share a passage id, whatever characters their ids hold.
 */
export function passageId(documentId: string, i: number, n: number): string {
  const base = escapeIdPart(documentId);
  return n === 1 ? base : `${base}#${i}`;
}

/** Passages of a document, with ids from passageId. */
export function toPassages(doc: SourceDocument, size?: number, overlap?: number): SourcePassage[] {
  const chunks = chunkText(doc.text, size, overlap);
  return chunks.map((text, i) => ({
    id: passageId(doc.id, i, chunks.length),
    documentId: doc.id,
    title: doc.title,
    text,
  }));
}
