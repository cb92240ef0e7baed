// Subject: server/ingest/progress.ts: the ingest progress bar.
import { progressBar } from '../../../server/ingest/progress.js';

/** A stream that records what the bar writes (not a terminal: one plain line per report it keeps). */
function recorder() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  return { lines, stream };
}

describe('progress bar', () => {
  test('a stage first reported at done > 0 shows no absurd rate', () => {
    const { lines, stream } = recorder();
    const bar = progressBar(stream);
    bar({ stage: 'questions', done: 1, total: 40 });
    bar({ stage: 'questions', done: 40, total: 40 });
    const rates = lines.join('').match(/([\d.]+)\/s/g) ?? [];
    // Reported within a millisecond: no rate can be measured yet, so none is printed.
    expect(rates).toEqual([]);
    expect(lines.at(-1)).toMatch(/^questions +\[#{30}\] 100% 40\/40\n$/);
  });

  test('the rate counts from the first report of the stage', async () => {
    const { lines, stream } = recorder();
    const bar = progressBar(stream);
    bar({ stage: 'synonyms', done: 1000, total: 2000 });
    await new Promise((r) => setTimeout(r, 600));
    bar({ stage: 'synonyms', done: 2000, total: 2000 });
    const rate = Number(/([\d.]+)\/s/.exec(lines.at(-1)!)![1]);
    // 1,000 items in about 0.6 s (~1,667/s), not 2,000 (~3,333/s, as counted from zero). A timer may
    // fire a millisecond early (CI measured 1,667.8/s), so the bound sits between the two.
    expect(rate).toBeGreaterThan(0);
    expect(rate).toBeLessThan(2500);
  });

  test('a stage with nothing to do prints nothing', () => {
    const { lines, stream } = recorder();
    progressBar(stream)({ stage: 'facts', done: 0, total: 0 });
    expect(lines).toEqual([]);
  });
});
