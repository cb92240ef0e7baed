import { createDriver } from './db/driver.js';
import { DatabaseWatch } from './db/watch.js';
import { DEFAULT_MODE, type Replanner } from './planning.js';
import type { Services } from './services.js';

/** How often the server checks that the database answers and the ppr projection exists. */
const WATCH_INTERVAL_MS = 500;

/**
 * The watchdog of a running server: when the database answers again after an outage, every
 * statement is planned again, the default mode first, and the ppr projection rebuilt as soon as
 * the default mode's plan is done (not on the first ppr request); a projection that vanished
 * while the database ran is rebuilt too, and after an index comes online or is dropped the
 * statements are planned again one request at a time. While the database answers, the cached plans are
 * brought up to date now and then (Replanner.refreshWhenDue).
 */
export function watchDatabase(svc: Services, replanner: Replanner): DatabaseWatch {
  const projection = svc.retriever.projection;
  const heal = () => {
    if (projection.wanted && !projection.building && !replanner.holdProjection) projection.heal();
  };
  // Connections of its own, the probe's and the checks' (DatabaseWatch): the requests' pool, full under load, would make
  // a busy server look like a database gone.
  return new DatabaseWatch(createDriver(svc.config.neo4j, 2), {
    ownsDriver: true,
    database: svc.store.database,
    graphName: svc.config.pprGraphName,
    intervalMs: WATCH_INTERVAL_MS,
    onDown: (err) => {
      svc.logger.warn({ err }, 'database unreachable: retrieval answers 503 until it is back');
      replanner.cancel();
    },
    onUp: () => {
      svc.logger.info({ first: DEFAULT_MODE }, 'database answers again: re-planning the statements, then rebuilding the ppr projection');
      void replanner.run((mode) => mode === DEFAULT_MODE && heal()).finally(heal);
      heal();
    },
    onProjectionMissing: heal,
    // An index came online or was dropped (a DBA's, or the end of the population of one this server created): Neo4j has
    // dropped its cached plans, so the first request of each statement plans it again alone and the others wait for it
    // (Retriever.firstPlan), as while the server changes the schema itself (GraphStore.schemaChange).
    onSchemaChange: () => {
      svc.logger.info('an index came online or was dropped: Neo4j dropped its plans; each statement is planned again by its next request, alone');
      svc.retriever.forgetPlans();
    },
    onAnswer: () => replanner.refreshWhenDue(),
  }).start();
}
