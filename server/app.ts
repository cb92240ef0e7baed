import path from 'node:path';
import express from 'express';
import type { Driver } from 'neo4j-driver';
import { z } from 'zod';
import type { Generator } from './answer/generator.js';
import { ROOT, type Config } from './config.js';
import type { Embedder } from './embedders/types.js';
import type { Extractor } from './extractors/types.js';
import { HttpError, errorHandler } from './http/errors.js';
import { clientGone, parseBody, requireApiKey, route } from './http/handlers.js';
import { requestId } from './http/request-id.js';
import type { Logger } from './logger.js';
import { health } from './health.js';
import { toRetrievalError, type Retriever } from './retrieval/client.js';
import { manageProjection } from './retrieval/projection.js';
import { embedQuestion, modeSchema, questionFields, retrieveTimed, validateParams } from './retrieval/service.js';
import { answerRoutes } from './routes/answer.js';
import { compareRoutes } from './routes/compare.js';
import { documentRoutes } from './routes/documents.js';

export interface Services {
  config: Config;
  driver: Driver;
  retriever: Retriever;
  embedder: Embedder;
  logger: Logger;
  /** The extractor for POST /v1/documents, created on first use. */
  extractor: () => Promise<Extractor>;
  /** The answer generator for POST /v1/answer, created on first use. */
  generator: () => Promise<Generator>;
}

const RetrieveBody = z
  .object({ ...questionFields, mode: modeSchema.default('gated'), explain: z.boolean().optional() })
  .strict();

const ProjectionBody = z.object({ action: z.enum(['create', 'refresh', 'drop', 'status']).default('refresh') }).strict();

export function createApp(svc: Services, extraRoutes: ((app: express.Express) => void)[] = []): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId(svc.logger));
  app.use(express.json({ limit: '10mb' }));

  app.post('/v1/retrieve', route(async (req, res) => {
    const body = parseBody(RetrieveBody, req.body);
    const params = validateParams(body.mode, body.params);
    const q = await embedQuestion(svc.embedder, body);
    const result = await retrieveTimed(svc.retriever, { mode: body.mode, question: body.question, ...q, params, explain: body.explain }, clientGone(req, res));
    res.json(result);
  }));

  app.get('/v1/health', route(async (_req, res) => {
    const h = await health(svc);
    res.status(h.status === 'unavailable' ? 503 : 200).json(h);
  }));

  app.post('/v1/projection', requireApiKey(svc.config), route(async (req, res) => {
    const { action } = parseBody(ProjectionBody, req.body);
    try {
      res.json(await manageProjection(svc.driver, action, { graphName: svc.config.pprGraphName, database: svc.config.neo4j.database, extraTypes: svc.config.traverseTypes }));
    } catch (e) {
      throw toRetrievalError(e, svc.config.queryTimeoutMs);
    }
  }));

  answerRoutes(svc)(app);
  compareRoutes(svc)(app);
  // The page at / for trying it out.
  app.use(express.static(path.join(ROOT, 'server', 'public'), { index: 'index.html' }));
  documentRoutes(svc)(app);
  for (const add of extraRoutes) add(app);
  app.use((_req, _res, next) => next(new HttpError(404, 'not_found', 'no such endpoint')));
  app.use(errorHandler);
  return app;
}
