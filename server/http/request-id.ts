import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logger.js';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/** Gives each request an id (X-Request-Id if the caller sent a sane one) and a child logger carrying it. */
export function requestId(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.header('x-request-id');
    req.id = given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    req.log = logger.child({ reqId: req.id });
    res.setHeader('X-Request-Id', req.id);
    const t0 = performance.now();
    res.on('finish', () => {
      req.log.info({ method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(performance.now() - t0) }, 'request');
    });
    next();
  };
}
