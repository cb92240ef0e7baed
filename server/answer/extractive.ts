/** The offline answer generator: extractive, no network. */
import { citationsIn, drain } from './shared.js';
import type { AnswerPassage, AnswerResult, Generator } from './types.js';

const STOP = new Set(
  'a an the of in on at to for from by with and or is are was were be been who whom whose what which when where why how did does do that this these those as it its his her their into than then'.split(
    ' ',
  ),
);
const terms = (s: string) =>
  s
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.filter((t) => !STOP.has(t)) ?? [];

/** Titles and abbreviations after which a period does not end a sentence ("Hon. Winnie Kiiza"). */
const ABBREVIATIONS = new Set(
  'hon dr mr mrs ms st jr sr prof gen col lt sgt capt cmdr adm rev gov sen rep pres mt ft no nos vs etc inc ltd co corp dept est fig maj op vol jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);

/** True when a chunk ends with an abbreviation, an initial ("A.") or a dotted acronym ("U.S."). */
function endsWithAbbreviation(chunk: string): boolean {
  const m = chunk.match(/(?:^|[\s("'])((?:\p{L}\.)*\p{L}+)\.$/u);
  if (!m) return false;
  const word = m[1];
  if (/^\p{Lu}$/u.test(word)) return true;
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/** Sentences, keeping titles ("Hon.", "Dr."), initials ("A. B. Smith") and acronyms ("U.S.") inside them. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u)) {
    const last = out.length - 1;
    if (last >= 0 && endsWithAbbreviation(out[last])) out[last] = `${out[last]} ${piece}`;
    else out.push(piece);
  }
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * The offline answer: the sentences of the top passages that best match the
 * question (question-term overlap weighted by rarity across the candidate
 * sentences, with a small bonus for higher-ranked passages), each followed by
 * its citation. Extractive: it never states anything the passages do not.
 */
export function extractiveAnswer(question: string, passages: AnswerPassage[], maxSentences = 2): { text: string; citations: string[] } {
  const q = new Set(terms(question));
  const cands = passages.flatMap((p, rank) => sentences(p.text).map((s) => ({ s, id: p.id, rank, t: new Set(terms(s)) })));
  if (!cands.length || !q.size) return { text: 'The retrieved passages do not answer this question.', citations: [] };
  const df = new Map<string, number>();
  for (const c of cands) for (const t of c.t) df.set(t, (df.get(t) ?? 0) + 1);
  const scored = cands
    .map((c, i) => {
      let score = 0;
      for (const t of q) if (c.t.has(t)) score += Math.log(1 + cands.length / (df.get(t) ?? 1));
      return { ...c, i, score: score / (1 + 0.15 * c.rank) };
    })
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, maxSentences)
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  if (!scored.length) return { text: 'The retrieved passages do not answer this question.', citations: [] };
  const text = scored.map((c) => `${c.s} [${c.id}]`).join(' ');
  return { text, citations: citationsIn(text, passages) };
}

export function createExtractiveGenerator(): Generator {
  const gen: Generator = {
    id: 'offline:extractive-v1',
    async *stream(question, passages, signal): AsyncGenerator<string, AnswerResult> {
      const { text, citations } = extractiveAnswer(question, passages);
      // Streamed word by word, like a model's tokens, so clients use one code path.
      for (const piece of text.match(/\S+\s*/g) ?? []) {
        if (signal?.aborted) break;
        yield piece;
        await new Promise((r) => setImmediate(r));
      }
      return { answer: text, citations, usage: null, generator: gen.id };
    },
    complete: (question, passages) => drain(gen.stream(question, passages)),
  };
  return gen;
}
