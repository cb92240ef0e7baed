import type { Command } from 'commander';
import { intAtLeast, withStore } from './common.js';

export function linkCommand(program: Command): void {
  program
    .command('link')
    .description(
      "link the passages already in the graph to its curated entities (each passage's mentions of curated names, " +
        'resolved with a confidence; written as MENTIONS {confidence, method}). Runs by itself at the end of a curated import ' +
        'and for every document ingested into a graph that holds one; passages linked with the current curated entities are skipped',
    )
    .option('--force', 're-link every passage, also those already linked with the current curated entities')
    .option('--page-size <n>', 'passages per transaction', intAtLeast(1), 500)
    .action(async (flags: { force?: boolean; pageSize: number }) => {
      await withStore(async (store) => {
        const [{ linkExisting }, { progressBar }] = await Promise.all([import('../ingest/link.js'), import('../ingest/progress.js')]);
        const r = await linkExisting(store, { force: flags.force, pageSize: flags.pageSize, onProgress: progressBar() });
        console.log(
          r.passages + r.skipped === 0 && r.links === 0
            ? 'nothing to link (no curated entities, or no passages)'
            : `linked ${r.passages} passages (${r.links} links); ${r.skipped} already linked`,
        );
      });
    });
}
