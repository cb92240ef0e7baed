import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Driver } from 'neo4j-driver';
import { createApp } from './app.js';
import { ROOT, loadConfig, type Config } from './config.js';
import { createDriver } from './db/driver.js';
import { migrate } from './db/migrate.js';
import { createEmbedder } from './embedders/index.js';
import { createLogger } from './logger.js';
import { Retriever } from './retrieval/client.js';
import { ensureProjection, manageProjection, type ProjectionAction } from './retrieval/projection.js';
import { ensureEmbedder } from './db/embedder-guard.js';
import { createExtractor } from './extractors/index.js';
import { createGenerator } from './answer/generator.js';
import { curatedTypes, formatProblem, type IngestSummary } from './ingest/pipeline.js';
import { progressBar } from './ingest/progress.js';
import { reembed } from './ingest/reembed.js';
import { ingestPath, type IngestFormat } from './ingest/run.js';

const HELP = `graph-recall - database-native GraphRAG retrieval on Neo4j

Usage: graph-recall <command> [options]     (npx graph-recall ..., or npm run <script>)

Commands:
  serve                 run the HTTP API (default). Without NEO4J_URI it starts the
                        embedded Neo4j (docker/neo4j.mjs), applies migrations and loads
                        the demo corpus into an empty database
  migrate               apply pending migrations and exit
  projection <action>   manage the GDS projection used by ppr mode:
                        create | refresh | drop | status
  ingest <path>         load a corpus or a curated graph:
                          --format jsonl|folder|hetionet  (default: detected from <path>)
                          --extractor offline|anthropic   (default: EXTRACTOR)
                          --embedder local|voyage|hash    (default: EMBEDDER)
                          --batch N         documents per transaction (default 64)
                          --chunk-size N    characters per passage (default 1200)
                          --chunk-overlap N characters shared by consecutive passages (default 200)
                          --strict          abort before writing anything if any input is bad
                        a second run of the same input changes nothing; an interrupted run resumes
  reembed               re-embed every passage and entity with the configured embedder
                        (after switching EMBEDDER) and rebuild the vector indexes
  --help                this text

Configuration comes from the environment or .env (see .env.example):
  PORT, HOST, NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE, EMBEDDER,
  VOYAGE_API_KEY, ANTHROPIC_API_KEY, API_KEY, QUERY_TIMEOUT_MS, TRAVERSE_REL_TYPES, ...
`;

/** Starts the embedded Neo4j when no external database is configured. */
function ensureEmbeddedNeo4j(cfg: Config): void {
  if (process.env.NEO4J_URI) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'start'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`could not start the embedded Neo4j (see above); or set NEO4J_URI to an existing database (${cfg.neo4j.uri})`);
}

/** Waits for the database: the server may start before it. */
async function connect(cfg: Config, log: ReturnType<typeof createLogger>, waitMs = 120_000): Promise<Driver> {
  const driver = createDriver(cfg.neo4j);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await driver.verifyConnectivity({ database: cfg.neo4j.database });
      return driver;
    } catch (e) {
      const msg = String((e as Error).message).split('\n')[0];
      if (/unauthori[sz]ed|authentication/i.test(msg)) throw new Error(`Neo4j at ${cfg.neo4j.uri} rejected the credentials (NEO4J_USER / NEO4J_PASSWORD)`);
      if (Date.now() > deadline) throw new Error(`Neo4j at ${cfg.neo4j.uri} is unreachable: ${msg}`);
      log.warn({ uri: cfg.neo4j.uri, err: msg }, 'waiting for Neo4j');
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function serve(cfg: Config): Promise<void> {
  const logger = createLogger(cfg.logLevel);
  ensureEmbeddedNeo4j(cfg);
  const driver = await connect(cfg, logger);
  const embedder = await createEmbedder(cfg);
  const m = await migrate(driver, { database: cfg.neo4j.database, dimension: embedder.dimension });
  logger.info({ applied: m.applied, embedder: embedder.id }, 'migrations done');
  await ensureEmbedder(driver, embedder, cfg.neo4j.database);
  await loadDemoIfEmpty(cfg, driver, embedder, logger);
  // Curated graphs (Hetionet) bring their own relationship types: the walk may follow them too.
  const allowed = [...new Set([...cfg.traverseTypes, ...(await curatedTypes(driver, cfg.neo4j.database))])];
  const projection = await ensureProjection(driver, { graphName: cfg.pprGraphName, database: cfg.neo4j.database, extraTypes: allowed });
  if (projection !== 'none') logger.info({ graphName: cfg.pprGraphName }, 'ppr projection built');
  const retriever = new Retriever(driver, {
    database: cfg.neo4j.database,
    timeoutMs: cfg.queryTimeoutMs,
    allowedRelTypes: allowed,
    pprGraphName: cfg.pprGraphName,
  });
  let extractor: ReturnType<typeof createExtractor> | undefined;
  let generator: ReturnType<typeof createGenerator> | undefined;
  const app = createApp({
    config: { ...cfg, traverseTypes: allowed }, driver, retriever, embedder, logger,
    extractor: () => (extractor ??= createExtractor(cfg)),
    generator: () => (generator ??= createGenerator(cfg)),
  });
  const server = app.listen(cfg.port, cfg.host, () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : cfg.port;
    logger.info({ url: `http://${cfg.host}:${port}` }, 'graph-recall listening');
  });
  const stop = async () => {
    server.close();
    await driver.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** `npm start` on a fresh machine: an empty database gets the bundled demo corpus, so the first query answers. */
async function loadDemoIfEmpty(cfg: Config, driver: Driver, embedder: Awaited<ReturnType<typeof createEmbedder>>, logger: ReturnType<typeof createLogger>) {
  if (!cfg.demoCorpus) return;
  const s = driver.session({ database: cfg.neo4j.database });
  const n = Number((await s.run('MATCH (p:Passage) RETURN count(p) AS n')).records[0].get('n'));
  await s.close();
  if (n > 0) return;
  logger.info({ corpus: cfg.demoCorpus }, 'empty database: loading the demo corpus (first start only)');
  const summary = await ingestPath({ driver, config: cfg, embedder }, cfg.demoCorpus, { onProgress: progressBar() });
  logger.info({ passages: summary.passages, entities: summary.entities, seconds: summary.seconds }, 'demo corpus loaded');
}

function printSummary(s: IngestSummary): void {
  const secs = Object.entries(s.seconds).map(([k, v]) => `${k} ${v.toFixed(1)}s`).join(', ');
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

const INGEST_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  format: { type: 'string' },
  extractor: { type: 'string' },
  embedder: { type: 'string' },
  batch: { type: 'string' },
  'chunk-size': { type: 'string' },
  'chunk-overlap': { type: 'string' },
  strict: { type: 'boolean' },
} as const;

function intOption(name: string, v: unknown, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${v}"`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, strict: false, options: INGEST_OPTIONS });
  const [command = 'serve', ...rest] = positionals;
  if (values.help || command === 'help') {
    console.log(HELP);
    return;
  }
  const cfg = loadConfig();
  switch (command) {
    case 'serve':
      return serve(cfg);
    case 'migrate': {
      const driver = await connect(cfg, createLogger(cfg.logLevel), 10_000);
      const embedder = await createEmbedder(cfg);
      const r = await migrate(driver, { database: cfg.neo4j.database, dimension: embedder.dimension });
      console.log(`applied: ${r.applied.join(', ') || 'none'}; already applied: ${r.alreadyApplied.length}`);
      await driver.close();
      return;
    }
    case 'projection': {
      const action = (rest[0] ?? 'status') as ProjectionAction;
      if (!['create', 'refresh', 'drop', 'status'].includes(action)) throw new Error(`projection: unknown action "${action}" (create | refresh | drop | status)`);
      const driver = await connect(cfg, createLogger(cfg.logLevel), 10_000);
      console.log(JSON.stringify(await manageProjection(driver, action, { graphName: cfg.pprGraphName, database: cfg.neo4j.database, extraTypes: cfg.traverseTypes }), null, 2));
      await driver.close();
      return;
    }
    case 'ingest': {
      const input = rest[0];
      if (!input) throw new Error('ingest: give a path (a .jsonl file, a folder of .txt/.md files, or a Hetionet folder)');
      if (values.format && !['jsonl', 'folder', 'hetionet'].includes(String(values.format))) throw new Error(`--format must be jsonl, folder or hetionet`);
      if (values.embedder) process.env.EMBEDDER = String(values.embedder);
      const c = values.embedder ? loadConfig() : cfg;
      if (values.extractor && !['offline', 'anthropic'].includes(String(values.extractor))) throw new Error('--extractor must be offline or anthropic');
      const driver = await connect(c, createLogger(c.logLevel), 10_000);
      try {
        const embedder = await createEmbedder(c);
        await migrate(driver, { database: c.neo4j.database, dimension: embedder.dimension });
        const summary = await ingestPath({ driver, config: c, embedder, extractorName: values.extractor as Config['extractor'] | undefined }, input, {
          format: values.format as IngestFormat | undefined,
          batchSize: intOption('batch', values.batch, 1),
          chunkSize: intOption('chunk-size', values['chunk-size'], 100),
          chunkOverlap: intOption('chunk-overlap', values['chunk-overlap'], 0),
          strict: Boolean(values.strict),
          onProgress: progressBar(),
        });
        printSummary(summary);
      } finally {
        await driver.close();
      }
      return;
    }
    case 'reembed': {
      const driver = await connect(cfg, createLogger(cfg.logLevel), 10_000);
      try {
        const embedder = await createEmbedder(cfg);
        const r = await reembed(driver, embedder, { database: cfg.neo4j.database, onProgress: progressBar() });
        console.log(`re-embedded ${r.passages} passages and ${r.entities} entities with ${embedder.id} (${embedder.dimension}-d)`);
      } finally {
        await driver.close();
      }
      return;
    }
    default:
      console.error(`unknown command "${command}"\n\n${HELP}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`error: ${(e as Error).message}`);
  process.exit(1);
});
