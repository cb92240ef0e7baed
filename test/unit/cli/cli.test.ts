// Subject: server/cli/: graph-recall --help and each command's usage and refusals.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../../server/config.js';
import { cli } from '../../support/cli.js';

describe('graph-recall CLI', () => {
  it('--help lists the commands, the ingest options and the configuration variables', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['serve', 'migrate', 'projection [action]', 'ingest [options] <path>', 'reembed', 'compact', 'explain [options] <question>']) {
      expect(r.stdout).toContain(cmd);
    }
    expect(r.stdout).toMatch(/explain \[options\] <question>\s+print the :param block for a question/);
    expect(r.stdout).toMatch(/Options of explain:\s+--mode <mode>/);
    expect(r.stdout).toContain('--param <name=value>');
    expect(r.stdout).toMatch(/serve\s+run the HTTP API \(default\)/);
    expect(r.stdout).toMatch(/migrate\s+apply pending migrations and exit/);
    expect(r.stdout).toMatch(/create \|\s+refresh \|\s+drop \|\s+status/);
    for (const opt of ['--format', '--extractor', '--embedder', '--batch', '--chunk-size', '--chunk-overlap', '--strict']) expect(r.stdout).toContain(opt);
    for (const name of ['NEO4J_URI', 'EMBEDDER', 'GRAPH_RECALL_MODEL_DIR', 'SSE_HEARTBEAT_MS']) expect(r.stdout).toContain(name);
  });

  it('a reader that closes the pipe early (--help | head) ends it with 0, not an unhandled EPIPE', async () => {
    // The read end is closed before the CLI writes a byte, so its first write fails with EPIPE.
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'graph-recall.mjs'), '--help'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });

  it('ingest --help describes the options', async () => {
    const r = await cli(['ingest', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: graph-recall ingest [options] <path>');
    expect(r.stdout).toMatch(/--chunk-overlap <n>\s+characters shared by consecutive passages/);
  });

  it('refuses an unknown flag with exit code 2, naming it', async () => {
    const r = await cli(['ingest', '--bogus', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
  });

  it('refuses an unknown projection action with exit code 2', async () => {
    const r = await cli(['projection', 'nonsense']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/'nonsense' is invalid.*create, refresh, drop, status/);
  });

  it.each([
    [['ingest', 'x', '--batch', '0'], /--batch <n>.*'0' is invalid/],
    [['ingest', 'x', '--chunk-size', 'big'], /--chunk-size <n>.*'big' is invalid/],
    [['ingest', 'x', '--embedder', 'openai'], /--embedder <name>.*'openai' is invalid.*local, e5, bge, voyage, hash/],
    [['ingest', 'x', '--format', 'csv'], /--format <format>.*'csv' is invalid/],
    [['ingest'], /missing required argument 'path'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['migrate', 'now'], /too many arguments/],
  ])('refuses %j with exit code 2', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('explain --help describes the command and its options', async () => {
    const r = await cli(['explain', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: graph-recall explain [options] <question>');
    expect(r.stdout).toMatch(/--mode <mode>\s+retrieval mode \(choices: "gated", "ppr", "vector",\s+"hybrid", default: "gated"\)/);
    expect(r.stdout).toMatch(/--param <name=value>\s+a parameter of the mode \(repeatable\); value read as JSON/);
  });

  it.each([
    [['explain', 'q', '--param', 'steps=9'], /--param steps: Number must be less than or equal to 5, got 9/],
    [['explain', 'q', '--param', 'colour=red'], /--param colour: unknown parameter \(gated takes seedK, .*steps, decay/],
    [['explain', 'q', '--mode', 'vector', '--param', 'steps=2'], /--param steps: unknown parameter \(vector takes/],
    [['explain', 'q', '--param', 'decay="high"'], /--param decay: Expected number, received string, got "high"/],
    [['explain', 'q', '--param', 'seedIds=e-1'], /--param seedIds: Expected array, received string, got "e-1"/],
    [['explain', 'q', '--param', 'relTypes=["KNOWS"]'], /--param relTypes: KNOWS not in the allow-list \(RELATED, SAME_AS\)/],
    [['explain', 'q', '--param', 'steps'], /--param steps: expected name=value/],
    [['explain', 'q', '--mode', 'magic'], /--mode <mode>.*'magic' is invalid/],
    [['explain', '   '], /<question> must not be empty/],
    [['explain'], /missing required argument 'question'/],
  ])('explain refuses %j with exit code 2, naming the parameter', async (args, message) => {
    const r = await cli([...args, '--embedder', 'hash'], { TRAVERSE_REL_TYPES: '' });
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('explain prints every parameter of the mode, the question and its embedding, one line each, without a database', async () => {
    // A carriage return and the line and paragraph separators would break a pasted line: they are escaped.
    const question = "Who's\r next?\u2028And\u2029 then";
    const r = await cli(['explain', question, '--mode', 'ppr', '--param', 'dampingFactor=0.85', '--param', 'fusion=blend', '--embedder', 'hash']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\r\u2028\u2029]/);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^:param \w+ => .*;$/);
    const names = lines.map((l) => l.split(' ')[1]);
    expect(names.slice(-2)).toEqual(['question', 'questionEmbedding']);
    expect(names).toEqual(expect.arrayContaining(['seedK', 'graphName', 'dampingFactor', 'exactWeights', 'relTypes']));
    expect(lines).toContain(":param question => 'Who\\'s\\r next?\\u2028And\\u2029 then';");
    expect(lines).toContain(':param dampingFactor => 0.85;');
    expect(lines).toContain(":param fusion => 'blend';");
    expect(lines).toContain(":param graphName => 'graph_recall_ppr';");
    const embedding = JSON.parse(
      lines
        .at(-1)!
        .replace(/^:param questionEmbedding => /, '')
        .replace(/;$/, ''),
    );
    expect(embedding).toHaveLength(384);
    expect(Math.hypot(...embedding)).toBeCloseTo(1, 6);
    expect(r.stderr).toContain('then run cypher/retrieve_ppr.cypher unchanged');
  });

  it('refuses a bad configuration value with exit code 2, naming the variable', async () => {
    const r = await cli(['migrate'], { QUERY_TIMEOUT_MS: 'soon' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('QUERY_TIMEOUT_MS must be an integer in [100, 600000], got "soon"');
  });
});

describe('bulk commands (ingest, reembed) embed on every core', () => {
  it('one embedding worker per core unless EMBED_WORKERS is set', async () => {
    const os = await import('node:os');
    const { bulkEmbedWorkers } = await import('../../../server/cli/common.js');
    expect(bulkEmbedWorkers({})).toEqual({ EMBED_WORKERS: String(os.availableParallelism()) });
    expect(bulkEmbedWorkers({ EMBED_WORKERS: '' })).toEqual({ EMBED_WORKERS: String(os.availableParallelism()) });
    expect(bulkEmbedWorkers({ EMBED_WORKERS: '1' })).toEqual({});
    expect(bulkEmbedWorkers({ EMBED_WORKERS: '0' })).toEqual({});
  });
});
