/**
 * Feature-hashing embedder — a FAST TEST DOUBLE, not a semantic model. Never use it as a default.
 *
 * A text becomes a bag of features: lowercased word unigrams ("w:<word>") and character trigrams
 * of each word padded with spaces ("c:<tri>"). Each feature is hashed with 32-bit FNV-1a; the hash
 * picks a bucket (h mod dimension) and a sign (one hash bit), and the signed counts are
 * L2-normalised. Deterministic across runs and machines, no model files, microseconds per text.
 * Texts that share words or spellings get similar vectors; paraphrases with other words do not.
 */
import type { Embedder, EmbedKind } from './types.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over the UTF-8 bytes of `s`. */
export function fnv1a32(s: string): number {
  let h = FNV_OFFSET;
  for (const byte of Buffer.from(s, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h >>> 0;
}

function features(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const w of words) {
    out.push(`w:${w}`);
    const padded = [' ', ...w, ' '];
    for (let i = 0; i + 3 <= padded.length; i++) out.push(`c:${padded.slice(i, i + 3).join('')}`);
  }
  return out;
}

export function createHashEmbedder(dimension = 384): Embedder {
  if (!Number.isInteger(dimension) || dimension < 1) throw new Error(`dimension must be a positive integer, got ${dimension}`);
  const embedOne = (text: string): number[] => {
    const v = new Float64Array(dimension);
    for (const f of features(text)) {
      const h = fnv1a32(f);
      v[h % dimension]! += h & 0x80000000 ? -1 : 1;
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    // A text with no features (empty, only punctuation) still gets a unit vector: a fixed basis one.
    if (norm === 0) {
      const e = new Array<number>(dimension).fill(0);
      e[0] = 1;
      return e;
    }
    return Array.from(v, (x) => x / norm);
  };
  return {
    id: `hash:${dimension}`,
    dimension,
    async embed(texts: string[], _kind: EmbedKind): Promise<number[][]> {
      return texts.map(embedOne);
    },
  };
}
