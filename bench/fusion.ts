/**
 * Which fusion of hybrid's two lists ranks the gold passages best? Each dev question's dense list (the passage vector
 * index, 100 wide) and full-text list (the `passage_text` index: BM25 over title and text, the question as hybrid mode
 * sends it, and again without its stop and question words) are read once, then fused offline by several functions,
 * each cut to its top 5 (documents counted once, as the eval does). Prints Recall@5 per function and the questions it
 * wins and loses against the dense list alone. On a dataset's eval database (or NEO4J_URI's).
 *
 *   npx tsx bench/fusion.ts --dataset bench/data/musique [--k 50]
 *
 * The functions: rrf (hybrid mode's: sum of 1 / (rrfK + rank), rrfK 60 and 20); cc (a convex combination of the two
 * lists' min-max normalised scores, dense weight 0.5 or 0.7); tmm (the same with each score divided by its list's
 * maximum, from 0: Bruch et al. 2023's theoretical min-max); max (neo4j-graphrag's HybridRetriever: each list divided
 * by its maximum, a passage keeps the larger).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { embedQuestion } from '../server/retrieval/service.js';
import { openDevSet } from './database.js';
import { scoreRanking } from './lib/metrics.js';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, k: { type: 'string', default: '50' }, help: { type: 'boolean', short: 'h' } } });
if (values.help || !values.dataset) {
  console.log('usage: npx tsx bench/fusion.ts --dataset bench/data/<set> [--k 50]   (k: passages taken from each list, as hybridK)');
  process.exit(values.help ? 0 : 1);
}
const K = Number(values.k);
/** NLTK's English stop words (which holds the question words), as lowercased words without apostrophes. */
const STOP = new Set(
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn'.split(
    ' ',
  ),
);
type Hit = { doc: string; score: number };

const { dir, embedder, db, store, questions } = await openDevSet(values.dataset);

const read = async (text: string, params: Record<string, unknown>): Promise<Hit[]> =>
  (await store.read(text, params)).records.map((r) => ({ doc: r.get('doc') as string, score: r.get('score') as number }));
const DENSE = `CALL db.index.vector.queryNodes('passage_embedding', 100, $q) YIELD node, score
  RETURN coalesce(node.documentId, node.id) AS doc, 2 * score - 1 AS score ORDER BY score DESC LIMIT $k`;
const FULLTEXT = `CALL db.index.fulltext.queryNodes('passage_text', $q, {limit: $k}) YIELD node, score
  RETURN coalesce(node.documentId, node.id) AS doc, score`;

const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).map((e) => e[0]);
const rrf = (c: number) => (a: Hit[], b: Hit[]) => {
  const m = new Map<string, number>();
  for (const l of [a, b]) {
    l.forEach((h, r) => {
      m.set(h.doc, (m.get(h.doc) ?? 0) + 1 / (c + r + 1));
    });
  }
  return sorted(m);
};
const weighted = (alpha: number, norm: (l: Hit[]) => (s: number) => number) => (a: Hit[], b: Hit[]) => {
  const m = new Map<string, number>();
  for (const [l, w] of [
    [a, alpha],
    [b, 1 - alpha],
  ] as [Hit[], number][]) {
    const f = norm(l);
    for (const h of l) m.set(h.doc, (m.get(h.doc) ?? 0) + w * f(h.score));
  }
  return sorted(m);
};
const minMax = (l: Hit[]) => {
  const hi = l[0]?.score ?? 1;
  const lo = l[l.length - 1]?.score ?? 0;
  return (s: number) => (hi > lo ? (s - lo) / (hi - lo) : 1);
};
const fromZero = (l: Hit[]) => (s: number) => Math.max(0, s) / Math.max(1e-9, l[0]?.score ?? 1);
const max = (a: Hit[], b: Hit[]) => {
  const m = new Map<string, number>();
  for (const l of [a, b]) for (const h of l) m.set(h.doc, Math.max(m.get(h.doc) ?? 0, h.score / Math.max(1e-9, l[0].score)));
  return sorted(m);
};
const FUSIONS: Record<string, (dense: Hit[], text: Hit[]) => string[]> = {
  'rrf, rrfK 60 (hybrid mode)': rrf(60),
  'rrf, rrfK 20': rrf(20),
  'cc 0.5': weighted(0.5, minMax),
  'cc 0.7': weighted(0.7, minMax),
  'tmm 0.5': weighted(0.5, fromZero),
  'tmm 0.7': weighted(0.7, fromZero),
  max,
};

const rows = new Map<string, { recall: number; won: number; lost: number }>();
const add = (name: string, recall: number, dense: number) => {
  const r = rows.get(name) ?? { recall: 0, won: 0, lost: 0 };
  r.recall += recall;
  if (recall > dense) r.won++;
  if (recall < dense) r.lost++;
  rows.set(name, r);
};
for (const q of questions) {
  const { embedding } = await embedQuestion(embedder, { question: q.question });
  const words = q.question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  const content = words
    .split(' ')
    .filter((w) => !STOP.has(w))
    .join(' ');
  const dense = await read(DENSE, { q: embedding, k: neo4j.int(K) });
  const text = words ? await read(FULLTEXT, { q: words, k: neo4j.int(K) }) : [];
  const contentText = content ? await read(FULLTEXT, { q: content, k: neo4j.int(K) }) : [];
  const recall = (docs: string[]) => scoreRanking(docs, q.supporting_ids).recall_at_5;
  const base = recall(dense.map((h) => h.doc));
  add('dense alone', base, base);
  add('full-text alone', recall(text.map((h) => h.doc)), base);
  add('full-text alone, without stop words', recall(contentText.map((h) => h.doc)), base);
  for (const [name, f] of Object.entries(FUSIONS)) {
    add(name, recall(f(dense, text)), base);
    add(`${name}, without stop words`, recall(f(dense, contentText)), base);
  }
}
console.log(`${path.basename(dir)}: ${questions.length} dev questions, ${K} passages from each list; won / lost against dense alone`);
console.log('| ranking | Recall@5 | won / lost |\n|---|---|---|');
for (const [name, r] of rows) console.log(`| ${name} | ${(r.recall / questions.length).toFixed(3)} | ${r.won} / ${r.lost} |`);
await embedder.close?.();
db.stop();
process.exit(0);
