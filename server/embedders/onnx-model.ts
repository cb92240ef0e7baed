/**
 * A BERT sentence embedder on onnxruntime-node, without the threading: tokenization, batching by
 * length under a token budget, the forward pass and pooling. It runs inside an embedding worker
 * thread (embed-worker.ts), or in the calling thread when EMBED_WORKERS=0.
 *
 * Pipeline (as sentence-transformers does it): BERT WordPiece ([CLS] … [SEP], at most `maxTokens`)
 * → the transformer's last_hidden_state → pooling → L2 normalisation. all-MiniLM-L6-v2 (the
 * default) pools by the mean over the attention mask, 256 tokens; bge-small-en-v1.5 (EMBEDDER=bge)
 * takes the [CLS] state, 512 tokens.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { WordPieceTokenizer } from './wordpiece.js';

export const LOCAL_DIMENSION = 384;
export const LOCAL_MAX_TOKENS = 256;

export interface OnnxModelOptions {
  modelDir: string;
  /** ONNX Runtime intra-op threads. */
  threads: number;
  /** Most texts per forward pass. */
  batchSize: number;
  /** 'mean' over the attention mask (MiniLM, the default) or the [CLS] state (bge). */
  pooling?: 'mean' | 'cls';
  /** Most tokens per text, [CLS] and [SEP] included; default LOCAL_MAX_TOKENS (256). */
  maxTokens?: number;
  /** The ONNX file in modelDir; default model.onnx. The vocabulary is vocab.txt, else tokenizer.json. */
  modelFile?: string;
  /**
   * Most padded tokens per forward pass (texts x longest; default 512): long texts go in smaller
   * batches, which bounds the attention buffers (texts x 12 heads x longest² floats). 512 is faster
   * and far smaller than 4,096 (bench/reports/code-notes/design-figures-2026-12-01).
   */
  maxBatchTokens?: number;
}

export interface OnnxModel {
  /** One L2-normalised 384-d vector per text, concatenated, in input order. */
  embed(texts: string[]): Promise<Float64Array>;
  release(): Promise<void>;
}

export async function loadOnnxModel(opts: OnnxModelOptions): Promise<OnnxModel> {
  const maxBatchTokens = opts.maxBatchTokens ?? 512;
  const pooling = opts.pooling ?? 'mean';
  const maxTokens = opts.maxTokens ?? LOCAL_MAX_TOKENS;
  const vocabFile = join(opts.modelDir, 'vocab.txt');
  const tokenizer = existsSync(vocabFile)
    ? WordPieceTokenizer.fromVocabFile(vocabFile)
    : WordPieceTokenizer.fromTokenizerJson(join(opts.modelDir, 'tokenizer.json'));
  const session = await ort.InferenceSession.create(join(opts.modelDir, opts.modelFile ?? 'model.onnx'), {
    intraOpNumThreads: opts.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // No arena: ONNX Runtime's CPU arena keeps the largest batch's buffers for the life of the
    // session (RSS 400 MB -> 1 GB after one long document, never returned). Without it memory
    // goes back after each pass, at no measurable cost for this model.
    enableCpuMemArena: false,
    enableMemPattern: false,
  });
  const wantsTokenTypes = session.inputNames.includes('token_type_ids');
  const outputName = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0]!;
  const dim = LOCAL_DIMENSION;

  async function runBatch(batch: number[][], out: Float64Array, slots: number[]): Promise<void> {
    const n = batch.length;
    const len = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(n * len).fill(BigInt(tokenizer.padId));
    const mask = new BigInt64Array(n * len); // zero = padding
    batch.forEach((seq, b) => {
      for (let t = 0; t < seq.length; t++) {
        ids[b * len + t] = BigInt(seq[t]!);
        mask[b * len + t] = 1n;
      }
    });
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor('int64', ids, [n, len]),
      attention_mask: new ort.Tensor('int64', mask, [n, len]),
    };
    if (wantsTokenTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * len), [n, len]);
    const result = await session.run(feeds);
    const tensor = result[outputName]!;
    const hidden = tensor.data as Float32Array;
    if (tensor.dims[2] !== dim) throw new Error(`model returned ${tensor.dims[2]}-d states, expected ${dim}`);
    const acc = new Float64Array(dim);
    for (let b = 0; b < n; b++) {
      acc.fill(0);
      // The mask is 1 exactly on the first `count` positions; [CLS] pooling reads position 0 only.
      const count = pooling === 'cls' ? 1 : batch[b]!.length;
      for (let t = 0; t < count; t++) {
        const base = (b * len + t) * dim;
        for (let d = 0; d < dim; d++) acc[d]! += hidden[base + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += acc[d]! * acc[d]!;
      norm = Math.sqrt(norm) || 1; // mean then normalise == sum then normalise
      const at = slots[b]! * dim;
      for (let d = 0; d < dim; d++) out[at + d] = acc[d]! / norm;
    }
    for (const v of Object.values(result)) (v as { dispose?: () => void }).dispose?.();
  }

  return {
    async embed(texts: string[]): Promise<Float64Array> {
      const out = new Float64Array(texts.length * dim);
      const encoded = texts.map((t) => tokenizer.encode(t, maxTokens));
      // Texts of similar length together, so little padding is computed; results go back to their slots.
      const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
      let s = 0;
      while (s < order.length) {
        let e = s + 1;
        // Sorted ascending, so the last text of a batch is its longest.
        while (e < order.length && e - s < opts.batchSize && (e - s + 1) * encoded[order[e]!]!.length <= maxBatchTokens) e++;
        const idx = order.slice(s, e);
        await runBatch(
          idx.map((i) => encoded[i]!),
          out,
          idx,
        );
        s = e;
      }
      return out;
    },
    release: () => session.release(),
  };
}
