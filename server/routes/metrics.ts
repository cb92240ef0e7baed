import { Router } from 'express';
import { registry } from '../metrics.js';
import { ENDPOINTS } from '../http/endpoints.js';

/** GET /metrics: Prometheus text exposition (server/metrics.ts lists the series). */
export function metricsRouter(): Router {
  const router = Router();
  router.get(ENDPOINTS.metrics.path, async (_req, res) => {
    res.set('content-type', registry.contentType).send(await registry.metrics());
  });
  return router;
}
