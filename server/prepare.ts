import type { Config } from './config.js';
import { ensureEmbedder } from './db/embedder-guard.js';
import { ensureFactIndexes } from './db/fact-indexes.js';
import { awaitIndexesOnline, migrateStore } from './db/migrate.js';
import type { Startup } from './health.js';
import { loadDemoIfEmpty } from './ingest/demo.js';
import { walkedTypes } from './ingest/index.js';
import { Jobs } from './jobs/index.js';
import { ServedRetriever } from './planning.js';
import type { Services } from './services.js';

/**
 * Readies a reachable database for the API, each phase reported to `startup`: migrations, the
 * embedder guard, the demo corpus into an empty database, curated relationship types added to
 * the walk's allow-list (with their fact indexes), every index online. Returns the Services the API serves, with that
 * allow-list, and their retriever, whose statements are not planned yet. The ppr projection is built later, once the
 * default mode is planned (server/startup.ts): only ppr's `gds` engine reads it.
 */
export async function prepareServices(base: Services, startup: Startup): Promise<{ full: Services; retriever: ServedRetriever }> {
  const { config, store, embedder, logger } = base;
  startup.enter('migrations');
  // Indexes are waited for below, without a deadline: an imported graph builds them now.
  const m = await migrateStore(base, 0);
  logger.info({ applied: m.applied, embedder: embedder.id }, 'migrations done');
  await ensureEmbedder(store, embedder);
  startup.enter('demo');
  await loadDemoIfEmpty(base, (p) => startup.setProgress(p.stage, p.done, p.total));
  // Curated graphs (Hetionet) bring their own relationship types: the walk may follow them too.
  const allowed = await walkedTypes(store, config.traverseTypes);
  // Each walked type's fact index (the statements search them for fact seeds); empty until its facts are embedded.
  await ensureFactIndexes(store, allowed, embedder.dimension, 0);
  startup.enter('indexes');
  await awaitIndexesOnline(store, (percent, populating) => startup.setProgress(`${populating.length} populating`, Math.floor(percent), 100));
  const served: Config = { ...config, traverseTypes: allowed };
  const retriever = new ServedRetriever(store, {
    timeoutMs: served.queryTimeoutMs,
    allowedRelTypes: served.traverseTypes,
    pprGraphName: served.pprGraphName,
    cosineFloor: embedder.cosineFloor,
  });
  return { full: { ...base, config: served, retriever, jobs: new Jobs({ ...base, config: served }) }, retriever };
}
