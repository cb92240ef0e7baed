import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';

/** A passage the answer may cite. */
export interface AnswerPassage {
  id: string;
  title: string | null;
  text: string;
}

export interface AnswerResult {
  answer: string;
  citations: string[];
  usage: { inputTokens: number; outputTokens: number } | null;
  generator: string;
}

/**
 * Answer generators stream text chunks, then return the whole result.
 * Both implementations cite passage ids in square brackets.
 */
export interface Generator {
  readonly id: string;
  stream(question: string, passages: AnswerPassage[], signal?: AbortSignal): AsyncGenerator<string, AnswerResult>;
  complete(question: string, passages: AnswerPassage[]): Promise<AnswerResult>;
}

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

export async function createGenerator(cfg: Pick<Config, 'generator' | 'anthropic'>): Promise<Generator> {
  if (cfg.generator === 'anthropic') {
    if (!cfg.anthropic.apiKey) throw new Error('GENERATOR=anthropic needs ANTHROPIC_API_KEY');
    const { createAnthropicGenerator } = await import('./anthropic.js');
    return createAnthropicGenerator({ apiKey: cfg.anthropic.apiKey, model: cfg.anthropic.model, baseUrl: cfg.anthropic.baseUrl, maxTokens: cfg.anthropic.maxTokens });
  }
  const { createExtractiveGenerator } = await import('./extractive.js');
  return createExtractiveGenerator();
}
