import { Argument, type Command } from 'commander';
import { withStore } from './common.js';

const ACTIONS = ['create', 'refresh', 'drop', 'status'] as const;
type Action = (typeof ACTIONS)[number];

export function projectionCommand(program: Command): void {
  program
    .command('projection')
    .description(`manage the GDS projection used by ppr mode with engine gds: ${ACTIONS.join(' | ')} (default status)`)
    .addArgument(new Argument('[action]', 'what to do').choices(ACTIONS).default('status'))
    .action(async (action: Action) => {
      await withStore(async (store, config) => {
        const { projectionManager } = await import('../db/projection.js');
        const state = await projectionManager(store.driver, {
          graphName: config.pprGraphName,
          database: store.database,
          extraTypes: config.traverseTypes,
        }).perform(action);
        console.log(JSON.stringify(state, null, 2));
      });
    });
}
