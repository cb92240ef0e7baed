import { compactVectorIndexes, worthCompacting } from '../db/compact-indexes.js';
import { ensureFactIndexes, factIndexName, factTypes } from '../db/fact-indexes.js';
import type { Embedder } from '../embedders/types.js';
import type { GraphStore } from '../db/store.js';
import { runInSlices } from '../graph/writes.js';
import { pipelined } from './pipeline.js';
import type { Progress } from './types.js';

/**
 * A relationship's predicate, as the statements' facts read it (partials/result.cypher): the `predicate`
 * property, else the type in lower case. Its sentence is subject, predicate, the predicate's gloss in
 * parentheses where the curated source gives one ("palliates (relieves the symptoms of)"), object.
 */
const PREDICATE = "coalesce(r.predicate, toLower(replace(type(r), '_', ' ')))";

interface FactRow {
  id: string;
  type: string;
  subject: string;
  predicate: string;
  /** A curated predicate's plain words (CuratedEdge.gloss), or null. */
  gloss: string | null;
  object: string;
  subjectVector: number[] | null;
  objectVector: number[] | null;
}

/** The relationships the document extractor writes: their vectors are composed (embedFacts). */
const COMPOSED_TYPE = 'RELATED';

const words = (text: string) => Math.max(1, text.split(/\s+/).filter(Boolean).length);

/** The parts' vectors weighted by their word counts, summed and normalised (exported for the tests). */
export function compose(vectors: number[][], weights: number[]): number[] {
  const sum = vectors[0].map((_, j) => vectors.reduce((t, v, k) => t + weights[k] * v[j], 0));
  const norm = Math.hypot(...sum) || 1;
  return sum.map((x) => x / norm);
}

/**
 * Gives every fact (relationship of these types between two entities) that has no vector yet its
 * vector, in batches of one transaction each, after making sure of the types' fact indexes. Safe to
 * re-run and to interrupt: the next run fills what is still missing. `all` first clears every fact
 * vector (re-embedding with a new model: the entities' vectors must be new already).
 *
 * A text-extracted fact's (RELATED) vector is composed from its parts, not embedded as a sentence:
 * the subject's and the object's name vectors (the entities already carry them) and the predicate's
 * vector (embedded once per distinct predicate), each weighted by its number of words, then
 * normalised: a mean-pooling model's sentence vector taken over the parts instead of the tokens.
 * The model then embeds the distinct predicates (1,969 for MuSiQue's 43,219 facts) instead of
 * every sentence, which was most of an ingest's time; recall held
 * (bench/reports/ingest/fact-vectors-2026-12-01). A curated type's
 * facts (Hetionet's TREATS_CtD) are embedded as sentences: there every fact of a type shares one
 * predicate, the names dominate a composed vector, and the question's relation ("What symptoms
 * does X present?") was lost (the presents template fell; same report).
 * With `sentences`, or where an end has no name vector of the model's dimension, the sentence
 * itself is embedded (facts with the same sentence once).
 */
export async function embedFacts(
  store: GraphStore,
  embedder: Embedder,
  types: readonly string[],
  opts: { batchSize?: number; all?: boolean; sentences?: boolean; onProgress?: (p: Progress) => void } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? 512;
  const walked = factTypes(types);
  if (walked.length === 0) return 0;
  await ensureFactIndexes(store, walked, embedder.dimension);
  // The types are identifiers (factTypes checks them): a relationship type cannot be a parameter.
  if (opts.all) for (const type of walked) await store.write(`MATCH (:Entity)-[r:${type}]->(:Entity) WHERE r.embedding IS NOT NULL REMOVE r.embedding`);
  const pending: string[] = [];
  const pendingOf = new Map<string, number>();
  for (const type of walked) {
    const r = await store.read<{ id: string }>(`MATCH (:Entity)-[r:${type}]->(:Entity) WHERE r.embedding IS NULL RETURN elementId(r) AS id`);
    for (const x of r.records) pending.push(x.get('id'));
    pendingOf.set(type, r.records.length);
  }
  let embedded = 0;
  // The predicates' vectors, each embedded once per run.
  const predicates = new Map<string, number[]>();
  // Batch i + 1 is read and embedded while batch i is written (pipelined).
  const prepare = async (i: number) => {
    const rows = await store.read<Omit<FactRow, 'subjectVector' | 'objectVector'> & { subjectId: string; objectId: string }>(
      `UNWIND $ids AS id MATCH (a:Entity)-[r]->(b:Entity) WHERE elementId(r) = id
       RETURN id, type(r) AS type, a.name AS subject, ${PREDICATE} AS predicate, r.gloss AS gloss, b.name AS object, elementId(a) AS subjectId, elementId(b) AS objectId`,
      { ids: pending.slice(i, i + batchSize) },
    );
    // The ends' name vectors, each read once per batch (an entity is the end of many facts).
    const ends = opts.sentences
      ? []
      : [...new Set(rows.records.flatMap((x) => (x.get('type') === COMPOSED_TYPE ? [x.get('subjectId'), x.get('objectId')] : [])))];
    const vectorRows =
      ends.length === 0
        ? []
        : (
            await store.read<{ id: string; v: number[] | null }>('UNWIND $ids AS id MATCH (e:Entity) WHERE elementId(e) = id RETURN id, e.embedding AS v', {
              ids: ends,
            })
          ).records;
    const nameVectors = new Map(vectorRows.map((x) => [x.get('id'), x.get('v')]));
    const facts: FactRow[] = rows.records.map((x) => ({
      ...x.toObject(),
      subjectVector: nameVectors.get(x.get('subjectId')) ?? null,
      objectVector: nameVectors.get(x.get('objectId')) ?? null,
    }));
    const dim = embedder.dimension;
    const composable = (f: FactRow) => !opts.sentences && f.type === COMPOSED_TYPE && f.subjectVector?.length === dim && f.objectVector?.length === dim;
    const sentence = (f: FactRow) => `${f.subject} ${f.predicate}${f.gloss ? ` (${f.gloss})` : ''} ${f.object}`;
    const newPredicates = [...new Set(facts.filter(composable).map((f) => f.predicate))].filter((p) => !predicates.has(p));
    const sentences = [...new Set(facts.filter((f) => !composable(f)).map(sentence))];
    const texts = [...newPredicates, ...sentences];
    const vectors = texts.length > 0 ? await embedder.embed(texts, 'document') : [];
    for (const [k, p] of newPredicates.entries()) predicates.set(p, vectors[k]);
    const bySentence = new Map(sentences.map((t, k) => [t, vectors[newPredicates.length + k]]));
    return facts.map((f) => ({
      id: f.id,
      embedding: composable(f)
        ? compose([f.subjectVector!, predicates.get(f.predicate)!, f.objectVector!], [words(f.subject), words(f.predicate), words(f.object)])
        : bySentence.get(sentence(f)),
    }));
  };
  const commit = async (updates: Awaited<ReturnType<typeof prepare>>) => {
    await store.writeTransaction((tx) =>
      runInSlices(tx, 'UNWIND $updates AS u MATCH ()-[r]->() WHERE elementId(r) = u.id SET r.embedding = u.embedding', 'updates', updates),
    );
    embedded += updates.length;
  };
  await pipelined(pending.length, batchSize, prepare, commit, () => opts.onProgress?.({ stage: 'facts', done: embedded, total: pending.length }));
  opts.onProgress?.({ stage: 'facts', done: embedded, total: embedded });
  // One index segment per batch written: a bulk embedding that at least doubled a type's facts
  // leaves its index rebuilt (worthCompacting).
  const batches = Math.ceil(pending.length / batchSize);
  const rebuild: string[] = [];
  for (const type of walked) {
    const total = Number((await store.read(`RETURN COUNT { ()-[:${type}]->() } AS n`)).records[0].get('n'));
    if (worthCompacting(batches, pendingOf.get(type) ?? 0, total)) rebuild.push(factIndexName(type));
  }
  if (rebuild.length > 0) await compactVectorIndexes(store, rebuild);
  return embedded;
}
