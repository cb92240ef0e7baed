import { exactMatch, f1Score, normalizeAnswer } from '../../bench/metrics.js';
import { parseSweep } from '../../bench/sweep.js';
import { jaccardAtK, rankCorrelation } from '../../server/retrieval/overlap.js';

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
