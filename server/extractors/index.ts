import type { Config } from '../config.js';
import { createOfflineExtractor } from './offline/index.js';
import type { Extractor } from './types.js';

/** The configured extractor: anthropic with ANTHROPIC_API_KEY, else the offline NLP extractor. */
export async function createExtractor(cfg: Pick<Config, 'extractor' | 'anthropic'>): Promise<Extractor> {
  if (cfg.extractor === 'anthropic') {
    if (!cfg.anthropic.apiKey) throw new Error('EXTRACTOR=anthropic needs ANTHROPIC_API_KEY');
    const { createAnthropicExtractor } = await import('./anthropic.js');
    return createAnthropicExtractor({ apiKey: cfg.anthropic.apiKey, model: cfg.anthropic.model, baseUrl: cfg.anthropic.baseUrl });
  }
  return createOfflineExtractor();
}
