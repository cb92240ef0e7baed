import type { Config } from '../config.js';
import { createHashEmbedder } from './hash.js';
import { createLocalEmbedder } from './local.js';
import type { Embedder } from './types.js';
import { createVoyageEmbedder } from './voyage.js';

/** The configured embedder: voyage with VOYAGE_API_KEY, else the local ONNX model; hash only when asked for (tests). */
export async function createEmbedder(cfg: Pick<Config, 'embedder' | 'voyage' | 'modelDir'> & Partial<Pick<Config, 'embed'>>): Promise<Embedder> {
  switch (cfg.embedder) {
    case 'voyage':
      if (!cfg.voyage.apiKey) throw new Error('EMBEDDER=voyage needs VOYAGE_API_KEY');
      return createVoyageEmbedder({ apiKey: cfg.voyage.apiKey, model: cfg.voyage.model, dimension: cfg.voyage.dimension, baseUrl: cfg.voyage.baseUrl });
    case 'hash':
      return createHashEmbedder(384);
    case 'local':
      return createLocalEmbedder({ modelDir: cfg.modelDir, workers: cfg.embed?.workers, threads: cfg.embed?.threads, maxQueue: cfg.embed?.maxQueue });
  }
}
