/**
 * Knowledge-graph benchmark: template questions generated from a curated
 * graph's own relationship types ("Which compounds treat {Disease}?"), gold
 * answers taken from the graph's own edges, every mode run interleaved through
 * the same code path as the API, next to a bare entity vector-index query.
 *
 *   npm run eval:kg -- [--dataset bench/data/hetionet] [--per-template 12] [--seed 1] [--repeat 3]
 *                      [--modes vector,hybrid,gated,ppr] [--templates treats,presents] [--out <dir>]
 *                      [--variants '{"ppr+gate": {"mode": "ppr", "params": {"gateScores": true}}}']
 *
 * Reported per template and mode: entity Recall@10 (the top entities other than
 * the one the question names; anchors have 1-10 gold answers, so this is the
 * share of the gold answers found), fact hit rate (a gold fact, anchor -type-
 * answer, is among the returned facts and its sentence is in the context), the
 * share of questions with a non-empty context, and the database time per mode
 * as p50 and as a ratio to the bare query's p50 in the same run. Times are warm:
 * each question runs every variant once untimed, then --repeat timed rounds
 * (variants interleaved in rotating order), and a question's time is the
 * median of its rounds, so a first index traversal or plan counts for no side.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { bulkEmbedWorkers } from '../server/cli/common.js';
import { createEmbedder } from '../server/embedders/index.js';
import { curatedTypes, progressBar, readHetionet } from '../server/ingest/index.js';
import type { RetrievalResult } from '../server/retrieval/results.js';
import { Retriever } from '../server/retrieval/retriever.js';
import { MODE_NAMES, type Mode } from '../server/retrieval/params.js';
import { ensureProjection } from '../server/db/projection.js';
import { embedQuestion } from '../server/retrieval/service.js';
import { ensureCorpus, openDatabase } from './database.js';
import { percentile } from './lib/metrics.js';
import { rng } from './lib/random.js';

/** A question template over one relationship type; the anchor is the entity the question names. */
export interface Template {
  name: string;
  type: string;
  /** Which end of the relationship the question names: 'from' (its source) or 'to' (its target). */
  anchor: 'from' | 'to';
  text: string;
}

/** The dev templates (named as such in the report). Targets apply to treats, presents and localizes. */
export const TEMPLATES: Template[] = [
  { name: 'treats', type: 'TREATS_CtD', anchor: 'to', text: 'Which compounds treat {name}?' },
  { name: 'presents', type: 'PRESENTS_DpS', anchor: 'from', text: 'What symptoms does {name} present?' },
  { name: 'localizes', type: 'LOCALIZES_DlA', anchor: 'from', text: 'Where in the body does {name} localize?' },
  { name: 'palliates', type: 'PALLIATES_CpD', anchor: 'to', text: 'Which compounds palliate {name}?' },
  { name: 'causes', type: 'CAUSES_CcSE', anchor: 'from', text: 'What side effects does {name} cause?' },
  { name: 'includes', type: 'INCLUDES_PCiC', anchor: 'from', text: 'Which compounds are in the class {name}?' },
  { name: 'associates', type: 'ASSOCIATES_DaG', anchor: 'from', text: 'Which genes are associated with {name}?' },
  { name: 'binds', type: 'BINDS_CbG', anchor: 'from', text: 'Which genes does {name} bind?' },
];
const TARGET_TEMPLATES = ['treats', 'presents', 'localizes'];
const MAX_GOLD = 10;
const K = 10;

export interface KgQuestion {
  template: string;
  type: string;
  question: string;
  anchor: string;
  gold: string[];
}

/**
 * Up to perTemplate questions per template: anchors with 1 to 10 answers by that
 * relationship type, drawn with a seeded PRNG, so the set is the same every run.
 */
export function kgQuestions(
  graph: { entities: { id: string; name: string }[]; edges: { from: string; to: string; type: string }[] },
  templates: Template[],
  perTemplate: number,
  seed: number,
): KgQuestion[] {
  const names = new Map(graph.entities.map((e) => [e.id, e.name]));
  const out: KgQuestion[] = [];
  for (const t of templates) {
    const answers = new Map<string, Set<string>>();
    for (const e of graph.edges) {
      if (e.type !== t.type) continue;
      const [anchor, answer] = t.anchor === 'from' ? [e.from, e.to] : [e.to, e.from];
      let set = answers.get(anchor);
      if (!set) answers.set(anchor, (set = new Set()));
      set.add(answer);
    }
    const anchors = [...answers.entries()].filter(([, s]) => s.size <= MAX_GOLD).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const rand = rng(seed);
    for (let i = anchors.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [anchors[i], anchors[j]] = [anchors[j], anchors[i]];
    }
    for (const [anchor, gold] of anchors.slice(0, perTemplate)) {
      out.push({ template: t.name, type: t.type, question: t.text.replace('{name}', names.get(anchor) ?? anchor), anchor, gold: [...gold].sort() });
    }
  }
  return out;
}

/** Entity Recall@K over the top entities other than the anchor, fact hit and non-empty context of one result. */
export function scoreKg(q: KgQuestion, r: Pick<RetrievalResult, 'entities' | 'facts' | 'context'>) {
  const top = r.entities
    .map((e) => e.id)
    .filter((id) => id !== q.anchor)
    .slice(0, K);
  const gold = new Set(q.gold);
  const found = top.filter((id) => gold.has(id)).length;
  const goldFact = r.facts.find(
    (f) =>
      f.type === q.type &&
      ((f.subject.id === q.anchor && gold.has(f.object.id)) || (f.object.id === q.anchor && gold.has(f.subject.id))) &&
      r.context.includes(f.text),
  );
  return { recall: found / gold.size, factHit: goldFact ? 1 : 0, nonEmpty: r.context.trim() ? 1 : 0 };
}

const pct = (x: number) => (100 * x).toFixed(1);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const p50 = (xs: number[]) => percentile(xs, 50);

async function main() {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'bench/data/hetionet' },
      'per-template': { type: 'string', default: '12' },
      seed: { type: 'string', default: '1' },
      repeat: { type: 'string', default: '3' },
      modes: { type: 'string', default: MODE_NAMES.join(',') },
      variants: { type: 'string' },
      templates: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run eval:kg -- [--dataset bench/data/hetionet] [--per-template 12] [--seed 1] [--repeat 3] [--modes ...] [--templates treats,...] [--out dir]',
    );
    return;
  }
  const dataset = path.resolve(values.dataset!);
  const modeList = values.modes!.split(',').map((m) => m.trim()) as Mode[];
  for (const m of modeList) if (!MODE_NAMES.includes(m)) throw new Error(`--modes: unknown mode ${m}`);
  // Variants: each mode with its defaults, plus named ones ({"ppr+gate": {"mode": "ppr", "params": {"gateScores": true}}}).
  const extra = JSON.parse(values.variants ?? '{}') as Record<string, { mode: Mode; params?: Record<string, unknown> }>;
  const variants: { name: string; mode: Mode; params: Record<string, unknown> }[] = [
    ...modeList.map((m) => ({ name: m as string, mode: m, params: {} })),
    ...Object.entries(extra).map(([name, v]) => ({ name, mode: v.mode, params: v.params ?? {} })),
  ];
  const modes = variants.map((v) => v.name);
  const wanted = values.templates ? values.templates.split(',') : TEMPLATES.map((t) => t.name);
  const templates = TEMPLATES.filter((t) => wanted.includes(t.name));

  const graph = await readHetionet(dataset);
  const questions = kgQuestions(graph, templates, Number(values['per-template']), Number(values.seed));
  // Ingesting the corpus is a bulk job: one embedding worker per core unless EMBED_WORKERS is set.
  const cfg = loadConfig(undefined, bulkEmbedWorkers());
  const embedder = await createEmbedder(cfg);
  const hash = crypto.createHash('sha256');
  for (const f of fs.readdirSync(dataset).sort()) hash.update(f).update(fs.readFileSync(path.join(dataset, f)));
  const key = `${path.basename(dataset)}-${hash.digest('hex').slice(0, 12)}-${embedder.id.replace(/[^\w.-]+/g, '_')}`;
  const db = await openDatabase(cfg, key);
  const { store } = db;
  await migrate(store, { dimension: embedder.dimension });
  await ensureCorpus(store, cfg, embedder, dataset, key);
  const types = await curatedTypes(store);
  await ensureProjection(store.driver, { graphName: cfg.pprGraphName, database: store.database, extraTypes: types });
  const retriever = new Retriever(store, {
    timeoutMs: 120000,
    allowedRelTypes: [...new Set([...cfg.traverseTypes, ...types])],
    pprGraphName: cfg.pprGraphName,
    cosineFloor: embedder.cosineFloor,
  });
  // The floor: one entity vector-index call returning the top K ids, in a read transaction as the modes run.
  const bare = async (embedding: number[]) => {
    const t0 = performance.now();
    await store.readTransaction((tx) =>
      tx.run("CALL db.index.vector.queryNodes('entity_embedding', $k, $e) YIELD node, score RETURN node.id AS id, score", {
        k: K,
        e: embedding,
      }),
    );
    return performance.now() - t0;
  };

  // Per question: every variant once untimed (scored), then `repeat` timed rounds, the variants and
  // the bare query interleaved in an order that rotates with the question and the round.
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat must be a whole number >= 1, got ${values.repeat}`);
  const rows: { q: KgQuestion; bareMs: number; modes: Record<string, ReturnType<typeof scoreKg> & { dbMs: number; top: string[] }> }[] = [];
  const bar = progressBar();
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i];
    const { embedding } = await embedQuestion(embedder, { question: q.question });
    const row: (typeof rows)[number] = { q, bareMs: 0, modes: {} };
    const order = [...variants, 'bare' as const];
    const times = new Map<string, number[]>(order.map((m) => [m === 'bare' ? m : m.name, []]));
    for (let round = 0; round <= repeat; round++) {
      for (let k = 0; k < order.length; k++) {
        const m = order[(k + i + round) % order.length];
        if (m === 'bare') {
          const ms = await bare(embedding);
          if (round > 0) times.get('bare')!.push(ms);
          continue;
        }
        const r = await retriever.retrieve({ mode: m.mode, question: q.question, questionEmbedding: embedding, params: m.params });
        if (round === 0) row.modes[m.name] = { ...scoreKg(q, r), dbMs: 0, top: r.entities.slice(0, K + 1).map((e) => e.name) };
        else times.get(m.name)!.push(r.timings.dbMs);
      }
    }
    row.bareMs = p50(times.get('bare')!);
    for (const v of variants) row.modes[v.name].dbMs = p50(times.get(v.name)!);
    rows.push(row);
    bar({ stage: 'questions', done: i + 1, total: questions.length });
  }
  db.stop();
  await store.close();

  const lines: string[] = [];
  lines.push(`# Knowledge-graph benchmark: ${path.basename(dataset)} (dev templates)`, '');
  lines.push(`Date: ${new Date().toISOString().slice(0, 10)}; command: \`npm run eval:kg -- ${process.argv.slice(2).join(' ')}\`.`, '');
  lines.push(
    `${questions.length} questions (${values['per-template']} per template at most, anchors with 1-${MAX_GOLD} answers, seed ${values.seed}); ` +
      `embedder ${embedder.id}; entity Recall@${K} over the top entities other than the one the question names.`,
    '',
  );
  lines.push(`| template | mode | questions | entity Recall@${K} | fact hit | context non-empty |`, '|---|---|---|---|---|---|');
  for (const t of templates) {
    const rs = rows.filter((r) => r.q.template === t.name);
    if (!rs.length) continue;
    for (const m of modes) {
      const ms = rs.map((r) => r.modes[m]);
      lines.push(
        `| ${t.name}${TARGET_TEMPLATES.includes(t.name) ? ' *' : ''} | ${m} | ${rs.length} | ${pct(mean(ms.map((x) => x.recall)))} | ${pct(mean(ms.map((x) => x.factHit)))} | ${pct(mean(ms.map((x) => x.nonEmpty)))} |`,
      );
    }
  }
  lines.push('', '\\* the templates the targets name (treats, presents, localizes).', '');
  lines.push(`Database time: p50 over the questions of each question's median of ${repeat} warm runs.`, '');
  lines.push(`| mode | Recall@${K} (targets) | fact hit (targets) | Recall@${K} (all) | fact hit (all) | non-empty (all) | dbMs p50 | x bare |`);
  lines.push('|---|---|---|---|---|---|---|---|');
  const bareP50 = p50(rows.map((r) => r.bareMs));
  const target = rows.filter((r) => TARGET_TEMPLATES.includes(r.q.template));
  for (const m of modes) {
    const all = rows.map((r) => r.modes[m]);
    const tg = target.map((r) => r.modes[m]);
    const p = p50(all.map((x) => x.dbMs));
    lines.push(
      `| ${m} | ${pct(mean(tg.map((x) => x.recall)))} | ${pct(mean(tg.map((x) => x.factHit)))} | ${pct(mean(all.map((x) => x.recall)))} | ${pct(mean(all.map((x) => x.factHit)))} | ${pct(mean(all.map((x) => x.nonEmpty)))} | ${p.toFixed(1)} | ${(p / bareP50).toFixed(2)} |`,
    );
  }
  lines.push(`| bare entity vector query | - | - | - | - | - | ${bareP50.toFixed(1)} | 1.0 |`, '');
  const report = lines.join('\n');
  console.log(`\n${report}`);
  const out = path.resolve(values.out ?? path.join(ROOT, 'bench', 'reports', path.basename(dataset)));
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'kg-report.md'), `${report}\n`);
  fs.writeFileSync(path.join(out, 'kg-results.json'), `${JSON.stringify(rows, null, 1)}\n`);
  console.log(`wrote ${path.relative(ROOT, out)}/kg-report.md and kg-results.json`);
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  main().catch((e) => {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  });
}
