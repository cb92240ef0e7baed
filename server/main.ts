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
import { manageProjection, type ProjectionAction } from './retrieval/projection.js';

const HELP = `graph-recall - database-native GraphRAG retrieval on Neo4j

Usage: graph-recall <command> [options]     (npx graph-recall ..., or npm run <script>)

Commands:
  serve                 run the HTTP API (default). Without NEO4J_URI it starts the
                        embedded Neo4j (docker/neo4j.mjs), applies migrations and loads
                        the demo corpus into an empty database
  migrate               apply pending migrations and exit
  projection <action>   manage the GDS projection used by ppr mode:
                        create | refresh | drop | status
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
  const retriever = new Retriever(driver, {
    database: cfg.neo4j.database,
    timeoutMs: cfg.queryTimeoutMs,
    allowedRelTypes: cfg.traverseTypes,
    pprGraphName: cfg.pprGraphName,
  });
  const app = createApp({ config: cfg, driver, retriever, embedder, logger });
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

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, strict: false, options: { help: { type: 'boolean', short: 'h' } } });
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
    default:
      console.error(`unknown command "${command}"\n\n${HELP}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`error: ${(e as Error).message}`);
  process.exit(1);
});
