import Anthropic from '@anthropic-ai/sdk';
import { answerPrompt, citationsIn, contextBlock, drain } from './shared.js';
import type { AnswerResult, Generator } from './types.js';

export interface AnthropicGeneratorOptions {
  apiKey: string;
  model: string;
  baseUrl?: string;
  maxTokens?: number;
  maxRetries?: number;
}

/**
 * Claude answers, streamed (Messages API streaming); the prompt is the versioned
 * file prompts/answer-v1.md. No temperature: the Messages API version this SDK
 * speaks (2026-10-21) rejects sampling parameters.
 */
export function createAnthropicGenerator(opts: AnthropicGeneratorOptions): Generator {
  const client = new Anthropic({ apiKey: opts.apiKey, ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}), maxRetries: opts.maxRetries ?? 3 });
  const system = answerPrompt();
  const gen: Generator = {
    id: `anthropic:${opts.model}`,
    async *stream(question, passages, signal): AsyncGenerator<string, AnswerResult> {
      const stream = client.messages.stream(
        {
          model: opts.model,
          max_tokens: opts.maxTokens ?? 512,
          system,
          messages: [{ role: 'user', content: `Passages:\n\n${contextBlock(passages)}\n\nQuestion: ${question}` }],
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
    complete: (question, passages) => drain(gen.stream(question, passages)),
  };
  return gen;
}
