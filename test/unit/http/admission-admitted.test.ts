// Subject: server/http/admission.ts: the admission gates (concurrency caps, queue, overloaded answers).
import { admissionKind, admitted, Gate } from '../../../server/http/admission.js';

/** admitted(): work outside the middleware (an MCP tool call) waits in the same gate, or is refused as the middleware refuses. */
test('a full gate refuses at once with overloaded and the retrieval Retry-After', async () => {
  const gate = new Gate('retrieve', 1, 0);
  const first = await admitted(gate);
  await expect(admitted(gate)).rejects.toMatchObject({ code: 'overloaded', retryAfterSeconds: 1 });
  first();
  const again = await admitted(gate);
  expect(gate.running).toBe(1);
  again();
  expect(gate.running).toBe(0);
});

test('a queued caller gets the slot when it is released, in order', async () => {
  const gate = new Gate('retrieve', 1, 2);
  const first = await admitted(gate);
  const order: number[] = [];
  const second = admitted(gate).then((r) => {
    order.push(2);
    return r;
  });
  const third = admitted(gate).then((r) => {
    order.push(3);
    return r;
  });
  expect(gate.queued).toBe(2);
  first();
  (await second)();
  (await third)();
  expect(order).toEqual([2, 3]);
  expect(gate.running).toBe(0);
});

test('a caller that goes away leaves the queue, and a slot it was given goes back', async () => {
  const gate = new Gate('retrieve', 1, 1);
  const first = await admitted(gate);
  const ac = new AbortController();
  const waiting = admitted(gate, ac.signal);
  expect(gate.queued).toBe(1);
  ac.abort();
  await expect(waiting).rejects.toMatchObject({ code: 'database_unavailable', message: 'the request was cancelled' });
  expect(gate.queued).toBe(0);
  first();
  expect(gate.running).toBe(0);
  const gone = new AbortController();
  gone.abort();
  await expect(admitted(gate, gone.signal)).rejects.toMatchObject({ message: 'the request was cancelled' });
  expect(gate.running).toBe(0);
});

test('admission takes the path as the router matches it: any case, a trailing slash', () => {
  expect(admissionKind({ method: 'POST', path: '/V1/Retrieve/' })).toBe('retrieve');
  expect(admissionKind({ method: 'POST', path: '/V1/ANSWER' })).toBe('retrieve');
  // Writes are jobs (server/jobs), not admitted through the gate.
  expect(admissionKind({ method: 'DELETE', path: '/V1/DOCUMENTS/x' })).toBeUndefined();
  expect(admissionKind({ method: 'GET', path: '/v1/retrieve' })).toBeUndefined();
});
