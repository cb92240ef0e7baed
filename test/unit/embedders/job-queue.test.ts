// Subject: server/embedders/queue.ts, the bounded FIFO both embedding engines share.
import { JobQueue } from '../../../server/embedders/queue.js';

interface Job {
  n: number;
  resolve: (v: number) => void;
  reject: (e: Error) => void;
}

test('first in, first out; past max a push is refused as overloaded with Retry-After, and a shift makes room again', async () => {
  let pushes = 0;
  const q = new JobQueue<Job>(2, () => pushes++);
  const a = q.push<number>((resolve, reject) => ({ n: 1, resolve, reject }));
  const b = q.push<number>((resolve, reject) => ({ n: 2, resolve, reject }));
  await expect(q.push<number>((resolve, reject) => ({ n: 3, resolve, reject }))).rejects.toMatchObject({ code: 'overloaded', retryAfterSeconds: 2 });
  expect(pushes).toBe(2);
  expect(q.length).toBe(2);
  const first = q.shift()!;
  expect(first.n).toBe(1);
  first.resolve(10);
  await expect(a).resolves.toBe(10);
  const c = q.push<number>((resolve, reject) => ({ n: 3, resolve, reject }));
  expect(q.shift()!.n).toBe(2);
  q.close();
  await expect(c).rejects.toThrow('the embedder is closed');
  await expect(q.push<number>((resolve, reject) => ({ n: 4, resolve, reject }))).rejects.toThrow('the embedder is closed');
  expect(q.closed).toBe(true);
  expect(q.length).toBe(0);
  void b;
});
