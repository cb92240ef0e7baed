/**
 * A two-layer seed's questions (bench/lib/twolayer-generate.ts) through the Retriever on the graph bench:twolayer built,
 * at each setting; Recall@5 per setting. Checks first that the graph holds that seed's literature.
 *
 *   NEO4J_URI=... npx tsx bench/reports/devsets/text-keep-agreed-2026-12-05/twolayer-loop.ts <seed> ['[["name","gated",{...}], ...]']
 */
import path from 'node:path';
import { loadConfig } from '../../../../server/config.js';
import { GraphStore } from '../../../../server/db/store.js';
import { createEmbedder } from '../../../../server/embedders/index.js';
import { walkedTypes } from '../../../../server/ingest/index.js';
import { Retriever } from '../../../../server/retrieval/retriever.js';
import { embedQuestion } from '../../../../server/retrieval/service.js';
import { ensureProjection } from '../../../../server/db/projection.js';
import { scoreRanking } from '../../../lib/metrics.js';
import { generateTwoLayer, readSample } from '../../../lib/twolayer-generate.js';
const seed = Number(process.argv[2] ?? 1);
const cfg = loadConfig();
const embedder = await createEmbedder(cfg);
const store = GraphStore.connect(cfg.neo4j);
const ds = generateTwoLayer(readSample(path.resolve('bench/data/hetionet')), { seed, perTemplate: 20, share: 0.5 });
const d0 = ds.documents[0] as { id: string; text: string };
const chk = await store.read('MATCH (d:Document {id: $id}) RETURN count(d) AS n', { id: d0.id });
const chk2 = await store.read('MATCH (p:Passage) WHERE p.text = $t RETURN count(p) AS n', { t: d0.text });
console.log(
  'seed',
  seed,
  'questions',
  ds.questions.length,
  'doc present',
  chk.records[0].get('n').toString(),
  'text present',
  chk2.records[0].get('n').toString(),
);
const types = await walkedTypes(store, cfg.traverseTypes);
await ensureProjection(store.driver, { graphName: cfg.pprGraphName, database: store.database, extraTypes: types });
const retriever = new Retriever(store, { timeoutMs: 120000, allowedRelTypes: types, pprGraphName: cfg.pprGraphName, cosineFloor: embedder.cosineFloor });
// [name, mode, params] triples as JSON, or these.
const variants: [string, string, Record<string, unknown>][] = process.argv[3]
  ? JSON.parse(process.argv[3])
  : [
      ['gated-t0', 'gated', { textKeep: 0 }],
      ['gated-t1', 'gated', { textKeep: 1, textKeepAgreed: false }],
      ['gated-t1a', 'gated', { textKeep: 1, textKeepAgreed: true }],
      ['ppr-t0', 'ppr', { textKeep: 0 }],
      ['ppr-t1', 'ppr', { textKeep: 1, textKeepAgreed: false }],
      ['ppr-t1a', 'ppr', { textKeep: 1, textKeepAgreed: true }],
    ];
const sums: Record<string, number> = {};
for (const q of ds.questions) {
  const { embedding } = await embedQuestion(embedder, { question: q.question });
  for (const [name, mode, params] of variants) {
    const r = await retriever.retrieve({ mode: mode as 'gated', question: q.question, questionEmbedding: embedding, params });
    const ids = r.passages.map((p) => p.documentId ?? p.id);
    sums[name] = (sums[name] ?? 0) + scoreRanking(ids, q.supporting_ids).recall_at_5;
  }
}
for (const [name] of variants) console.log(name, (sums[name] / ds.questions.length).toFixed(3));
await store.driver.close();
await embedder.close?.();
