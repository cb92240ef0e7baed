import fs from 'node:fs';
import neo4j from 'neo4j-driver';
import { defaultParams, INTEGER_PARAMS } from '../server/retrieval/params.js';
const driver = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic('neo4j', process.env.NEO4J_PASSWORD!));
const emb = Array.from({ length: 384 }, (_, i) => Math.sin(i));
const g = fs.readFileSync('cypher/retrieve_gated.cypher', 'utf8');
const steps = [...g.matchAll(/^\/\/ step \d+:/gm)].map((m) => m.index!);
const endAt = g.indexOf('// The trace (explain): per step');
const pre = g.slice(0, steps[0]);
const stepText = (k: number) => g.slice(steps[k - 1], k < steps.length ? steps[k] : endAt);
const post = g.slice(endAt);
const gatedN = (n: number, map = (s: string) => s) => pre + Array.from({ length: n }, (_, i) => map(stepText(i + 1))).join('') + post;
const texts: Record<string, [string, string]> = {
  seeds: ['gated', g.slice(0, g.indexOf('// ---- 2.')) + 'RETURN size(seeds) AS n'],
  gated0: ['gated', gatedN(0)],
  gated1: ['gated', gatedN(1)],
  gated3: ['gated', gatedN(3)],
  gated5: ['gated', g],
  vector: ['vector', fs.readFileSync('cypher/retrieve_vector.cypher', 'utf8')],
  ppr: ['ppr', fs.readFileSync('cypher/retrieve_ppr.cypher', 'utf8')],
};
const only = process.env.ONLY?.split(',');
const extra = process.env.EXTRA; // file with a statement to time as "extra"
if (extra) texts.extra = [process.env.EXTRA_MODE ?? 'gated', fs.readFileSync(extra, 'utf8')];
const rounds = Number(process.env.ROUNDS ?? 3);
const res: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, [mode, text]] of Object.entries(texts)) {
    if (only && !only.includes(name)) continue;
    const p: any = { ...defaultParams(mode as any), question: 'x', questionEmbedding: emb };
    for (const k of Object.keys(p)) if (INTEGER_PARAMS.has(k)) p[k] = neo4j.int(p[k]);
    const s = driver.session();
    await s.run('CALL db.clearQueryCaches()');
    const t0 = performance.now();
    await s.run('EXPLAIN ' + text, p);
    (res[name] ??= []).push(Math.round(performance.now() - t0));
    await s.close();
  }
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(8), 'plan ms', v.join(' / '), ' median', [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]);
await driver.close();
