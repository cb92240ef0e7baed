import { Router } from 'express';
import { z } from 'zod';
import { AppError, databaseUnreachable } from '../errors.js';
import { clientGone, jsonBody, parseBody, requireApiKey, route } from '../http/handlers.js';
import { documentSources } from '../graph/lookups.js';
import { deleteDocument, deriveDocumentId, ingestDocuments, type ReadItem } from '../ingest/index.js';
import { metadataKeySchema, metadataValueSchema } from '../retrieval/params.js';
import { projectionManager } from '../retrieval/projection.js';
import type { Services } from '../services.js';

export const DocumentsBody = z
  .object({
    documents: z
      .array(
        z
          .object({
            id: z.string().min(1).max(1024).optional(),
            title: z.string().trim().min(1).max(1000),
            text: z.string().trim().min(1).max(200_000),
            source: z
              .string({ invalid_type_error: 'must be a string' })
              .trim()
              .min(1, 'must not be empty')
              .max(1000)
              .default('api')
              .describe('where the document comes from (filter.sources, GET /v1/sources); default api'),
            metadata: z
              .record(metadataKeySchema, metadataValueSchema)
              .optional()
              .describe('a flat map of strings, numbers and booleans (filter.metadata); nested objects and arrays are a 400'),
          })
          .strict(),
      )
      .min(1)
      .max(100),
  })
  .strict();

/** Small-batch ingestion over HTTP (the CLI handles corpora); API key required. */
export function documentsRouter(svc: Services): Router {
  const router = Router();
  // After a committed write the ppr projection is rebuilt in the background (single-flight, coalesced):
  // the request answers at once; ppr answers 503 + Retry-After until the rebuild is done.
  const rebuildProjection = () =>
    projectionManager(svc.store.driver, { graphName: svc.config.pprGraphName, database: svc.store.database, extraTypes: svc.config.traverseTypes })
      .requestRebuild()
      .catch((e: unknown) => svc.logger.warn({ err: String((e as Error)?.message ?? e) }, 'ppr projection rebuild failed; the next ppr request retries'));
  router.post(
    '/v1/documents',
    requireApiKey(svc.config),
    jsonBody,
    route(async (req, res) => {
      const body = parseBody(DocumentsBody, req.body);
      if (svc.databaseDown?.()) throw databaseUnreachable();
      // Extraction and embedding take seconds per document: stop before the next step when the
      // client has gone away or the database has (a quick 503, not one after all the embedding).
      const stop = new AbortController();
      clientGone(req, res).addEventListener('abort', () => stop.abort(new Error('the client went away')));
      const watch = setInterval(() => {
        if (svc.databaseDown?.()) stop.abort(databaseUnreachable());
      }, 250);
      async function* items(): AsyncGenerator<ReadItem> {
        for (const d of body.documents) {
          yield { document: { id: d.id ?? deriveDocumentId(d.title, d.text), title: d.title, text: d.text, source: d.source, metadata: d.metadata } };
        }
      }
      const summary = await ingestDocuments(
        {
          store: svc.store,
          embedder: svc.embedder,
          extractor: await svc.extractor(),
          graphName: svc.config.pprGraphName,
          extraProjectionTypes: svc.config.traverseTypes,
        },
        items(),
        { strict: true, refreshProjection: false, signal: stop.signal },
      ).finally(() => clearInterval(watch));
      if (summary.documents.written > 0 || summary.synonyms > 0) void rebuildProjection();
      res.status(201).json({
        documents: summary.documents,
        passages: summary.passages,
        entities: summary.entities,
        relations: summary.relations,
        synonyms: summary.synonyms,
        links: summary.links,
        seconds: summary.seconds,
      });
    }),
  );

  router.get(
    '/v1/sources',
    route(async (_req, res) => {
      if (svc.databaseDown?.()) throw databaseUnreachable();
      res.json({ sources: await documentSources(svc.store) });
    }),
  );

  router.delete(
    '/v1/documents/:id',
    requireApiKey(svc.config),
    route(async (req, res) => {
      const id = String(req.params.id);
      if (svc.databaseDown?.()) throw databaseUnreachable();
      if (!(await deleteDocument(svc.store, id))) throw new AppError('not_found', `no document with id "${id}"`, 'id');
      void rebuildProjection();
      res.status(204).end();
    }),
  );
  return router;
}
