import fs from 'node:fs';
import path from 'node:path';
import { CYPHER_DIR, cypherLiteral, paramBlock, renderAll } from '../../server/retrieval/render.js';
import { GATED_PARAMS, paramsSchema } from '../../server/retrieval/params.js';

test('committed cypher/ files equal the renderer output (run `npm run cypher:render`)', () => {
  for (const [name, text] of Object.entries(renderAll())) {
    expect({ name, text: fs.readFileSync(path.join(CYPHER_DIR, name), 'utf8') }).toEqual({ name, text });
  }
});

test('the gated file unrolls five guarded steps and documents every parameter', () => {
  const gated = renderAll()['retrieve_gated.cypher'];
  for (let k = 1; k <= 5; k++) expect(gated).toContain(`WHERE $steps >= ${k} AND srcAct > $threshold`);
  expect(gated).not.toContain('$steps >= 6');
  for (const name of Object.keys(GATED_PARAMS)) {
    expect(gated).toMatch(new RegExp(`^//   ${name} `, 'm'));
    expect(gated).toMatch(new RegExp(`^// :param ${name} => `, 'm'));
  }
});

test('param blocks are valid Cypher literals, with quotes escaped', () => {
  expect(cypherLiteral("it's")).toBe("'it\\'s'");
  expect(cypherLiteral([1, 0.5, true, null])).toBe('[1, 0.5, true, null]');
  expect(paramBlock({ a: 'x', b: [1] })).toBe(":param a => 'x';\n:param b => [1];");
});

test('params schema rejects unknown keys and out-of-range values', () => {
  const s = paramsSchema('gated');
  expect(s.safeParse({ steps: 3 }).success).toBe(true);
  expect(s.safeParse({ steps: 6 }).success).toBe(false);
  expect(s.safeParse({ stepz: 3 }).success).toBe(false);
  expect(paramsSchema('vector').safeParse({ steps: 3 }).success).toBe(false);
});
