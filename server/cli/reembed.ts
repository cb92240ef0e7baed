import type { Command } from 'commander';
import { withServices } from './common.js';

export function reembedCommand(program: Command): void {
  program
    .command('reembed')
    .description('re-embed every passage and entity with the configured embedder (after switching EMBEDDER) and rebuild the vector indexes')
    .action(async () => {
      await withServices(async ({ store, embedder }) => {
        const { reembed, progressBar } = await import('../ingest/index.js');
        const r = await reembed(store, embedder, { onProgress: progressBar() });
        console.log(`re-embedded ${r.passages} passages and ${r.entities} entities with ${embedder.id} (${embedder.dimension}-d)`);
      });
    });
}
