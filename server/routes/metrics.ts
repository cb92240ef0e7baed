import { Router } from 'express';
import { registry } from '../metrics.js';

/** GET /metrics: Prometheus text exposition (server/metrics.ts lists the series). */
export function metricsRouter(): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.set('content-type', registry.contentType).send(await registry.metrics());
  });
  return router;
}
