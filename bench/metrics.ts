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
