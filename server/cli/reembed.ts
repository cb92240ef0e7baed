import type { Command } from 'commander';
import { bulkEmbedWorkers, withServices } from './common.js';

export function reembedCommand(program: Command): void {
  program
    .command('reembed')
    .description(
      're-embed every passage, entity and fact with the configured embedder (after switching EMBEDDER) and rebuild the vector indexes; ' +
        "--facts embeds only the facts that have no vector yet (a graph ingested before fact seeds, or a DBA's own graph). " +
        'Embeds with one worker per core unless EMBED_WORKERS is set',
    )
    .option('--facts', 'only embed the facts (relationships of the walked types) that have no vector yet')
    .action(async (flags: { facts?: boolean }) => {
      await withServices(async ({ store, config, embedder }) => {
        const { embedFacts, reembed, progressBar, walkedTypes } = await import('../ingest/index.js');
        const factTypes = await walkedTypes(store, config.traverseTypes);
        if (flags.facts) {
          const n = await embedFacts(store, embedder, factTypes, { onProgress: progressBar() });
          console.log(`embedded ${n} facts with ${embedder.id} (${embedder.dimension}-d)`);
          return;
        }
        const r = await reembed(store, embedder, { onProgress: progressBar(), factTypes });
        console.log(`re-embedded ${r.passages} passages, ${r.entities} entities and ${r.facts} facts with ${embedder.id} (${embedder.dimension}-d)`);
      }, bulkEmbedWorkers());
    });
}
