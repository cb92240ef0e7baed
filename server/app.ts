import path from 'node:path';
import express from 'express';
import { ROOT } from './config.js';
import { AppError } from './errors.js';
import { observeResponses } from './metrics.js';
import { errorHandler } from './http/errors.js';
import { admission } from './http/admission.js';
import { readGuard } from './http/read-access.js';
import { requestId } from './http/request-id.js';
import { answerRouter } from './routes/answer.js';
import { compareRouter } from './routes/compare.js';
import { documentsRouter } from './routes/documents.js';
import { healthRouter } from './routes/health.js';
import { jobsRouter } from './routes/jobs.js';
import { mcpRouter } from './routes/mcp.js';
import { metricsRouter } from './routes/metrics.js';
import { openapiRouter } from './routes/openapi.js';
import { projectionRouter } from './routes/projection.js';
import { retrieveRouter } from './routes/retrieve.js';
import type { Services } from './services.js';

/** The HTTP app: every endpoint group's router mounted here, then the page, then 404 and the error handler. */
export function createApp(svc: Services): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId(svc.logger));
  // Metrics first (they count every request, refused ones too), then admission control before any body is read.
  app.use(observeResponses);
  app.use(metricsRouter());
  // READ_API_KEY (when set) before admission: a request without the key takes no slot.
  app.use(readGuard(svc.config));
  const admit = admission(svc.config.admission);
  app.use(admit);

  app.use(retrieveRouter(svc));
  app.use(answerRouter(svc));
  app.use(compareRouter(svc));
  app.use(documentsRouter(svc));
  app.use(jobsRouter(svc));
  app.use(projectionRouter(svc));
  app.use(healthRouter(svc));
  app.use(openapiRouter(svc.embedder));
  app.use(mcpRouter(svc, admit.gates.retrieve));
  // The page at / for trying it out.
  app.get('/vendor/cytoscape.esm.min.mjs', (_req, res) =>
    res.sendFile(path.join(ROOT, 'node_modules', 'cytoscape', 'dist', 'cytoscape.esm.min.mjs'), { maxAge: '1d' }),
  );
  app.use(express.static(path.join(ROOT, 'server', 'public'), { index: 'index.html' }));

  app.use((_req, _res, next) => next(new AppError('not_found', 'no such endpoint')));
  app.use(errorHandler);
  return app;
}
