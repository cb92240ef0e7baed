/**
 * Latency benchmark: each retrieval mode against a bare vector-index query,
 * measured side by side (interleaved, rotating order), client-side with the
 * Bolt round trip included. The bare query is what a user of neo4j-graphrag's
 * VectorRetriever runs: one `db.index.vector.queryNodes` on the passage index
 * returning the top-K (10) passage ids and texts. Prints p50/p95 per variant
 * and each one's ratio to the bare query's p50.
 *
 *   npm run bench:latency -- [--dataset bench/data/musique] [--questions 40] [--stages] [--variants '[{"name", "mode", "params"}]']
 *   npm run bench:latency -- [--entities 100000] [--relations 500000] [--passages 50000] [--questions 60]
 *
 * With --dataset: the dev graph of that dataset (the eval harness's cached
 * database, ingested on first use) and its dev questions, embedded locally.
 * Without: a seeded synthetic graph of ~100k entities, ~500k relationships and
 * ~50k passages with random unit embeddings, in its own embedded Neo4j (port
 * 27687, .data/neo4j-bench), generated once and reused while its settings hold.
 * Either way NEO4J_URI, when set, names the database to use instead.
 *
 * Each mode is also run as its .cypher file alone from a plain client (driver.executeQuery, the
 * same parameters: what a DBA runs), and the server's own timings.dbMs is printed against it.
 *
 * --stages also times each mode's statement cut after each of its stages (seed
 * mapping; the walk or PageRank), so where a mode's time goes reads as the
 * difference between consecutive cuts (Neo4j Community's PROFILE gives rows and
 * db hits, not time).
 */
import { wipeGraph } from './lib/wipe.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import { ROOT, loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { createEmbedder } from '../server/embedders/index.js';
import { Retriever, toDriverParams } from '../server/retrieval/retriever.js';
import { GraphStore } from '../server/db/store.js';
import { MODES, MODE_NAMES, type Mode } from '../server/retrieval/params.js';
import { CYPHER_DIR } from '../server/db/cypher.js';
import { manageProjection } from '../server/db/projection.js';
import { embedQuestion } from '../server/retrieval/service.js';
import { datasetFiles, devQuestions, openCorpus } from './database.js';
import { percentile } from './lib/metrics.js';
import { rng } from './lib/random.js';

const DIM = 384;
const { values } = parseArgs({
  options: {
    entities: { type: 'string', default: '100000' },
    relations: { type: 'string', default: '500000' },
    passages: { type: 'string', default: '50000' },
    questions: { type: 'string' },
    warmup: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    dataset: { type: 'string' },
    stages: { type: 'boolean' },
    variants: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`usage: npm run bench:latency -- [--dataset bench/data/musique] [--questions N] [--warmup 5] [--stages]
                                   [--variants '[{"name": "ppr, 4 threads", "mode": "ppr", "params": {"concurrency": 4}}]']
       npm run bench:latency -- [--entities 100000] [--relations 500000] [--passages 50000] [--questions 60] [--seed 1]`);
  process.exit(0);
}
const cfg = {
  entities: Number(values.entities),
  relations: Number(values.relations),
  passages: Number(values.passages),
  questions: Number(values.questions ?? (values.dataset ? 40 : 60)),
  warmup: Number(values.warmup),
  seed: Number(values.seed),
};

const rand = rng(cfg.seed);
/** Standard normal (Box-Muller), for isotropic random directions. */
const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const randomUnit = () => unit(Array.from({ length: DIM }, gauss));
/** Skewed endpoint choice, so some entities are hubs as in real graphs. */
const skewed = (n: number) => Math.floor(n * rand() ** 2);

async function startDatabase(): Promise<{ uri: string; password: string }> {
  if (process.env.NEO4J_URI) return { uri: process.env.NEO4J_URI, password: process.env.NEO4J_PASSWORD || 'graph-recall-dev' };
  const env = {
    ...process.env,
    NEO4J_BOLT_PORT: '27687',
    NEO4J_HTTP_PORT: '27474',
    NEO4J_DATA_DIR: '.data/neo4j-bench',
    NEO4J_PASSWORD: 'graph-recall-bench',
    NEO4J_HEAP: process.env.NEO4J_HEAP || '4g',
    NEO4J_PAGECACHE: process.env.NEO4J_PAGECACHE || '3g',
  };
  const r = spawnSync(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'start'], { env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not start the benchmark Neo4j');
  return { uri: 'bolt://127.0.0.1:27687', password: 'graph-recall-bench' };
}

async function run(driver: Driver, q: string, p: Record<string, unknown> = {}) {
  const s = driver.session();
  try {
    return (await s.run(q, p)).records;
  } finally {
    await s.close();
  }
}

async function generate(driver: Driver): Promise<void> {
  const signature = JSON.stringify({ ...cfg, questions: undefined, warmup: undefined });
  const existing = await run(driver, "OPTIONAL MATCH (m:GraphRecallMeta {key: 'bench'}) RETURN m.signature AS s");
  if (existing[0].get('s') === signature) {
    console.log('reusing the generated graph');
    return;
  }
  console.log(`generating ${cfg.entities} entities, ${cfg.relations} relationships, ${cfg.passages} passages (${DIM}-d)...`);
  const t0 = performance.now();
  await wipeGraph(driver);
  const batch = 2000;
  for (let i = 0; i < cfg.entities; i += batch) {
    const rows = Array.from({ length: Math.min(batch, cfg.entities - i) }, (_, k) => ({ id: `e${i + k}`, v: randomUnit(), d: randomUnit() }));
    await run(driver, "UNWIND $rows AS r CREATE (:Entity {id: r.id, name: 'Entity ' + r.id, type: 'Thing', embedding: r.v, descriptionEmbedding: r.d})", {
      rows,
    });
    process.stderr.write(`\rentities ${i + rows.length}/${cfg.entities}`);
  }
  for (let i = 0; i < cfg.passages; i += batch) {
    const rows = Array.from({ length: Math.min(batch, cfg.passages - i) }, (_, k) => ({
      id: `p${i + k}`,
      v: randomUnit(),
      m: Array.from({ length: 3 + Math.floor(rand() * 3) }, () => `e${skewed(cfg.entities)}`),
    }));
    await run(
      driver,
      `UNWIND $rows AS r CREATE (p:Passage {id: r.id, title: r.id, text: 'Passage ' + r.id, embedding: r.v})
                       WITH p, r UNWIND r.m AS eid MATCH (e:Entity {id: eid}) MERGE (p)-[:MENTIONS {weight: 1.0}]->(e)`,
      { rows },
    );
    process.stderr.write(`\rpassages ${i + rows.length}/${cfg.passages}   `);
  }
  for (let i = 0; i < cfg.relations; i += 10000) {
    const rows = Array.from({ length: Math.min(10000, cfg.relations - i) }, () => {
      const a = skewed(cfg.entities);
      let b = Math.floor(rand() * cfg.entities);
      if (b === a) b = (a + 1) % cfg.entities;
      return { a: `e${a}`, b: `e${b}`, same: rand() < 0.02 };
    });
    await run(
      driver,
      `UNWIND $rows AS r MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b})
                       FOREACH (_ IN CASE WHEN r.same THEN [1] ELSE [] END | CREATE (a)-[:SAME_AS {score: 0.9, weight: 0.9}]->(b))
                       FOREACH (_ IN CASE WHEN r.same THEN [] ELSE [1] END | CREATE (a)-[:RELATED {predicate: 'rel', weight: 1.0}]->(b))`,
      { rows },
    );
    process.stderr.write(`\rrelationships ${i + rows.length}/${cfg.relations}   `);
  }
  await run(driver, 'CALL db.awaitIndexes(3600)');
  await run(driver, "MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()");
  await run(driver, "MERGE (m:GraphRecallMeta {key: 'bench'}) SET m.signature = $s", { s: signature });
  console.log(`\ngenerated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/** A graph to measure on: its store, a retriever and the questions (text where known, and embedding). */
interface Setup {
  store: GraphStore;
  retriever: Retriever;
  questions: { text?: string; embedding: number[] }[];
  label: string;
  stop: () => void;
}

async function syntheticSetup(): Promise<Setup> {
  const db = await startDatabase();
  const store = GraphStore.connect({ uri: db.uri, user: 'neo4j', password: db.password, database: 'neo4j', embedded: false });
  const driver = store.driver;
  await migrate(store, { dimension: DIM });
  await generate(driver);
  const tp = performance.now();
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
  console.log(`projection refreshed in ${((performance.now() - tp) / 1000).toFixed(1)} s`);
  const counts = (
    await run(driver, 'RETURN COUNT { (:Entity) } AS e, COUNT { ()-[:RELATED|SAME_AS]->() } AS r, COUNT { (:Passage) } AS p, COUNT { ()-[:MENTIONS]->() } AS m')
  )[0].toObject();
  const retriever = new Retriever(store, { timeoutMs: 120000, allowedRelTypes: ['RELATED', 'SAME_AS'], pprGraphName: 'graph_recall_ppr' });
  // Questions that resemble a few entities (so there are real seeds), like a real question would.
  const entityVectors = await run(driver, 'MATCH (e:Entity) WHERE e.id IN $ids RETURN e.embedding AS v', {
    ids: Array.from({ length: 3 * (cfg.questions + cfg.warmup) }, () => `e${Math.floor(rand() * cfg.entities)}`),
  });
  const questions = Array.from({ length: cfg.questions + cfg.warmup }, (_, i) => {
    const parts = [0, 1, 2].map((k) => entityVectors[(3 * i + k) % entityVectors.length].get('v') as number[]);
    const noise = randomUnit();
    return { embedding: unit(parts[0].map((_, d) => parts[0][d] + parts[1][d] + parts[2][d] + 0.5 * noise[d])) };
  });
  const label = `synthetic graph: ${counts.e} entities, ${counts.r} entity relationships, ${counts.p} passages, ${counts.m} mentions`;
  return { store, retriever, questions, label, stop: () => {} };
}

async function datasetSetup(dataset: string): Promise<Setup> {
  const { dir, corpus, devFile } = datasetFiles(dataset);
  const appCfg = loadConfig();
  const embedder = await createEmbedder(appCfg);
  const { db, store } = await openCorpus(appCfg, embedder, dir, corpus);
  const retriever = new Retriever(store, {
    timeoutMs: 120000,
    allowedRelTypes: appCfg.traverseTypes,
    pprGraphName: appCfg.pprGraphName,
    cosineFloor: embedder.cosineFloor,
  });
  const texts = devQuestions(devFile);
  // The warm-up questions come first and are taken from the end of the dev set.
  const picked = [...texts.slice(-cfg.warmup), ...texts.slice(0, cfg.questions)];
  const questions = [];
  for (const text of picked) questions.push({ text, embedding: (await embedQuestion(embedder, { question: text })).embedding });
  const counts = (await store.read('RETURN COUNT { (:Entity) } AS e, COUNT { (:Passage) } AS p')).records[0].toObject();
  return { store, retriever, questions, label: `${path.basename(dir)} dev graph: ${counts.e} entities, ${counts.p} passages`, stop: db.stop };
}

/**
 * A mode's statement cut after each of its stages: the text up to the next stage's
 * marker, returning a value that depends on the stage's output (so nothing is pruned).
 */
function stageCuts(mode: Mode): { stage: string; text: string }[] {
  const full = fs.readFileSync(path.join(CYPHER_DIR, MODES[mode].file), 'utf8');
  const cut = (marker: string, ret: string) => {
    const found = full.indexOf(marker);
    if (found < 0) throw new Error(`${MODES[mode].file}: no "${marker}" marker`);
    const at = full.lastIndexOf('\n', found) + 1;
    return `${full.slice(0, at)}RETURN ${ret} AS n`;
  };
  // vector searches passages first and maps seeds only where facts lie outside them.
  // The section lines are numbered per file (scripts/render-cypher.ts): cut at their titles.
  if (mode === 'vector') return [{ stage: 'passage search', text: cut('. seeds: on a graph without passages', 'size(ranked)') }];
  const cuts = [{ stage: 'seeds', text: cut('// ---- 2.', 'size(seeds)') }];
  if (mode === 'gated') cuts.push({ stage: 'seeds + walk', text: cut('. top entities, passage ranking', 'size(keys(act))') });
  if (mode === 'ppr') cuts.push({ stage: 'seeds + PageRank', text: cut('. top entities, passage ranking', 'size(keys(act))') });
  return cuts;
}

async function main() {
  const setup = values.dataset ? await datasetSetup(values.dataset) : await syntheticSetup();
  const { store, retriever, questions } = setup;
  console.log(setup.label);

  type Question = (typeof questions)[number];
  type Variant = { name: string; run: (q: Question) => Promise<unknown> };
  // The reference: what neo4j-graphrag's VectorRetriever runs (top-K passage ids and texts).
  const bare = (q: Question) =>
    store.readTransaction((tx) =>
      tx.run("CALL db.index.vector.queryNodes('passage_embedding', $k, $q) YIELD node, score RETURN node.id AS id, node.text AS text, score", {
        q: q.embedding,
        k: neo4j.int(10),
      }),
    );
  const mode =
    (m: Mode, params: Record<string, unknown> = {}) =>
    (q: Question) =>
      retriever.retrieve({ mode: m, question: q.text ?? '', questionEmbedding: q.embedding, params });
  const variants: Variant[] = [
    { name: 'bare vector index (k=10)', run: bare },
    { name: 'vector', run: mode('vector') },
    { name: 'hybrid', run: mode('hybrid') },
    { name: 'gated', run: mode('gated') },
    { name: 'ppr', run: mode('ppr') },
  ];
  if (!values.dataset) {
    variants.push({ name: 'gated, gate off', run: mode('gated', { gate: false }) });
    variants.push({ name: 'ppr, one unweighted run', run: mode('ppr', { exactWeights: false }) });
  }
  for (const v of values.variants ? (JSON.parse(values.variants) as { name: string; mode: Mode; params?: Record<string, unknown> }[]) : []) {
    variants.push({ name: v.name, run: mode(v.mode, v.params) });
  }
  // Each mode's file as a DBA runs it: the statement alone from a plain client (driver.executeQuery,
  // the same parameters), against which the server's own timings.dbMs is compared.
  const CLIENT = ' (the file, from a client)';
  for (const m of MODE_NAMES) {
    const text = fs.readFileSync(path.join(CYPHER_DIR, MODES[m].file), 'utf8');
    variants.push({
      name: m + CLIENT,
      run: (q) => {
        const params = toDriverParams({ ...retriever.effectiveParams(m), question: q.text ?? '', questionEmbedding: q.embedding });
        return store.driver.executeQuery(text, params, { database: store.database, routing: neo4j.routing.READ });
      },
    });
  }
  if (values.stages) {
    for (const m of ['vector', 'gated', 'ppr'] as Mode[]) {
      for (const { stage, text } of stageCuts(m)) {
        variants.push({
          name: `${m}: ${stage}`,
          run: (q) => {
            const params = toDriverParams({ ...retriever.effectiveParams(m), question: q.text ?? '', questionEmbedding: q.embedding });
            return store.readTransaction((tx) => tx.run(text, params));
          },
        });
      }
    }
  }
  const times = new Map(variants.map((v) => [v.name, [] as number[]]));
  /** The server's own timings.dbMs, for the variants that go through the Retriever. */
  const dbMs = new Map(variants.map((v) => [v.name, [] as number[]]));
  for (let i = 0; i < questions.length; i++) {
    // Rotate the order so no variant always runs first (cache effects spread evenly).
    const order = variants.map((_, k) => variants[(k + i) % variants.length]);
    for (const v of order) {
      const t0 = performance.now();
      const out = (await v.run(questions[i])) as { timings?: { dbMs?: number } };
      if (i >= cfg.warmup) times.get(v.name)!.push(performance.now() - t0);
      if (i >= cfg.warmup && typeof out?.timings?.dbMs === 'number') dbMs.get(v.name)!.push(out.timings.dbMs);
    }
    process.stderr.write(`\rquestion ${i + 1}/${questions.length}`);
  }
  process.stderr.write('\n');
  const base = percentile(times.get(variants[0].name)!, 50);
  console.log(`\n${questions.length - cfg.warmup} questions (after ${cfg.warmup} warm-up), interleaved; client-side wall time including the Bolt round trip`);
  console.log('| variant | p50 ms | p95 ms | p50 / bare |');
  console.log('|---|---|---|---|');
  for (const v of variants) {
    const t = times.get(v.name)!;
    const p50 = percentile(t, 50);
    console.log(`| ${v.name} | ${p50.toFixed(1)} | ${percentile(t, 95).toFixed(1)} | ${(p50 / base).toFixed(2)}x |`);
  }
  // The server's timings.dbMs (a read transaction: begin, run, pull, commit) against the same file run from a client.
  console.log("\nThe server's timings.dbMs against the same statement file run from a plain client (driver.executeQuery), same questions and parameters:");
  console.log('| mode | server dbMs p50 | the file from a client, p50 | difference |');
  console.log('|---|---|---|---|');
  for (const m of MODE_NAMES) {
    const server = percentile(dbMs.get(m)!, 50);
    const client = percentile(times.get(m + CLIENT)!, 50);
    console.log(`| ${m} | ${server.toFixed(1)} | ${client.toFixed(1)} | ${(server - client >= 0 ? '+' : '') + (server - client).toFixed(1)} ms |`);
  }
  await store.close();
  setup.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
