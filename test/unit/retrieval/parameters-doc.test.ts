// Subject: docs/parameters.md as generated from server/retrieval/params.ts.
/**
 * docs/parameters.md: generated from the parameter table (server/retrieval/params.ts) by
 * scripts/parameters-doc.ts, and committed as generated.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { allowedValues, PARAMETERS_DOC, parameterRows, renderParametersDoc } from '../../../scripts/parameters-doc.js';
import { MODES } from '../../../server/retrieval/params.js';

test('the committed docs/parameters.md equals the generator output (run `npm run docs:parameters`)', () => {
  expect(fs.readFileSync(PARAMETERS_DOC, 'utf8')).toBe(renderParametersDoc());
});

test('every parameter of every mode is on the page, with that mode listed and its default', () => {
  const rows = parameterRows();
  for (const [mode, { params }] of Object.entries(MODES)) {
    for (const [name, spec] of Object.entries(params)) {
      const row = rows.find((r) => r.name === name && r.modes.includes(mode as keyof typeof MODES));
      expect({ mode, name, default: row?.spec.default }).toEqual({ mode, name, default: spec.default });
    }
  }
});

test('a parameter two modes define differently gets a row per definition', () => {
  const graphWeight = parameterRows().filter((r) => r.name === 'graphWeight');
  expect(graphWeight.map((r) => [r.modes, r.spec.default])).toEqual([
    [['gated'], 0.4],
    [['ppr'], 0.5],
  ]);
});

test('ranges are read from the schemas', () => {
  expect(allowedValues(z.number().int().min(1).max(5))).toBe('integer, 1 to 5');
  expect(allowedValues(z.number().finite().min(0).max(0.99))).toBe('0 to 0.99');
  expect(allowedValues(z.enum(['gds', 'push']))).toBe('gds, push');
  expect(allowedValues(z.boolean())).toBe('true, false');
});
