/**
 * Database hits per mode on a scale graph: each mode's statement run under PROFILE, as the server
 * sends it (the Retriever's defaults and parameters), for the scale benchmark's own questions. Prints
 * each mode's hits per question (p50 and all) and the operators with the most hits (the mean per
 * question); db hits do not depend on the machine's load, so they compare across runs and commits.
 *
 *   npx tsx bench/dbhits.ts --size 100000 [--modes gated,vector] [--questions 10] [--cypher DIR]
 *                           [--params '{"spreadEpsilon": 0}'] [--out FILE.jsonl]
 *
 * The graph is bench:scale's (the same --seed and --curated-full defaults), already built and running
 * on SCALE_BOLT_PORT (default 20687; start it with docker/neo4j.mjs and that size's data folder).
 * --cypher reads the statements from another folder (an older commit's cypher/, for a before and
 * after); --out writes each question's entities and passages (id, score), one line per mode and question.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { CYPHER_DIR } from '../server/db/cypher.js';
import { toDriverParams } from '../server/retrieval/retriever.js';
import { type Mode, statementFile } from '../server/retrieval/params.js';
import { loadBaseVectors } from './scale/base-vectors.js';
import { connectScale, scaleRetriever } from './scale/connection.js';
import { generateScaleGraph } from './scale/generate.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string' },
    modes: { type: 'string', default: 'gated' },
    questions: { type: 'string', default: '10' },
    cypher: { type: 'string' },
    params: { type: 'string', default: '{}' },
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'curated-full': { type: 'string', default: '50000' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.size) {
  console.log("usage: npx tsx bench/dbhits.ts --size 100000 [--modes gated,vector] [--questions 10] [--cypher DIR] [--params '{...}'] [--out FILE.jsonl]");
  process.exit(values.help ? 0 : 2);
}
const nq = Number(values.questions);
const WARMUP = 5; // bench:scale's first questions are its warm-up; these are the ones it measures
const base = await loadBaseVectors();
const graph = generateScaleGraph(base, {
  passages: Number(values.size),
  questions: WARMUP + nq,
  seed: Number(values.seed),
  curatedFull: Number(values['curated-full']),
});
const store = connectScale();
const driver = store.driver;
const retriever = scaleRetriever(store, graph);

interface PlanNode {
  operatorType: string;
  arguments: { Details?: string };
  dbHits: number;
  children: PlanNode[];
}
/** Adds each operator's hits to `ops` (keyed by operator and its details) and returns the plan's total. */
function sumHits(p: PlanNode, ops: Map<string, number>): number {
  const key = `${p.operatorType} ${String(p.arguments.Details ?? '').slice(0, 100)}`;
  ops.set(key, (ops.get(key) ?? 0) + p.dbHits);
  return p.dbHits + p.children.reduce((t, c) => t + sumHits(c, ops), 0);
}

const session = driver.session({ defaultAccessMode: neo4j.session.READ });
const lines: string[] = [];
try {
  for (const mode of values.modes!.split(',') as Mode[]) {
    const params = retriever.effectiveParams(mode, JSON.parse(values.params!));
    const text = fs.readFileSync(path.join(values.cypher ?? CYPHER_DIR, statementFile(mode, params)), 'utf8');
    const totals: number[] = [];
    const ops = new Map<string, number>();
    for (const q of graph.questions.slice(WARMUP)) {
      const res = await session.run(`PROFILE ${text}`, toDriverParams({ ...params, question: q.text, questionEmbedding: q.embedding }));
      totals.push(sumHits(res.summary.profile as unknown as PlanNode, ops));
      const row = res.records[0].toObject();
      const pick = (xs: { id: string; score?: number; activation?: number }[]) => xs.map((x) => [x.id, x.score ?? x.activation]);
      lines.push(JSON.stringify({ mode, question: q.text, entities: pick(row.entities), passages: pick(row.passages) }));
    }
    const sorted = [...totals].sort((a, b) => a - b);
    console.log(`${mode}: db hits p50 ${sorted[Math.floor(sorted.length / 2)]}, per question ${totals.join(' ')}`);
    for (const [k, v] of [...ops].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${String(Math.round(v / nq)).padStart(8)}  ${k}`);
  }
  if (values.out) fs.writeFileSync(values.out, `${lines.join('\n')}\n`);
} finally {
  await session.close();
  await driver.close();
}
