/**
 * A bounded pool of embedding worker threads (embed-worker.mjs), so a forward pass never runs
 * on the event loop: `/v1/health` and the retrievals' Bolt traffic keep flowing while a long
 * document is embedded. Jobs wait in one JobQueue of at most `maxQueue` (queue.ts). Idle workers are unref'd, so they never keep a process
 * alive; a worker that dies fails its job and is replaced on the next one.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { OnnxModelOptions } from './onnx-model.js';
import { JobQueue } from './queue.js';

interface Pending {
  texts: string[];
  resolve: (v: Float64Array) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: { id: number } & Pending;
}

export interface PoolOptions {
  workers: number;
  maxQueue: number;
  model: OnnxModelOptions;
}

const ENTRY = fileURLToPath(new URL('./embed-worker.mjs', import.meta.url));

export class EmbedPool {
  private readonly slots: (Slot | undefined)[];
  private readonly queue: JobQueue<Pending>;
  private nextId = 1;

  constructor(private readonly opts: PoolOptions) {
    this.slots = new Array(opts.workers).fill(undefined);
    this.queue = new JobQueue<Pending>(opts.maxQueue, () => this.dispatch());
  }

  /** Jobs waiting for a worker (not counting the ones running). */
  get queued(): number {
    return this.queue.length;
  }

  run(texts: string[]): Promise<Float64Array> {
    return this.queue.push((resolve, reject) => ({ texts, resolve, reject }));
  }

  async close(): Promise<void> {
    this.queue.close();
    await Promise.all(this.slots.map((s) => s?.worker.terminate()));
    this.slots.fill(undefined);
  }

  private dispatch(): void {
    for (let i = 0; i < this.slots.length && this.queue.length > 0; i++) {
      const slot = (this.slots[i] ??= this.spawn(i));
      if (slot.job) continue;
      const p = this.queue.shift()!;
      slot.job = { id: this.nextId++, ...p };
      slot.worker.ref();
      slot.worker.postMessage({ id: slot.job.id, texts: p.texts });
    }
  }

  private spawn(i: number): Slot {
    const worker = new Worker(ENTRY, { workerData: this.opts.model, stdout: false, stderr: false });
    const slot: Slot = { worker };
    worker.on('message', (m: { id: number; vectors?: Float64Array; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      slot.job = undefined;
      worker.unref();
      if (m.error !== undefined) job.reject(new Error(`embedding failed: ${m.error}`));
      else job.resolve(m.vectors!);
      this.dispatch();
    });
    const die = (err: Error) => {
      if (this.slots[i] === slot) this.slots[i] = undefined;
      slot.job?.reject(err);
      slot.job = undefined;
      if (!this.queue.closed) this.dispatch();
    };
    worker.on('error', (e) => die(new Error(`embedding worker failed: ${e.message}`)));
    worker.on('exit', (code) => die(new Error(`embedding worker exited (code ${code})`)));
    worker.unref();
    return slot;
  }
}
