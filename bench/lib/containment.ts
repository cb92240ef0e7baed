/**
 * Answer containment: does an answer text carry the gold answer? Measurable
 * without any API key, so the offline (extractive) answers can be scored.
 */
import { normalizeAnswer } from './metrics.js';

/** The answer without its "[passage-id]" citations (an id must never count as an answer). */
export function withoutCitations(text: string): string {
  return text.replace(/\s*\[[^\]\s]+\]/g, ' ');
}

/**
 * 1 when any gold answer (alias), SQuAD-normalised (lowercase, no punctuation,
 * no a/an/the, single spaces), appears in the normalised answer as whole words;
 * else 0. "Kiiza" does not contain "Winnie Kiiza"; "1990s" does not contain "1990".
 */
export function answerContainment(answer: string, golds: string[]): number {
  const a = ` ${normalizeAnswer(withoutCitations(answer))} `;
  return golds.some((g) => {
    const n = normalizeAnswer(g);
    return n.length > 0 && a.includes(` ${n} `);
  })
    ? 1
    : 0;
}
