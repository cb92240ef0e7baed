/**
 * Text ingest at scale (issue 28, item 5): the ordinary ingest (`graph-recall ingest`: the
 * configured extractor and embedder, one transaction per batch, the synonym pass) of the same
 * real passages into each size's generated graph, so its passages/s at 10 k and at 100 k passages
 * compare directly. The graph keeps them: bench/scale.ts marks it so that --reuse rebuilds it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bulkEmbedWorkers } from '../../server/cli/common.js';
import { loadConfig } from '../../server/config.js';
import type { GraphStore } from '../../server/db/store.js';
import { createEmbedder } from '../../server/embedders/index.js';
import { ingestPath } from '../../server/ingest/index.js';
import type { IngestFigures } from './types.js';

/** The first `count` lines of `corpus` (JSONL), ingested into the graph `store` holds. */
export async function ingestAtScale(store: GraphStore, corpus: string, count: number): Promise<IngestFigures> {
  const lines = fs.readFileSync(corpus, 'utf8').split('\n').filter(Boolean).slice(0, count);
  const sample = path.join(os.tmpdir(), `graph-recall-scale-ingest-${process.pid}.jsonl`);
  fs.writeFileSync(sample, `${lines.join('\n')}\n`);
  // As `graph-recall ingest` runs: one embedding worker per core unless EMBED_WORKERS is set.
  const config = loadConfig(undefined, bulkEmbedWorkers());
  const embedder = await createEmbedder(config);
  // This process holds the generated graph: its resident memory is sampled during the ingest, the
  // growth over its level before is the ingest's.
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 250);
  const t0 = performance.now();
  try {
    const s = await ingestPath({ store, config, embedder }, sample, { source: 'scale-ingest' });
    const seconds = (performance.now() - t0) / 1000;
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const figures: IngestFigures = {
      corpus: path.basename(path.dirname(corpus)),
      passages: s.passages,
      entities: s.entities,
      relations: s.relations,
      synonyms: s.synonyms,
      seconds: r1(seconds),
      passages_per_s: r1(s.passages / seconds),
      rss_growth_mb: Math.round((rssPeak - rssBefore) / 2 ** 20),
      stages: Object.fromEntries(Object.entries(s.seconds).map(([k, v]) => [k, r1(v)])),
      embedder: embedder.id,
      extractor: config.extractor,
    };
    console.log(
      `text ingest: ${figures.passages} passages in ${figures.seconds} s (${figures.passages_per_s} passages/s), stages ${JSON.stringify(figures.stages)}`,
    );
    return figures;
  } finally {
    clearInterval(sampler);
    await embedder.close?.();
    fs.rmSync(sample, { force: true });
  }
}
