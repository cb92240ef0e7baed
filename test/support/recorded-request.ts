import type http from 'node:http';

/** An incoming request as the protocol mocks record it: lower-cased headers, raw and parsed JSON body. */
export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  rawBody: string;
}

/** Reads the whole body; a body that is not JSON is recorded raw with `body` undefined. */
export function readRequest(req: http.IncomingMessage): Promise<Recorded> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      resolve({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, headers, body, rawBody });
    });
  });
}
