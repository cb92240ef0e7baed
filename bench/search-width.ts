/**
 * How wide a vector index search must look (the `searchWidth` parameter): the dev questions' passage search by
 * the approximate index at several widths, each cut to its top 5, against the exact search (every passage's cosine),
 * on a dataset's eval database (or NEO4J_URI's). Prints, per width, Recall@5 of the gold documents, the share of the
 * exact top 5 it finds, and the index call's p50 ms.
 *
 *   npx tsx bench/search-width.ts --dataset bench/data/2wikimultihopqa [--widths 10,50,100,200]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { embedQuestion } from '../server/retrieval/service.js';
import { openDevSet } from './database.js';
import { percentile, scoreRanking } from './lib/metrics.js';

const { values } = parseArgs({
  options: { dataset: { type: 'string' }, widths: { type: 'string', default: '10,50,100,200' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help || !values.dataset) {
  console.log('usage: npx tsx bench/search-width.ts --dataset bench/data/<set> [--widths 10,50,100,200]');
  process.exit(values.help ? 0 : 1);
}
const widths = values.widths.split(',').map(Number);
const { dir, embedder, db, store, questions } = await openDevSet(values.dataset);

const EXACT = `MATCH (p:Passage) WHERE p.embedding IS NOT NULL
  WITH p, vector.similarity.cosine(p.embedding, $q) AS c ORDER BY c DESC, p.id LIMIT 5
  RETURN p.id AS id, coalesce(p.documentId, p.id) AS doc`;
const INDEX = `CALL db.index.vector.queryNodes('passage_embedding', $k, $q) YIELD node, score
  WITH node, score ORDER BY score DESC, node.id LIMIT 5
  RETURN node.id AS id, coalesce(node.documentId, node.id) AS doc`;

type Row = { recall: number; exactFound: number; ms: number[] };
const rows = new Map<string, Row>([
  ['exact', { recall: 0, exactFound: 0, ms: [] }],
  ...widths.map((w) => [`index, ${w} wide`, { recall: 0, exactFound: 0, ms: [] }] as [string, Row]),
]);
for (const q of questions) {
  const { embedding } = await embedQuestion(embedder, { question: q.question });
  const timed = async (text: string, params: Record<string, unknown>) => {
    const t0 = performance.now();
    const records = (await store.read(text, { q: embedding, ...params })).records;
    return { ms: performance.now() - t0, ids: records.map((r) => r.get('id') as string), docs: records.map((r) => r.get('doc') as string) };
  };
  const exact = await timed(EXACT, {});
  const add = (name: string, r: { ms: number; ids: string[]; docs: string[] }) => {
    const row = rows.get(name) as Row;
    row.recall += scoreRanking(r.docs, q.supporting_ids).recall_at_5;
    row.exactFound += r.ids.filter((id) => exact.ids.includes(id)).length / Math.max(1, exact.ids.length);
    row.ms.push(r.ms);
  };
  add('exact', exact);
  for (const w of widths) add(`index, ${w} wide`, await timed(INDEX, { k: neo4j.int(w) }));
}
const n = questions.length;
console.log(`${path.basename(dir)}: ${n} dev questions, the passage search cut to its top 5`);
console.log('| search | Recall@5 | exact top 5 found | p50 ms |\n|---|---|---|---|');
for (const [name, r] of rows) console.log(`| ${name} | ${(r.recall / n).toFixed(3)} | ${(r.exactFound / n).toFixed(3)} | ${percentile(r.ms, 50).toFixed(1)} |`);
await embedder.close?.();
db.stop();
process.exit(0);
