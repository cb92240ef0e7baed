import { InvalidArgumentError, Option, type Command } from 'commander';
import { type Config, EMBEDDERS } from '../config.js';
import type { IngestFormat, IngestSummary } from '../ingest/index.js';
import { bulkEmbedWorkers, intAtLeast, withServices } from './common.js';

interface IngestFlags {
  format?: IngestFormat;
  extractor?: Config['extractor'];
  embedder?: Config['embedder'];
  batch?: number;
  chunkSize?: number;
  chunkOverlap?: number;
  strict?: boolean;
  source?: string;
}

function printSummary(s: IngestSummary, formatProblem: (p: IngestSummary['problems'][number]) => string): void {
  const secs = Object.entries(s.seconds)
    .map(([k, v]) => `${k} ${v.toFixed(1)}s`)
    .join(', ');
  console.log(
    `documents: ${s.documents.read} read, ${s.documents.written} written (${s.documents.replaced} replaced), ${s.documents.unchanged} unchanged\n` +
      `passages: ${s.passages}  entities: ${s.entities} new  relations: ${s.relations}  synonyms: ${s.synonyms}\n` +
      `seconds per stage: ${secs}`,
  );
  if (s.problems.length) {
    console.log(`${s.problems.length} input problem(s), skipped:`);
    for (const p of s.problems.slice(0, 50)) console.log(`  ${formatProblem(p)}`);
    if (s.problems.length > 50) console.log(`  ... and ${s.problems.length - 50} more`);
  }
}

export function ingestCommand(program: Command): void {
  program
    .command('ingest')
    .description(
      'load a corpus or a curated graph: <path> is a .jsonl file ({id?, title, text, source?, metadata?}; metadata a flat map of strings, numbers and booleans), a folder of .txt/.md files, ' +
        'or a Hetionet folder (nodes.tsv, metaedges.tsv and *.sif or *.sif.gz edge lists). A second run of the same input changes nothing; an interrupted run resumes. ' +
        'Embeds with one worker per core unless EMBED_WORKERS is set',
    )
    .argument('<path>', 'a .jsonl file, a folder of .txt/.md files, or a Hetionet folder')
    .addOption(new Option('--format <format>', 'input format (default: detected from <path>)').choices(['jsonl', 'folder', 'hetionet']))
    .addOption(new Option('--extractor <name>', 'entity extractor (default: EXTRACTOR)').choices(['offline', 'anthropic']))
    .addOption(new Option('--embedder <name>', 'embedder (default: EMBEDDER)').choices(EMBEDDERS))
    .addOption(new Option('--batch <n>', 'documents per transaction (default 64; a curated graph: 1000 rows)').argParser(intAtLeast(1)))
    .addOption(new Option('--chunk-size <n>', 'characters per passage (default 1200)').argParser(intAtLeast(100)))
    .addOption(new Option('--chunk-overlap <n>', 'characters shared by consecutive passages (default 200)').argParser(intAtLeast(0)))
    .addOption(
      new Option(
        '--source <name>',
        "the documents' source, for filter.sources and GET /v1/sources (default: <path>'s name without its extension; a JSONL line's own source wins)",
      ).argParser((v: string) => {
        if (v.trim() === '') throw new InvalidArgumentError('must not be empty');
        return v.trim();
      }),
    )
    .option('--strict', 'abort before writing anything if any input is bad')
    .action(async (input: string, flags: IngestFlags) => {
      // --embedder overrides EMBEDDER for this run only (the configuration is built with it; the environment is left alone).
      await withServices(
        async (svc) => {
          const [{ ingestPath, formatProblem, progressBar }, { migrateStore }] = await Promise.all([import('../ingest/index.js'), import('../db/migrate.js')]);
          await migrateStore(svc);
          const { store, config, embedder } = svc;
          // Options not given stay undefined: the pipeline's defaults apply (and a re-run's content hashes match).
          const summary = await ingestPath({ store, config, embedder, extractorName: flags.extractor }, input, {
            format: flags.format,
            batchSize: flags.batch,
            chunkSize: flags.chunkSize,
            chunkOverlap: flags.chunkOverlap,
            strict: Boolean(flags.strict),
            source: flags.source,
            onProgress: progressBar(),
          });
          printSummary(summary, formatProblem);
        },
        { ...bulkEmbedWorkers(), ...(flags.embedder ? { EMBEDDER: flags.embedder } : {}) },
      );
    });
}
