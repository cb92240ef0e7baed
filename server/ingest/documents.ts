import crypto from 'node:crypto';
import type { Embedder } from '../embedders/types.js';
import type { Extraction, Extractor } from '../extractors/types.js';
import { existingEntityIds, knownDocumentHashes } from '../graph/lookups.js';
import type { GraphStore } from '../db/store.js';
import { writeDocumentBatch } from '../graph/writes.js';
import { ensureProjection, projectionManager } from '../db/projection.js';
import { IngestInputError } from './problems.js';
import { describeForEmbedding, meanOfMentioningPassages, resolveEntities } from './resolution.js';
import { toPassages } from './sources/index.js';
import { embedFacts } from './facts.js';
import { linkerFor } from './link.js';
import { pipelined } from './pipeline.js';
import { findSynonyms, onEmbedderScale, SYNONYM_COSINE } from './synonyms.js';
import { compactVectorIndexes, worthCompacting } from '../db/compact-indexes.js';
import { VECTOR_INDEXES } from '../db/embedder-guard.js';
import type { IngestOptions, IngestSummary, ReadItem, SourceDocument, SourcePassage, SourceProblem, StageSeconds } from './types.js';

/**
 * documents -> passages -> extraction -> resolution -> embeddings -> graph.
 *
 * Documents are processed in batches; each batch is written in ONE transaction
 * with MERGE on stable ids, so a batch is all or nothing and a second run of
 * the same input writes nothing (documents whose content hash is unchanged are
 * skipped before any work). An interrupted run resumes where it stopped.
 * Synonym edges are found through the vector index for new entities only, so
 * the whole pipeline is linear in the input. The RELATED facts' sentences are
 * embedded last (server/ingest/facts.ts), for the fact seeds.
 */
export interface IngestContext {
  store: GraphStore;
  embedder: Embedder;
  extractor: Extractor;
  graphName: string;
  extraProjectionTypes?: string[];
}

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export async function readAll(items: AsyncIterable<ReadItem>): Promise<{ documents: SourceDocument[]; problems: SourceProblem[] }> {
  const documents: SourceDocument[] = [];
  const problems: SourceProblem[] = [];
  for await (const item of items) {
    if ('document' in item) documents.push(item.document);
    else problems.push(item.problem);
  }
  return { documents, problems };
}

export async function ingestDocuments(ctx: IngestContext, items: AsyncIterable<ReadItem>, opts: IngestOptions = {}): Promise<IngestSummary> {
  const { store } = ctx;
  const batchSize = opts.batchSize ?? 64;
  const seconds: StageSeconds = { read: 0, extract: 0, embed: 0, resolve: 0, write: 0, synonyms: 0, projection: 0, index: 0, link: 0 };
  const timed = async <T>(stage: keyof StageSeconds, f: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      seconds[stage] += (performance.now() - t0) / 1000;
    }
  };
  const { documents, problems } = await timed('read', () => readAll(items));
  if (opts.strict && problems.length) throw new IngestInputError(problems);
  const summary: IngestSummary = {
    documents: { read: documents.length, written: 0, unchanged: 0, replaced: 0 },
    passages: 0,
    entities: 0,
    mentions: 0,
    relations: 0,
    synonyms: 0,
    links: 0,
    problems,
    seconds,
  };
  const hashOf = (d: SourceDocument) =>
    sha(JSON.stringify([d.title, d.text, d.source, d.metadata ?? null, opts.chunkSize ?? null, opts.chunkOverlap ?? null, ctx.extractor.id, ctx.embedder.id]));

  // Unchanged documents are skipped before any extraction or embedding.
  const known = await knownDocumentHashes(
    store,
    documents.map((d) => d.id),
  );
  const todo = documents.filter((d) => known.get(d.id) !== hashOf(d));
  summary.documents.unchanged = documents.length - todo.length;
  // With a curated graph in the database, each batch's passages are linked to it as they land.
  const linker = todo.length ? await timed('link', () => linkerFor(store)) : null;

  // Batch i + 1 is extracted and embedded while batch i is written (pipelined). Safe because
  // entities are created by MERGE ... ON CREATE: an entity new to both batches is created by the
  // first write and left as it is by the second.
  const prepare = async (i: number) => {
    opts.signal?.throwIfAborted();
    const batch = todo.slice(i, i + batchSize);
    const passages = batch.flatMap((d) => toPassages(d, opts.chunkSize, opts.chunkOverlap));
    const extractions = await timed('extract', async () => {
      const out: { passage: SourcePassage; extraction: Extraction }[] = [];
      for (const passage of passages) {
        opts.signal?.throwIfAborted();
        out.push({ passage, extraction: await ctx.extractor.extract(passage) });
        // The offline extractor runs on the event loop: let other requests (health, retrievals) in
        // between passages, so a large document never stalls the server for its whole extraction.
        await new Promise((r) => setImmediate(r));
      }
      return out;
    });
    const resolved = await timed('resolve', () => resolveEntities(extractions));
    const existing = await timed('resolve', () =>
      existingEntityIds(
        store,
        resolved.entities.map((e) => e.id),
      ),
    );
    const fresh = resolved.entities.filter((e) => !existing.has(e.id));
    opts.signal?.throwIfAborted();
    const vectors = await timed('embed', async () => {
      // Side by side: the embedder's workers take the batches of both (a batch's last few passages
      // do not leave a worker idle while the other finishes them).
      const [passageVectors, names] = await Promise.all([
        ctx.embedder.embed(
          passages.map((p) => `${p.title}\n${p.text}`),
          'document',
          opts.signal,
        ),
        ctx.embedder.embed(
          fresh.map((e) => e.name),
          'document',
          opts.signal,
        ),
      ]);
      const descriptions =
        opts.descriptionEmbedding === 'text'
          ? await ctx.embedder.embed(fresh.map(describeForEmbedding), 'document', opts.signal)
          : meanOfMentioningPassages(
              fresh.map((e) => e.id),
              resolved.mentions,
              passages.map((p) => p.id),
              passageVectors,
            );
      return { passages: passageVectors, names, descriptions };
    });
    const links = linker ? await timed('link', () => linker.link(passages.map((p, k) => ({ ...p, embedding: vectors.passages[k] })))) : [];
    return { batch, passages, resolved, fresh, vectors, links };
  };

  const commit = async ({ batch, passages, resolved, fresh, vectors, links }: Awaited<ReturnType<typeof prepare>>) => {
    opts.signal?.throwIfAborted();
    const replaced = batch.filter((d) => known.has(d.id)).map((d) => d.id);
    const written = await timed('write', () =>
      writeDocumentBatch(store, {
        documents: batch.map((d) => ({
          id: d.id,
          title: d.title,
          source: d.source,
          hash: hashOf(d),
          metadata: d.metadata ?? null,
        })),
        replaced,
        passages: passages.map((p, k) => ({ ...p, embedding: vectors.passages[k] })),
        entities: fresh.map((e, k) => ({ ...e, embedding: vectors.names[k], descriptionEmbedding: vectors.descriptions[k] })),
        mentions: resolved.mentions,
        relations: resolved.relations,
        aliases: resolved.aliases,
        links: linker ? { rows: links, version: linker.version } : undefined,
      }),
    );
    summary.documents.written += batch.length;
    summary.documents.replaced += replaced.length;
    summary.passages += passages.length;
    // What the batch created: a concurrent writer may have made an entity or an alias edge first.
    summary.entities += written.entities;
    summary.mentions += resolved.mentions.length;
    summary.relations += resolved.relations.length;
    summary.synonyms += written.aliases;
    summary.links += links.reduce((n, r) => n + r.links.length, 0);
  };
  await pipelined(todo.length, batchSize, prepare, commit, (i) => opts.onProgress?.({ stage: 'ingest', done: i, total: todo.length }));
  opts.onProgress?.({ stage: 'ingest', done: todo.length, total: todo.length });
  // A bulk load left one index segment per batch: rebuild before the synonym search queries them
  // (only a load that at least doubled the graph: worthCompacting).
  const passagesNow = Number((await store.read('RETURN COUNT { (:Passage) } AS n')).records[0].get('n'));
  if (worthCompacting(Math.ceil(todo.length / batchSize), summary.passages, passagesNow)) {
    await timed('index', () => compactVectorIndexes(store, VECTOR_INDEXES));
  }
  summary.synonyms += await timed('synonyms', () =>
    findSynonyms(store, opts.synonymThreshold ?? onEmbedderScale(SYNONYM_COSINE, ctx.embedder.cosineFloor), opts.onProgress),
  );
  // The new facts' vectors (fact seeds search them), and any an interrupted run left without one.
  await timed('embed', () => embedFacts(store, ctx.embedder, ['RELATED'], { onProgress: opts.onProgress }));
  if (opts.refreshProjection !== false) {
    await timed('projection', async () => {
      opts.onProgress?.({ stage: 'projection', done: 0, total: 1 });
      await refreshAfterWrite(ctx, summary.documents.written > 0 || summary.synonyms > 0);
      opts.onProgress?.({ stage: 'projection', done: 1, total: 1 });
    });
  }
  return summary;
}

/**
 * The ppr projection after ingestion, through its manager (never racing the
 * server's own rebuilds): rebuilt when this run wrote something, else only
 * made sure of. Resolves when the projection is ready.
 */
export async function refreshAfterWrite(ctx: Pick<IngestContext, 'store' | 'graphName' | 'extraProjectionTypes'>, wrote: boolean): Promise<void> {
  const opts = { graphName: ctx.graphName, database: ctx.store.database, extraTypes: ctx.extraProjectionTypes };
  if (wrote) await projectionManager(ctx.store.driver, opts).requestRebuild();
  else await ensureProjection(ctx.store.driver, opts);
}
