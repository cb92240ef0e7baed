/**
 * Evaluation and A/B harness: Recall@2/5/10, MRR and latency per retrieval
 * mode on a multi-hop QA set, through the same code path as the API, and the
 * answer containment of the offline answers (no API key needed).
 *
 *   npm run eval -- --dataset <folder> [--questions <file.jsonl>] [--modes vector,hybrid,gated,ppr]
 *                   [--sweep T=1..4,decay=0.3..0.9] [--ablate gate] [--out <dir>] [--limit N]
 *
 * The folder holds corpus.jsonl and dev.jsonl (the bench/data format). The
 * corpus is ingested once into its own embedded Neo4j data folder, keyed by
 * the corpus hash, the embedder and the extractor (.data/eval/<key>), so
 * switching datasets costs a restart, not a re-ingest. With NEO4J_URI set, that
 * database is used instead (emptied and re-ingested when the key differs).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, loadConfig } from '../server/config.js';
import { bulkEmbedWorkers } from '../server/cli/common.js';
import { createEmbedder } from '../server/embedders/index.js';
import { progressBar } from '../server/ingest/index.js';
import type { RetrievalResult } from '../server/retrieval/results.js';
import { Retriever } from '../server/retrieval/retriever.js';
import { jaccardAtK, rankCorrelation } from '../server/retrieval/overlap.js';
import { MODE_NAMES, type Mode } from '../server/retrieval/params.js';
import { embedQuestion, retrieveTimed } from '../server/retrieval/service.js';
import { createExtractiveGenerator } from '../server/answer/extractive.js';
import { answerInput } from '../server/answer/shared.js';
import { answerContainment } from './lib/containment.js';
import { extractorVersion, openCorpus, readQuestions } from './database.js';
import { exactMatch, f1Score, pairedBootstrap, scoreRanking } from './lib/metrics.js';
import { parseSweep } from './lib/sweep.js';
import { checkVariants, parseVariants, type Variant } from './lib/variants.js';
import { barChartSvg, latencyChartSvg } from './lib/svg.js';

const USAGE = `usage: npm run eval -- --dataset <folder> [--questions <file.jsonl>] [--modes vector,hybrid,gated,ppr]
                        [--sweep T=1..4,decay=0.3..0.9] [--ablate gate] [--out <dir>] [--limit N]
                        [--params '{"gated": {...}}'] [--variants '[{"name", "mode", "params"}]'] [--peers]
  --peers also runs neo4j-graphrag's VectorRetriever and HybridRetriever and plain BM25 (bench/peers/,
          a pinned Python venv) on the same database with the same question embeddings`;

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    questions: { type: 'string' },
    modes: { type: 'string', default: 'vector,hybrid,gated,ppr' },
    sweep: { type: 'string' },
    ablate: { type: 'string' },
    out: { type: 'string' },
    limit: { type: 'string' },
    params: { type: 'string' },
    variants: { type: 'string' },
    peers: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

function variants(): Variant[] {
  const modes = String(values.modes)
    .split(',')
    .map((m) => m.trim()) as Mode[];
  const extra = values.params ? (JSON.parse(values.params) as Record<string, Record<string, unknown>>) : {};
  const out: Variant[] = [];
  for (const mode of modes) {
    if (!MODE_NAMES.includes(mode)) throw new Error(`--modes: unknown mode "${mode}"`);
    if (mode === 'gated' && values.sweep) {
      for (const p of parseSweep(values.sweep)) {
        out.push({
          name: `gated[${Object.entries(p)
            .map(([k, v]) => `${k === 'steps' ? 'T' : k}=${v}`)
            .join(',')}]`,
          mode,
          params: { ...extra.gated, ...p },
        });
      }
    } else out.push({ name: mode, mode, params: { ...extra[mode] } });
  }
  for (const a of (values.ablate ?? '').split(',').filter(Boolean)) {
    if (a !== 'gate') throw new Error(`--ablate: only "gate" is supported, got "${a}"`);
    out.push({ name: 'gated[gate=off]', mode: 'gated', params: { ...extra.gated, gate: false } });
  }
  // Extra named variants measured side by side: '[{"name": "gated+rrf", "mode": "gated", "params": {"fusion": "rrf"}}]'.
  for (const v of parseVariants(values.variants)) out.push({ ...v, params: { ...extra[v.mode], ...v.params } });
  checkVariants(out);
  return out;
}

const gitCommit = () => spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const r4 = (x: number) => Math.round(x * 10000) / 10000;

/** What the offline generator of /v1/answer says for this retrieval: its default topK (5) passages and the graph evidence. */
async function offlineAnswer(gen: ReturnType<typeof createExtractiveGenerator>, question: string, r: RetrievalResult): Promise<string> {
  return (await gen.complete(question, answerInput(r, 5))).answer;
}

async function main() {
  if (values.help || !values.dataset) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const dataset = path.resolve(values.dataset);
  const corpus = path.join(dataset, 'corpus.jsonl');
  const questionsFile = path.resolve(values.questions ?? path.join(dataset, 'dev.jsonl'));
  for (const f of [corpus, questionsFile]) if (!fs.existsSync(f)) throw new Error(`${f}: not found`);
  const vs = variants();
  let questions = readQuestions(questionsFile);
  if (values.limit) questions = questions.slice(0, Number(values.limit));
  // Ingesting the corpus is a bulk job: one embedding worker per core unless EMBED_WORKERS is set.
  const cfg = loadConfig(undefined, bulkEmbedWorkers());
  const embedder = await createEmbedder(cfg);
  const { db, store, ingestSeconds } = await openCorpus(cfg, embedder, dataset, corpus);
  const retriever = new Retriever(store, {
    timeoutMs: 60000,
    allowedRelTypes: cfg.traverseTypes,
    pprGraphName: cfg.pprGraphName,
    cosineFloor: embedder.cosineFloor,
  });
  // The offline answer of /v1/answer (its default topK), from the same retrieval result.
  const offline = createExtractiveGenerator();

  // Every question, every variant, interleaved (rotating order), after one warm-up question.
  const perQuestion: Record<string, unknown>[] = [];
  const embeddings: { id: string; question: string; embedding: number[]; embedMs: number }[] = [];
  const warm = await embedQuestion(embedder, { question: questions[0].question });
  for (const v of vs) await retrieveTimed(retriever, { mode: v.mode, question: questions[0].question, ...warm, params: v.params });
  const bar = progressBar();
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i];
    const emb = await embedQuestion(embedder, { question: q.question });
    embeddings.push({ id: q.id, question: q.question, ...emb });
    const results: Record<string, RetrievalResult & { timings: { totalMs: number } }> = {};
    for (let k = 0; k < vs.length; k++) {
      const v = vs[(k + i) % vs.length];
      results[v.name] = await retrieveTimed(retriever, { mode: v.mode, question: q.question, ...emb, params: v.params });
    }
    const row: Record<string, unknown> = { id: q.id, question: q.question, type: q.type, supporting_ids: q.supporting_ids, answers: q.answers, modes: {} };
    for (const v of vs) {
      const r = results[v.name];
      const ids = r.passages.map((p) => p.documentId ?? p.id);
      const answer = await offlineAnswer(offline, q.question, r);
      (row.modes as Record<string, unknown>)[v.name] = {
        ...scoreRanking(ids, q.supporting_ids),
        totalMs: r.timings.totalMs,
        dbMs: r.timings.dbMs,
        seeds: r.seeds.map((s) => s.name),
        offline_answer: answer,
        answer_containment: answerContainment(answer, q.answers),
      };
    }
    perQuestion.push(row);
    bar({ stage: 'questions', done: i + 1, total: questions.length });
  }

  // The peers, on the same database and the same embeddings, after our modes (not interleaved:
  // they run in another process). Their latency is the search call alone, so the total adds
  // the same question's embedding time.
  const reportNames = vs.map((v) => v.name);
  let peerVersions: Record<string, string> | undefined;
  if (values.peers) {
    const { runPeers } = await import('./peers/index.js');
    const peers = await runPeers({ ...db.connection, k: 10, questions: embeddings });
    peerVersions = peers.versions;
    const docOf = new Map<string, string>();
    const allIds = [...new Set(Object.values(peers.results).flatMap((hits) => hits.flatMap((h) => h.passages)))];
    const res = await store.read('MATCH (p:Passage) WHERE p.id IN $ids RETURN p.id AS id, coalesce(p.documentId, p.id) AS doc', { ids: allIds });
    for (const r of res.records) docOf.set(r.get('id'), r.get('doc'));
    for (const [name, hits] of Object.entries(peers.results)) {
      reportNames.push(name);
      for (const [i, h] of hits.entries()) {
        const row = perQuestion[i];
        const ids = h.passages.map((id) => docOf.get(id) ?? id);
        (row.modes as Record<string, unknown>)[name] = {
          ...scoreRanking(ids, questions[i].supporting_ids),
          totalMs: h.ms + embeddings[i].embedMs,
          dbMs: h.ms,
        };
      }
    }
  }

  // Answers (EM/F1) only with Claude; nothing is ever invented offline.
  let answers: Record<string, { em: number; f1: number }> | 'not run' = 'not run';
  if (cfg.anthropic.apiKey) {
    const { createGenerator } = await import('../server/answer/index.js');
    const generator = await createGenerator({ ...cfg, generator: 'anthropic' });
    answers = {};
    for (const v of vs) {
      const ems: number[] = [];
      const f1s: number[] = [];
      for (const row of perQuestion) {
        const m = (row.modes as Record<string, { passages: string[] }>)[v.name];
        const emb = await embedQuestion(embedder, { question: row.question as string });
        const r = await retrieveTimed(retriever, { mode: v.mode, question: row.question as string, ...emb, params: { ...v.params, topK: 5 } });
        const out = await generator.complete(row.question as string, answerInput(r, 5));
        ems.push(exactMatch(out.answer, row.answers as string[]));
        f1s.push(f1Score(out.answer, row.answers as string[]));
        (m as Record<string, unknown>).answer = out.answer;
      }
      answers[v.name] = { em: r4(mean(ems)), f1: r4(mean(f1s)) };
    }
  }

  const summary = {
    dataset: path.basename(dataset),
    questionsFile,
    n: questions.length,
    modes: Object.fromEntries(
      reportNames.map((name) => {
        const ms = perQuestion.map((r) => (r.modes as Record<string, Record<string, number>>)[name]);
        return [
          name,
          {
            recall_at_2: r4(mean(ms.map((m) => m.recall_at_2))),
            recall_at_5: r4(mean(ms.map((m) => m.recall_at_5))),
            recall_at_10: r4(mean(ms.map((m) => m.recall_at_10))),
            mrr: r4(mean(ms.map((m) => m.rr))),
            // Share of questions whose gold answer (any alias, SQuAD-normalised) is in the offline answer; peers have none.
            answer_containment: ms.every((m) => typeof m.answer_containment === 'number') ? r4(mean(ms.map((m) => m.answer_containment))) : null,
            p50_ms: r4(
              pct(
                ms.map((m) => m.totalMs),
                50,
              ),
            ),
            p95_ms: r4(
              pct(
                ms.map((m) => m.totalMs),
                95,
              ),
            ),
            p50_db_ms: r4(
              pct(
                ms.map((m) => m.dbMs),
                50,
              ),
            ),
          },
        ];
      }),
    ),
  };
  const names = reportNames;
  const agreement =
    names.includes('gated') && names.includes('ppr')
      ? {
          jaccard_at_5: r4(
            mean(
              perQuestion.map((r) => {
                const m = r.modes as Record<string, { passages: string[] }>;
                return jaccardAtK(m.gated.passages, m.ppr.passages, 5);
              }),
            ),
          ),
          rank_correlation_at_10: r4(
            mean(
              perQuestion.map((r) => {
                const m = r.modes as Record<string, { passages: string[] }>;
                return rankCorrelation(m.gated.passages, m.ppr.passages, 10) ?? 0;
              }),
            ),
          ),
        }
      : null;

  // Each graph mode (gated, ppr, their variants) against each baseline (vector, hybrid, the peers), question by question.
  const recall5 = (name: string) => perQuestion.map((r) => (r.modes as Record<string, { recall_at_5: number }>)[name].recall_at_5);
  const graphNames = vs.filter((v) => v.mode === 'gated' || v.mode === 'ppr').map((v) => v.name);
  const paired = graphNames.flatMap((name) =>
    reportNames
      .filter((base) => !graphNames.includes(base))
      .map((base) => {
        const p = pairedBootstrap(recall5(name), recall5(base));
        return { mode: name, against: base, difference: r4(p.difference), low: r4(p.low), high: r4(p.high), better: p.better, worse: p.worse };
      }),
  );

  const out = path.resolve(values.out ?? path.join(ROOT, 'bench', 'out', path.basename(dataset)));
  fs.mkdirSync(out, { recursive: true });
  const versions = {
    node: process.version,
    embedder: embedder.id,
    extractor: extractorVersion(cfg),
    commit: gitCommit(),
    ...(peerVersions ? { peers: peerVersions } : {}),
  };
  fs.writeFileSync(
    path.join(out, 'results.json'),
    JSON.stringify({ summary, agreement, paired, answers, versions, ingestSeconds, variants: vs, questions: perQuestion }, null, 2),
  );
  fs.writeFileSync(path.join(out, 'summary.json'), JSON.stringify(summary, null, 2));
  const md = [
    `# ${summary.dataset}: ${summary.n} questions`,
    '',
    `Questions: \`${path.relative(ROOT, questionsFile)}\`; embedder ${embedder.id}; extractor ${extractorVersion(cfg)}; commit ${versions.commit.slice(0, 10)}.`,
    '',
    `Date: ${new Date().toISOString().slice(0, 10)}; command: \`npm run eval -- ${process.argv.slice(2).join(' ')}\`.`,
    '',
    '| mode | Recall@2 | Recall@5 | Recall@10 | MRR | answer containment | p50 ms | p95 ms | p50 db ms | EM | F1 |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...reportNames.map((name) => {
      const m = summary.modes[name];
      const a = answers === 'not run' ? null : answers[name];
      const contained = m.answer_containment === null ? '-' : m.answer_containment.toFixed(3);
      return `| ${name} | ${m.recall_at_2.toFixed(3)} | ${m.recall_at_5.toFixed(3)} | ${m.recall_at_10.toFixed(3)} | ${m.mrr.toFixed(3)} | ${contained} | ${m.p50_ms.toFixed(1)} | ${m.p95_ms.toFixed(1)} | ${m.p50_db_ms.toFixed(1)} | ${a ? a.em.toFixed(3) : 'not run'} | ${a ? a.f1.toFixed(3) : 'not run'} |`;
    }),
    '',
    agreement ? `gated vs ppr: Jaccard@5 ${agreement.jaccard_at_5.toFixed(3)}, rank correlation@10 ${agreement.rank_correlation_at_10.toFixed(3)}` : '',
    '',
    ...(paired.length
      ? [
          'Recall@5, paired by question: the mean difference, its 95 % bootstrap interval (10,000 resamples of the questions, seed 1), and the questions where the mode does better / worse. An interval that holds 0 is a margin these questions cannot tell from chance.',
          '',
          '| mode | against | difference | 95 % interval | better / worse |',
          '|---|---|---|---|---|',
          ...paired.map(
            (p) =>
              `| ${p.mode} | ${p.against} | ${p.difference >= 0 ? '+' : ''}${p.difference.toFixed(3)} | [${p.low.toFixed(3)}, ${p.high.toFixed(3)}] | ${p.better} / ${p.worse} |`,
          ),
          '',
        ]
      : []),
  ].join('\n');
  fs.writeFileSync(path.join(out, 'summary.md'), md);
  fs.writeFileSync(
    path.join(out, 'recall.svg'),
    barChartSvg(
      `Recall@5 by mode - ${summary.dataset}`,
      reportNames.map((name) => ({ label: name, value: summary.modes[name].recall_at_5 })),
    ),
  );
  fs.writeFileSync(
    path.join(out, 'latency.svg'),
    latencyChartSvg(
      `Latency by mode - ${summary.dataset}`,
      reportNames.map((name) => ({ label: name, values: perQuestion.map((r) => (r.modes as Record<string, { totalMs: number }>)[name].totalMs) })),
    ),
  );
  console.log(md);
  console.log(`reports in ${path.relative(ROOT, out) || out}`);
  await store.close();
  if (!process.env.EVAL_KEEP_DB) db.stop();
  console.log(
    reportNames.map((name) => `${name}: R@5 ${summary.modes[name].recall_at_5.toFixed(3)} p50 ${summary.modes[name].p50_ms.toFixed(0)}ms`).join(' | '),
  );
}

main().catch((e) => {
  console.error(`error: ${(e as Error).message}`);
  process.exit(1);
});
