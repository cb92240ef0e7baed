// For each dev question: gated result's top non-seed entities -> BM25 query (question + their names) -> rank of each gold in that list vs plain BM25.
import fs from 'node:fs';
import neo4j from 'neo4j-driver';
const [set, port, bolt, K = '3'] = process.argv.slice(2);
const Q = fs.readFileSync(`bench/data/${set}/dev.jsonl`, 'utf8').trim().split('\n').map(JSON.parse);
const d = neo4j.driver(bolt, neo4j.auth.basic('neo4j', 'graph-recall-eval'));
const s = d.session();
const esc = (t) => t.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().toLowerCase();
async function bm25(q) {
  const r = await s.run("CALL db.index.fulltext.queryNodes('passage_text', $q, {limit: 100}) YIELD node RETURN node.id AS id", { q });
  return r.records.map((x) => x.get('id'));
}
const R = JSON.parse(fs.readFileSync(process.env.RES, "utf8")); const missed = new Set(R.questions.flatMap((q) => q.supporting_ids.filter((g) => !q.modes.gated.passages.slice(0, 5).includes(g)))); let tot = { plain5: 0, exp5: 0, plain20: 0, exp20: 0, n: 0, mp5: 0, me5: 0, mp20: 0, me20: 0, m: 0 };
for (const q of Q) {
  const res = await (await fetch(`http://localhost:${port}/v1/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: q.question, mode: 'gated', params: { entityK: 60 } }) })).json();
  const seedNames = new Set(res.seeds.filter((x) => x.activation >= 0.999).map((x) => x.name));
  const hop = res.entities.filter((e) => !seedNames.has(e.name) && !/^\d/.test(e.name)).slice(0, +K).map((e) => e.name);
  const plain = await bm25(esc(q.question));
  const exp = await bm25(esc(q.question + ' ' + hop.join(' ')));
  const rk = (l, g) => { const i = l.indexOf(g); return i < 0 ? 999 : i + 1; };
  const line = q.supporting_ids.map((g) => `${rk(plain, g)}->${rk(exp, g)}`).join(' ');
  for (const g of q.supporting_ids) { if (missed.has(g)) { tot.m++; if (rk(plain, g) <= 5) tot.mp5++; if (rk(exp, g) <= 5) tot.me5++; if (rk(plain, g) <= 20) tot.mp20++; if (rk(exp, g) <= 20) tot.me20++; } tot.n++; if (rk(plain, g) <= 5) tot.plain5++; if (rk(exp, g) <= 5) tot.exp5++; if (rk(plain, g) <= 20) tot.plain20++; if (rk(exp, g) <= 20) tot.exp20++; }
  console.log(line.padEnd(30), '|', hop.join(', ').slice(0, 70), '|', q.question.slice(0, 60));
}
console.log(tot);
await s.close(); await d.close();
