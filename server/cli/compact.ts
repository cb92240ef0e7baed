import type { Command } from 'commander';
import { withStore } from './common.js';

export function compactCommand(program: Command): void {
  program
    .command('compact')
    .description(
      "rebuild graph-recall's vector indexes (entities, passages, facts) in one piece: a graph written batch by batch " +
        '(loaded before ingestion rebuilt them itself, or grown by loads smaller than itself) keeps one index segment per batch and every query searches them all',
    )
    .action(async () => {
      await withStore(async (store) => {
        const { compactVectorIndexes, ownVectorIndexes } = await import('../db/compact-indexes.js');
        const t0 = performance.now();
        const rebuilt = await compactVectorIndexes(store, await ownVectorIndexes(store));
        console.log(`rebuilt ${rebuilt.length} vector indexes in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${rebuilt.join(', ') || 'none'}`);
      });
    });
}
