/**
 * Batches [0, size), [size, 2 size), ... of `total` items, one batch ahead: batch i + 1 is
 * prepared (read, extracted, embedded) while batch i is committed (written), so the event loop,
 * the embedding worker and Neo4j work at the same time instead of taking turns. Commits run
 * one after another, in order; `starting` is called before each batch is awaited (progress).
 */
export async function pipelined<T>(
  total: number,
  size: number,
  prepare: (start: number) => Promise<T>,
  commit: (prepared: T, start: number) => Promise<void>,
  starting?: (start: number) => void,
): Promise<void> {
  let next = total > 0 ? prepare(0) : undefined;
  for (let start = 0; next; start += size) {
    starting?.(start);
    const prepared = await next;
    next = start + size < total ? prepare(start + size) : undefined;
    // A failed commit must not leave the prefetch's rejection unhandled.
    next?.catch(() => undefined);
    await commit(prepared, start);
  }
}
