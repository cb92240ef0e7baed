import { COMPACT_AFTER_BATCHES, worthCompacting } from '../../../server/db/compact-indexes.js';

// A rebuild of a vector index costs every vector in it: only a load that wrote more than
// COMPACT_AFTER_BATCHES batches and at least half of what the index now holds is rebuilt.
test('a load is compacted only when it has more than COMPACT_AFTER_BATCHES batches and at least doubled the index', () => {
  const batches = COMPACT_AFTER_BATCHES + 1;
  const many = batches * 64;
  expect(worthCompacting(batches, many, many)).toBe(true); // the first load of a graph
  expect(worthCompacting(batches, many, 2 * many)).toBe(true); // a load as large as the graph before it
  expect(worthCompacting(batches, many, 2 * many + 1)).toBe(false); // an append to a larger graph
  expect(worthCompacting(batches, many, 100_000)).toBe(false);
  expect(worthCompacting(COMPACT_AFTER_BATCHES, COMPACT_AFTER_BATCHES * 64, COMPACT_AFTER_BATCHES * 64)).toBe(false); // not more than 8 batches
});
