/**
 * The waiting room of an embedding engine (the worker pool of the ONNX embedders, the e5
 * process): one FIFO of at most `max` jobs. Past it `push` rejects with AppError('overloaded'),
 * which the API answers 503 + Retry-After; after `close` it rejects every waiting job and
 * refuses new ones. The engine takes jobs with `shift` when it has room (`onPush` tells it).
 */
import { AppError } from '../errors.js';

export interface Waiting {
  reject: (e: Error) => void;
}

const closedError = () => new Error('the embedder is closed');

export class JobQueue<J extends Waiting> {
  private readonly jobs: J[] = [];
  private shut = false;

  constructor(
    private readonly max: number,
    private readonly onPush: () => void,
  ) {}

  /** Jobs waiting (not counting the ones running). */
  get length(): number {
    return this.jobs.length;
  }

  get closed(): boolean {
    return this.shut;
  }

  /** Queues the job built from the promise's settle functions, then lets the engine look. */
  push<R>(build: (resolve: (v: R) => void, reject: (e: Error) => void) => J): Promise<R> {
    if (this.shut) return Promise.reject(closedError());
    if (this.jobs.length >= this.max) {
      return Promise.reject(new AppError('overloaded', `embedding queue is full (${this.max} jobs waiting); retry shortly`, undefined, 2));
    }
    return new Promise<R>((resolve, reject) => {
      this.jobs.push(build(resolve, reject));
      this.onPush();
    });
  }

  shift(): J | undefined {
    return this.jobs.shift();
  }

  /** Rejects every waiting job and refuses new ones. */
  close(): void {
    this.shut = true;
    for (const j of this.jobs.splice(0)) j.reject(closedError());
  }
}
