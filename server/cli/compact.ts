import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { COMMAND_WAIT_MS } from './common.js';

export function compactCommand(program: Command): void {
  program
    .command('compact')
    .description(
      "rebuild graph-recall's vector indexes (entities, passages, facts) in one piece: a graph written batch by batch, " +
        'before ingestion rebuilt them itself, keeps one index segment per batch and every query searches them all',
    )
    .action(async () => {
      const config = loadConfig();
      const [{ GraphStore }, { createLogger }, { waitForDatabase }, { compactVectorIndexes, ownVectorIndexes }] = await Promise.all([
        import('../graph/store.js'),
        import('../logger.js'),
        import('../startup.js'),
        import('../db/compact-indexes.js'),
      ]);
      // No embedder needed: the store alone.
      const store = GraphStore.connect(config.neo4j);
      try {
        await waitForDatabase(store, config.neo4j, createLogger(config.logLevel), COMMAND_WAIT_MS);
        const t0 = performance.now();
        const rebuilt = await compactVectorIndexes(store, await ownVectorIndexes(store));
        console.log(`rebuilt ${rebuilt.length} vector indexes in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${rebuilt.join(', ') || 'none'}`);
      } finally {
        await store.close();
      }
    });
}
