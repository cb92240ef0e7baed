/**
 * Two-layer benchmark: literature passages linked into a curated knowledge graph, built from
 * the graph's own edges (no LLM, seeded; bench/lib/twolayer-generate.ts). A share of the Hetionet
 * sample's literature-like edges (binds, causes, upregulates, associates) is held out of the
 * curated graph and written as passages; each question needs one curated hop from the disease
 * it names (treats, palliates, resembles) and one literature hop, and its gold passages never
 * name that disease.
 *
 *   npm run bench:twolayer -- [--dry-run] [--reuse] [--seed 1] [--per-template 20] [--share 0.5]
 *                             [--modes vector,hybrid,gated,ppr] [--no-peers] [--no-ingest-cost]
 *                             [--variants '[{"name", "mode", "params"}]'] [--dataset bench/data/hetionet] [--out <dir>]
 *
 * --variants: more named runs of a mode with other parameters, measured side by side with --modes (as bench/eval.ts's).
 *
 * NEO4J_URI (and NEO4J_PASSWORD) name the database: it is emptied and given the filtered curated
 * graph (10-15 min on 2 cores), unless --reuse finds the same curated graph there already. The
 * literature documents are then ingested into it (timed). The ingest cost is the same documents
 * into an empty graph: a second Neo4j (ports 37688/37475, .data/neo4j-twolayer-empty, emptied),
 * or EMPTY_NEO4J_URI / EMPTY_NEO4J_PASSWORD.
 */
import { DELETE_BATCH, wipeGraph } from './lib/wipe.js';
import neo4j from 'neo4j-driver';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, loadConfig, type Config } from '../server/config.js';
import { bulkEmbedWorkers } from '../server/cli/common.js';
import { migrate } from '../server/db/migrate.js';
import { ensureEmbedder } from '../server/db/embedder-guard.js';
import { createEmbedder } from '../server/embedders/index.js';
import type { Embedder } from '../server/embedders/types.js';
import { createExtractor } from '../server/extractors/index.js';
import { GraphStore } from '../server/db/store.js';
import { ingestCurated, ingestDocuments, progressBar, readHetionet, walkedTypes, type IngestContext } from '../server/ingest/index.js';
import type { IngestSummary } from '../server/ingest/types.js';
import type { RetrievalResult } from '../server/retrieval/results.js';
import { Retriever } from '../server/retrieval/retriever.js';
import { MODE_NAMES, type Mode } from '../server/retrieval/params.js';
import { ensureProjection } from '../server/db/projection.js';
import { embedQuestion } from '../server/retrieval/service.js';
import { extractorVersion, startScratchNeo4j } from './database.js';
import { pairedBootstrap, scoreRanking } from './lib/metrics.js';
import { checkVariants, parseVariants, type Variant } from './lib/variants.js';
import { DEFAULT_OPTIONS, generateTwoLayer, readSample, type TwoLayerDataset, type TwoLayerQuestion, writeFilteredSample } from './lib/twolayer-generate.js';

const USAGE = `usage: npm run bench:twolayer -- [--dry-run] [--reuse] [--seed 1] [--per-template 20] [--share 0.5]
                                [--modes vector,hybrid,gated,ppr] [--no-peers] [--no-ingest-cost] [--dataset bench/data/hetionet] [--out dir]
                                [--variants '[{"name": "ppr, damping 0.5", "mode": "ppr", "params": {"dampingFactor": 0.5}}]']
  NEO4J_URI / NEO4J_PASSWORD: the database (emptied unless --reuse finds the same curated graph)`;

const r4 = (x: number) => Math.round(x * 10000) / 10000;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const sha = (s: string | Buffer) => crypto.createHash('sha256').update(s).digest('hex').slice(0, 12);
const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';

/** The dataset files: corpus.jsonl (as ingested), questions.jsonl (with gold), held-out.tsv. */
export function datasetFiles(ds: TwoLayerDataset): Record<string, string> {
  const corpus = ds.documents.map((d) => JSON.stringify({ id: d.id, title: d.title, text: d.text, source: d.source })).join('\n');
  const annotations = ds.documents
    .map((d) => JSON.stringify({ id: d.id, kind: d.kind, subject: d.subject, metaedge: d.metaedge, facts: d.facts?.map((e) => e.target) }))
    .join('\n');
  const questions = ds.questions.map((q) => JSON.stringify(q)).join('\n');
  const heldOut = ['source\tmetaedge\ttarget', ...ds.heldOut.map((e) => `${e.source}\t${e.metaedge}\t${e.target}`)].join('\n');
  return {
    'corpus.jsonl': `${corpus}\n`,
    'passages.jsonl': `${annotations}\n`,
    'questions.jsonl': `${questions}\n`,
    'held-out.tsv': `${heldOut}\n`,
    'options.json': `${JSON.stringify(ds.options, null, 2)}\n`,
  };
}

async function* asItems(ds: TwoLayerDataset) {
  for (const d of ds.documents) yield { document: { id: d.id, title: d.title, text: d.text, source: d.source } };
}

/** Documents, passages and extracted entities go; the curated graph stays. */
async function removeLiterature(store: GraphStore): Promise<void> {
  const s = store.driver.session({ database: store.database });
  try {
    await s.run('MATCH (n) WHERE n:Document OR n:Passage OR (n:Entity AND NOT n:Curated) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF $batch ROWS', {
      batch: neo4j.int(DELETE_BATCH),
    });
  } finally {
    await s.close();
  }
}

async function meta(store: GraphStore, key: string): Promise<string | null> {
  const res = await store.read('OPTIONAL MATCH (m:GraphRecallMeta {key: $key}) RETURN m.value AS v', { key });
  return res.records[0].get('v');
}
async function setMeta(store: GraphStore, key: string, value: string): Promise<void> {
  await store.write('MERGE (m:GraphRecallMeta {key: $key}) SET m.value = $value', { key, value });
}

async function context(store: GraphStore, cfg: Config, embedder: Embedder): Promise<IngestContext> {
  return {
    store,
    embedder,
    extractor: await createExtractor(cfg),
    graphName: cfg.pprGraphName,
    extraProjectionTypes: await walkedTypes(store, cfg.traverseTypes),
  };
}

/** Ingests the literature documents, timed; the summary and passages per second. */
async function ingestLiterature(store: GraphStore, cfg: Config, embedder: Embedder, ds: TwoLayerDataset) {
  const ctx = await context(store, cfg, embedder);
  const t0 = performance.now();
  const summary = await ingestDocuments(ctx, asItems(ds), { onProgress: progressBar() });
  const seconds = (performance.now() - t0) / 1000;
  return { summary, seconds, passagesPerSecond: summary.passages / seconds };
}

/** The same documents into an empty graph: a second Neo4j of our own (or EMPTY_NEO4J_URI). */
async function ingestIntoEmpty(cfg: Config, embedder: Embedder, ds: TwoLayerDataset) {
  let uri = process.env.EMPTY_NEO4J_URI;
  let password = process.env.EMPTY_NEO4J_PASSWORD ?? cfg.neo4j.password;
  let stop = () => {};
  if (!uri) {
    ({ uri, password, stop } = startScratchNeo4j({
      boltPort: 37688,
      httpPort: 37475,
      dataDir: '.data/neo4j-twolayer-empty',
      password: 'graph-recall-dev',
      heap: '1g',
      pagecache: '512m',
    }));
  }
  const store = GraphStore.connect({ ...cfg.neo4j, uri, password });
  try {
    await migrate(store, { dimension: embedder.dimension });
    await ensureEmbedder(store, embedder);
    await wipeGraph(store.driver, { database: store.database });
    return await ingestLiterature(store, cfg, embedder, ds);
  } finally {
    await store.close();
    stop();
  }
}

interface ModeScore {
  recall_at_2: number;
  recall_at_5: number;
  recall_at_10: number;
  rr: number;
  passages: string[];
  dbMs?: number;
}
interface Row {
  q: TwoLayerQuestion;
  modes: Record<string, ModeScore>;
  /** Per graph mode, for the misses: the returned entities' ids and the seeds. */
  trace: Record<string, { seeds: string[]; entities: { id: string; activation: number }[] }>;
}

/** For each missed gold passage of a graph mode: linked? activated? a candidate at all? */
async function diagnose(store: GraphStore, rows: Row[], modes: string[], ds: TwoLayerDataset) {
  const docById = new Map(ds.documents.map((d) => [d.id, d]));
  const goldIds = [...new Set(rows.flatMap((r) => r.q.supporting_ids))];
  const res = await store.read(
    `UNWIND $ids AS id MATCH (p:Passage {documentId: id})
     OPTIONAL MATCH (p)-[m:MENTIONS]->(c:Curated) WHERE m.method IS NOT NULL
     RETURN id, collect({entity: c.id, confidence: m.confidence, method: m.method}) AS links`,
    { ids: goldIds },
  );
  const links = new Map<string, { entity: string; confidence: number; method: string }[]>(
    res.records.map((r) => [r.get('id'), r.get('links').filter((l: { entity: string | null }) => l.entity)]),
  );
  const out: Record<string, unknown>[] = [];
  const counts: Record<string, Record<string, number>> = {};
  for (const mode of modes) {
    const c = (counts[mode] = { missed: 0, subjectNotLinked: 0, subjectNotActivated: 0, subjectActivatedNotInTop10: 0, inTop10Not5: 0, anchorNotSeed: 0 });
    for (const r of rows) {
      const top5 = new Set([...new Set(r.modes[mode].passages)].slice(0, 5));
      const top10 = [...new Set(r.modes[mode].passages)].slice(0, 10);
      const t = r.trace[mode];
      const anchorSeed = t.seeds.includes(`hetionet:${r.q.anchor}`);
      for (const g of r.q.supporting_ids) {
        if (top5.has(g)) continue;
        c.missed++;
        const doc = docById.get(g)!;
        const subject = `hetionet:${doc.subject}`;
        const linked = (links.get(g) ?? []).some((l) => l.entity === subject);
        const activated = t.entities.find((e) => e.id === subject);
        if (!anchorSeed) c.anchorNotSeed++;
        if (!linked) c.subjectNotLinked++;
        else if (!activated) c.subjectNotActivated++;
        else if (!top10.includes(g)) c.subjectActivatedNotInTop10++;
        else c.inTop10Not5++;
        out.push({
          mode,
          question: r.q.id,
          template: r.q.template,
          gold: g,
          subject,
          anchorSeed,
          linked,
          links: (links.get(g) ?? []).map((l) => `${l.entity} ${l.method} ${Number(l.confidence).toFixed(2)}`),
          activation: activated?.activation ?? null,
          rank: top10.indexOf(g) + 1 || null,
          seeds: t.seeds.slice(0, 5),
        });
      }
    }
  }
  return { counts, misses: out };
}

/** Link recall on the generated passages: is each passage linked to its subject and to its facts' objects? */
async function linkQuality(store: GraphStore, ds: TwoLayerDataset) {
  const res = await store.read(
    `MATCH (p:Passage) WHERE p.documentId STARTS WITH 'twolayer-'
     OPTIONAL MATCH (p)-[m:MENTIONS]->(c:Curated) WHERE m.method IS NOT NULL
     RETURN p.documentId AS id, collect(c.id) AS linked`,
  );
  const linked = new Map<string, Set<string>>(res.records.map((r) => [r.get('id'), new Set(r.get('linked') as string[])]));
  let subjects = 0;
  let subjectsLinked = 0;
  let objects = 0;
  let objectsLinked = 0;
  let total = 0;
  let expectedLinked = 0;
  for (const d of ds.documents) {
    const l = linked.get(d.id) ?? new Set();
    total += l.size;
    if (d.kind !== 'facts') {
      if (l.has(`hetionet:${d.subject}`)) expectedLinked++;
      continue;
    }
    subjects++;
    if (l.has(`hetionet:${d.subject}`)) {
      subjectsLinked++;
      expectedLinked++;
    }
    for (const e of d.facts ?? []) {
      objects++;
      if (l.has(`hetionet:${e.target}`)) {
        objectsLinked++;
        expectedLinked++;
      }
    }
  }
  return {
    links: total,
    subjectRecall: r4(subjectsLinked / subjects),
    objectRecall: r4(objectsLinked / objects),
    /** Links to an entity the generator did not write into the passage (an upper bound on wrong links: a name may appear by chance). */
    unexpected: total - expectedLinked,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'bench/data/hetionet' },
      seed: { type: 'string', default: String(DEFAULT_OPTIONS.seed) },
      'per-template': { type: 'string', default: String(DEFAULT_OPTIONS.perTemplate) },
      share: { type: 'string', default: String(DEFAULT_OPTIONS.share) },
      modes: { type: 'string', default: MODE_NAMES.join(',') },
      variants: { type: 'string' },
      'dry-run': { type: 'boolean' },
      reuse: { type: 'boolean' },
      'no-peers': { type: 'boolean' },
      'no-ingest-cost': { type: 'boolean' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const modeList = values.modes!.split(',').map((m) => m.trim()) as Mode[];
  for (const m of modeList) if (!MODE_NAMES.includes(m)) throw new Error(`--modes: unknown mode ${m}`);
  // Each run: a mode as it is, or a named variant of one (its name is its row in the report).
  const runs: Variant[] = [...modeList.map((m) => ({ name: m, mode: m, params: {} })), ...parseVariants(values.variants)];
  checkVariants(runs);
  const dataset = path.resolve(values.dataset!);
  const sample = readSample(dataset);
  const ds = generateTwoLayer(sample, { seed: Number(values.seed), perTemplate: Number(values['per-template']), share: Number(values.share) });

  // The generated dataset: always under bench/out/twolayer, and in bench/data/twolayer when small.
  const work = path.join(ROOT, 'bench', 'out', 'twolayer');
  const files = datasetFiles(ds);
  fs.mkdirSync(path.join(work, 'dataset'), { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(work, 'dataset', f), text);
  const bytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
  const isDefault =
    values.seed === String(DEFAULT_OPTIONS.seed) &&
    values['per-template'] === String(DEFAULT_OPTIONS.perTemplate) &&
    values.share === String(DEFAULT_OPTIONS.share) &&
    values.dataset === 'bench/data/hetionet';
  if (bytes < 2 * 2 ** 20 && isDefault) {
    const dir = path.join(ROOT, 'bench', 'data', 'twolayer');
    fs.mkdirSync(dir, { recursive: true });
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  }
  const sampleDir = path.join(work, 'sample');
  const { kept } = writeFilteredSample(sample, ds.heldOut, sampleDir);

  const facts = ds.documents.filter((d) => d.kind === 'facts').length;
  const byTemplate = new Map<string, number>();
  for (const q of ds.questions) byTemplate.set(q.template, (byTemplate.get(q.template) ?? 0) + 1);
  console.log(
    `sample: ${sample.nodes.size} nodes, ${sample.edges.length} edges; held out ${ds.heldOut.length} (${kept} kept); ` +
      `${ds.documents.length} passages (${facts} of facts, ${ds.documents.length - facts} distractors); ${ds.questions.length} questions ` +
      `(${[...byTemplate].map(([t, n]) => `${t} ${n}`).join(', ')}); dataset ${(bytes / 1024).toFixed(0)} KiB`,
  );
  if (values['dry-run']) {
    const show = (d: (typeof ds.documents)[number]) => console.log(`  [${d.id} ${d.kind}${d.metaedge ? ` ${d.metaedge}` : ''}] ${d.title}\n    ${d.text}`);
    console.log('\npassages:');
    for (const d of ds.documents.filter((x) => x.kind === 'facts').slice(0, 8)) show(d);
    for (const d of ds.documents.filter((x) => x.kind === 'distractor').slice(0, 3)) show(d);
    console.log('\nquestions:');
    for (const t of byTemplate.keys()) {
      for (const q of ds.questions.filter((x) => x.template === t).slice(0, 2)) {
        console.log(`  [${q.id} ${q.template}] ${q.question}  gold ${q.supporting_ids.join(', ')}`);
        for (const g of q.supporting_ids) console.log(`      ${g}: ${ds.documents.find((d) => d.id === g)!.text}`);
      }
    }
    return;
  }

  const cfg = loadConfig(undefined, bulkEmbedWorkers());
  if (!process.env.NEO4J_URI) throw new Error('set NEO4J_URI (and NEO4J_PASSWORD): this benchmark empties the database it is given');
  const embedder = await createEmbedder(cfg);
  const store = GraphStore.connect(cfg.neo4j);
  await migrate(store, { dimension: embedder.dimension });
  await ensureEmbedder(store, embedder);
  // Warm the embedder (workers, model) before anything is timed.
  await embedder.embed(['warm-up'], 'document');

  // 1. The curated layer: the filtered sample, unless --reuse finds it there.
  const curatedKey = `${sha(fs.readFileSync(path.join(sampleDir, 'edges-twolayer.sif.gz')))}-${sha(fs.readFileSync(path.join(sampleDir, 'nodes.tsv')))}-${embedder.id}`;
  let curatedSummary: IngestSummary | null = null;
  let curatedSeconds = 0;
  if (values.reuse && (await meta(store, 'twolayerCurated')) === curatedKey) {
    await removeLiterature(store);
    // The import again, as a user re-runs it: idempotent, it writes only what the reader now gives differently (a gloss).
    const t0 = performance.now();
    const again = await ingestCurated(await context(store, cfg, embedder), await readHetionet(sampleDir));
    console.log(`curated layer: reused (re-import: ${again.entities} new entities in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  } else {
    await wipeGraph(store.driver, { database: store.database });
    const t0 = performance.now();
    const ctx = await context(store, cfg, embedder);
    curatedSummary = await ingestCurated(ctx, await readHetionet(sampleDir), { onProgress: progressBar() });
    curatedSeconds = (performance.now() - t0) / 1000;
    await setMeta(store, 'twolayerCurated', curatedKey);
    console.log(`curated layer: ${curatedSummary.entities} entities, ${curatedSummary.relations} relations in ${curatedSeconds.toFixed(0)} s`);
  }

  // 2. The literature: into an empty graph (the cost baseline), then into the curated one.
  const empty = values['no-ingest-cost'] ? null : await ingestIntoEmpty(cfg, embedder, ds);
  if (empty) console.log(`empty graph: ${empty.summary.passages} passages in ${empty.seconds.toFixed(1)} s (${empty.passagesPerSecond.toFixed(1)}/s)`);
  const lit = await ingestLiterature(store, cfg, embedder, ds);
  console.log(
    `curated graph: ${lit.summary.passages} passages in ${lit.seconds.toFixed(1)} s (${lit.passagesPerSecond.toFixed(1)}/s), ${lit.summary.links} links`,
  );
  const linking = await linkQuality(store, ds);

  // 3. The questions, every mode (defaults), then the peers on the same database and embeddings.
  const types = await walkedTypes(store, cfg.traverseTypes);
  await ensureProjection(store.driver, { graphName: cfg.pprGraphName, database: store.database, extraTypes: types });
  const retriever = new Retriever(store, {
    timeoutMs: 120000,
    allowedRelTypes: types,
    pprGraphName: cfg.pprGraphName,
    cosineFloor: embedder.cosineFloor,
  });
  const rows: Row[] = [];
  const embeddings: { id: string; question: string; embedding: number[] }[] = [];
  const bar = progressBar();
  for (const [i, q] of ds.questions.entries()) {
    const { embedding } = await embedQuestion(embedder, { question: q.question });
    embeddings.push({ id: q.id, question: q.question, embedding });
    const row: Row = { q, modes: {}, trace: {} };
    for (let k = 0; k < runs.length; k++) {
      const { name, mode, params } = runs[(k + i) % runs.length]!;
      const r: RetrievalResult = await retriever.retrieve({ mode, question: q.question, questionEmbedding: embedding, params });
      const ids = r.passages.map((p) => p.documentId ?? p.id);
      row.modes[name] = { ...scoreRanking(ids, q.supporting_ids), dbMs: r.timings.dbMs };
      row.trace[name] = { seeds: r.seeds.map((s) => s.id), entities: r.entities.map((e) => ({ id: e.id, activation: e.activation })) };
    }
    rows.push(row);
    bar({ stage: 'questions', done: i + 1, total: ds.questions.length });
  }
  const names: string[] = runs.map((r) => r.name);
  let peerVersions: Record<string, string> | undefined;
  let peerError: string | undefined;
  if (!values['no-peers']) {
    try {
      const { runPeers } = await import('./peers/index.js');
      const peers = await runPeers({ ...cfg.neo4j, k: 10, questions: embeddings });
      peerVersions = peers.versions;
      const allIds = [...new Set(Object.values(peers.results).flatMap((hits) => hits.flatMap((h) => h.passages)))];
      const res = await store.read('MATCH (p:Passage) WHERE p.id IN $ids RETURN p.id AS id, coalesce(p.documentId, p.id) AS doc', { ids: allIds });
      const docOf = new Map<string, string>(res.records.map((r) => [r.get('id'), r.get('doc')]));
      for (const [name, hits] of Object.entries(peers.results)) {
        names.push(name);
        hits.forEach((h, i) => {
          rows[i].modes[name] = {
            ...scoreRanking(
              h.passages.map((id) => docOf.get(id) ?? id),
              rows[i].q.supporting_ids,
            ),
            dbMs: h.ms,
          };
        });
      }
    } catch (e) {
      peerError = (e as Error).message;
      console.error(`peers: ${peerError}`);
    }
  }
  const graphModes: string[] = runs.filter((r) => r.mode === 'gated' || r.mode === 'ppr').map((r) => r.name);
  const diagnosis = await diagnose(store, rows, graphModes, ds);
  await store.close();

  // 4. The report.
  const templates = [...new Set(ds.questions.map((q) => q.template))];
  const agg = (rs: Row[], name: string, k: 'recall_at_2' | 'recall_at_5' | 'recall_at_10') => r4(mean(rs.map((r) => r.modes[name][k])));
  const summary = Object.fromEntries(
    names.map((n) => [
      n,
      {
        recall_at_2: agg(rows, n, 'recall_at_2'),
        recall_at_5: agg(rows, n, 'recall_at_5'),
        recall_at_10: agg(rows, n, 'recall_at_10'),
        mrr: r4(mean(rows.map((r) => r.modes[n].rr))),
        perTemplate: Object.fromEntries(
          templates.map((t) => [
            t,
            agg(
              rows.filter((r) => r.q.template === t),
              n,
              'recall_at_5',
            ),
          ]),
        ),
      },
    ]),
  );
  const baselines = names.filter((n) => !graphModes.includes(n));
  const paired = graphModes.flatMap((g) =>
    baselines.map((b) => {
      const p = pairedBootstrap(
        rows.map((r) => r.modes[g].recall_at_5),
        rows.map((r) => r.modes[b].recall_at_5),
      );
      return { mode: g, against: b, difference: r4(p.difference), low: r4(p.low), high: r4(p.high), better: p.better, worse: p.worse };
    }),
  );
  const date = new Date().toISOString().slice(0, 10);
  const commit = git('rev-parse', '--short', 'HEAD');
  const command = `npm run bench:twolayer -- ${process.argv.slice(2).join(' ')}`.trim();
  const ingestCost = empty
    ? {
        emptyPassagesPerSecond: r4(empty.passagesPerSecond),
        curatedPassagesPerSecond: r4(lit.passagesPerSecond),
        ratio: r4(empty.passagesPerSecond / lit.passagesPerSecond),
      }
    : null;
  const best = (xs: string[]) => Math.max(...xs.filter((n) => summary[n]).map((n) => summary[n].recall_at_5));
  const fmt = (x: number) => x.toFixed(3);
  const md = [
    `# Two-layer benchmark (${date})`,
    '',
    `Commit \`${commit}\`; embedder ${embedder.id}; extractor ${extractorVersion(cfg)}; command \`${command}\`.`,
    '',
    `The Hetionet sample (${sample.nodes.size} nodes, ${sample.edges.length} edges) with ${ds.heldOut.length} literature-like edges held out ` +
      `(${[...new Set(ds.heldOut.map((e) => e.metaedge))].map((m) => `${m} ${ds.heldOut.filter((e) => e.metaedge === m).length}`).join(', ')}) ` +
      `and written as ${facts} literature passages, plus ${ds.documents.length - facts} distractor passages that name a question's disease and answer nothing. ` +
      `${ds.questions.length} questions (seed ${ds.options.seed}), each one curated hop from the disease it names and one literature hop; ` +
      `1-${ds.options.maxGold} gold passages each (mean ${mean(ds.questions.map((q) => q.supporting_ids.length)).toFixed(2)}), none naming the disease. Recall over documents (bench/lib/metrics.ts scoreRanking).`,
    '',
    '| mode | Recall@2 | Recall@5 | Recall@10 | MRR |',
    '|---|---|---|---|---|',
    ...names.map(
      (n) => `| ${n} | ${fmt(summary[n].recall_at_2)} | ${fmt(summary[n].recall_at_5)} | ${fmt(summary[n].recall_at_10)} | ${fmt(summary[n].mrr)} |`,
    ),
    '',
    'Recall@5 per template (questions):',
    '',
    `| mode | ${templates.map((t) => `${t} (${byTemplate.get(t)})`).join(' | ')} |`,
    `|---|${templates.map(() => '---').join('|')}|`,
    ...names.map((n) => `| ${n} | ${templates.map((t) => fmt(summary[n].perTemplate[t])).join(' | ')} |`),
    '',
    `Target: gated and ppr Recall@5 >= 0.8 and >= 25 points over the better of vector and hybrid (${fmt(best(['vector', 'hybrid']))}): ` +
      graphModes
        .map(
          (g) =>
            `${g} ${fmt(summary[g].recall_at_5)} (${summary[g].recall_at_5 >= 0.8 && summary[g].recall_at_5 - best(['vector', 'hybrid']) >= 0.25 ? 'met' : 'missed'})`,
        )
        .join(', ') +
      '.',
    '',
    ...(paired.length
      ? [
          'Recall@5 paired by question (95 % bootstrap interval, 10,000 resamples, seed 1):',
          '',
          '| mode | against | difference | 95 % interval | better / worse |',
          '|---|---|---|---|---|',
          ...paired.map(
            (p) =>
              `| ${p.mode} | ${p.against} | ${p.difference >= 0 ? '+' : ''}${fmt(p.difference)} | [${fmt(p.low)}, ${fmt(p.high)}] | ${p.better} / ${p.worse} |`,
          ),
          '',
        ]
      : []),
    '## Links and ingest cost',
    '',
    `Links written while the literature landed in the curated graph: ${lit.summary.links} (${linking.links} in the graph). ` +
      `On the generated passages: the passage's subject linked in ${fmt(linking.subjectRecall)} of the fact passages, its facts' objects in ${fmt(linking.objectRecall)}; ` +
      `${linking.unexpected} links to an entity the generator did not write (a name in a template's words, or a wrong link).`,
    '',
    ingestCost
      ? `Ingest of the same ${lit.summary.passages} passages: ${empty!.passagesPerSecond.toFixed(1)} passages/s into an empty graph (${empty!.seconds.toFixed(1)} s), ` +
        `${lit.passagesPerSecond.toFixed(1)} passages/s into the graph holding the curated sample (${lit.seconds.toFixed(1)} s): ` +
        `ratio ${ingestCost.ratio.toFixed(2)}x (target <= 1.5x). Stage seconds, curated graph: ${Object.entries(lit.summary.seconds)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')}; empty: ${Object.entries(empty!.summary.seconds)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')}.`
      : 'Ingest cost not measured (--no-ingest-cost).',
    '',
    curatedSummary
      ? `Curated layer ingested in ${curatedSeconds.toFixed(0)} s (${curatedSummary.entities} entities, ${curatedSummary.relations} relations).`
      : 'Curated layer reused (--reuse).',
    '',
    ...(peerError ? [`Peers failed: ${peerError.split('\n')[0]}`, ''] : []),
    '## Misses of the graph modes',
    '',
    'Each gold passage a graph mode left out of its top 5, by the first reason that holds: the passage is not linked to the entity it is about; ',
    "linked, but that entity is not among the mode's returned entities; activated, but the passage not in the top 10; in the top 10 but not the top 5. ",
    "Separately: the question's disease was not among the seeds.",
    '',
    '| mode | missed | not linked | linked, not activated | activated, not in top 10 | top 10, not top 5 | disease not a seed |',
    '|---|---|---|---|---|---|---|',
    ...graphModes.map((g) => {
      const c = diagnosis.counts[g];
      return `| ${g} | ${c.missed} | ${c.subjectNotLinked} | ${c.subjectNotActivated} | ${c.subjectActivatedNotInTop10} | ${c.inTop10Not5} | ${c.anchorNotSeed} |`;
    }),
    '',
  ].join('\n');
  const outDir = path.resolve(values.out ?? path.join(ROOT, 'bench', 'reports', 'twolayer', date));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'README.md'), md);
  fs.writeFileSync(
    path.join(outDir, 'results.json'),
    `${JSON.stringify(
      {
        date,
        commit,
        command,
        embedder: embedder.id,
        extractor: extractorVersion(cfg),
        options: ds.options,
        summary,
        paired,
        linking: { ...linking, written: lit.summary.links },
        ingestCost,
        ingest: { empty: empty && { seconds: empty.seconds, summary: empty.summary }, curated: { seconds: lit.seconds, summary: lit.summary } },
        curatedLayer: curatedSummary && { seconds: curatedSeconds, entities: curatedSummary.entities, relations: curatedSummary.relations },
        peers: peerVersions ?? peerError ?? null,
        diagnosis,
        questions: rows.map((r) => ({ ...r.q, modes: r.modes })),
      },
      null,
      1,
    )}\n`,
  );
  console.log(`\n${md}`);
  console.log(`wrote ${path.relative(ROOT, outDir)}/README.md and results.json`);
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  main().catch((e) => {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  });
}
