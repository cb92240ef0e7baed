// Subject: server/embedders/pool.ts + local.ts: the worker-thread pool of the ONNX embedders.
import { ensureModel } from '../../../scripts/setup-model.mjs';
import { AppError } from '../../../server/errors.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import { EmbedPool } from '../../../server/embedders/pool.js';
import type { Embedder } from '../../../server/embedders/types.js';

const texts = [
  'Short.',
  'The Journal of Mathematical Physics is a peer-reviewed journal published monthly by the American Institute of Physics.',
  'Lewistown is a city in Fulton County, Illinois, United States. It was named by its founder, Ossian M. Ross. '.repeat(12),
  'Graph databases store nodes and relationships.',
  'Héllo Wörld — naïve café, 北京 and ΣΊΣΥΦΟΣ.',
  '',
];

describe('local embedder in worker threads', () => {
  let modelDir: string;
  let inThread: Embedder;
  let pooled: Embedder;

  beforeAll(async () => {
    modelDir = await ensureModel({ log: () => {} });
    inThread = await createLocalEmbedder({ workers: 0, batchSize: 4 });
    pooled = await createLocalEmbedder({ workers: 2, batchSize: 4 });
  }, 300_000);

  afterAll(async () => {
    await inThread.close?.();
    await pooled.close?.();
  });

  it('gives exactly the vectors the in-thread model gives, in input order', async () => {
    const a = await inThread.embed(texts, 'document');
    const b = await pooled.embed(texts, 'document');
    expect(b).toEqual(a);
    // Order is the caller's, whatever the batching.
    const [single] = await pooled.embed([texts[3]!], 'query');
    for (let d = 0; d < 384; d++) expect(Math.abs(single![d]! - b[3]![d]!)).toBeLessThan(1e-5);
  });

  it('serves concurrent callers, each getting its own vectors', async () => {
    const alone = await Promise.all(texts.map((t) => inThread.embed([t], 'query')));
    const together = await Promise.all(texts.map((t) => pooled.embed([t], 'query')));
    expect(together).toEqual(alone);
  });

  it('refuses work past its queue bound with an overloaded error, and recovers', async () => {
    const pool = new EmbedPool({ workers: 1, maxQueue: 2, model: { modelDir, threads: 1, batchSize: 8 } });
    try {
      const jobs = Array.from({ length: 6 }, () =>
        pool.run(['A man is eating food.']).then(
          () => 'ok',
          (e: unknown) => e,
        ),
      );
      const results = await Promise.all(jobs);
      const refused = results.filter((r) => r instanceof AppError);
      // One running, two queued: the other three are refused at once.
      expect(refused).toHaveLength(3);
      for (const r of refused) {
        expect((r as AppError).code).toBe('overloaded');
        expect((r as AppError).retryAfterSeconds).toBeGreaterThan(0);
      }
      expect(results.filter((r) => r === 'ok')).toHaveLength(3);
      const again = await pool.run(['again']);
      expect(again).toHaveLength(384);
    } finally {
      await pool.close();
    }
  });

  it('fails the job, not the process, when the model cannot load in the worker, and closes cleanly', async () => {
    const pool = new EmbedPool({ workers: 1, maxQueue: 4, model: { modelDir: `${modelDir}/no-such-folder`, threads: 1, batchSize: 8 } });
    await expect(pool.run(['x'])).rejects.toThrow(/embedding/);
    await pool.close();
    await expect(pool.run(['x'])).rejects.toThrow(/closed/);
  });
});
