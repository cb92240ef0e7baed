// Subject: server/retrieval/params.ts: the source and metadata filter parameter, validated and rendered.
import { sourceName } from '../../../server/ingest/sources/common.js';
import { renderAll } from '../../../scripts/render-cypher.js';
import { cypherLiteral } from '../../../server/db/cypher.js';
import { defaultParams, filterSchema, MODE_NAMES, MODES, paramsSchema } from '../../../server/retrieval/params.js';

describe('the filter parameter', () => {
  test('is in every mode, default null, in each file header and :param block', () => {
    const files = renderAll();
    for (const mode of MODE_NAMES) {
      expect(defaultParams(mode).filter).toBeNull();
      const text = files[MODES[mode].file];
      expect(text).toMatch(/^\/\/ :param filter => null +\/\* only passages of matching documents/m);
      // Used by the statement itself, not only declared.
      expect(text.split('\n').filter((l) => !l.startsWith('//') && l.includes('$filter')).length).toBeGreaterThan(0);
    }
  });

  test.each([
    [{ sources: ['a'] }, true],
    [{ sources: ['a', 'b'], documentIds: ['d'], metadata: { year: 2020, open: true, kind: 'x' } }, true],
    [null, true],
    [{}, true],
    [{ sources: [] }, false],
    [{ documentIds: [] }, false],
    [{ metadata: {} }, false],
    [{ metadata: { a: { b: 1 } } }, false],
    [{ metadata: { a: [1] } }, false],
    [{ metadata: { a: null } }, false],
    [{ metadata: { a: Number.NaN } }, false],
    [{ sources: 'a' }, false],
    [{ source: ['a'] }, false],
  ])('%j valid: %s', (filter, ok) => {
    expect(filterSchema.safeParse(filter).success).toBe(ok);
    expect(paramsSchema('gated').safeParse({ filter }).success).toBe(ok);
  });

  test('an empty list names its field', () => {
    const r = filterSchema.safeParse({ sources: [] });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['sources']);
    expect(r.error!.issues[0].message).toMatch(/must not be empty/);
  });

  test('map keys that are not identifiers are backticked in :param blocks', () => {
    expect(cypherLiteral({ sources: ['a'], metadata: { 'a b': 1, 'x`y': true, year: 2 } })).toBe(
      "{sources: ['a'], metadata: {`a b`: 1, `x``y`: true, year: 2}}",
    );
  });
});

test.each([
  ['corpus/pubmed.jsonl', 'pubmed'],
  ['corpus/pubmed.jsonl.gz', 'pubmed'],
  ['/data/papers/', 'papers'],
  ['notes', 'notes'],
])('the default source of %s is %s', (input, name) => {
  expect(sourceName(input)).toBe(name);
});
