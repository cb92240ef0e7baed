/**
 * An embedder's cosine scale and cost on a dev set, without a database:
 *   - the mean cosine of every dev question (embedded as a 'query') to every passage ('document'),
 *     the figure Embedder.cosineFloor is set from, and the mean cosine of each question to its gold passages;
 *   - a question's embedding time, one at a time (p50 / p90), and passages per second, the first
 *     --passages passages in one call (the ingest's shape: `title\ntext`), each also as CPU time
 *     per question / passage (process-wide, worker threads included: steadier on a shared machine).
 *
 *   EMBEDDER=bge npx tsx bench/embedder-cost.ts --dataset bench/data/musique [--passages 256] [--all]
 *
 * --all embeds the whole corpus for the mean cosine (otherwise the first --passages passages).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.js';
import { createEmbedder } from '../server/embedders/index.js';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, passages: { type: 'string', default: '256' }, all: { type: 'boolean' } } });
if (!values.dataset) {
  console.error('usage: EMBEDDER=<name> npx tsx bench/embedder-cost.ts --dataset <folder> [--passages 256] [--all]');
  process.exit(2);
}
const dir = path.resolve(values.dataset);
const read = (f: string) =>
  fs
    .readFileSync(path.join(dir, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const corpus = read('corpus.jsonl') as { id: string; title: string; text: string }[];
const questions = read('dev.jsonl') as { question: string; supporting_ids: string[] }[];
const cfg = loadConfig();
const embedder = await createEmbedder(cfg);
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

await embedder.embed([questions[0]!.question], 'query'); // warm-up: model load
const qv: number[][] = [];
const qms: number[] = [];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let c = cpu();
for (const q of questions) {
  const t = performance.now();
  qv.push((await embedder.embed([q.question], 'query'))[0]!);
  qms.push(performance.now() - t);
}
const questionCpuMs = (cpu() - c) / questions.length;
const n = Math.min(Number(values.passages), corpus.length);
const texts = corpus.map((p) => `${p.title}\n${p.text}`);
const t = performance.now();
c = cpu();
const head = await embedder.embed(texts.slice(0, n), 'document');
const passageSeconds = (performance.now() - t) / 1000;
const passageCpuMs = (cpu() - c) / n;
const pv = values.all ? [...head, ...(await embedder.embed(texts.slice(n), 'document'))] : head;
const index = new Map(corpus.slice(0, pv.length).map((p, i) => [p.id, i]));
let sum = 0;
let count = 0;
let gold = 0;
let goldCount = 0;
qv.forEach((q, i) => {
  for (const p of pv) {
    sum += dot(q, p);
    count++;
  }
  for (const id of questions[i]!.supporting_ids) {
    const k = index.get(id);
    if (k !== undefined) {
      gold += dot(q, pv[k]!);
      goldCount++;
    }
  }
});
qms.sort((a, b) => a - b);
const pct = (p: number) => qms[Math.min(qms.length - 1, Math.floor(p * qms.length))]!.toFixed(1);
console.log(
  JSON.stringify({
    embedder: embedder.id,
    dataset: path.basename(dir),
    questions: questions.length,
    passagesForCosine: pv.length,
    meanQuestionPassageCosine: +(sum / count).toFixed(4),
    meanQuestionGoldCosine: goldCount ? +(gold / goldCount).toFixed(4) : null,
    goldPairs: goldCount,
    questionMsP50: +pct(0.5),
    questionMsP90: +pct(0.9),
    passages: n,
    passagesPerSecond: +(n / passageSeconds).toFixed(2),
    // CPU time of the whole process (worker threads included): what a passage or question costs
    // whatever else the machine runs.
    questionCpuMs: +questionCpuMs.toFixed(1),
    passageCpuMs: +passageCpuMs.toFixed(1),
    embedWorkers: cfg.embed.workers,
  }),
);
await embedder.close?.();
