/**
 * What the HTTP error handler (server/http/errors.ts) answers for an error: its status, JSON body
 * and headers, read off a minimal response object, for unit tests of the error mapping.
 */
import { errorHandler } from '../../server/http/errors.js';

export interface ErrorAnswer {
  status?: number;
  body?: { error: { code: string; message: string; field?: string } };
  headers: Record<string, string>;
}

export function errorAnswer(e: unknown): ErrorAnswer {
  const out: ErrorAnswer = { headers: {} };
  const res = {
    destroyed: false,
    headersSent: false,
    setHeader: (k: string, v: string) => void (out.headers[k.toLowerCase()] = v),
    status(code: number) {
      out.status = code;
      return this;
    },
    json: (b: never) => void (out.body = b),
  };
  errorHandler(e, { socket: { destroyed: false } } as never, res as never, () => undefined);
  return out;
}
