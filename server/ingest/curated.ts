import { isIdentifier } from '../graph/facts.js';
import { existingEntityIds, recordedCuratedTypes } from '../graph/lookups.js';
import type { GraphStore } from '../db/store.js';
import { writeCuratedEdges, writeCuratedEntities } from '../graph/writes.js';
import { refreshAfterWrite, type IngestContext } from './documents.js';
import { embedFacts } from './facts.js';
import { linkExisting } from './link.js';
import { IngestInputError } from './problems.js';
import { describeForEmbedding } from './resolution.js';
import type { CuratedGraph, IngestOptions, IngestSummary, StageSeconds } from './types.js';

/**
 * A curated graph (Hetionet-style): entities labelled :Entity:Curated that keep
 * their own relationship types. The types are recorded in GraphRecallMeta so
 * the server can walk them and the projection can include them.
 */
export async function ingestCurated(
  ctx: Pick<IngestContext, 'store' | 'embedder' | 'graphName' | 'extraProjectionTypes'>,
  graph: CuratedGraph,
  opts: { batchSize?: number; strict?: boolean; onProgress?: IngestOptions['onProgress'] } = {},
): Promise<IngestSummary> {
  const { store } = ctx;
  const seconds: StageSeconds = { read: 0, extract: 0, embed: 0, resolve: 0, write: 0, synonyms: 0, projection: 0, index: 0, link: 0 };
  if (opts.strict && graph.problems.length) throw new IngestInputError(graph.problems);
  const batchSize = opts.batchSize ?? 1000;
  const types = [...new Set(graph.edges.map((e) => e.type))];
  for (const t of types) if (!isIdentifier(t)) throw new Error(`curated relationship type "${t}" is not a valid identifier`);
  const existing = await existingEntityIds(
    store,
    graph.entities.map((e) => e.id),
  );
  const fresh = graph.entities.filter((e) => !existing.has(e.id));
  const total = fresh.length + graph.edges.length;
  let done = 0;
  for (let i = 0; i < fresh.length; i += batchSize) {
    const batch = fresh.slice(i, i + batchSize);
    opts.onProgress?.({ stage: 'ingest', done, total });
    let t0 = performance.now();
    const names = await ctx.embedder.embed(
      batch.map((e) => e.name),
      'document',
    );
    const descriptions = await ctx.embedder.embed(batch.map(describeForEmbedding), 'document');
    seconds.embed += (performance.now() - t0) / 1000;
    t0 = performance.now();
    await writeCuratedEntities(
      store,
      batch.map((e, k) => ({ ...e, embedding: names[k], descriptionEmbedding: descriptions[k] })),
    );
    seconds.write += (performance.now() - t0) / 1000;
    done += batch.length;
  }
  let relations = 0;
  const t0 = performance.now();
  for (const type of types) {
    const edges = graph.edges.filter((e) => e.type === type);
    for (let i = 0; i < edges.length; i += batchSize * 5) {
      const batch = edges.slice(i, i + batchSize * 5);
      opts.onProgress?.({ stage: 'ingest', done, total });
      await writeCuratedEdges(store, type, batch);
      relations += batch.length;
      done += batch.length;
    }
  }
  seconds.write += (performance.now() - t0) / 1000;
  // Each edge's sentence ("Rivastigmine treats Alzheimer's disease"), for the fact seeds.
  const tf = performance.now();
  await embedFacts(store, ctx.embedder, types, { batchSize, onProgress: opts.onProgress });
  seconds.embed += (performance.now() - tf) / 1000;
  // The passages already in the graph, linked to the new dictionary (a page per transaction).
  const tl = performance.now();
  const linked = await linkExisting(store, { onProgress: opts.onProgress });
  seconds.link = (performance.now() - tl) / 1000;
  const summary: IngestSummary = {
    documents: { read: 0, written: 0, unchanged: 0, replaced: 0 },
    passages: 0,
    entities: fresh.length,
    mentions: 0,
    relations,
    synonyms: 0,
    links: linked.links,
    problems: graph.problems,
    seconds,
  };
  // No synonym search: a curated graph's ids are its identity (its curator resolved them), and
  // SAME_AS links by name similarity would join distinct genes, compounds or diseases.
  const t1 = performance.now();
  await refreshAfterWrite({ store, graphName: ctx.graphName, extraProjectionTypes: [...(ctx.extraProjectionTypes ?? []), ...types] }, true);
  seconds.projection = (performance.now() - t1) / 1000;
  return summary;
}

/** Relationship types of curated graphs recorded by ingestCurated. */
export async function curatedTypes(store: GraphStore): Promise<string[]> {
  return (await recordedCuratedTypes(store)).filter(isIdentifier);
}

/** The relationship types the walk follows: the configured ones and a curated graph's own. */
export async function walkedTypes(store: GraphStore, configured: readonly string[]): Promise<string[]> {
  return [...new Set([...configured, ...(await curatedTypes(store))])];
}
