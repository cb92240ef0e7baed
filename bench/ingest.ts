/**
 * Ingestion benchmark: passages per second, peak RSS and seconds per stage
 * (read, extract, embed, resolve, write, synonyms, projection) for a corpus,
 * with the configured extractor and embedder, into a fresh embedded Neo4j.
 *
 *   npx tsx bench/ingest.ts [corpus.jsonl]    (default: bench/data/2wikimultihopqa/corpus.jsonl)
 *
 * Without NEO4J_URI it starts its own database (port 27689, .data/neo4j-bench-ingest,
 * emptied first) so no other database is touched.
 */
import os from 'node:os';
import path from 'node:path';
import { ROOT, loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { createEmbedder } from '../server/embedders/index.js';
import { GraphStore } from '../server/db/store.js';
import { ingestPath, progressBar } from '../server/ingest/index.js';
import { bulkEmbedWorkers } from '../server/cli/common.js';
import { extractorVersion, startScratchNeo4j } from './database.js';

async function main() {
  const corpus = path.resolve(process.argv[2] ?? path.join(ROOT, 'bench', 'data', '2wikimultihopqa', 'corpus.jsonl'));
  // As `graph-recall ingest` runs: one embedding worker per core unless EMBED_WORKERS is set.
  const cfg = loadConfig(undefined, bulkEmbedWorkers());
  let uri = process.env.NEO4J_URI;
  let password = cfg.neo4j.password;
  if (!uri) {
    ({ uri, password } = startScratchNeo4j({ boltPort: 27689, httpPort: 27476, dataDir: '.data/neo4j-bench-ingest', password: 'graph-recall-bench' }));
  }
  const config = { ...cfg, neo4j: { ...cfg.neo4j, uri, password } };
  const store = GraphStore.connect(config.neo4j);
  const embedder = await createEmbedder(config);
  await migrate(store, { dimension: embedder.dimension });
  const t0 = performance.now();
  const s = await ingestPath({ store, config, embedder }, corpus, { onProgress: progressBar() });
  const seconds = (performance.now() - t0) / 1000;
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(
    `\ncorpus: ${path.relative(ROOT, corpus)}; extractor ${extractorVersion(config)}; embedder ${embedder.id} (${config.embed.workers} workers); ${os.cpus().length} cores`,
  );
  console.log(
    `documents ${s.documents.written}, passages ${s.passages}, entities ${s.entities}, mentions ${s.mentions}, relations ${s.relations}, synonyms ${s.synonyms}, problems ${s.problems.length}`,
  );
  console.log(`total ${seconds.toFixed(1)} s: ${(s.passages / seconds).toFixed(1)} passages/s; peak RSS of this process ${rssMiB.toFixed(0)} MiB`);
  console.log('| stage | seconds | share |');
  console.log('|---|---|---|');
  for (const [k, v] of Object.entries(s.seconds)) console.log(`| ${k} | ${v.toFixed(1)} | ${((100 * v) / seconds).toFixed(0)}% |`);
  const again = performance.now();
  const s2 = await ingestPath({ store, config, embedder }, corpus, {});
  console.log(`second run: ${s2.documents.unchanged} unchanged, ${s2.documents.written} written, ${((performance.now() - again) / 1000).toFixed(1)} s`);
  await store.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
