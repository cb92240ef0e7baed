import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import type { Config } from '../config.js';
import { AppError, fromZod } from '../errors.js';

type Handler = (req: Request, res: Response) => Promise<unknown>;
/** Express 5 forwards rejected promises to the error handler; this keeps handlers plain async functions. */
export const route = (h: Handler) => (req: Request, res: Response, next: NextFunction) => h(req, res).catch(next);

export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

/** Aborts when the client goes away, so the database work can be cancelled. */
export function clientGone(_req: Request, res: Response): AbortSignal {
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
    if (!config.apiKey) return next(new AppError('forbidden', 'this endpoint is disabled: set API_KEY on the server to enable it'));
    if (given !== config.apiKey) return next(new AppError('unauthorized', 'missing or wrong API key (X-Api-Key header)'));
    next();
  };
}
