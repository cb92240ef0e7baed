import type { Request, Response } from 'express';
import { Router } from 'express';
import { z } from 'zod';
import { AppError, databaseUnreachable, type ErrorCode, fromZod } from '../errors.js';
import { STATUS } from '../http/errors.js';
import { clientGone, requireApiKey } from '../http/handlers.js';
import type { JobView } from '../jobs/index.js';
import type { Services } from '../services.js';
import { ENDPOINTS } from '../http/endpoints.js';

/** The longest a write that could run at once is waited for before it is answered 202 instead. */
const SYNC_WAIT_MS = 60_000;
/** How often a waiting write checks whether the database watchdog found the database down. */
const DOWN_CHECK_MS = 250;

/** `Prefer: respond-async` (RFC 7240): the client wants 202 and a job, whatever the write. */
export function prefersAsync(req: Request): boolean {
  return /(^|[,;\s])respond-async($|[,;\s=])/i.test(req.header('prefer') ?? '');
}

/** 202 Accepted: the job, and where to poll it. */
export function accepted(res: Response, job: JobView): void {
  res.status(202).setHeader('Location', `/v1/jobs/${encodeURIComponent(job.id)}`);
  if (prefersAsync(res.req)) res.setHeader('Preference-Applied', 'respond-async');
  res.json({ job });
}

/**
 * Waits for a job that could run at once. Undefined (the caller answers 202, the job goes on)
 * when the client goes away, the database goes down, the server stops or SYNC_WAIT_MS passes.
 */
export async function awaitJob(svc: Services, req: Request, res: Response, id: string): Promise<JobView | undefined> {
  const down = new AbortController();
  const watch = setInterval(() => svc.databaseDown?.() && down.abort(), DOWN_CHECK_MS);
  try {
    return await svc.jobs.waitFor(id, AbortSignal.any([clientGone(req, res), down.signal, AbortSignal.timeout(SYNC_WAIT_MS)]));
  } finally {
    clearInterval(watch);
  }
}

/** A failed job's error, as the request that waited for it answers it. */
export function jobError(job: JobView): Error {
  const e = job.error ?? { code: 'internal', message: 'the job failed' };
  if (e.code in STATUS) return new AppError(e.code as ErrorCode, e.message, e.field);
  return new Error(`job ${job.id} failed: ${e.message}`);
}

/** The job object of a 202 and of GET /v1/jobs/:id (server/graph/jobs.ts JobView), for the OpenAPI document. */
export const JobSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['ingest', 'delete']),
    status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
    submittedAt: z.string().describe('ISO 8601, by the database clock'),
    startedAt: z.string().nullable().describe('when the current run began (a resumed job: when it was resumed)'),
    finishedAt: z.string().nullable(),
    progress: z.object({ done: z.number().int(), total: z.number().int() }).describe('passages extracted of the documents to write (a delete: 0/1, 1/1)'),
    documents: z.array(z.string()).describe('the ids of the documents the job writes or deletes'),
    result: z
      .record(z.unknown())
      .nullable()
      .describe(
        'done: the counts a 201 from POST /v1/documents carries (documents, passages, entities, relations, synonyms, links, seconds); a delete: {deleted}',
      ),
    error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }).nullable().describe('failed: why'),
  })
  .describe('a write accepted as a job');

export const ListQuery = z
  .object({
    status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();

/** GET /v1/jobs, GET /v1/jobs/:id, DELETE /v1/jobs/:id (cancels a queued job; API key required). */
export function jobsRouter(svc: Services): Router {
  const router = Router();
  router.get(ENDPOINTS.jobs.path, async (req, res) => {
    const parsed = ListQuery.safeParse(req.query);
    if (!parsed.success) throw fromZod(parsed.error);
    if (svc.databaseDown?.()) throw databaseUnreachable();
    res.json({ jobs: await svc.jobs.list(parsed.data) });
  });
  router.get(ENDPOINTS.job.path, async (req, res) => {
    const id = String(req.params.id);
    if (svc.databaseDown?.()) throw databaseUnreachable();
    const job = await svc.jobs.get(id);
    if (!job) throw new AppError('not_found', `no job with id "${id}" (finished jobs are kept for JOB_RETENTION_MS)`, 'id');
    res.json({ job });
  });
  router.delete(ENDPOINTS.cancelJob.path, requireApiKey(svc.config), async (req, res) => {
    if (svc.databaseDown?.()) throw databaseUnreachable();
    res.json({ job: await svc.jobs.cancel(String(req.params.id)) });
  });
  return router;
}
