import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../../server/config.js';
import { bulkEmbedWorkers } from '../../../../server/cli/common.js';
import { createEmbedder } from '../../../../server/embedders/index.js';
import { Retriever } from '../../../../server/retrieval/retriever.js';
import { embedQuestion } from '../../../../server/retrieval/service.js';
import { scoreRanking } from '../../../lib/metrics.js';
import { openCorpus } from '../../../database.js';
const set = process.argv[2];
const dataset = path.resolve(`bench/data/${set}`);
const cfg = loadConfig(undefined, bulkEmbedWorkers());
const embedder = await createEmbedder(cfg);
const { db, store } = await openCorpus(cfg, embedder, dataset, path.join(dataset, 'corpus.jsonl'));
const retriever = new Retriever(store, {
  timeoutMs: 60000,
  allowedRelTypes: cfg.traverseTypes,
  pprGraphName: cfg.pprGraphName,
  cosineFloor: embedder.cosineFloor,
});
const qs = fs
  .readFileSync(path.join(dataset, 'dev.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const f = embedder.cosineFloor ?? 0;
const cal = (s: number) => (2 * s - 1 - f) / (1 - f);
for (const q of qs) {
  const { embedding } = await embedQuestion(embedder, { question: q.question });
  const rec: number[] = [];
  for (const params of [{}, { textKeep: 1 }]) {
    const r = await retriever.retrieve({ mode: 'gated', question: q.question, questionEmbedding: embedding, params });
    rec.push(
      scoreRanking(
        r.passages.map((p) => p.documentId ?? p.id),
        q.supporting_ids.map(String),
      ).recall_at_5,
    );
  }
  const top = await store.read("CALL db.index.vector.queryNodes('passage_embedding', 50, $e) YIELD node, score RETURN score ORDER BY score DESC LIMIT 2", {
    e: embedding,
  });
  console.log(
    `${(rec[1] - rec[0]).toFixed(2)} ${cal(top.records[0].get('score')).toFixed(3)} ${(cal(top.records[0].get('score')) - cal(top.records[1].get('score'))).toFixed(3)}`,
  );
}
await store.driver.close();
db.stop();
await embedder.close?.();
process.exit(0);
