import { Router } from 'express';
import { z } from 'zod';
import { AppError, databaseUnreachable } from '../errors.js';
import { jsonBody, parseBody, requireApiKey } from '../http/handlers.js';
import { documentSources, knownDocumentHashes } from '../graph/lookups.js';
import { deriveDocumentId } from '../ingest/index.js';
import { metadataKeySchema, metadataValueSchema } from '../retrieval/params.js';
import type { Services } from '../services.js';
import { accepted, awaitJob, jobError, prefersAsync } from './jobs.js';
import { ENDPOINTS } from '../http/endpoints.js';

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

/**
 * Ingestion over HTTP, as jobs (docs/jobs.md); API key required. A write is stored as a job
 * before it is answered. One that can finish at once (nothing ahead of it, small, no Prefer:
 * respond-async) is waited for and answered as before (201 with its counts, 204 for a delete);
 * any other answers 202 with the job and its Location.
 */
export function documentsRouter(svc: Services): Router {
  const router = Router();
  router.post(ENDPOINTS.documents.path, requireApiKey(svc.config), jsonBody, async (req, res) => {
    const body = parseBody(DocumentsBody, req.body);
    if (svc.databaseDown?.()) throw databaseUnreachable();
    const documents = body.documents.map((d) => ({
      id: d.id ?? deriveDocumentId(d.title, d.text),
      title: d.title,
      text: d.text,
      source: d.source,
      metadata: d.metadata,
    }));
    const job = await svc.jobs.submit({ kind: 'ingest', payload: { documents } }, { preferAsync: prefersAsync(req) });
    const finished = job.atOnce ? await awaitJob(svc, req, res, job.view.id) : undefined;
    if (finished?.status === 'failed') throw jobError(finished);
    if (finished?.status !== 'done') return accepted(res, finished ?? job.view);
    res.status(201).json(finished.result);
  });

  router.get(ENDPOINTS.sources.path, async (_req, res) => {
    if (svc.databaseDown?.()) throw databaseUnreachable();
    res.json({ sources: await documentSources(svc.store) });
  });

  router.delete(ENDPOINTS.deleteDocument.path, requireApiKey(svc.config), async (req, res) => {
    const id = String(req.params.id);
    if (svc.databaseDown?.()) throw databaseUnreachable();
    // An unknown id is a 404 at once, not a job.
    if (!(await knownDocumentHashes(svc.store, [id])).has(id)) throw new AppError('not_found', `no document with id "${id}"`, 'id');
    const job = await svc.jobs.submit({ kind: 'delete', payload: { id } }, { preferAsync: prefersAsync(req) });
    const finished = job.atOnce ? await awaitJob(svc, req, res, job.view.id) : undefined;
    if (finished?.status === 'failed') throw jobError(finished);
    if (finished?.status !== 'done') return accepted(res, finished ?? job.view);
    if (finished.result?.deleted === false) throw new AppError('not_found', `no document with id "${id}"`, 'id');
    res.status(204).end();
  });
  return router;
}
