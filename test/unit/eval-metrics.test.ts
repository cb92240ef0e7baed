import { exactMatch, f1Score, normalizeAnswer, scoreRanking } from '../../bench/metrics.js';
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
