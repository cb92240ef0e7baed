import { Router } from 'express';
import { route } from '../http/handlers.js';
import { registry } from '../metrics.js';

/** GET /metrics: Prometheus text exposition (server/metrics.ts lists the series). */
export function metricsRouter(): Router {
  const router = Router();
  router.get(
    '/metrics',
    route(async (_req, res) => {
      res.set('content-type', registry.contentType).send(await registry.metrics());
    }),
  );
  return router;
}
