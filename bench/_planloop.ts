import fs from 'node:fs';
import neo4j from 'neo4j-driver';
import { defaultParams, INTEGER_PARAMS } from '../server/retrieval/params.js';
const driver = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic('neo4j', process.env.NEO4J_PASSWORD!));
const emb = Array.from({ length: 384 }, (_, i) => Math.sin(i));
const mode = process.env.MODE ?? 'gated';
const text = fs.readFileSync(`cypher/retrieve_${mode}.cypher`, 'utf8');
const end = Date.now() + Number(process.env.SECONDS ?? 25) * 1000;
let n = 0;
while (Date.now() < end) {
  const p: any = { ...defaultParams(mode as any), question: 'x', questionEmbedding: emb };
  for (const k of Object.keys(p)) if (INTEGER_PARAMS.has(k)) p[k] = neo4j.int(p[k]);
  const s = driver.session();
  await s.run('CALL db.clearQueryCaches()');
  await s.run('EXPLAIN ' + text, p);
  await s.close();
  n++;
}
console.log('plans', n);
await driver.close();
