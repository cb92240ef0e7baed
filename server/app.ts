import path from 'node:path';
import express from 'express';
import { ROOT } from './config.js';
import { AppError } from './errors.js';
import { observeResponses } from './metrics.js';
import { endpointPath } from './http/endpoints.js';
import { errorHandler } from './http/errors.js';
import { admission } from './http/admission.js';
import { readGuard } from './http/read-access.js';
import { requestId } from './http/request-id.js';
import { answerRouter } from './routes/answer.js';
import { compareRouter } from './routes/compare.js';
import { documentsRouter } from './routes/documents.js';
import type { Startup } from './health.js';
import type { Logger } from './logger.js';
import { healthRouter, loadingHealthRouter } from './routes/health.js';
import { jobsRouter } from './routes/jobs.js';
import { mcpRouter } from './routes/mcp.js';
import { metricsRouter } from './routes/metrics.js';
import { openapiRouter } from './routes/openapi.js';
import { projectionRouter } from './routes/projection.js';
import { retrieveRouter } from './routes/retrieve.js';
import type { Services } from './services.js';

/** What both apps start with: request ids, then the metrics (they count every request, refused ones too). */
function baseApp(logger: Logger): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId(logger));
  app.use(observeResponses(endpointPath));
  app.use(metricsRouter());
  return app;
}

/** The page at / for trying it out, and its graph library. */
function servePage(app: express.Express): void {
  app.get('/vendor/cytoscape.esm.min.mjs', (_req, res) =>
    res.sendFile(path.join(ROOT, 'node_modules', 'cytoscape', 'dist', 'cytoscape.esm.min.mjs'), { maxAge: '1d' }),
  );
  app.use(express.static(path.join(ROOT, 'server', 'public'), { index: 'index.html' }));
}

/** The HTTP app: every endpoint group's router mounted here, then the page, then 404 and the error handler. */
export function createApp(svc: Services): express.Express {
  const app = baseApp(svc.logger);
  // Admission control before any body is read; READ_API_KEY (when set) before it: a request without the key takes no slot.
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
  servePage(app);

  app.use((_req, _res, next) => next(new AppError('not_found', 'no such endpoint')));
  app.use(errorHandler);
  return app;
}

/**
 * While the server starts: health (status loading, phase, progress), metrics, the page and its
 * script; every API request gets 503 `starting` with Retry-After.
 */
export function loadingApp(startup: Startup, logger: Logger): express.Express {
  const app = baseApp(logger);
  app.use(loadingHealthRouter(startup));
  servePage(app);
  app.use((_req, _res, next) => {
    const s = startup.status();
    const message = s.phase === 'failed' ? `the server failed to start: ${s.error}` : `the server is starting (${s.message}); retry shortly`;
    next(new AppError('starting', message, undefined, startup.retryAfterSeconds()));
  });
  app.use(errorHandler);
  return app;
}
