/** Helpers every answer generator uses: the versioned prompt, the passages and facts blocks, citations, draining a stream. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnswerFact, AnswerInput, AnswerPassage, AnswerResult } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROMPT_VERSION = 'answer-v2';
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

/** The facts as a list, one sentence each ("- Rivastigmine treats Alzheimer's disease"), best first. */
export function factsBlock(facts: AnswerFact[]): string {
  return [...facts]
    .sort((a, b) => a.rank - b.rank)
    .map((f) => `- ${f.text}`)
    .join('\n');
}

/** A generator's input, whether it was given the passages alone or with their graph evidence. */
export function asInput(input: AnswerPassage[] | AnswerInput): AnswerInput {
  return Array.isArray(input) ? { passages: input } : input;
}

/** The part of a retrieval result an answer uses (structurally server/retrieval/retriever.ts's RetrievalResult). */
export interface RetrievalEvidence {
  passages: AnswerPassage[];
  seeds?: AnswerInput['seeds'];
  entities?: AnswerInput['entities'];
  paths?: NonNullable<AnswerInput['paths']>;
  facts?: AnswerInput['facts'];
}

/**
 * What /v1/answer hands the generator: the first topK passages (id, title,
 * text), the evidence paths that lead to them or to entities, the seeds, the
 * top entities and the facts.
 */
export function answerInput(r: RetrievalEvidence, topK: number): AnswerInput {
  const passages = r.passages.slice(0, topK).map((p) => ({ id: p.id, title: p.title, text: p.text }));
  const kept = new Set(passages.map((p) => p.id));
  return {
    passages,
    seeds: r.seeds ?? [],
    entities: r.entities ?? [],
    paths: (r.paths ?? []).filter((p) => (p.passageId ? kept.has(p.passageId) : true)),
    facts: r.facts ?? [],
  };
}

/** Drains a stream into its final result. */
export async function drain(gen: AsyncGenerator<string, AnswerResult>): Promise<AnswerResult> {
  for (;;) {
    const r = await gen.next();
    if (r.done) return r.value;
  }
}
