/**
 * The job runner of one server instance. Jobs run one at a time, in order, across every instance
 * on the database: only the holder of the queue's lease (server/graph/jobs.ts) claims jobs, and
 * renews the lease while one runs. An instance that dies stops renewing; once the lease has
 * expired another instance takes it and resumes the job it left running (ingestion is idempotent:
 * MERGE on stable ids, unchanged documents skipped). An idle instance releases the lease.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { classifyDbError, transientCondition } from '../db/driver.js';
import { AppError, writeTooLarge } from '../errors.js';
import type { ClaimedJob, JobStore, JobView } from '../graph/jobs.js';
import type { Logger } from '../logger.js';

/** What a job does: runs its payload, reports progress, resolves with its result. */
export type JobExecutor = (job: ClaimedJob, ctx: { signal: AbortSignal; progress: (done: number, total: number) => void }) => Promise<unknown>;

export interface RunnerOptions {
  /** How long the lease lasts without renewal; renewed every third of it, and idle instances check as often. */
  leaseMs: number;
  retentionMs: number;
  /** A job left running this many times by instances that stopped is failed, not run again. */
  maxInterrupted?: number;
  logger: Logger;
}

/** How often progress is written to the job node, at most. */
const PROGRESS_EVERY_MS = 500;
/** How often a waiter (a 201 on another instance's runner) reads the job. */
const WAIT_POLL_MS = 500;
/** How often finished jobs past their retention are dropped. */
const SWEEP_EVERY_MS = 60_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref(); // an idle runner never keeps the process alive
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** A job's error as stored: the domain code when there is one. */
function describe(e: unknown): { code: string; message: string; field?: string } {
  // A batch over db.memory.transaction.max fails the same way every time: the caller must send less.
  if (classifyDbError(e) === 'query_memory') e = writeTooLarge();
  if (e instanceof AppError) return { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) };
  const err = e as { name?: string; message?: string; problems?: unknown };
  if (err?.name === 'IngestInputError') return { code: 'invalid_request', message: String(err.message) };
  return { code: 'internal', message: String(err?.message ?? e).slice(0, 500) };
}

/** Failures that running the job again later fixes: the job stays running and is retried. */
function transient(e: unknown): boolean {
  return transientCondition(classifyDbError(e)) !== undefined || (e instanceof AppError && e.code === 'database_unavailable');
}

export class JobRunner {
  readonly owner = `instance-${crypto.randomUUID()}`;
  private readonly events = new EventEmitter();
  private readonly stopping = new AbortController();
  private wake = new AbortController();
  private loop: Promise<void> | undefined;
  private current: { id: string; abort: AbortController } | undefined;
  private lastSweep = 0;

  constructor(
    readonly jobs: JobStore,
    private readonly execute: JobExecutor,
    private readonly opts: RunnerOptions,
  ) {
    this.events.setMaxListeners(0);
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  /** A job was just queued here: look now, not at the next poll. */
  kick(): void {
    this.wake.abort();
  }

  /**
   * Stops the loop. A running job is aborted and put back in line (not counted as interrupted),
   * and the lease given up, so another instance can go on at once.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (!this.loop) return;
    this.current?.abort.abort(new Error('the server is stopping'));
    await this.loop;
    await this.jobs.releaseLease(this.owner).catch(() => undefined);
  }

  /** Resolves with the job once it is finished (done, failed or cancelled), or undefined at `signal`. */
  async waitFor(id: string, signal: AbortSignal): Promise<JobView | undefined> {
    while (!signal.aborted && !this.stopping.signal.aborted) {
      const local = new Promise<JobView | undefined>((resolve) => {
        const done = (v: JobView) => resolve(v);
        this.events.once(id, done);
        setTimeout(() => {
          this.events.off(id, done);
          resolve(undefined);
        }, WAIT_POLL_MS);
      });
      const seen = (await local) ?? (await this.jobs.get(id, this.opts.retentionMs).catch(() => undefined));
      if (seen && seen.status !== 'queued' && seen.status !== 'running') return seen;
    }
    return undefined;
  }

  private async run(): Promise<void> {
    const poll = Math.max(50, Math.floor(this.opts.leaseMs / 3));
    while (!this.stopping.signal.aborted) {
      this.wake = new AbortController();
      try {
        await this.maybeSweep();
        if (await this.jobs.pending()) {
          if (await this.jobs.acquireLease(this.owner, this.opts.leaseMs)) await this.drain();
        }
      } catch (e) {
        // The database is down (the watchdog says so already) or a statement failed: look again at the next poll.
        const level = transient(e) ? 'debug' : 'warn';
        this.opts.logger[level]({ err: String((e as Error)?.message ?? e).slice(0, 300) }, 'job runner: retrying');
      }
      await sleep(poll, AbortSignal.any([this.stopping.signal, this.wake.signal]));
    }
  }

  /** Runs jobs while there are any and the lease is ours. */
  private async drain(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const next = await this.jobs.claimNext(this.owner, this.opts.maxInterrupted ?? 3);
      if (next === 'empty' || next === 'lost') return;
      const settled = await this.runOne(next);
      if (!settled) return; // stopping, lease lost, or a transient failure: the loop polls again
    }
  }

  /** One job under a renewed lease; true when it reached done or failed. */
  private async runOne(claimed: ClaimedJob): Promise<boolean> {
    const { job } = claimed;
    const log = this.opts.logger.child({ job: job.id, kind: job.kind });
    const abort = new AbortController();
    this.current = { id: job.id, abort };
    const renew = setInterval(
      () =>
        void this.jobs.renewLease(this.owner, this.opts.leaseMs).then(
          (held) => held || abort.abort(new Error('the lease was lost')),
          (e) => log.warn({ err: String((e as Error)?.message ?? e).slice(0, 200) }, 'could not renew the job lease'),
        ),
      Math.max(50, Math.floor(this.opts.leaseMs / 3)),
    );
    renew.unref();
    let lastWrite = 0;
    let pending: Promise<void> = Promise.resolve();
    const progress = (done: number, total: number) => {
      const now = performance.now();
      if (now - lastWrite < PROGRESS_EVERY_MS && done < total) return;
      lastWrite = now;
      pending = pending.then(() => this.jobs.progress(job.id, this.owner, done, total).catch(() => undefined));
    };
    log.info({ interrupted: claimed.interrupted }, 'job started');
    try {
      const result = await this.execute(claimed, { signal: abort.signal, progress });
      await pending;
      const view = await this.jobs.finish(job.id, this.owner, 'done', { result });
      log.info('job done');
      if (view) this.events.emit(job.id, view);
      return true;
    } catch (e) {
      await pending;
      if (this.stopping.signal.aborted) {
        await this.jobs.requeue(job.id, this.owner).catch(() => undefined);
        return false;
      }
      if (abort.signal.aborted || transient(e)) {
        log.warn({ err: String((e as Error)?.message ?? e).slice(0, 300) }, 'job paused; it runs again');
        return false;
      }
      const error = describe(e);
      log.warn({ error }, 'job failed');
      const view = await this.jobs.finish(job.id, this.owner, 'failed', { error });
      if (view) this.events.emit(job.id, view);
      return true;
    } finally {
      clearInterval(renew);
      this.current = undefined;
    }
  }

  private async maybeSweep(): Promise<void> {
    if (performance.now() - this.lastSweep < SWEEP_EVERY_MS && this.lastSweep > 0) return;
    this.lastSweep = performance.now();
    const n = await this.jobs.sweep(this.opts.retentionMs);
    if (n) this.opts.logger.info({ dropped: n }, 'finished jobs past their retention dropped');
  }
}
