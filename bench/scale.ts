/**
 * Scale benchmark: one generated graph per size (bench/scale/generate.ts, shaped like 2Wiki and
 * Hetionet), built through the bulk import (server/ingest/import), then each mode's shipped
 * statement through the Retriever against the bare passage vector-index query, interleaved (ppr's
 * GDS engine afterwards, in a phase of its own).
 *
 *   npm run bench:scale -- --sizes 10000,100000 --out DIR [--questions 80] [--rounds 3] [--gds-questions 20] [--warmup 5]
 *                          [--bulk offline|online] [--reuse] [--seed 1] [--curated-full 50000] [--no-gds]
 *                          [--no-merge] [--ingest 1000] [--ingest-corpus bench/data/2wikimultihopqa/corpus.jsonl]
 *
 * --rounds R runs the measured questions R times (each time in a new rotation; default 3): p50 and p95 are over
 * every round's runs, and `first_p50_ms` keeps the first round's alone (the caches cold after the build).
 *
 * Each size gets its own embedded Neo4j in .data/neo4j-scale-<size> (bolt SCALE_BOLT_PORT,
 * default 20687; NEO4J_HEAP / NEO4J_PAGECACHE, default 6g / 5g; NEO4J_INDEX_MAX_MERGE_MB, default 4, as
 * docs/scale.md advises for a bulk-built graph), started for that size and
 * stopped after it; --reuse keeps a graph built with the same settings. Writes DIR/summary.json,
 * DIR/model.json (memory and disk model, projections), DIR/p50.svg and DIR/README.md.
 * --ingest N then ingests a real corpus's first N documents the ordinary way into each size's
 * graph (bench/scale/ingest.ts): text ingest's passages/s as the graph grows.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { ROOT, loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { ensureFactIndexes } from '../server/db/fact-indexes.js';
import { recordImport } from '../server/graph/bulk.js';
import { manageProjection } from '../server/db/projection.js';
import { compactVectorIndexes } from '../server/db/compact-indexes.js';
import { VECTOR_INDEXES } from '../server/db/embedder-guard.js';
import type { GraphStore } from '../server/db/store.js';
import { loadOnline } from '../server/ingest/import/online.js';
import { embeddedAdmin, runAdminImport, writeImportCsv } from '../server/ingest/import/offline.js';
import { rowsPerSecond } from '../server/ingest/import/types.js';
import type { Mode } from '../server/retrieval/params.js';
import { percentile } from './lib/metrics.js';
import { loadBaseVectors } from './scale/base-vectors.js';
import { SCALE_BOLT, SCALE_MERGED_NODE_INDEXES, SCALE_NEO4J, SCALE_PASSWORD, connectScale, scaleRetriever } from './scale/connection.js';
import { generateScaleGraph, type ScaleGraph } from './scale/generate.js';
import { memoryModel, storeSizes, vectorSegments } from './scale/model.js';
import { writeScaleReport } from './scale/report.js';
import { ingestAtScale } from './scale/ingest.js';
import type { BuildFigures, GdsFigures, IngestFigures, Latency, SizeResult } from './scale/types.js';

const USAGE = `usage: npm run bench:scale -- --sizes 10000,100000 --out DIR [--questions 80] [--rounds 3] [--gds-questions 20] [--warmup 5] [--bulk offline|online] [--reuse] [--seed 1] [--curated-full 50000] [--no-gds] [--no-merge] [--ingest N] [--ingest-corpus FILE]`;
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    out: { type: 'string' },
    questions: { type: 'string', default: '80' },
    rounds: { type: 'string', default: '3' },
    'gds-questions': { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    bulk: { type: 'string', default: 'offline' },
    reuse: { type: 'boolean' },
    seed: { type: 'string', default: '1' },
    'curated-full': { type: 'string', default: '50000' },
    'no-gds': { type: 'boolean' },
    'no-merge': { type: 'boolean' },
    ingest: { type: 'string', default: '0' },
    'ingest-corpus': { type: 'string', default: path.join(ROOT, 'bench', 'data', '2wikimultihopqa', 'corpus.jsonl') },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.out) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const sizes = values.sizes!.split(',').map((s) => Number(s.trim()));
if (sizes.some((n) => !Number.isInteger(n) || n < 100)) throw new Error(`--sizes: integers >= 100, got ${values.sizes}`);
if (values.bulk !== 'offline' && values.bulk !== 'online') throw new Error('--bulk: offline or online');
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: a whole number >= 1, got ${values.rounds}`);
const ingestCount = Number(values.ingest);
if (!Number.isInteger(ingestCount) || ingestCount < 0) throw new Error(`--ingest: a number of documents (0 = none), got ${values.ingest}`);
const cfg = {
  questions: Number(values.questions),
  rounds,
  gdsQuestions: Number(values['gds-questions']),
  warmup: Number(values.warmup),
  seed: Number(values.seed),
  curatedFull: Number(values['curated-full']),
};
const HTTP = Number(process.env.SCALE_HTTP_PORT || 20474);
const MODES: Mode[] = ['vector', 'hybrid', 'gated', 'ppr'];
const launcher = path.join(ROOT, 'docker', 'neo4j.mjs');
const secs = (t0: number) => (performance.now() - t0) / 1000;

function neo4jEnv(dataDir: string, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    NEO4J_BOLT_PORT: String(SCALE_BOLT),
    NEO4J_HTTP_PORT: String(HTTP),
    NEO4J_DATA_DIR: dataDir,
    NEO4J_PASSWORD: SCALE_PASSWORD,
    ...SCALE_NEO4J,
    ...extra,
  };
}
function db(cmd: 'start' | 'stop', dataDir: string, extra?: Record<string, string>) {
  const r = spawnSync(process.execPath, [launcher, cmd], { env: neo4jEnv(dataDir, extra), stdio: cmd === 'start' ? 'inherit' : 'ignore' });
  if (r.status !== 0) throw new Error(`node docker/neo4j.mjs ${cmd} failed for ${dataDir}`);
}
const connect = connectScale;

/** Builds the graph of one size into a fresh database; the database is running afterwards. */
async function build(graph: ScaleGraph, dataDir: string, generateSeconds: number, dimension: number): Promise<BuildFigures> {
  db('stop', dataDir);
  fs.rmSync(path.join(ROOT, dataDir), { recursive: true, force: true });
  db('start', dataDir); // creates the folder, its conf and the password
  const t0 = performance.now();
  let figures: Omit<BuildFigures, 'index_s' | 'build_s' | 'generate_s'>;
  if (values.bulk === 'offline') {
    db('stop', dataDir);
    const csv = await writeImportCsv(graph.source, path.join(ROOT, '.data', 'scale', `csv-${graph.passages}`));
    console.log(
      `CSV written: ${(csv.bytes / 2 ** 20).toFixed(0)} MB in ${csv.seconds.toFixed(1)} s${csv.multiline ? ' (a field spans lines: multiline parsing)' : ''}`,
    );
    const imp = runAdminImport(embeddedAdmin(ROOT, dataDir, '3g'), csv);
    console.log(`neo4j-admin database import full: ${imp.seconds.toFixed(1)} s`);
    fs.rmSync(csv.dir, { recursive: true, force: true });
    db('start', dataDir);
    const stats = { ...csv.stats, loadSeconds: csv.seconds + imp.seconds };
    figures = {
      bulk: 'offline',
      csv_s: csv.seconds,
      csv_mb: csv.bytes / 2 ** 20,
      load_s: stats.loadSeconds,
      rows_per_s: rowsPerSecond(stats),
      passages_per_s: stats.passages / stats.loadSeconds,
      stats,
    };
  } else {
    const store = connect();
    await migrate(store, { dimension });
    const stats = await loadOnline(store, graph.source, { dimension, relationshipTypes: ['RELATED', ...graph.curatedTypes], batchSize: 500 });
    await store.close();
    figures = { bulk: 'online', load_s: stats.loadSeconds, rows_per_s: rowsPerSecond(stats), passages_per_s: stats.passages / stats.loadSeconds, stats };
  }
  // Index building, timed apart: the migrations' indexes and one fact index per walked type.
  const ti = performance.now();
  const store = connect();
  await migrate(store, { dimension, awaitSeconds: 14400 });
  await ensureFactIndexes(store, ['RELATED', ...graph.curatedTypes], dimension, 14400);
  await recordImport(store, graph.curatedTypes);
  await store.close();
  const merge_s = values['no-merge'] ? undefined : await mergeNodeIndexes(dataDir);
  const index_s = secs(ti);
  const done = connect();
  await done.write("MERGE (m:GraphRecallMeta {key: 'scale'}) SET m.value = $v", { v: signature(graph.passages) });
  await done.close();
  console.log(`loaded in ${figures.load_s.toFixed(1)} s (${figures.passages_per_s.toFixed(0)} passages/s), indexes in ${index_s.toFixed(1)} s`);
  return { ...figures, generate_s: generateSeconds, index_s, merge_s, build_s: generateSeconds + secs(t0) };
}

/**
 * The node vector indexes rebuilt on SCALE_MERGED_NODE_INDEXES (a restart each way): few large segments instead of one
 * per 5-10 MB of vectors. Counted in index_s; returns its own seconds.
 */
async function mergeNodeIndexes(dataDir: string): Promise<number> {
  const t0 = performance.now();
  db('stop', dataDir);
  db('start', dataDir, SCALE_MERGED_NODE_INDEXES);
  const store = connect();
  await compactVectorIndexes(store, VECTOR_INDEXES);
  await store.close();
  db('stop', dataDir);
  db('start', dataDir);
  console.log(`node vector indexes rebuilt merged in ${secs(t0).toFixed(1)} s`);
  return secs(t0);
}

const signature = (n: number) =>
  JSON.stringify({ n, seed: cfg.seed, curatedFull: cfg.curatedFull, questions: cfg.questions + cfg.warmup, merged: !values['no-merge'], v: 2 });

async function jvm(store: GraphStore, dataDir: string) {
  const r = await store.read("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes RETURN attributes.HeapMemoryUsage.value.properties AS heap");
  const heap = r.records[0].get('heap') as { used: number; committed: number };
  const pid = Number(fs.readFileSync(path.join(ROOT, dataDir, 'neo4j.pid'), 'utf8'));
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { heap_mb: Number(heap.used) / 2 ** 20, heap_committed_mb: Number(heap.committed) / 2 ** 20, rss_mb: rssKb / 1024 };
}

/** ppr's GDS engine needs its in-memory projection: built here, timed, and its memory read from gds.graph.list. */
async function project(store: GraphStore, graph: ScaleGraph): Promise<GdsFigures> {
  const graphName = loadConfig().pprGraphName;
  await manageProjection(store.driver, 'drop', { graphName });
  const t0 = performance.now();
  const state = await manageProjection(store.driver, 'create', { graphName, extraTypes: graph.curatedTypes });
  const projection_s = secs(t0);
  const r = await store.read('CALL gds.graph.list($g) YIELD sizeInBytes RETURN sizeInBytes', { g: graphName });
  const figures = {
    projection_s: Math.round(projection_s * 10) / 10,
    projection_mb: Math.round(Number(r.records[0].get('sizeInBytes')) / 2 ** 20),
    nodes: Number(state.nodeCount),
    relationships: Number(state.relationshipCount),
  };
  console.log(`GDS projection: ${figures.nodes} nodes, ${figures.relationships} relationships in ${figures.projection_s} s, ${figures.projection_mb} MB`);
  return figures;
}

/**
 * Each mode's statement through the Retriever against the bare vector-index query, interleaved, rotating order.
 * ppr's GDS engine runs in a phase of its own afterwards: one of its runs at 100 k takes seconds and churns the heap
 * (hundreds of thousands of PageRank scores), and the garbage collection that follows would land on whichever
 * statement runs next, the cheap bare query included.
 */
async function measure(store: GraphStore, graph: ScaleGraph, withGds: boolean): Promise<Latency> {
  const retriever = scaleRetriever(store, graph);
  type Q = ScaleGraph['questions'][number];
  type Variant = { name: string; run: (q: Q) => Promise<unknown> };
  const bare = (q: Q) =>
    store.readTransaction((tx) =>
      tx.run("CALL db.index.vector.queryNodes('passage_embedding', $k, $q) YIELD node, score RETURN node.id AS id, node.text AS text, score", {
        q: q.embedding,
        k: neo4j.int(10),
      }),
    );
  const variants: Variant[] = [
    { name: 'bare', run: bare },
    ...MODES.map((m) => ({ name: m, run: (q: Q) => retriever.retrieve({ mode: m, question: q.text, questionEmbedding: q.embedding }) })),
  ];
  const gdsPhase: Variant[] = withGds
    ? [{ name: 'ppr_gds', run: (q: Q) => retriever.retrieve({ mode: 'ppr', question: q.text, questionEmbedding: q.embedding, params: { engine: 'gds' } }) }]
    : [];
  const names = [...variants, ...gdsPhase].map((v) => v.name);
  const times = new Map(names.map((n) => [n, [] as number[]]));
  const firstRound = new Map(names.map((n) => [n, [] as number[]]));
  const dbMs = new Map(names.map((n) => [n, [] as number[]]));
  const seeds = new Map(names.map((n) => [n, [] as number[]]));
  const phase = async (label: string, vs: Variant[], count: number, round: number) => {
    for (let i = 0; i < count; i++) {
      // Rotating order, shifted each round: every statement runs before and after every other.
      const order = vs.map((_, k) => vs[(k + i + round) % vs.length]);
      for (const v of order) {
        const t0 = performance.now();
        const out = (await v.run(graph.questions[i])) as { timings?: { dbMs?: number }; seeds?: unknown[] };
        if (i < cfg.warmup) continue;
        const ms = performance.now() - t0;
        times.get(v.name)!.push(ms);
        if (round === 0) firstRound.get(v.name)!.push(ms);
        if (typeof out?.timings?.dbMs === 'number') dbMs.get(v.name)!.push(out.timings.dbMs);
        if (Array.isArray(out?.seeds)) seeds.get(v.name)!.push(out.seeds.length);
      }
      process.stderr.write(`\r${label}: question ${i + 1}/${count}`);
    }
    process.stderr.write('\n');
  };
  for (let round = 0; round < cfg.rounds; round++) await phase(`modes, round ${round + 1}/${cfg.rounds}`, variants, graph.questions.length, round);
  // The GDS engine takes seconds a question at 100 k: its own, smaller sample (the first questions), one round.
  if (gdsPhase.length) await phase('ppr on GDS', gdsPhase, Math.min(graph.questions.length, cfg.warmup + cfg.gdsQuestions), 0);
  const r1 = (x: number) => Math.round(x * 10) / 10;
  return {
    bare_p50_ms: r1(percentile(times.get('bare')!, 50)),
    bare_p95_ms: r1(percentile(times.get('bare')!, 95)),
    bare_first_p50_ms: r1(percentile(firstRound.get('bare')!, 50)),
    modes: Object.fromEntries(
      names
        .filter((n) => n !== 'bare')
        .map((m) => [
          m,
          {
            p50_ms: r1(percentile(times.get(m)!, 50)),
            p95_ms: r1(percentile(times.get(m)!, 95)),
            first_p50_ms: r1(percentile(firstRound.get(m)!, 50)),
            db_p50_ms: r1(percentile(dbMs.get(m)!, 50)),
            seeds_p50: percentile(seeds.get(m)!, 50),
          },
        ]),
    ),
  };
}

async function main() {
  const out = path.resolve(values.out!);
  fs.mkdirSync(out, { recursive: true });
  const base = await loadBaseVectors();
  const results: SizeResult[] = [];
  for (const n of sizes) {
    const dataDir = `.data/neo4j-scale-${n}`;
    console.log(`\n== ${n} passages (${dataDir})`);
    const tg = performance.now();
    const graph = generateScaleGraph(base, { passages: n, questions: cfg.questions + cfg.warmup, seed: cfg.seed, curatedFull: cfg.curatedFull });
    const generateSeconds = secs(tg);
    console.log(
      `generated in ${generateSeconds.toFixed(1)} s: ${graph.entities} entities (+${graph.curatedEntities} curated), ${graph.mentions} mentions, ${graph.facts} facts, ${graph.curatedEdges} curated edges; top passage degrees ${graph.topDegrees.join(', ')}`,
    );
    let built: BuildFigures | null = null;
    let reused = false;
    if (values.reuse && fs.existsSync(path.join(ROOT, dataDir, 'data'))) {
      db('start', dataDir);
      const s = connect();
      const r = await s.read("OPTIONAL MATCH (m:GraphRecallMeta {key: 'scale'}) RETURN m.value AS v");
      reused = r.records[0].get('v') === signature(n);
      await s.close();
      if (reused) console.log('reusing the graph built with these settings');
    }
    if (!reused) built = await build(graph, dataDir, generateSeconds, base.dimension);
    const prior =
      reused && fs.existsSync(path.join(out, 'summary.json'))
        ? (JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8')) as { sizes: SizeResult[] })
        : null;
    if (!built) built = prior?.sizes.find((s) => s.passages === n)?.build ?? null;
    const store = connect();
    // A reused graph takes the migrations added since it was built (an index the statements now use).
    if (reused) await migrate(store, { dimension: base.dimension, awaitSeconds: 14400 });
    const counts = (
      await store.read(
        'RETURN COUNT { (:Passage) } AS passages, COUNT { (:Entity) } AS entities, COUNT { ()-[]->() } AS relationships, COUNT { ()-[:MENTIONS]->() } AS mentions, COUNT { ()-[:RELATED]->() } AS related',
      )
    ).records[0].toObject() as Record<string, number>;
    for (const k of Object.keys(counts)) counts[k] = Number(counts[k]);
    const indexIds = Object.fromEntries(
      (await store.read('SHOW VECTOR INDEXES YIELD id, name')).records.map((x) => [String(x.get('id')), x.get('name') as string]),
    );
    const segments = () => vectorSegments(path.join(ROOT, dataDir), indexIds);
    const builtSegments = segments();
    const gds = values['no-gds'] ? null : await project(store, graph);
    const latency = await measure(store, graph, gds !== null);
    // Printed now: an --ingest that is stopped must not take this size's latency with it.
    const ratio = (m: string) => (latency.modes[m].p50_ms / latency.bare_p50_ms).toFixed(2);
    console.log(`bare p50 ${latency.bare_p50_ms} ms; ${MODES.map((m) => `${m} ${latency.modes[m].p50_ms} ms (${ratio(m)}x)`).join(', ')}`);
    if (gds) await manageProjection(store.driver, 'drop', { graphName: loadConfig().pprGraphName });
    const mem = await jvm(store, dataDir);
    let ingest: IngestFigures | undefined;
    if (ingestCount > 0) {
      ingest = await ingestAtScale(store, path.resolve(values['ingest-corpus']!), ingestCount);
      // The graph now holds more than the generator's: a later --reuse builds it again.
      await store.write("MATCH (m:GraphRecallMeta {key: 'scale'}) SET m.value = m.value + ' + ingest'");
    }
    await store.close();
    db('stop', dataDir);
    const sizesOnDisk = storeSizes(path.join(ROOT, dataDir));
    const r: SizeResult = {
      passages: counts.passages,
      entities: counts.entities,
      relationships: counts.relationships,
      build_s: Math.round(built?.build_s ?? Number.NaN),
      store_mb: Math.round(sizesOnDisk.total / 2 ** 20),
      heap_mb: Math.round(mem.heap_mb),
      rss_mb: Math.round(mem.rss_mb),
      ...latency,
      counts,
      build: built,
      sizes: sizesOnDisk,
      gds,
      generated: { facts: graph.facts, curatedEdges: graph.curatedEdges, curatedEntities: graph.curatedEntities, topDegrees: graph.topDegrees },
      ...(ingest ? { ingest } : {}),
      vector_segments: { built: builtSegments, ...(ingest ? { after_ingest: segments() } : {}) },
    };
    results.push(r);
    // Written after every size, so a run stopped at a larger size keeps the smaller ones.
    fs.writeFileSync(path.join(out, 'summary.json'), `${JSON.stringify({ sizes: results }, null, 2)}\n`);
    const model = memoryModel(results, base.dimension);
    fs.writeFileSync(path.join(out, 'model.json'), `${JSON.stringify(model, null, 2)}\n`);
    writeScaleReport(out, results, model, { argv: process.argv.slice(2), ...cfg, bulk: values.bulk! });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
