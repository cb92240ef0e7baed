import path from 'node:path';
import type { Command } from 'commander';
import { ROOT, loadConfig } from '../config.js';
import { intAtLeast, withServices } from './common.js';

interface ImportFlags {
  offline?: boolean;
  dataDir?: string;
  neo4jHome?: string;
  database: string;
  csvDir?: string;
  batch: number;
  maxProblems: number;
}

const rate = (n: number, s: number) => `${Math.round(n / Math.max(s, 1e-9)).toLocaleString('en-US')}/s`;

export function importCommand(program: Command): void {
  program
    .command('import')
    .description(
      'bulk-load a pre-extracted corpus with its vectors (docs/import.md): <folder> holds passages.jsonl, entities.jsonl, mentions.jsonl ' +
        'and relationships.jsonl, vectors from the configured embedder. Every row is checked first; bad rows are listed by file:line and nothing is written. ' +
        'Online (default): into the running database of NEO4J_URI, one transaction per batch, MERGE on the ids (a rerun changes nothing). ' +
        '--offline: neo4j-admin database import full into a new, stopped database (replaced); the indexes are built at the next start',
    )
    .argument('<folder>', 'the import folder')
    .option('--offline', 'build a new database with neo4j-admin (stopped; its contents are replaced)')
    .option('--data-dir <dir>', '--offline: the embedded launcher data folder (NEO4J_DATA_DIR of docker/neo4j.mjs)')
    .option('--neo4j-home <dir>', '--offline: an installed Neo4j (its bin/neo4j-admin and conf)')
    .option('--database <name>', '--offline: the database to build', 'neo4j')
    .option('--csv-dir <dir>', '--offline: where the CSV files are written (removed afterwards)')
    .option('--batch <n>', 'online: rows per transaction', intAtLeast(1), 1000)
    .option('--max-problems <n>', 'bad rows listed at most (all are counted)', intAtLeast(1), 100)
    .action(async (folder: string, flags: ImportFlags) => {
      const [{ validateFolder }, { rowsPerSecond }] = await Promise.all([import('../ingest/import/validate.js'), import('../ingest/import/types.js')]);
      if (flags.offline) {
        if (!flags.dataDir === !flags.neo4jHome) throw new Error('--offline needs one of --data-dir (embedded launcher) or --neo4j-home (installed Neo4j)');
        const [{ createEmbedder }, offline] = await Promise.all([import('../embedders/index.js'), import('../ingest/import/offline.js')]);
        const embedder = await createEmbedder(loadConfig());
        const dimension = embedder.dimension;
        await embedder.close?.();
        const v = await validateFolder(folder, { dimension, maxProblems: flags.maxProblems });
        const admin = flags.neo4jHome ? offline.installedAdmin(flags.neo4jHome) : offline.embeddedAdmin(ROOT, flags.dataDir!);
        const csv = await offline.writeImportCsv(v.source, flags.csvDir ?? path.join(path.resolve(folder), '.import-csv'));
        const imp = offline.runAdminImport(admin, csv, flags.database);
        const { rmSync } = await import('node:fs');
        rmSync(csv.dir, { recursive: true, force: true });
        const s = { ...csv.stats, loadSeconds: csv.seconds + imp.seconds };
        console.log(
          `imported ${s.passages} passages, ${s.entities} entities, ${s.mentions} mentions, ${s.relationships} relationships into ${flags.database} ` +
            `in ${s.loadSeconds.toFixed(1)} s (CSV ${csv.seconds.toFixed(1)} s, neo4j-admin ${imp.seconds.toFixed(1)} s): ${rate(s.passages, s.loadSeconds)} passages, ${Math.round(rowsPerSecond(s)).toLocaleString('en-US')} rows/s\n` +
            'Start the database; the server (or `graph-recall migrate`) creates the constraints and indexes on its first connection and builds the fact indexes at start.',
        );
        return;
      }
      await withServices(async (svc) => {
        const [{ migrateStore }, { ensureEmbedder }, { existingIds }, { loadOnline }] = await Promise.all([
          import('../db/migrate.js'),
          import('../db/embedder-guard.js'),
          import('../graph/bulk.js'),
          import('../ingest/import/online.js'),
        ]);
        await migrateStore(svc);
        await ensureEmbedder(svc.store, svc.embedder);
        const v = await validateFolder(folder, {
          dimension: svc.embedder.dimension,
          maxProblems: flags.maxProblems,
          known: (kind, ids) => existingIds(svc.store, kind === 'passage' ? 'Passage' : 'Entity', ids),
        });
        const s = await loadOnline(svc.store, v.source, { dimension: svc.embedder.dimension, batchSize: flags.batch });
        const t0 = performance.now();
        await svc.store.read('CALL db.awaitIndexes(86400)');
        const indexSeconds = (performance.now() - t0) / 1000;
        console.log(
          `loaded ${s.passages} passages (${s.documents} documents), ${s.entities} entities, ${s.mentions} mentions, ${s.relationships} relationships ` +
            `in ${s.loadSeconds.toFixed(1)} s: ${rate(s.passages, s.loadSeconds)} passages, ${Math.round(rowsPerSecond(s)).toLocaleString('en-US')} rows/s; ` +
            `indexes caught up ${indexSeconds.toFixed(1)} s later${s.curatedTypes.length ? `; curated types: ${s.curatedTypes.join(', ')}` : ''}`,
        );
      });
    });
}
