import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { clientGone, jsonBody, parseBody } from '../http/handlers.js';
import { modeSchema, questionFields } from '../http/schemas.js';
import { jaccardAtK, rankCorrelation } from '../retrieval/overlap.js';
import { MODE_NAMES, type Mode } from '../retrieval/params.js';
import { embedQuestion, retrieveTimed, validateParams, withFilter } from '../retrieval/service.js';
import type { Services } from '../services.js';
import { ENDPOINTS } from '../http/endpoints.js';

export const CompareBody = z
  .object({
    question: questionFields.question,
    questionEmbedding: questionFields.questionEmbedding,
    /** One filter for every mode. */
    filter: questionFields.filter,
    modes: z.array(modeSchema).min(2).max(MODE_NAMES.length).default(['vector', 'hybrid', 'gated', 'ppr']),
    /** Per-mode parameters: {gated: {...}, ppr: {...}}. */
    params: z.record(z.record(z.unknown())).optional(),
  })
  .strict();

/** The same question through several modes from a parsed body: POST /v1/compare and the MCP tool `compare`. */
export async function runCompare(svc: Services, body: z.infer<typeof CompareBody>, signal?: AbortSignal) {
  const modes = [...new Set(body.modes)] as Mode[];
  for (const key of Object.keys(body.params ?? {})) {
    if (!MODE_NAMES.includes(key as Mode)) throw new AppError('invalid_request', `params.${key}: not a mode (${MODE_NAMES.join(', ')})`, `params.${key}`);
  }
  // Every mode's params given are validated, also for a mode not asked to run.
  const given = Object.fromEntries(Object.entries(body.params ?? {}).map(([m, p]) => [m, validateParams(m as Mode, p, `params.${m}`)]));
  const params = Object.fromEntries(modes.map((m) => [m, withFilter(given[m] ?? validateParams(m, undefined), body.filter, `params.${m}.filter`)]));
  const q = await embedQuestion(svc.embedder, body, () => {
    for (const mode of modes) svc.retriever.checkAvailable(mode);
  });
  const results: Record<string, Awaited<ReturnType<typeof retrieveTimed>>> = {};
  // Sequential on purpose: timings compare modes, not contention between them.
  for (const mode of modes) {
    results[mode] = await retrieveTimed(
      svc.retriever,
      { mode, question: body.question, embedding: q.embedding, embedMs: q.embedMs, params: params[mode] },
      signal,
    );
  }
  const overlap = [];
  for (let i = 0; i < modes.length; i++) {
    for (let j = i + 1; j < modes.length; j++) {
      const a = results[modes[i]].passages.map((p) => p.id);
      const b = results[modes[j]].passages.map((p) => p.id);
      overlap.push({ modes: [modes[i], modes[j]], jaccardAt5: jaccardAtK(a, b, 5), rankCorrelationAt10: rankCorrelation(a, b, 10) });
    }
  }
  return { results, overlap, timings: { embedMs: q.embedMs, byMode: Object.fromEntries(modes.map((m) => [m, results[m].timings])) } };
}

/** A/B inside applications: the same question through several modes, one embedding, with overlap metrics. */
export function compareRouter(svc: Services): Router {
  const router = Router();
  router.post(ENDPOINTS.compare.path, jsonBody, async (req, res) => {
    res.json(await runCompare(svc, parseBody(CompareBody, req.body), clientGone(req, res)));
  });
  return router;
}
