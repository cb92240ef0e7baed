// Subject: bench/lib/metrics.ts: recall, MRR, EM/F1 and the paired bootstrap of the evaluation harness.
import { exactMatch, f1Score, normalizeAnswer, pairedBootstrap, scoreRanking } from '../../../bench/lib/metrics.js';
import { parseSweep } from '../../../bench/lib/sweep.js';
import { jaccardAtK, rankCorrelation } from '../../../server/retrieval/overlap.js';

test('SQuAD normalisation: case, punctuation, articles, whitespace', () => {
  expect(normalizeAnswer('The  Analytical-Engine!')).toBe('analyticalengine');
  expect(exactMatch('the Winnie Kiiza', ['Winnie Kiiza'])).toBe(1);
  expect(exactMatch('Kiiza', ['Winnie Kiiza'])).toBe(0);
  expect(f1Score('Winnie Kiiza of Uganda', ['Winnie Kiiza'])).toBeCloseTo((2 * 0.5 * 1) / 1.5, 10);
  expect(f1Score('nothing', ['Winnie Kiiza'])).toBe(0);
});

test('--sweep expands to the full grid, T naming steps', () => {
  const grid = parseSweep('T=1..3,decay=0.5..0.9');
  expect(grid).toHaveLength(9);
  expect(grid[0]).toEqual({ steps: 1, decay: 0.5 });
  expect(grid.at(-1)).toEqual({ steps: 3, decay: 0.9 });
  expect(parseSweep('decay=0.3..0.6:0.1').map((g) => g.decay)).toEqual([0.3, 0.4, 0.5, 0.6]);
  expect(() => parseSweep('T=1-4')).toThrow(/cannot read/);
});

test('overlap metrics', () => {
  expect(jaccardAtK(['a', 'b', 'c'], ['b', 'c', 'd'], 3)).toBeCloseTo(2 / 4, 10);
  expect(rankCorrelation(['a', 'b', 'c'], ['a', 'b', 'c'], 3)).toBeCloseTo(1, 10);
  expect(rankCorrelation(['a', 'b', 'c'], ['c', 'b', 'a'], 3)).toBeCloseTo(-1, 10);
});

test('Recall@k counts a document once: two passages of one gold document are one hit and one rank', () => {
  // d1 is chunked into two passages, both ranked; d2 is the other gold document.
  const ranked = ['d1', 'd1', 'x', 'd2', 'y', 'z'];
  const r = scoreRanking(ranked, ['d1', 'd2']);
  expect(r.recall_at_2).toBe(0.5);
  // Collapsed to documents (d1, x, d2, y, z), d2 is 3rd: inside the first 5 and the first 10.
  expect(r.recall_at_5).toBe(1);
  expect(r.recall_at_10).toBe(1);
  expect(r.rr).toBe(1);
  expect(scoreRanking(['x', 'd1', 'd1'], ['d1']).rr).toBe(0.5);
  expect(scoreRanking(['d1', 'd1', 'd1'], ['d1', 'd2']).recall_at_5).toBe(0.5);
  expect(scoreRanking(['a'], []).recall_at_5).toBe(0);
});

describe('pairedBootstrap', () => {
  test('the same scores: a difference of 0 and an interval of [0, 0]', () => {
    const a = [0, 0.5, 1, 1, 0.5];
    expect(pairedBootstrap(a, a)).toEqual({ difference: 0, low: 0, high: 0, better: 0, worse: 0 });
  });

  test('one mode ahead by the same amount on every question: the interval is that amount', () => {
    const b = Array.from({ length: 40 }, (_, i) => (i % 3) / 4);
    const p = pairedBootstrap(
      b.map((x) => x + 0.25),
      b,
    );
    expect(p.difference).toBeCloseTo(0.25, 12);
    expect(p.low).toBeCloseTo(0.25, 12);
    expect(p.high).toBeCloseTo(0.25, 12);
    expect([p.better, p.worse]).toEqual([40, 0]);
  });

  test('one question of 40 in a mode’s favour is a margin the interval cannot tell from chance; 30 of 40 is one it can', () => {
    const zeros = Array<number>(40).fill(0);
    const one = pairedBootstrap(
      zeros.map((_, i) => (i === 7 ? 1 : 0)),
      zeros,
    );
    expect(one.difference).toBeCloseTo(1 / 40, 12);
    expect(one.low).toBe(0);
    expect(one.high).toBeGreaterThan(0);
    const many = pairedBootstrap(
      zeros.map((_, i) => (i < 30 ? 1 : 0)),
      zeros,
    );
    expect(many.low).toBeGreaterThan(0.5);
    expect(many.high).toBeLessThanOrEqual(1);
  });

  test('seeded: the same seed gives the same interval, and mismatched lengths are refused', () => {
    const a = Array.from({ length: 25 }, (_, i) => Math.sin(i) ** 2);
    const b = Array.from({ length: 25 }, (_, i) => Math.cos(i) ** 2);
    expect(pairedBootstrap(a, b, { seed: 5 })).toEqual(pairedBootstrap(a, b, { seed: 5 }));
    expect(pairedBootstrap(a, b, { seed: 5 }).low).not.toBe(pairedBootstrap(a, b, { seed: 6 }).low);
    expect(() => pairedBootstrap(a, b.slice(1))).toThrow(/differ in length/);
  });
});
