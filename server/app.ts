import express, { type NextFunction, type Request, type Response } from 'express';
import type { Driver } from 'neo4j-driver';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Embedder } from './embedders/types.js';
import { HttpError, errorHandler, fromZod } from './http/errors.js';
import { requestId } from './http/request-id.js';
import type { Logger } from './logger.js';
import { health } from './health.js';
import type { Retriever } from './retrieval/client.js';
import { manageProjection } from './retrieval/projection.js';
import { embedQuestion, modeSchema, questionFields, retrieveTimed, validateParams } from './retrieval/service.js';

export interface Services {
  config: Config;
  driver: Driver;
  retriever: Retriever;
  embedder: Embedder;
  logger: Logger;
}

type Handler = (req: Request, res: Response) => Promise<unknown>;
/** Express 5 forwards rejected promises to the error handler; this keeps handlers plain async functions. */
export const route = (h: Handler) => (req: Request, res: Response, next: NextFunction) => h(req, res).catch(next);

export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

/** Aborts when the client goes away, so the database work can be cancelled. */
export function clientGone(req: Request, res: Response): AbortSignal {
  const ac = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** Endpoints that change data need API_KEY (X-Api-Key or Bearer); without one configured they are refused. */
export function requireApiKey(config: Config) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = req.header('x-api-key') ?? req.header('authorization')?.replace(/^Bearer\s+/i, '');
    if (!config.apiKey) return next(new HttpError(403, 'forbidden', 'this endpoint is disabled: set API_KEY on the server to enable it'));
    if (given !== config.apiKey) return next(new HttpError(401, 'unauthorized', 'missing or wrong API key (X-Api-Key header)'));
    next();
  };
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
    const result = await retrieveTimed(svc.retriever, { mode: body.mode, question: body.question, ...q, embedding: q.embedding, params, explain: body.explain }, clientGone(req, res));
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
      const { toRetrievalError } = await import('./retrieval/client.js');
      throw toRetrievalError(e, svc.config.queryTimeoutMs);
    }
  }));

  for (const add of extraRoutes) add(app);
  app.use((_req, _res, next) => next(new HttpError(404, 'not_found', 'no such endpoint')));
  app.use(errorHandler);
  return app;
}
