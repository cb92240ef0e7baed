import type { Command } from 'commander';
import { withStore } from './common.js';

export function compactCommand(program: Command): void {
  program
    .command('compact')
    .description(
      "rebuild graph-recall's vector indexes (entities, passages, facts) in one piece: a graph written batch by batch " +
        '(loaded before ingestion rebuilt them itself, or grown by loads smaller than itself) keeps one index segment per batch and every query searches them all',
    )
    .option(
      '--indexes <names>',
      'only these of them, comma-separated (for example entity_embedding,passage_embedding after an offline import: docs/scale.md#the-node-indexes-merged-after-the-build)',
    )
    .action(async (opts: { indexes?: string }, cmd: Command) => {
      await withStore(async (store) => {
        const { compactVectorIndexes, ownVectorIndexes } = await import('../db/compact-indexes.js');
        const own = await ownVectorIndexes(store);
        const asked = opts.indexes?.split(',').map((s) => s.trim());
        const unknown = asked?.filter((n) => !own.includes(n)) ?? [];
        if (unknown.length) {
          cmd.error(`error: --indexes: ${unknown.map((n) => JSON.stringify(n)).join(', ')} is not one of graph-recall's vector indexes (${own.join(', ')})`, {
            exitCode: 2,
          });
        }
        const t0 = performance.now();
        const rebuilt = await compactVectorIndexes(store, asked ?? own);
        console.log(`rebuilt ${rebuilt.length} vector indexes in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${rebuilt.join(', ') || 'none'}`);
      });
    });
}
