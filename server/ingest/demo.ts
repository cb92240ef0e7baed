import type { Config } from '../config.js';
import type { GraphStore } from '../db/store.js';
import type { Embedder } from '../embedders/types.js';
import type { Logger } from '../logger.js';
import { progressBar } from './progress.js';
import { ingestPath } from './run.js';
import type { Progress } from './types.js';

/** `npm start` on a fresh machine: an empty database gets the bundled demo corpus, so the first query answers. */
export async function loadDemoIfEmpty(
  svc: { config: Config; store: GraphStore; embedder: Embedder; logger: Logger },
  onProgress?: (p: Progress) => void,
): Promise<boolean> {
  const { config, store, embedder, logger } = svc;
  if (!config.demoCorpus) return false;
  const res = await store.read('MATCH (p:Passage) RETURN count(p) AS n');
  if (Number(res.records[0]!.get('n')) > 0) return false;
  logger.info({ corpus: config.demoCorpus }, 'empty database: loading the demo corpus (first start only)');
  const t0 = performance.now();
  const bar = progressBar();
  // The ppr projection is the start-up's to build, after the default mode's plan (server/startup.ts).
  const summary = await ingestPath({ store, config, embedder }, config.demoCorpus, {
    refreshProjection: false,
    onProgress: (p) => {
      bar(p);
      onProgress?.(p);
    },
  });
  const totalSeconds = Math.round((performance.now() - t0) / 100) / 10;
  logger.info({ passages: summary.passages, entities: summary.entities, totalSeconds, seconds: summary.seconds }, 'demo corpus loaded');
  return true;
}
