import { rng } from './random.js';

/** SQuAD's answer normalisation and EM/F1 (Rajpurkar et al. 2016, the official evaluation script's rules). */
export function normalizeAnswer(s: string): string {
  return s
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

export function exactMatch(prediction: string, golds: string[]): number {
  const p = normalizeAnswer(prediction);
  return golds.some((g) => normalizeAnswer(g) === p) ? 1 : 0;
}

function f1One(prediction: string, gold: string): number {
  const p = normalizeAnswer(prediction).split(' ').filter(Boolean);
  const g = normalizeAnswer(gold).split(' ').filter(Boolean);
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / p.length;
  const recall = common / g.length;
  return (2 * precision * recall) / (precision + recall);
}

export function f1Score(prediction: string, golds: string[]): number {
  return golds.length ? Math.max(...golds.map((g) => f1One(prediction, g))) : 0;
}

/** The p-th percentile of xs (nearest rank, as the benchmarks report it); NaN for none. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
}

/**
 * Recall@k (the share of the gold ids among the first k) and the reciprocal rank of the first
 * gold id, over documents: `ids` is the passage ranking mapped to document ids, and a long
 * document is several passages, so the ranking is first collapsed to each document's first
 * rank. A document found twice neither counts twice (Recall above 1) nor takes two of the k.
 */
export function scoreRanking(ids: string[], goldIds: string[]) {
  const docs = [...new Set(ids)];
  const gold = new Set(goldIds);
  const recall = (k: number) => (gold.size ? docs.slice(0, k).filter((id) => gold.has(id)).length / gold.size : 0);
  const first = docs.findIndex((id) => gold.has(id));
  return { passages: ids, recall_at_2: recall(2), recall_at_5: recall(5), recall_at_10: recall(10), rr: first >= 0 ? 1 / (first + 1) : 0 };
}

/**
 * A paired comparison of two modes over the same questions (a[i] and b[i]: one question's score in
 * each): the mean difference a - b, its 95 % interval by the bootstrap (questions resampled with
 * replacement, `samples` times, seeded), and how many questions each mode wins. On 40 dev questions
 * one gold document moves Recall@5 by about 1.3 points: the interval says which margins the
 * questions can tell from chance, so which ones to expect on questions nobody tuned on.
 */
export function pairedBootstrap(a: number[], b: number[], opts: { samples?: number; seed?: number } = {}) {
  if (a.length !== b.length) throw new Error(`paired scores differ in length: ${a.length} and ${b.length}`);
  const d = a.map((x, i) => x - b[i]);
  const n = d.length;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  if (n === 0) return { difference: Number.NaN, low: Number.NaN, high: Number.NaN, better: 0, worse: 0 };
  const samples = opts.samples ?? 10000;
  const rand = rng(opts.seed ?? 1);
  const means: number[] = [];
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[Math.floor(rand() * n)];
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  const at = (q: number) => means[Math.min(samples - 1, Math.floor(q * samples))];
  return { difference: mean(d), low: at(0.025), high: at(0.975), better: d.filter((x) => x > 0).length, worse: d.filter((x) => x < 0).length };
}
