import { Argument, type Command } from 'commander';
import { loadConfig } from '../config.js';
import { COMMAND_WAIT_MS } from './common.js';

const ACTIONS = ['create', 'refresh', 'drop', 'status'] as const;
type Action = (typeof ACTIONS)[number];

export function projectionCommand(program: Command): void {
  program
    .command('projection')
    .description(`manage the GDS projection used by ppr mode: ${ACTIONS.join(' | ')} (default status)`)
    .addArgument(new Argument('[action]', 'what to do').choices(ACTIONS).default('status'))
    .action(async (action: Action) => {
      const config = loadConfig();
      const [{ GraphStore }, { createLogger }, { waitForDatabase }, { manageProjection }] = await Promise.all([
        import('../graph/store.js'),
        import('../logger.js'),
        import('../startup.js'),
        import('../retrieval/projection.js'),
      ]);
      // No embedder needed: the store alone.
      const store = GraphStore.connect(config.neo4j);
      try {
        await waitForDatabase(store, config.neo4j, createLogger(config.logLevel), COMMAND_WAIT_MS);
        const state = await manageProjection(store.driver, action, {
          graphName: config.pprGraphName,
          database: store.database,
          extraTypes: config.traverseTypes,
        });
        console.log(JSON.stringify(state, null, 2));
      } finally {
        await store.close();
      }
    });
}
