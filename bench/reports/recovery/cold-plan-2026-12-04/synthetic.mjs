// Planning time of synthetic statements (EXPLAIN after db.clearQueryCaches(), median of 5, warm JVM):
// what makes a Cypher statement slow to plan. NEO4J_URI, NEO4J_PASSWORD name the database.
//   node bench/reports/recovery/cold-plan-2026-12-04/synthetic.mjs
import neo4j from 'neo4j-driver';
const d = neo4j.driver(process.env.NEO4J_URI ?? 'bolt://127.0.0.1:7687', neo4j.auth.basic('neo4j', process.env.NEO4J_PASSWORD ?? ''));
const s = d.session();
async function time(q, rep = 5) {
  const ms = [];
  for (let i = 0; i < rep; i++) { await s.run('CALL db.clearQueryCaches()'); const t0 = performance.now(); await s.run('EXPLAIN ' + q, { x: 1 }); ms.push(performance.now() - t0); }
  return Math.round(ms.sort((a, b) => a - b)[Math.floor(rep / 2)]);
}
const mk = (clauses, exprPer) => `WITH $x AS a\n` + Array.from({ length: clauses }, (_, i) => `WITH a, ` + Array.from({ length: exprPer }, (_, j) => `[z IN range(0, a + ${i}) | z * 2 + ${j}] AS l${j}`).join(', ')).join('\n') + '\nRETURN a';
const mkTrivial = (clauses) => `WITH $x AS a\n` + Array.from({ length: clauses }, (_, i) => `WITH a + 1 AS a`).join('\n') + '\nRETURN a';
const mkCalls = (calls) => `WITH $x AS a\n` + Array.from({ length: calls }, (_, i) => `CALL (a) { RETURN a + ${i} AS b${i} }`).join('\n') + '\nRETURN a';
const mkOneWith = (exprs) => `WITH $x AS a\nWITH a, ` + Array.from({ length: exprs }, (_, j) => `[z IN range(0, a) | z * 2 + ${j}] AS l${j}`).join(', ') + '\nRETURN a';
const mkVars = (clauses, vars) => `WITH $x AS a\nWITH a, ` + Array.from({ length: vars }, (_, j) => `a + ${j} AS v${j}`).join(', ') + '\n' + Array.from({ length: clauses }, (_, i) => `WITH *, a + ${i} AS w${i}`).join('\n') + '\nRETURN a';
await time(mk(60, 1), 3);
for (const [n, q] of [['60x1', mk(60, 1)], ['20x3', mk(20, 3)], ['60 trivial', mkTrivial(60)], ['180 trivial', mkTrivial(180)], ['60 calls', mkCalls(60)], ['one WITH 60 expr', mkOneWith(60)], ['60 WITH* 5 vars', mkVars(60, 5)], ['60 WITH* 30 vars', mkVars(60, 30)]])
  console.log(n, await time(q));
await s.close(); await d.close();
