import type { Command } from 'commander';
import { withServices } from './common.js';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending migrations and exit')
    .action(async () => {
      const r = await withServices(async (svc) => (await import('../db/migrate.js')).migrateStore(svc));
      console.log(`applied: ${r.applied.join(', ') || 'none'}; already applied: ${r.alreadyApplied.length}`);
    });
}
