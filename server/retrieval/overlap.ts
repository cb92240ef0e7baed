/** Agreement between two rankings, for A/B comparisons of modes. */

/** |A ∩ B| / |A ∪ B| of the top k ids of each list (1 when both are empty). */
export function jaccardAtK(a: string[], b: string[], k: number): number {
  const A = new Set(a.slice(0, k));
  const B = new Set(b.slice(0, k));
  const union = new Set([...A, ...B]);
  if (union.size === 0) return 1;
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return inter / union.size;
}

/**
 * Spearman rank correlation over the union of the two top-k lists; an item
 * missing from a list takes rank k + 1 there. 1 = same order, -1 = reversed;
 * null when there are fewer than two items.
 */
export function rankCorrelation(a: string[], b: string[], k: number): number | null {
  const ta = a.slice(0, k);
  const tb = b.slice(0, k);
  const items = [...new Set([...ta, ...tb])];
  if (items.length < 2) return null;
  const rank = (list: string[], x: string) => (list.includes(x) ? list.indexOf(x) + 1 : k + 1);
  const ra = items.map((x) => rank(ta, x));
  const rb = items.map((x) => rank(tb, x));
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(ra);
  const mb = mean(rb);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < items.length; i++) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) ** 2;
    db += (rb[i] - mb) ** 2;
  }
  return da === 0 || db === 0 ? null : num / Math.sqrt(da * db);
}
