/**
 * Writes as durable jobs (docs/jobs.md). A write is stored as a (:Job) in Neo4j before it is
 * answered; the runner of whichever instance holds the queue's lease runs the jobs one at a
 * time, in order. `submit` says whether the caller may wait for it (a small write with nothing
 * ahead of it, no Prefer: respond-async: the 201 of old) or should answer 202 at once.
 */
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { type JobKind, JobStore, type JobStatus, type JobView, QueueFull } from '../graph/jobs.js';
import { type DeletePayload, executor, type IngestPayload, type JobContext, passageCount } from './execute.js';
import { JobRunner } from './runner.js';

export type { JobStatus, JobView } from '../graph/jobs.js';
export { type JobContext, runIngest } from './execute.js';

export type Submission = { kind: 'ingest'; payload: IngestPayload } | { kind: 'delete'; payload: DeletePayload };

export class Jobs {
  readonly store: JobStore;
  readonly runner: JobRunner;

  constructor(
    ctx: JobContext,
    readonly config: Config['jobs'] = ctx.config.jobs,
  ) {
    this.store = new JobStore(ctx.store);
    this.runner = new JobRunner(this.store, executor(ctx), { leaseMs: config.leaseMs, retentionMs: config.retentionMs, logger: ctx.logger });
  }

  /** Starts this instance's runner (it resumes what a stopped instance left). */
  start(): this {
    this.runner.start();
    return this;
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  /**
   * Stores the job, then wakes the runner. `atOnce`: nothing was queued or running before it, it
   * is at most JOB_SYNC_MAX_BYTES and the client did not ask for an asynchronous answer, so the
   * caller may wait for it. Past JOB_QUEUE_BYTES of waiting jobs: 503 overloaded.
   */
  async submit(s: Submission, opts: { preferAsync: boolean }): Promise<{ view: JobView; atOnce: boolean }> {
    const payload = JSON.stringify(s.payload);
    const bytes = Buffer.byteLength(payload);
    const documents = s.kind === 'ingest' ? s.payload.documents.map((d) => d.id) : [s.payload.id];
    const total = s.kind === 'ingest' ? passageCount(s.payload.documents) : 1;
    const kind: JobKind = s.kind;
    try {
      const { ahead, view } = await this.store.enqueue({ id: `job-${crypto.randomUUID()}`, kind, payload, bytes, documents, total }, this.config.queueBytes);
      this.runner.start().kick();
      return { view, atOnce: !opts.preferAsync && ahead === 0 && bytes <= this.config.syncMaxBytes };
    } catch (e) {
      if (e instanceof QueueFull) {
        throw new AppError('overloaded', `the job queue is full (${e.queuedBytes} of ${e.maxBytes} bytes waiting); retry later`);
      }
      throw e;
    }
  }

  /** The finished job, or undefined when `signal` comes first. */
  waitFor(id: string, signal: AbortSignal): Promise<JobView | undefined> {
    return this.runner.waitFor(id, signal);
  }

  get(id: string): Promise<JobView | undefined> {
    return this.store.get(id, this.config.retentionMs);
  }

  list(opts: { limit: number; status?: JobStatus }): Promise<JobView[]> {
    return this.store.list({ ...opts, retentionMs: this.config.retentionMs });
  }

  /** Cancels a queued job: not_found for an unknown one, conflict once it runs or has finished. */
  async cancel(id: string): Promise<JobView> {
    const r = await this.store.cancel(id);
    if (!r) throw new AppError('not_found', `no job with id "${id}"`, 'id');
    if (!r.cancelled) throw new AppError('conflict', `job "${id}" is ${r.view.status}: only a queued job can be cancelled`, 'id');
    return r.view;
  }
}
