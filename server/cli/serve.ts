import type { Command } from 'commander';
import { loadConfig } from '../config.js';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'run the HTTP API (default). Without NEO4J_URI it starts the embedded Neo4j (docker/neo4j.mjs), ' +
        'applies migrations and loads the demo corpus into an empty database. SIGINT/SIGTERM let in-flight ' +
        'requests finish (SHUTDOWN_TIMEOUT_MS) and stop the embedded Neo4j it started (KEEP_NEO4J=true keeps it)',
    )
    .action(async () => {
      const config = loadConfig();
      const { startServer } = await import('../startup.js');
      await startServer(config, {}, { handleSignals: true });
    });
}
