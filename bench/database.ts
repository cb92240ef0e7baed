/**
 * The embedded Neo4j an evaluation runs on: one data folder per ingested input
 * (.data/eval/<key>), so switching datasets costs a restart, not a re-ingest.
 * With NEO4J_URI set, that database is used instead (emptied and re-ingested
 * when the key differs).
 */
import { wipeGraph } from './lib/wipe.js';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, loadConfig, type Config } from '../server/config.js';
import { createEmbedder } from '../server/embedders/index.js';
import type { Embedder } from '../server/embedders/types.js';
import { migrate } from '../server/db/migrate.js';
import { GraphStore } from '../server/db/store.js';
import { embedFacts, ingestPath, progressBar, walkedTypes } from '../server/ingest/index.js';
import { ensureProjection } from '../server/db/projection.js';
import { OFFLINE_EXTRACTOR_ID } from '../server/extractors/offline/index.js';

export interface EvalDatabase {
  store: GraphStore;
  fresh: boolean;
  stop: () => void;
  /** How another client (the peers) reaches the same database. */
  connection: { uri: string; user: string; password: string; database: string };
}

/** The configured extractor's version: the offline extractor's id (bumped when its rules change) or the Anthropic model. */
export function extractorVersion(cfg: Pick<Config, 'extractor' | 'anthropic'>): string {
  return cfg.extractor === 'anthropic' ? `anthropic:${cfg.anthropic.model}` : OFFLINE_EXTRACTOR_ID;
}

/** The eval database's key for a corpus: its content, the embedder and the extractor's version (a change of any re-ingests). */
export function corpusKey(dataset: string, corpusFile: string, cfg: Config, embedder: Embedder): string {
  const corpusHash = crypto.createHash('sha256').update(fs.readFileSync(corpusFile)).digest('hex').slice(0, 12);
  return `${path.basename(dataset)}-${corpusHash}-${embedder.id.replace(/[^\w.-]+/g, '_')}-${extractorVersion(cfg).replace(/[^\w.-]+/g, '_')}`;
}

/** The Bolt port a launcher data folder was last started on (its conf/neo4j.conf), or null. */
export function boltPortOf(dataDir: string): string | null {
  const conf = path.join(dataDir, 'conf', 'neo4j.conf');
  if (!fs.existsSync(conf)) return null;
  return fs.readFileSync(conf, 'utf8').match(/^server\.bolt\.listen_address=.*:(\d+)\s*$/m)?.[1] ?? null;
}

export async function openDatabase(cfg: Config, key: string): Promise<EvalDatabase> {
  if (process.env.NEO4J_URI) {
    return { store: GraphStore.connect(cfg.neo4j), fresh: false, stop: () => {}, connection: cfg.neo4j };
  }
  const env = {
    ...process.env,
    NEO4J_BOLT_PORT: process.env.EVAL_NEO4J_BOLT_PORT || '27688',
    NEO4J_HTTP_PORT: process.env.EVAL_NEO4J_HTTP_PORT || '27475',
    NEO4J_DATA_DIR: `.data/eval/${key}`,
    NEO4J_PASSWORD: 'graph-recall-eval',
  };
  const launcher = path.join(ROOT, 'docker', 'neo4j.mjs');
  // One eval database per port: stop the other one that was last started on this port (an eval on another
  // EVAL_NEO4J_BOLT_PORT keeps its own).
  for (const d of fs.existsSync(path.join(ROOT, '.data/eval')) ? fs.readdirSync(path.join(ROOT, '.data/eval')) : []) {
    if (d !== key && boltPortOf(path.join(ROOT, '.data/eval', d)) === env.NEO4J_BOLT_PORT) {
      spawnSync(process.execPath, [launcher, 'stop'], { env: { ...env, NEO4J_DATA_DIR: `.data/eval/${d}` }, stdio: 'ignore' });
    }
  }
  const fresh = !fs.existsSync(path.join(ROOT, '.data/eval', key, 'data'));
  const r = spawnSync(process.execPath, [launcher, 'start'], { env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not start the eval Neo4j');
  const store = GraphStore.connect({ ...cfg.neo4j, uri: `bolt://127.0.0.1:${env.NEO4J_BOLT_PORT}`, password: env.NEO4J_PASSWORD });
  const connection = { uri: `bolt://127.0.0.1:${env.NEO4J_BOLT_PORT}`, user: cfg.neo4j.user, password: env.NEO4J_PASSWORD, database: cfg.neo4j.database };
  return { store, fresh, stop: () => spawnSync(process.execPath, [launcher, 'stop'], { env, stdio: 'ignore' }), connection };
}

/**
 * A throwaway embedded Neo4j on its own ports and data folder, emptied first (stopped, folder
 * removed, started): the ingest benchmarks' way to time a write into a graph nothing else holds.
 */
export function startScratchNeo4j(opts: { boltPort: number; httpPort: number; dataDir: string; password: string; heap?: string; pagecache?: string }): {
  uri: string;
  password: string;
  stop: () => void;
} {
  const env = {
    ...process.env,
    NEO4J_BOLT_PORT: String(opts.boltPort),
    NEO4J_HTTP_PORT: String(opts.httpPort),
    NEO4J_DATA_DIR: opts.dataDir,
    NEO4J_PASSWORD: opts.password,
    ...(opts.heap ? { NEO4J_HEAP: opts.heap } : {}),
    ...(opts.pagecache ? { NEO4J_PAGECACHE: opts.pagecache } : {}),
  };
  const launcher = path.join(ROOT, 'docker', 'neo4j.mjs');
  spawnSync(process.execPath, [launcher, 'stop'], { env, stdio: 'ignore' });
  fs.rmSync(path.join(ROOT, opts.dataDir), { recursive: true, force: true });
  if (spawnSync(process.execPath, [launcher, 'start'], { env, stdio: 'inherit' }).status !== 0) throw new Error(`could not start Neo4j in ${opts.dataDir}`);
  return {
    uri: `bolt://127.0.0.1:${opts.boltPort}`,
    password: opts.password,
    stop: () => void spawnSync(process.execPath, [launcher, 'stop'], { env, stdio: 'ignore' }),
  };
}

/**
 * The eval database of a dataset's corpus, ready to query: started (or reused), migrated,
 * ingested when its key is new, with the ppr projection in place. ingestSeconds is 0 when
 * the corpus was already there.
 */
export async function openCorpus(cfg: Config, embedder: Embedder, dataset: string, corpusFile: string) {
  const key = corpusKey(dataset, corpusFile, cfg, embedder);
  const db = await openDatabase(cfg, key);
  await migrate(db.store, { dimension: embedder.dimension });
  const ingestSeconds = await ensureCorpus(db.store, cfg, embedder, corpusFile, key);
  await ensureProjection(db.store.driver, { graphName: cfg.pprGraphName, database: db.store.database });
  return { db, store: db.store, ingestSeconds };
}

/** Ingests input (a corpus file or a curated-graph folder) unless the database already holds it; returns the seconds spent. */
export async function ensureCorpus(store: GraphStore, cfg: Config, embedder: Embedder, input: string, key: string): Promise<number> {
  const meta = await store.read("OPTIONAL MATCH (m:GraphRecallMeta {key: 'evalCorpus'}) RETURN m.value AS v");
  if (meta.records[0].get('v') === key) {
    // A database ingested before fact seeds gets its facts' vectors once (nothing to do afterwards).
    const t0 = performance.now();
    const n = await embedFacts(store, embedder, await walkedTypes(store, cfg.traverseTypes), { onProgress: progressBar() });
    if (n > 0) console.log(`embedded ${n} facts in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    return 0;
  }
  await wipeGraph(store.driver, { database: store.database });
  const t0 = performance.now();
  const summary = await ingestPath({ store, config: cfg, embedder }, input, { onProgress: progressBar() });
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `ingested ${summary.passages} passages, ${summary.entities} entities, ${summary.relations} relations, ${summary.synonyms} synonyms in ${seconds.toFixed(0)} s`,
  );
  await store.write("MERGE (m:GraphRecallMeta {key: 'evalCorpus'}) SET m.value = $key", { key });
  return seconds;
}

/** A dataset folder's corpus.jsonl and dev.jsonl (the bench/data format); a missing one is an error naming --dataset. */
export function datasetFiles(dataset: string): { dir: string; corpus: string; devFile: string } {
  const dir = path.resolve(dataset);
  const corpus = path.join(dir, 'corpus.jsonl');
  const devFile = path.join(dir, 'dev.jsonl');
  for (const f of [corpus, devFile]) if (!fs.existsSync(f)) throw new Error(`--dataset: ${f} not found`);
  return { dir, corpus, devFile };
}

/** The questions of a dev.jsonl, in file order. */
export function devQuestions(devFile: string): string[] {
  return fs
    .readFileSync(devFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => String(JSON.parse(l).question));
}

/** A question of a dev.jsonl (the bench/data format), with its gold passages' corpus ids. */
export interface Question {
  id: string;
  question: string;
  answers: string[];
  type?: string;
  supporting_ids: string[];
}

/** The questions of a dev.jsonl (or another file in its format), in file order; a line without question or supporting_ids is an error naming it. */
export function readQuestions(file: string): Question[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const q = JSON.parse(l);
      if (!q.question || !Array.isArray(q.supporting_ids)) throw new Error(`${file}:${i + 1}: needs question and supporting_ids`);
      return { id: String(q.id ?? i + 1), question: q.question, answers: q.answers ?? [], type: q.type, supporting_ids: q.supporting_ids.map(String) };
    });
}

/**
 * A dataset's eval database and dev questions, for a program that queries it directly: the configured embedder, the
 * corpus ingested (or reused) by openCorpus, and the questions of its dev.jsonl.
 */
export async function openDevSet(dataset: string) {
  const { dir, corpus, devFile } = datasetFiles(dataset);
  const cfg = loadConfig();
  const embedder = await createEmbedder(cfg);
  const { db, store } = await openCorpus(cfg, embedder, dir, corpus);
  return { dir, cfg, embedder, db, store, questions: readQuestions(devFile) };
}
