/**
 * Smoke check of bench/peers against a database that already holds a corpus:
 * embeds the first N questions of a dev.jsonl with the local embedder (as the eval does),
 * runs the peers, prints their top ids and ms, and checks that the neo4j-graphrag vector
 * peer returns exactly what `db.index.vector.queryNodes('passage_embedding', k, $emb)` does.
 *
 *   NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_PASSWORD=... npx tsx bench/peers/try.ts [dev.jsonl] [N]
 */
import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { ROOT } from '../../server/config.js';
import { createLocalEmbedder } from '../../server/embedders/local.js';
import { PEER_NAMES, runPeers } from './index.js';

const file = process.argv[2] ?? path.join(ROOT, 'bench', 'data', 'hotpotqa', 'dev.jsonl');
const n = Number(process.argv[3] ?? 5);
const k = 10;
const uri = process.env.NEO4J_URI ?? 'bolt://127.0.0.1:7687';
const user = process.env.NEO4J_USER ?? 'neo4j';
const password = process.env.NEO4J_PASSWORD ?? 'graph-recall-dev';
const database = process.env.NEO4J_DATABASE ?? 'neo4j';

const rows = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .slice(0, n)
  .map((l) => JSON.parse(l) as { id: string; question: string });

const embedder = await createLocalEmbedder({ workers: 0 });
const vectors = await embedder.embed(
  rows.map((r) => r.question),
  'query',
);
await embedder.close?.();
const questions = rows.map((r, i) => ({ id: r.id, question: r.question, embedding: vectors[i] }));

const t0 = Date.now();
const out = await runPeers({ uri, user, password, database, k, questions });
console.log(`runPeers: ${Date.now() - t0} ms; versions ${JSON.stringify(out.versions)}`);

for (const peer of PEER_NAMES) {
  const hits = out.results[peer] ?? [];
  const ms = hits.map((h) => h.ms);
  const mean = ms.reduce((a, b) => a + b, 0) / Math.max(ms.length, 1);
  console.log(`\n${peer}: mean ${mean.toFixed(1)} ms (${ms.map((m) => m.toFixed(1)).join(', ')})`);
  for (const h of hits) console.log(`  ${h.id}  ${h.passages.slice(0, 5).join(' ')}${h.passages.length > 5 ? ' ...' : ''} (${h.passages.length})`);
}

const driver = neo4j.driver(uri, neo4j.auth.basic(user, password));
let mismatches = 0;
try {
  const peerVector = new Map((out.results['neo4j-graphrag:vector'] ?? []).map((h) => [h.id, h.passages]));
  for (const q of questions) {
    const res = await driver.executeQuery(
      "CALL db.index.vector.queryNodes('passage_embedding', $k, $emb) YIELD node RETURN node.id AS id",
      { k: neo4j.int(k), emb: q.embedding },
      { database, routing: neo4j.routing.READ },
    );
    const direct = res.records.map((r) => r.get('id') as string);
    const peer = peerVector.get(q.id) ?? [];
    const same = direct.length === peer.length && direct.every((id, i) => id === peer[i]);
    if (!same) mismatches++;
    console.log(
      `${same ? 'match   ' : 'MISMATCH'} ${q.id}: vector peer = db.index.vector.queryNodes top ${direct.length}${same ? '' : `\n  direct ${direct.join(' ')}\n  peer   ${peer.join(' ')}`}`,
    );
  }
} finally {
  await driver.close();
}
if (mismatches) {
  console.error(`${mismatches} of ${questions.length} questions differ`);
  process.exit(1);
}
