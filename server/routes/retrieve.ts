import { Router } from 'express';
import { z } from 'zod';
import { clientGone, jsonBody, parseBody, route } from '../http/handlers.js';
import { modeSchema, questionFields } from '../http/schemas.js';
import { embedQuestion, retrieveTimed, validateParams, withFilter } from '../retrieval/service.js';
import type { Services } from '../services.js';

export const RetrieveBody = z.object({ ...questionFields, mode: modeSchema.default('gated'), explain: z.boolean().optional() }).strict();

/** POST /v1/retrieve: one question, one mode, one statement. */
export function retrieveRouter(svc: Services): Router {
  const router = Router();
  router.post(
    '/v1/retrieve',
    jsonBody,
    route(async (req, res) => {
      const body = parseBody(RetrieveBody, req.body);
      const params = withFilter(validateParams(body.mode, body.params), body.filter);
      const q = await embedQuestion(svc.embedder, body);
      const result = await retrieveTimed(
        svc.retriever,
        { mode: body.mode, question: body.question, ...q, params, explain: body.explain },
        clientGone(req, res),
      );
      res.json(result);
    }),
  );
  return router;
}
