import type { Embedder } from '../../server/embedders/types.js';

/** The dot product (the cosine of two unit vectors). */
export const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** Texts every local embedder must embed: plain, empty, past its token limit, non-ASCII. */
export const CONTRACT_TEXTS = [
  'Neo4j is a graph database.',
  '',
  'word '.repeat(1500),
  'Héllo Wörld — naïve café, 北京 and ΣΊΣΥΦΟΣ.',
  'Graph databases store nodes.',
];

/** A question's vector is nearer the passage that answers it than to one that does not, by 0.1 at least. */
export async function expectRanksTheAnswer(embedder: Embedder): Promise<void> {
  const [q] = await embedder.embed(['What is the capital of France?'], 'query');
  const [paris, bananas] = await embedder.embed(['The capital of France is Paris.', 'Bananas are a yellow fruit.'], 'document');
  expect(dot(q!, paris!)).toBeGreaterThan(dot(q!, bananas!) + 0.1);
}

/** One vector per text, each of `dimension` finite numbers and unit length within `tolerance`. */
export function expectUnitVectors(vecs: number[][], count: number, dimension: number, tolerance: number): void {
  expect(vecs).toHaveLength(count);
  for (const v of vecs) {
    expect(v).toHaveLength(dimension);
    expect(v.every(Number.isFinite)).toBe(true);
    expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(tolerance);
  }
}
