import { Router } from 'express';
import { health, type Startup } from '../health.js';
import type { Services } from '../services.js';
import { ENDPOINTS } from '../http/endpoints.js';

/** GET /v1/health: 200 when the database answers (status ok, building or degraded), 503 when it does not. */
export function healthRouter(svc: Services): Router {
  const router = Router();
  router.get(ENDPOINTS.health.path, async (_req, res) => {
    const h = await health(svc.store, svc.embedder, svc.config.pprGraphName);
    if (svc.readiness) h.modes = svc.readiness();
    if (h.status === 'unavailable') res.setHeader('Retry-After', '1');
    res.status(h.status === 'unavailable' ? 503 : 200).json(h);
  });
  return router;
}

/**
 * GET /v1/health while the server starts: 503 with Retry-After, status `loading` (or `failed`),
 * the phase and the demo load's progress. Answers at once: it reads the start-up's state only.
 */
export function loadingHealthRouter(startup: Startup): Router {
  const router = Router();
  router.get(ENDPOINTS.health.path, (_req, res) => {
    res.setHeader('Retry-After', String(startup.retryAfterSeconds()));
    res.status(503).json(startup.health());
  });
  return router;
}
