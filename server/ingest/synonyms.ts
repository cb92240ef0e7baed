/**
 * Synonym edges (SAME_AS) found through the entity vector index, with a
 * lexical guard on numbers.
 */
import { LITERAL_TYPES } from '../graph/facts.js';
import { synonymCandidates, synonymsPendingIds } from '../graph/lookups.js';
import type { GraphStore } from '../db/store.js';
import { touchGraph, writeSynonyms } from '../graph/writes.js';
import type { IngestOptions } from './types.js';

/**
 * A lexical guard on embedding synonyms: names whose numbers or regnal
 * numerals differ ("Hugh I of Cyprus" / "Hugh III of Cyprus", "Apollo 11" /
 * "Apollo 13") name different things, however close their embeddings.
 */
export function numeralsAgree(a: string, b: string): boolean {
  // Every digit run, also inside tokens ("CYP3A4" vs "CYP3A5"), and standalone regnal numerals.
  const marks = (s: string) => [...(s.match(/\d+/g) ?? []), ...(s.match(/\b[IVXLC]+\b/g) ?? [])].sort().join(' ');
  return marks(a) === marks(b);
}

/** Two entity names this similar (cosine, on a model whose unrelated texts score 0) are taken as one thing. */
export const SYNONYM_COSINE = 0.85;

/**
 * A cosine threshold t set for a model whose unrelated texts score 0, on the scale of one whose
 * unrelated texts score `floor` (Embedder.cosineFloor): floor + t x (1 - floor). MiniLM: t itself.
 */
export function onEmbedderScale(t: number, floor = 0): number {
  return floor + t * (1 - floor);
}

/**
 * SAME_AS edges between each new entity and its nearest neighbours in the
 * entity vector index with cosine >= threshold: k lookups per entity, never an
 * all-pairs pass. Literal types and curated entities (whose ids are already
 * canonical: on Hetionet, embeddings would merge CYP3A4 with CYP3A5) are
 * skipped, and numbers must agree. Two workers
 * (the lookups are CPU-bound in Neo4j); each chunk's edges are written and its
 * entities marked done in one transaction, so an interrupted pass resumes.
 */
export async function findSynonyms(store: GraphStore, threshold: number, onProgress?: IngestOptions['onProgress']): Promise<number> {
  const ids = await synonymsPendingIds(store);
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 200) chunks.push(ids.slice(i, i + 200));
  let created = 0;
  let done = 0;
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      const found = await synonymCandidates(store, chunk, { threshold, excludedTypes: LITERAL_TYPES });
      const pairs = found.flatMap((r) => r.near.filter((n) => numeralsAgree(r.name, n.name)).map((n) => ({ a: r.id, b: n.id, score: n.cosine })));
      // Not `created += await ...`: that reads `created` before the other worker's await ends.
      const made = await writeSynonyms(store, pairs, chunk);
      created += made;
      done += chunk.length;
      onProgress?.({ stage: 'synonyms', done, total: ids.length });
    }
  };
  await Promise.all([worker(), worker()]);
  if (created) await touchGraph(store);
  return created;
}
