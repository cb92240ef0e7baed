/** Helpers every answer generator uses: the versioned prompt, the passages block, citations, draining a stream. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnswerPassage, AnswerResult } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROMPT_VERSION = 'answer-v1';
export const answerPrompt = () => fs.readFileSync(path.join(here, 'prompts', `${PROMPT_VERSION}.md`), 'utf8');

/** The ids cited as [id] in a text, in order of first use, restricted to the given passages. */
export function citationsIn(text: string, passages: AnswerPassage[]): string[] {
  const known = new Set(passages.map((p) => p.id));
  const out: string[] = [];
  for (const m of text.matchAll(/\[([^\]\s]+)\]/g)) if (known.has(m[1]) && !out.includes(m[1])) out.push(m[1]);
  return out;
}

export function contextBlock(passages: AnswerPassage[]): string {
  return passages.map((p) => `[${p.id}] ${p.title ?? ''}\n${p.text}`).join('\n\n');
}

/** Drains a stream into its final result. */
export async function drain(gen: AsyncGenerator<string, AnswerResult>): Promise<AnswerResult> {
  for (;;) {
    const r = await gen.next();
    if (r.done) return r.value;
  }
}
