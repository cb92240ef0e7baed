/**
 * Answer generation: the configured generator, and the contract and helpers callers need.
 * The implementations are loaded on demand (the Anthropic SDK only when GENERATOR=anthropic);
 * import createAnthropicGenerator / createExtractiveGenerator from ./anthropic.js / ./extractive.js.
 */
import type { Config } from '../config.js';
import type { Generator } from './types.js';

export type { AnswerPassage, AnswerResult, Generator } from './types.js';
export { PROMPT_VERSION, answerPrompt, citationsIn, contextBlock, drain } from './shared.js';

export async function createGenerator(cfg: Pick<Config, 'generator' | 'anthropic'>): Promise<Generator> {
  if (cfg.generator === 'anthropic') {
    if (!cfg.anthropic.apiKey) throw new Error('GENERATOR=anthropic needs ANTHROPIC_API_KEY');
    const { createAnthropicGenerator } = await import('./anthropic.js');
    return createAnthropicGenerator({
      apiKey: cfg.anthropic.apiKey,
      model: cfg.anthropic.model,
      baseUrl: cfg.anthropic.baseUrl,
      maxTokens: cfg.anthropic.maxTokens,
    });
  }
  const { createExtractiveGenerator } = await import('./extractive.js');
  return createExtractiveGenerator();
}
