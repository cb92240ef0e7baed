import Anthropic from '@anthropic-ai/sdk';
import { answerPrompt, asInput, citationsIn, contextBlock, drain, factsBlock } from './shared.js';
import type { AnswerInput, AnswerResult, Generator } from './types.js';

export interface AnthropicGeneratorOptions {
  apiKey: string;
  model: string;
  baseUrl?: string;
  maxTokens?: number;
  maxRetries?: number;
}

/**
 * Claude answers, streamed (Messages API streaming); the prompt is the versioned
 * file prompts/answer-v2.md; the message carries the passages and, beside them,
 * the facts of the evidence paths (all there is for a graph without passages).
 * No temperature: the Messages API version this SDK speaks (2026-10-21)
 * rejects sampling parameters.
 */
export function createAnthropicGenerator(opts: AnthropicGeneratorOptions): Generator {
  const client = new Anthropic({ apiKey: opts.apiKey, ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}), maxRetries: opts.maxRetries ?? 3 });
  const system = answerPrompt();
  const gen: Generator = {
    id: `anthropic:${opts.model}`,
    async *stream(question, given, signal): AsyncGenerator<string, AnswerResult> {
      const input = asInput(given);
      const { passages } = input;
      const stream = client.messages.stream(
        {
          model: opts.model,
          max_tokens: opts.maxTokens ?? 512,
          system,
          messages: [{ role: 'user', content: userMessage(question, input) }],
        },
        { signal },
      );
      let text = '';
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          text += event.delta.text;
          yield event.delta.text;
        }
      }
      const final = await stream.finalMessage();
      return {
        answer: text.trim(),
        citations: citationsIn(text, passages),
        usage: { inputTokens: final.usage.input_tokens, outputTokens: final.usage.output_tokens },
        generator: gen.id,
      };
    },
    complete: (question, input) => drain(gen.stream(question, input)),
  };
  return gen;
}

/** The user turn: the passages, the facts (when there are any) and the question. */
export function userMessage(question: string, input: AnswerInput): string {
  const parts = [`Passages:\n\n${input.passages.length ? contextBlock(input.passages) : '(none)'}`];
  if (input.facts?.length) parts.push(`Facts:\n\n${factsBlock(input.facts)}`);
  parts.push(`Question: ${question}`);
  return parts.join('\n\n');
}
