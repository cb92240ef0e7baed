import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Config, EMBEDDERS, loadConfig } from '../config.js';
import { MODE_NAMES, MODES, statementFile, type Mode } from '../retrieval/params.js';

interface ExplainFlags {
  mode: Mode;
  param: [string, unknown][];
  embedder?: Config['embedder'];
}

/** `--param name=value`, repeatable: the value is read as JSON when it parses ("3", "true", '["a"]'), else as a string. */
export function parseParamFlag(flag: string, previous: [string, unknown][] = []): [string, unknown][] {
  const eq = flag.indexOf('=');
  const name = eq < 0 ? flag : flag.slice(0, eq);
  if (eq <= 0 || !/^\w+$/.test(name)) throw new Error(`--param ${flag}: expected name=value`);
  const raw = flag.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: the string itself (fusion=blend)
  }
  return [...previous, [name, value]];
}

/**
 * `graph-recall explain "<question>"`: the complete :param block of one
 * retrieval (the question's embedding included), the same block the API's
 * `explain: true` returns, with the same defaults and validation. Needs the
 * embedder only, not the database.
 */
export function explainCommand(program: Command): void {
  program
    .command('explain')
    .description(
      'print the :param block for a question (its embedding included), the one `explain: true` returns: paste it into ' +
        'Neo4j Browser or cypher-shell, then run cypher/retrieve_<mode>.cypher unchanged. Needs no database',
    )
    .argument('<question>', 'the question, as it would be sent to POST /v1/retrieve')
    .addOption(new Option('--mode <mode>', 'retrieval mode').choices(MODE_NAMES).default('gated'))
    .addOption(
      new Option('--param <name=value>', 'a parameter of the mode (repeatable); value read as JSON when it parses, else as a string')
        .argParser((v: string, prev: [string, unknown][]) => {
          try {
            return parseParamFlag(v, prev);
          } catch (e) {
            throw new InvalidArgumentError((e as Error).message);
          }
        })
        .default([], 'none'),
    )
    .addOption(new Option('--embedder <name>', 'embedder (default: EMBEDDER); must be the one the database was built with').choices(EMBEDDERS))
    .action(async (rawQuestion: string, flags: ExplainFlags, cmd: Command) => {
      // Parsed and validated exactly as the API does it (trimmed question, strict params, allow-listed relTypes).
      const [{ questionSchema }, { validateParams }, { AppError }, { paramBlock }] = await Promise.all([
        import('../http/schemas.js'),
        import('../retrieval/service.js'),
        import('../errors.js'),
        import('../db/cypher.js'),
      ]);
      const parsedQuestion = questionSchema.safeParse(rawQuestion);
      if (!parsedQuestion.success) cmd.error(`error: <question> ${parsedQuestion.error.issues[0].message}`, { exitCode: 2 });
      const question = parsedQuestion.data as string;
      const config = loadConfig(undefined, flags.embedder ? { EMBEDDER: flags.embedder } : {});
      let params: Record<string, unknown>;
      try {
        const given = validateParams(flags.mode, Object.fromEntries(flags.param));
        // As the API's explain: true, the walk's trace is on (gated, ppr) unless the caller says otherwise.
        params = await effectiveParams(config, flags.mode, 'trace' in MODES[flags.mode].params ? { trace: true, ...given } : given);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        const name = (e.field ?? '').replace(/^params\.?/, '') || '(params)';
        const why = e.message.replace(/^[^:]*: /, '');
        const given = [...flags.param].reverse().find(([k]) => k === name.split('.')[0]);
        const detail =
          why === 'unknown field'
            ? `unknown parameter (${flags.mode} takes ${Object.keys(MODES[flags.mode].params).join(', ')})`
            : `${why}${given ? `, got ${JSON.stringify(given[1])}` : ''}`;
        cmd.error(`error: --param ${name}: ${detail}`, { exitCode: 2 });
      }
      const { createEmbedder } = await import('../embedders/index.js');
      const embedder = await createEmbedder(config);
      try {
        const [embedding] = await embedder.embed([question], 'query');
        // The API's explain block: every parameter, then the question and its embedding (server/retrieval/retriever.ts).
        process.stdout.write(`${paramBlock({ ...params, question, questionEmbedding: embedding })}\n`);
        process.stderr.write(
          `// ${flags.mode}: paste the lines above into Neo4j Browser or cypher-shell, then run cypher/${statementFile(flags.mode, params)} unchanged.\n` +
            `// The question was embedded with ${embedder.id} (${embedder.dimension}-d): the database's vectors must come from the same embedder.\n`,
        );
      } finally {
        await embedder.close?.();
      }
    });
}

/**
 * The server's defaults for a mode (its allow-list as relTypes, its projection
 * name) under the caller's values, by the Retriever's own rule. The Retriever
 * is built on a driver that never connects.
 */
async function effectiveParams(config: Config, mode: Mode, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [{ GraphStore }, { Retriever }, { cosineFloorOf }] = await Promise.all([
    import('../db/store.js'),
    import('../retrieval/retriever.js'),
    import('../embedders/index.js'),
  ]);
  const store = GraphStore.connect(config.neo4j);
  try {
    // As compose.ts's createRetriever builds it (that module would load the whole server).
    const retriever = new Retriever(store, {
      timeoutMs: config.queryTimeoutMs,
      allowedRelTypes: config.traverseTypes,
      pprGraphName: config.pprGraphName,
      cosineFloor: cosineFloorOf(config.embedder),
    });
    return retriever.effectiveParams(mode, params);
  } finally {
    await store.close();
  }
}
