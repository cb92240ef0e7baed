/**
 * Every statement of the job queue (server/jobs): (:Job) nodes and the (:JobQueue) node that
 * holds the queue's sequence number and the lease of the one instance that runs jobs.
 *
 * Every change of a job's status, and every take or renewal of the lease, first writes the
 * queue node (lockQueue): that write lock makes the transitions of all instances take turns, so
 * "is the queue empty?" and "release the lease" cannot interleave with an enqueue, and a queued
 * job cannot be both cancelled and started.
 */
import neo4j, { type ManagedTransaction } from 'neo4j-driver';
import type { GraphStore } from '../db/store.js';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export type JobKind = 'ingest' | 'delete';

/** A job as clients see it (GET /v1/jobs/:id, the 202's body). */
export interface JobView {
  id: string;
  kind: JobKind;
  status: JobStatus;
  submittedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: { done: number; total: number };
  /** The documents the job writes or deletes. */
  documents: string[];
  result: Record<string, unknown> | null;
  error: { code: string; message: string; field?: string } | null;
}

/** A claimed job: its view and its payload (JSON text, as stored). */
export interface ClaimedJob {
  job: JobView;
  payload: string;
  /** Runs of this job that an instance began and never finished (it stopped or died). */
  interrupted: number;
}

export interface NewJob {
  id: string;
  kind: JobKind;
  payload: string;
  bytes: number;
  documents: string[];
  total: number;
}

/** The queue is past its byte bound: refuse the job (nothing was written). */
export class QueueFull extends Error {
  constructor(
    readonly queuedBytes: number,
    readonly maxBytes: number,
  ) {
    super(`the job queue holds ${queuedBytes} bytes of its ${maxBytes}`);
    this.name = 'QueueFull';
  }
}

const VIEW = `{
  id: j.id, kind: j.kind, status: j.status,
  submittedAt: toString(j.submittedAt), startedAt: toString(j.startedAt), finishedAt: toString(j.finishedAt),
  progress: {done: coalesce(j.progressDone, 0), total: coalesce(j.progressTotal, 0)},
  documents: coalesce(j.documents, []), result: j.result, error: j.error
}`;

type RawView = Omit<JobView, 'result' | 'error'> & { result: string | null; error: string | null };

function toView(raw: RawView): JobView {
  return { ...raw, result: raw.result ? JSON.parse(raw.result) : null, error: raw.error ? JSON.parse(raw.error) : null };
}

/** Takes the queue node's write lock for the rest of the transaction (creating the node once). */
async function lockQueue(tx: ManagedTransaction, queue: string): Promise<{ owner: string | null; expired: boolean }> {
  const r = await tx.run(
    `MERGE (q:JobQueue {id: $queue}) ON CREATE SET q.seq = 0
     SET q.lockedAt = datetime()
     RETURN q.owner AS owner, coalesce(q.expiresAt < datetime(), true) AS expired`,
    { queue },
  );
  return { owner: r.records[0].get('owner'), expired: r.records[0].get('expired') };
}

const ACTIVE = "j.status IN ['queued', 'running']";

export class JobStore {
  constructor(
    readonly store: GraphStore,
    readonly queue = 'ingest',
  ) {}

  /**
   * Stores a queued job, last in line. `ahead`: the jobs queued or running before it. Refused with
   * QueueFull when other jobs are waiting and the queue's bytes would pass `maxBytes` (a job
   * larger than the bound alone is taken when the queue is empty, so no write is refused forever).
   */
  enqueue(job: NewJob, maxBytes: number): Promise<{ ahead: number; view: JobView }> {
    return this.store.writeTransaction(async (tx) => {
      await lockQueue(tx, this.queue);
      const active = await tx.run(`MATCH (j:Job {queue: $queue}) WHERE ${ACTIVE} RETURN count(j) AS n, coalesce(sum(j.bytes), 0) AS bytes`, {
        queue: this.queue,
      });
      const ahead = Number(active.records[0].get('n'));
      const bytes = Number(active.records[0].get('bytes'));
      if (ahead > 0 && bytes + job.bytes > maxBytes) throw new QueueFull(bytes, maxBytes);
      const r = await tx.run(
        `MATCH (q:JobQueue {id: $queue})
         SET q.seq = q.seq + 1
         CREATE (j:Job {id: $id, queue: $queue, seq: q.seq, kind: $kind, status: 'queued', submittedAt: datetime(),
                        payload: $payload, bytes: $bytes, documents: $documents, progressDone: 0, progressTotal: $total, interrupted: 0})
         RETURN ${VIEW} AS job`,
        { queue: this.queue, ...job },
      );
      return { ahead, view: toView(r.records[0].get('job')) };
    });
  }

  async get(id: string, retentionMs: number): Promise<JobView | undefined> {
    const r = await this.store.read(
      `MATCH (j:Job {id: $id}) WHERE j.finishedAt IS NULL OR j.finishedAt > datetime() - duration({milliseconds: $retentionMs}) RETURN ${VIEW} AS job`,
      { id, retentionMs },
    );
    return r.records.length ? toView(r.records[0].get('job')) : undefined;
  }

  /** The newest jobs first (finished ones within their retention), optionally of one status. */
  async list(opts: { limit: number; status?: JobStatus; retentionMs: number }): Promise<JobView[]> {
    const r = await this.store.read(
      `MATCH (j:Job {queue: $queue})
       WHERE ($status IS NULL OR j.status = $status)
         AND (j.finishedAt IS NULL OR j.finishedAt > datetime() - duration({milliseconds: $retentionMs}))
       RETURN ${VIEW} AS job ORDER BY j.seq DESC LIMIT $limit`,
      { queue: this.queue, status: opts.status ?? null, retentionMs: opts.retentionMs, limit: neo4j.int(opts.limit) },
    );
    return r.records.map((x) => toView(x.get('job')));
  }

  /** Whether any job is queued or running (a read: idle instances poll this, not the lease). */
  async pending(): Promise<boolean> {
    const r = await this.store.read(`MATCH (j:Job {queue: $queue}) WHERE ${ACTIVE} RETURN count(j) > 0 AS any`, { queue: this.queue });
    return r.records[0].get('any');
  }

  /** Cancels a queued job. The job as it is now, or undefined when there is none. */
  cancel(id: string): Promise<{ cancelled: boolean; view: JobView } | undefined> {
    return this.store.writeTransaction(async (tx) => {
      await lockQueue(tx, this.queue);
      const r = await tx.run(
        `MATCH (j:Job {id: $id})
         WITH j, j.status = 'queued' AS cancelling
         FOREACH (_ IN CASE WHEN cancelling THEN [1] ELSE [] END |
           SET j.status = 'cancelled', j.finishedAt = datetime() REMOVE j.payload)
         RETURN cancelling, ${VIEW} AS job`,
        { id },
      );
      if (!r.records.length) return undefined;
      return { cancelled: r.records[0].get('cancelling'), view: toView(r.records[0].get('job')) };
    });
  }

  /** Takes the lease when it is free, expired or already ours; true when `owner` holds it now. */
  acquireLease(owner: string, leaseMs: number): Promise<boolean> {
    return this.store.writeTransaction(async (tx) => {
      const lease = await lockQueue(tx, this.queue);
      if (lease.owner !== null && lease.owner !== owner && !lease.expired) return false;
      await tx.run('MATCH (q:JobQueue {id: $queue}) SET q.owner = $owner, q.expiresAt = datetime() + duration({milliseconds: $leaseMs})', {
        queue: this.queue,
        owner,
        leaseMs,
      });
      return true;
    });
  }

  /** Extends the lease; false when `owner` no longer holds it (it expired and another took it). */
  renewLease(owner: string, leaseMs: number): Promise<boolean> {
    return this.store.writeTransaction(async (tx) => {
      const lease = await lockQueue(tx, this.queue);
      if (lease.owner !== owner) return false;
      await tx.run('MATCH (q:JobQueue {id: $queue}) SET q.expiresAt = datetime() + duration({milliseconds: $leaseMs})', { queue: this.queue, leaseMs });
      return true;
    });
  }

  /** Gives the lease up (graceful stop), if `owner` holds it. */
  releaseLease(owner: string): Promise<void> {
    return this.store.writeTransaction(async (tx) => {
      await lockQueue(tx, this.queue);
      await tx.run('MATCH (q:JobQueue {id: $queue}) WHERE q.owner = $owner SET q.owner = null, q.expiresAt = null', { queue: this.queue, owner });
    });
  }

  /**
   * The lease holder's next job, first in line, marked running (a job another instance left
   * running is resumed: its run was interrupted). A job interrupted `maxInterrupted` times is
   * failed instead. With nothing to do, the lease is released in the same transaction, so an
   * enqueue either comes before (and is claimed) or after (and its instance takes the lease).
   * 'lost': the lease is not `owner`'s any more.
   */
  claimNext(owner: string, maxInterrupted: number): Promise<ClaimedJob | 'empty' | 'lost'> {
    return this.store.writeTransaction(async (tx) => {
      const lease = await lockQueue(tx, this.queue);
      if (lease.owner !== owner) return 'lost';
      for (;;) {
        const r = await tx.run(
          `MATCH (j:Job {queue: $queue}) WHERE ${ACTIVE}
           WITH j ORDER BY j.seq LIMIT 1
           SET j.interrupted = j.interrupted + CASE WHEN j.status = 'running' AND j.owner <> $owner THEN 1 ELSE 0 END
           SET j.status = 'running', j.owner = $owner, j.startedAt = datetime()
           RETURN ${VIEW} AS job, j.payload AS payload, j.interrupted AS interrupted`,
          { queue: this.queue, owner },
        );
        if (!r.records.length) {
          await tx.run('MATCH (q:JobQueue {id: $queue}) SET q.owner = null, q.expiresAt = null', { queue: this.queue });
          return 'empty';
        }
        const claimed: ClaimedJob = {
          job: toView(r.records[0].get('job')),
          payload: r.records[0].get('payload'),
          interrupted: r.records[0].get('interrupted'),
        };
        if (claimed.interrupted < maxInterrupted) return claimed;
        await finishInTx(tx, claimed.job.id, owner, 'failed', {
          error: { code: 'interrupted', message: `the job was interrupted ${claimed.interrupted} times (the server running it stopped); not retried` },
        });
      }
    });
  }

  /** Records progress of a running job of `owner`. */
  async progress(id: string, owner: string, done: number, total: number): Promise<void> {
    await this.store.write("MATCH (j:Job {id: $id}) WHERE j.status = 'running' AND j.owner = $owner SET j.progressDone = $done, j.progressTotal = $total", {
      id,
      owner,
      done,
      total,
    });
  }

  /** Ends a running job of `owner` (a job another instance has taken over is left alone). */
  finish(id: string, owner: string, status: 'done' | 'failed', outcome: { result?: unknown; error?: unknown }): Promise<JobView | undefined> {
    return this.store.writeTransaction(async (tx) => {
      await lockQueue(tx, this.queue);
      return finishInTx(tx, id, owner, status, outcome);
    });
  }

  /** Puts a running job of `owner` back in line (a graceful stop: it was not interrupted). */
  requeue(id: string, owner: string): Promise<void> {
    return this.store.writeTransaction(async (tx) => {
      await lockQueue(tx, this.queue);
      await tx.run("MATCH (j:Job {id: $id}) WHERE j.status = 'running' AND j.owner = $owner SET j.status = 'queued' REMOVE j.startedAt", { id, owner });
    });
  }

  /** Drops finished jobs older than the retention; the number dropped. */
  async sweep(retentionMs: number): Promise<number> {
    const r = await this.store.write(
      `MATCH (j:Job {queue: $queue}) WHERE j.finishedAt < datetime() - duration({milliseconds: $retentionMs})
       WITH j LIMIT 10000 DETACH DELETE j RETURN count(*) AS n`,
      { queue: this.queue, retentionMs },
    );
    return Number(r.records[0].get('n'));
  }
}

async function finishInTx(
  tx: ManagedTransaction,
  id: string,
  owner: string,
  status: 'done' | 'failed',
  outcome: { result?: unknown; error?: unknown },
): Promise<JobView | undefined> {
  const r = await tx.run(
    `MATCH (j:Job {id: $id}) WHERE j.status = 'running' AND j.owner = $owner
     SET j.status = $status, j.finishedAt = datetime(), j.result = $result, j.error = $error,
         j.progressDone = CASE WHEN $status = 'done' THEN j.progressTotal ELSE j.progressDone END
     REMOVE j.payload
     RETURN ${VIEW} AS job`,
    {
      id,
      owner,
      status,
      result: outcome.result === undefined ? null : JSON.stringify(outcome.result),
      error: outcome.error === undefined ? null : JSON.stringify(outcome.error),
    },
  );
  return r.records.length ? toView(r.records[0].get('job')) : undefined;
}
