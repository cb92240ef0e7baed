import { Router } from 'express';
import { z } from 'zod';
import { jsonBody, parseBody, requireApiKey } from '../http/handlers.js';
import { fromDbError } from '../retrieval/db-errors.js';
import { projectionManager } from '../db/projection.js';
import type { Services } from '../services.js';
import { ENDPOINTS } from '../http/endpoints.js';

export const ProjectionBody = z.object({ action: z.enum(['create', 'refresh', 'drop', 'status']) }).strict();

/** POST /v1/projection: the ppr projection's lifecycle (API key). */
export function projectionRouter(svc: Services): Router {
  const router = Router();
  router.post(ENDPOINTS.projection.path, requireApiKey(svc.config), jsonBody, async (req, res) => {
    const { action } = parseBody(ProjectionBody, req.body);
    try {
      res.json(
        await projectionManager(svc.store.driver, {
          graphName: svc.config.pprGraphName,
          database: svc.store.database,
          extraTypes: svc.config.traverseTypes,
        }).perform(action),
      );
    } catch (e) {
      throw fromDbError(e, svc.config.queryTimeoutMs);
    }
  });
  return router;
}
