/**
 * What each kind of job does: `ingest` runs the documents through the ingestion pipeline (the
 * counts of its 201 are its result), `delete` removes one document. Both leave the ppr projection
 * to be rebuilt in the background, as the synchronous writes did.
 */
import type { Config } from '../config.js';
import type { Embedder } from '../embedders/types.js';
import type { Extractor } from '../extractors/types.js';
import type { GraphStore } from '../db/store.js';
import type { Logger } from '../logger.js';
import { deleteDocument, ingestDocuments, type ReadItem, type SourceDocument, toPassages } from '../ingest/index.js';
import { observeIngest } from '../metrics.js';
import { projectionManager } from '../db/projection.js';
import type { JobExecutor } from './runner.js';

/** What running a job needs (the server's services). */
export interface JobContext {
  config: Config;
  store: GraphStore;
  embedder: Embedder;
  extractor: () => Promise<Extractor>;
  logger: Logger;
}

export interface IngestPayload {
  documents: SourceDocument[];
}
export interface DeletePayload {
  id: string;
}

/** The counts a 201 from POST /v1/documents carries. */
export type IngestResult = Record<'documents' | 'passages' | 'entities' | 'relations' | 'synonyms' | 'links' | 'seconds', unknown>;

/**
 * After a committed write the ppr projection is rebuilt in the background (single-flight,
 * coalesced); ppr answers 503 + Retry-After until the rebuild is done.
 */
function rebuildProjection(svc: JobContext): void {
  projectionManager(svc.store.driver, { graphName: svc.config.pprGraphName, database: svc.store.database, extraTypes: svc.config.traverseTypes })
    .requestRebuild()
    .catch((e: unknown) => svc.logger.warn({ err: String((e as Error)?.message ?? e) }, 'ppr projection rebuild failed; the next ppr request retries'));
}

/** Passages the job's documents make: its progress total. */
export function passageCount(docs: SourceDocument[]): number {
  return docs.reduce((n, d) => n + toPassages(d).length, 0);
}

/** The extractor, counting the passages it has extracted (the job's progress). */
function counting(extractor: Extractor, onPassage: () => void): Extractor {
  return {
    id: extractor.id,
    extract: async (p) => {
      const out = await extractor.extract(p);
      onPassage();
      return out;
    },
  };
}

export async function runIngest(
  svc: JobContext,
  payload: IngestPayload,
  opts: { signal?: AbortSignal; progress?: (done: number, total: number) => void } = {},
): Promise<IngestResult> {
  const total = passageCount(payload.documents);
  let done = 0;
  opts.progress?.(0, total);
  const extractor = counting(await svc.extractor(), () => opts.progress?.(Math.min(++done, total), total));
  async function* items(): AsyncGenerator<ReadItem> {
    for (const document of payload.documents) yield { document };
  }
  const summary = await ingestDocuments(
    { store: svc.store, embedder: svc.embedder, extractor, graphName: svc.config.pprGraphName, extraProjectionTypes: svc.config.traverseTypes },
    items(),
    { strict: true, refreshProjection: false, signal: opts.signal },
  );
  observeIngest({ documents: summary.documents.written, passages: summary.passages });
  if (summary.documents.written > 0 || summary.synonyms > 0) rebuildProjection(svc);
  opts.progress?.(total, total);
  const { documents, passages, entities, relations, synonyms, links, seconds } = summary;
  return { documents, passages, entities, relations, synonyms, links, seconds };
}

export async function runDelete(svc: JobContext, payload: DeletePayload): Promise<{ deleted: boolean }> {
  const deleted = await deleteDocument(svc.store, payload.id);
  if (deleted) rebuildProjection(svc);
  return { deleted };
}

/** The executor the server's runner uses. */
export function executor(svc: JobContext): JobExecutor {
  return async ({ job, payload }, ctx) => {
    const parsed = JSON.parse(payload) as IngestPayload | DeletePayload;
    if (job.kind === 'delete') {
      ctx.progress(0, 1);
      const r = await runDelete(svc, parsed as DeletePayload);
      ctx.progress(1, 1);
      return r;
    }
    return runIngest(svc, parsed as IngestPayload, ctx);
  };
}
