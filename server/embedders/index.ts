import type { Config } from '../config.js';
import { BGE_COSINE_FLOOR, createBgeEmbedder } from './bge.js';
import { createE5Embedder, E5_COSINE_FLOOR } from './e5.js';
import { createHashEmbedder } from './hash.js';
import { createLocalEmbedder } from './local.js';
import type { Embedder } from './types.js';
import { createVoyageEmbedder } from './voyage.js';

/** The configured embedder: voyage with VOYAGE_API_KEY, else the local ONNX model; e5 (the optional local multilingual-e5-small), bge (the optional local bge-small-en-v1.5) and hash only when asked for (tests). */
export async function createEmbedder(cfg: Pick<Config, 'embedder' | 'voyage' | 'modelDir'> & Partial<Pick<Config, 'embed'>>): Promise<Embedder> {
  switch (cfg.embedder) {
    case 'voyage':
      if (!cfg.voyage.apiKey) throw new Error('EMBEDDER=voyage needs VOYAGE_API_KEY');
      return createVoyageEmbedder({ apiKey: cfg.voyage.apiKey, model: cfg.voyage.model, dimension: cfg.voyage.dimension, baseUrl: cfg.voyage.baseUrl });
    case 'hash':
      return createHashEmbedder(384);
    case 'e5':
      return createE5Embedder({ maxQueue: cfg.embed?.maxQueue });
    case 'bge':
      return createBgeEmbedder({ workers: cfg.embed?.workers, threads: cfg.embed?.threads, maxQueue: cfg.embed?.maxQueue });
    case 'local':
      return createLocalEmbedder({ modelDir: cfg.modelDir, workers: cfg.embed?.workers, threads: cfg.embed?.threads, maxQueue: cfg.embed?.maxQueue });
  }
}

/** The configured embedder's cosine of unrelated texts (Embedder.cosineFloor) without loading it. */
export function cosineFloorOf(embedder: Config['embedder']): number {
  return embedder === 'e5' ? E5_COSINE_FLOOR : embedder === 'bge' ? BGE_COSINE_FLOOR : 0;
}
