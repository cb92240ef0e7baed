// Subject: cypher/*.cypher as rendered from cypher/partials (scripts/render-cypher.ts).
import fs from 'node:fs';
import path from 'node:path';
import { driftReport, renderAll, renderAllLines } from '../../../scripts/render-cypher.js';
import { CYPHER_DIR, cypherLiteral, paramBlock } from '../../../server/db/cypher.js';
import { defaultParams, GATED_PARAMS, paramsSchema, STATEMENTS, statementFile } from '../../../server/retrieval/params.js';

test('committed cypher/ files equal the renderer output (run `npm run cypher:render`)', () => {
  // The drift report names each differing line, its committed and rendered text, and the partial to edit.
  const drift = Object.entries(renderAllLines()).map(([name, lines]) => driftReport(name, fs.readFileSync(path.join(CYPHER_DIR, name), 'utf8'), lines));
  expect(drift.filter(Boolean).join('\n\n')).toBe('');
});

test('the drift report shows a DBA the line they changed and the partial it comes from', () => {
  const lines = renderAllLines()['retrieve_gated.cypher'];
  const at = lines.findIndex((l) => l.text.includes('LIMIT $seedK'));
  const edited = lines.map((l, i) => (i === at ? l.text.replace('LIMIT $seedK', 'LIMIT 7') : l.text)).join('\n');
  const report = driftReport('retrieve_gated.cypher', `${edited}\n`, lines)!;
  expect(report).toContain(`differs from its partials at line ${at + 1}`);
  expect(report).toContain(`committed ${at + 1}: ${lines[at].text.replace('LIMIT $seedK', 'LIMIT 7')}`);
  expect(report).toMatch(new RegExp(`rendered  ${at + 1}: .*LIMIT \\$seedK.*<- cypher/partials/seeds\\.cypher:\\d+`));
  expect(driftReport('retrieve_gated.cypher', `${lines.map((l) => l.text).join('\n')}\n`, lines)).toBeNull();
});

test('every rendered line is at most 160 characters, and each ppr engine has a file of its own', () => {
  const files = renderAll();
  expect(Object.keys(files).sort()).toEqual(['ppr_projection.cypher', ...STATEMENTS.map((s) => s.file)].sort());
  for (const [name, text] of Object.entries(files)) {
    for (const line of text.split('\n')) expect({ name, length: line.length }).toEqual({ name, length: Math.min(line.length, 160) });
  }
  expect(files['retrieve_ppr.cypher']).not.toMatch(/gds\.(pageRank|graph|util)/);
  expect(files['retrieve_ppr_gds.cypher']).not.toContain('$pushRounds');
  for (const text of Object.values(files)) expect(text).not.toContain('$engine');
});

test('each file sets in its :param block exactly the parameters its statement reads', () => {
  const files = renderAll();
  for (const { file } of STATEMENTS) {
    const text = files[file];
    const set = new Set([...text.matchAll(/^\/\/ :param (\w+) => /gm)].map((m) => m[1]));
    const body = text
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n');
    const read = new Set([...body.matchAll(/\$(\w+)/g)].map((m) => m[1]));
    expect({ file, set: [...set].sort() }).toEqual({ file, set: [...read].sort() });
  }
});

test.each([
  ['retrieve_gated.cypher', 3],
  ['retrieve_gated_deep.cypher', 5],
])('%s unrolls %i guarded steps, the later ones under a banner, and documents every parameter', (file, n) => {
  const gated = renderAll()[file];
  for (let k = 1; k <= n; k++) expect(gated).toContain(`WHERE $steps >= ${k} AND srcAct > $threshold`);
  for (let k = 2; k <= n; k++) expect(gated).toContain(`// step ${k} of ${n}: step 1's block (comments left out), run when $steps >= ${k}.`);
  expect(gated).not.toContain(`$steps >= ${n + 1}`);
  for (const name of Object.keys(GATED_PARAMS)) expect(gated).toMatch(new RegExp(`^// :param ${name} +=> .* /\\* [^;]+ \\*/;$`, 'm'));
  // Step 1 without its comments and the later steps are the same code but for the step number.
  const blocks = gated.split(new RegExp(`^// step \\d of ${n}.*$`, 'm')).slice(1, n);
  const code = (b: string, k: number) =>
    b
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n')
      .replaceAll(`$steps >= ${k}`, '$steps >= K')
      .replaceAll(`{step: ${k},`, '{step: K,');
  for (let k = 2; k < n; k++) expect(code(blocks[k - 1], k)).toBe(code(blocks[0], 1));
  // Only the default file refuses a $steps it does not unroll (a DBA running it with :param steps => 5).
  expect(gated.includes('CALL apoc.util.validate($steps > 3')).toBe(n === 3);
});

test('the server runs the default gated file up to its unrolled steps, the deep one above them', () => {
  expect(statementFile('gated', defaultParams('gated'))).toBe('retrieve_gated.cypher');
  expect(statementFile('gated', { ...defaultParams('gated'), steps: 3 })).toBe('retrieve_gated.cypher');
  expect(statementFile('gated', { ...defaultParams('gated'), steps: 4 })).toBe('retrieve_gated_deep.cypher');
  expect(statementFile('gated', { ...defaultParams('gated'), steps: 5 })).toBe('retrieve_gated_deep.cypher');
});

test('the server picks the ppr file by engine, push by default', () => {
  expect(statementFile('ppr', defaultParams('ppr'))).toBe('retrieve_ppr.cypher');
  expect(statementFile('ppr', { ...defaultParams('ppr'), engine: 'gds' })).toBe('retrieve_ppr_gds.cypher');
  expect(statementFile('gated', { engine: 'gds' })).toBe('retrieve_gated.cypher');
});

test('rendering is deterministic', () => {
  expect(renderAll()).toEqual(renderAll());
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
