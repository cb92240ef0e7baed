/**
 * The graph-recall command line (commander): one module per command, each
 * declaring its arguments and options; help is generated from them. A bad
 * command line (unknown command or flag, bad value) or a bad configuration
 * exits with code 2, a failure with 1.
 */
import { Command, CommanderError, type Help } from 'commander';
import { configReference, ConfigError } from '../config.js';
import { compactCommand } from './compact.js';
import { explainCommand } from './explain.js';
import { importCommand } from './import.js';
import { ingestCommand } from './ingest.js';
import { linkCommand } from './link.js';
import { migrateCommand } from './migrate.js';
import { projectionCommand } from './projection.js';
import { reembedCommand } from './reembed.js';
import { serveCommand } from './serve.js';

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** "Options of <command>:" blocks for the top-level help, generated from the commands' definitions. */
function commandOptions(program: Command, help: Help): string {
  const blocks: string[] = [];
  for (const cmd of program.commands) {
    const options = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
    if (!options.length) continue;
    const width = Math.max(...options.map((o) => help.optionTerm(o).length));
    const items = options.map((o) => help.formatItem(help.optionTerm(o), width, help.optionDescription(o), help));
    blocks.push(help.formatItemList(`Options of ${cmd.name()}:`, items, help).join('\n').trimEnd());
  }
  return blocks.join('\n\n');
}

function wrapList(words: string[], indent = '  ', width = 80): string {
  const lines: string[] = [];
  let line = indent;
  for (const w of words) {
    if (line.length + w.length + 2 > width && line.trim()) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${w}, `;
  }
  lines.push(line.replace(/, $/, ''));
  return lines.join('\n');
}

export function buildProgram(): Command {
  const program = new Command('graph-recall')
    .description('graph-recall - database-native GraphRAG retrieval on Neo4j\n(npx graph-recall ..., or npm run <script>; no command = serve)')
    .usage('<command> [options]')
    .exitOverride()
    .showHelpAfterError('(graph-recall --help lists the commands and their options)');
  for (const add of [
    serveCommand,
    migrateCommand,
    projectionCommand,
    ingestCommand,
    importCommand,
    linkCommand,
    reembedCommand,
    compactCommand,
    explainCommand,
  ])
    add(program);
  program.addHelpText('after', () => {
    const help = program.createHelp();
    help.prepareContext({ helpWidth: process.stdout.columns || 80 });
    return (
      `\n${commandOptions(program, help)}\n\n` +
      'Configuration comes from the environment or .env (see .env.example and docs/configuration.md; the environment wins):\n' +
      `${wrapList(configReference().map((v) => v.name))}\n\n` +
      'Exit codes: 0 done, 1 failed, 2 bad command line or configuration.'
    );
  });
  return program;
}

/** Runs the command line; resolves to the exit code (serve keeps running after it resolves). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv.length ? argv : ['serve'], { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT_USAGE; // commander printed the message
    if (e instanceof ConfigError) {
      console.error(`error: ${e.message}`);
      return EXIT_USAGE;
    }
    console.error(`error: ${(e as Error).message}`);
    return EXIT_FAILURE;
  }
}
