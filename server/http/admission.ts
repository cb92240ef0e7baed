/**
 * Admission control: at most `concurrency` requests of a kind run at once, at most `queue` more
 * wait (FIFO); past that a request is refused at once with 503 `overloaded` and Retry-After,
 * instead of every request slowing down without bound, for retrievals (POST /v1/retrieve,
 * /v1/answer, /v1/compare). Everything else (health, metrics, the page, projection) passes
 * through; document writes are jobs, bounded by the job queue's bytes (server/jobs). A slot is released when the response closes (finished, or the
 * client went away); a queued client that goes away leaves the queue.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import { AppError, dbError } from '../errors.js';
import { inFlight, queued, rejected } from '../metrics.js';
import { type AdmissionKind, endpointsOf } from './endpoints.js';
import { routePath } from './handlers.js';

/** Seconds a refused client is told to wait, per kind. */
const RETRY_AFTER: Record<AdmissionKind, number> = { retrieve: 1 };

export function admissionKind(req: Pick<Request, 'method' | 'path'>): AdmissionKind | undefined {
  // As the router matches it: /V1/RETRIEVE/ is the same endpoint, and takes the same gate.
  const p = routePath(req.path);
  return endpointsOf(req.method, p).find((ep) => ep.admission)?.admission;
}

/** A counting semaphore with a bounded FIFO queue. */
export class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly kind: AdmissionKind,
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  get running(): number {
    return this.active;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once admitted; undefined when the queue is full. `cancel` drops a waiting request. */
  enter(): { admitted: Promise<() => void>; cancel: () => void } | undefined {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active--;
      inFlight.dec({ kind: this.kind });
      const next = this.waiting.shift();
      if (next) {
        queued.dec({ kind: this.kind });
        next();
      }
    };
    const admit = () => {
      this.active++;
      inFlight.inc({ kind: this.kind });
    };
    if (this.active < this.concurrency) {
      admit();
      return { admitted: Promise.resolve(release), cancel: () => {} };
    }
    if (this.waiting.length >= this.queue) return undefined;
    let wake!: () => void;
    const admitted = new Promise<() => void>((resolve) => {
      wake = () => {
        admit();
        resolve(release);
      };
    });
    this.waiting.push(wake);
    queued.inc({ kind: this.kind });
    const cancel = () => {
      const i = this.waiting.indexOf(wake);
      if (i >= 0) {
        this.waiting.splice(i, 1);
        queued.dec({ kind: this.kind });
      }
    };
    return { admitted, cancel };
  }
}

/** The 503 of a full gate (counted in the rejected metric). */
function refusal(gate: Gate): AppError {
  rejected.inc({ kind: gate.kind });
  const what = 'retrievals';
  const wait = RETRY_AFTER[gate.kind];
  return new AppError(
    'overloaded',
    `the server is busy: ${gate.concurrency} ${what} running and ${gate.queue} waiting; retry after ${wait} s`,
    undefined,
    wait,
  );
}

/**
 * Work admitted outside the middleware (an MCP tool call: one HTTP request may carry any tool):
 * waits for a slot of the same gate, in the same queue, and resolves to its release; refused as
 * the middleware refuses. `signal` leaves the queue when the caller goes away.
 */
export async function admitted(gate: Gate, signal?: AbortSignal): Promise<() => void> {
  const ticket = gate.enter();
  if (!ticket) throw refusal(gate);
  return new Promise<() => void>((resolve, reject) => {
    const leave = () => {
      ticket.cancel();
      // Admitted already: the slot goes back at once (release runs once, whoever calls it).
      void ticket.admitted.then((release) => release());
      reject(dbError('cancelled'));
    };
    if (signal?.aborted) return leave();
    signal?.addEventListener('abort', leave, { once: true });
    void ticket.admitted.then((release) => {
      signal?.removeEventListener('abort', leave);
      resolve(release);
    });
  });
}

export interface Admission extends RequestHandler {
  gates: Record<AdmissionKind, Gate>;
}

/** The defaults of RETRIEVE_CONCURRENCY, RETRIEVE_QUEUE (for 2 cores). */
const DEFAULT_LIMITS: Config['admission'] = { retrieve: { concurrency: 4, queue: 8 } };

/** The middleware; mount it before the routers it guards. */
export function admission(limits: Config['admission'] = DEFAULT_LIMITS): Admission {
  const gates: Record<AdmissionKind, Gate> = {
    retrieve: new Gate('retrieve', limits.retrieve.concurrency, limits.retrieve.queue),
  };
  const handler = (req: Request, res: Response, next: NextFunction): void => {
    const kind = admissionKind(req);
    if (!kind) {
      next();
      return;
    }
    const gate = gates[kind];
    const ticket = gate.enter();
    if (!ticket) {
      next(refusal(gate));
      return;
    }
    let gone = false;
    res.once('close', () => {
      gone = true;
      ticket.cancel();
      // Admitted already: the slot is freed when the admitted promise hands the release over.
      void ticket.admitted.then((release) => release());
    });
    void ticket.admitted.then(() => {
      if (!gone) next();
    });
  };
  return Object.assign(handler, { gates });
}
