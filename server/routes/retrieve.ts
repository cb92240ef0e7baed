import { Router } from 'express';
import { z } from 'zod';
import { clientGone, jsonBody, parseBody } from '../http/handlers.js';
import { modeSchema, questionFields } from '../http/schemas.js';
import type { TimedResult } from '../retrieval/results.js';
import { embedQuestion, retrieveTimed, validateParams, withFilter } from '../retrieval/service.js';
import type { Services } from '../services.js';
import { ENDPOINTS } from '../http/endpoints.js';

export const RetrieveBody = z.object({ ...questionFields, mode: modeSchema.default('gated'), explain: z.boolean().optional() }).strict();

/** One retrieval from a parsed body: POST /v1/retrieve and the MCP tool `retrieve` (routes/mcp-tools.ts). */
export async function runRetrieve(svc: Services, body: z.infer<typeof RetrieveBody>, signal?: AbortSignal): Promise<TimedResult> {
  const params = withFilter(validateParams(body.mode, body.params), body.filter);
  const q = await embedQuestion(svc.embedder, body, () => svc.retriever.checkAvailable(body.mode));
  return retrieveTimed(svc.retriever, { mode: body.mode, question: body.question, ...q, params, explain: body.explain }, signal);
}

/** POST /v1/retrieve: one question, one mode, one statement. */
export function retrieveRouter(svc: Services): Router {
  const router = Router();
  router.post(ENDPOINTS.retrieve.path, jsonBody, async (req, res) => {
    res.json(await runRetrieve(svc, parseBody(RetrieveBody, req.body), clientGone(req, res)));
  });
  return router;
}
