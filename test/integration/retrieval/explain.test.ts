// Subject: graph-recall explain and each cypher/ file run with its own :param header.
import fs from 'node:fs';
import path from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { CYPHER_DIR } from '../../../server/db/cypher.js';
import { testDriver } from '../../support/db.js';
import { cli as runCli } from '../../support/cli.js';
import { bridgeFixture, loadFixtureGraph } from '../../support/fixtures.js';
import { postJson, startServer, type RunningServer } from '../../support/server.js';

/**
 * `graph-recall explain` is the DBA's way in: its output, pasted into Neo4j
 * Browser line by line, then the file run unchanged, must give what the API
 * gives for the same question. Both sides embed with the hash embedder.
 */
const f = bridgeFixture();
let driver: Driver;
let srv: RunningServer;

beforeAll(async () => {
  driver = await testDriver();
  await loadFixtureGraph(driver, f.graph);
  srv = await startServer({ embedder: createHashEmbedder(384) });
});
afterAll(async () => {
  await srv?.close();
  await driver?.close();
});

/**
 * The CLI, with a database address that answers nothing: explain must not need one. The test
 * server's configuration is the defaults: so is the CLI's.
 */
const explain = (args: string[]) => runCli(['explain', ...args], { EMBEDDER: 'hash', TRAVERSE_REL_TYPES: undefined, PPR_GRAPH_NAME: undefined });

/**
 * What Neo4j Browser does with a pasted block: each `:param name => expression;`
 * line is evaluated on its own (RETURN expression), then the file runs as it is.
 */
async function runLikeBrowser(file: string, block: string) {
  const plain = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER || 'neo4j', process.env.NEO4J_PASSWORD!));
  const s = plain.session();
  try {
    const params: Record<string, unknown> = {};
    const lines = block.split('\n').filter((l) => l.trim());
    for (const line of lines) {
      const m = line.match(/^:param (\w+) => (.*);$/);
      if (!m) throw new Error(`not a :param line: ${line.slice(0, 80)}`);
      params[m[1]] = (await s.run(`RETURN ${m[2]} AS v`, params)).records[0].get('v');
    }
    const text = fs.readFileSync(path.join(CYPHER_DIR, file), 'utf8');
    return { params, row: (await s.run(text, params)).records[0].toObject() };
  } finally {
    await s.close();
    await plain.close();
  }
}

const QUESTION = 'Who worked with Ada Lovelace?';

test.each(['gated', 'ppr', 'vector', 'hybrid'] as const)('%s: the printed block, pasted, then the file unchanged, gives the API passages', async (mode) => {
  const cli = await explain([QUESTION, '--mode', mode]);
  expect(cli.stderr).toContain(`then run cypher/retrieve_${mode}.cypher unchanged`);
  expect(cli.code).toBe(0);
  const api = await postJson(`${srv.url}/v1/retrieve`, { question: QUESTION, mode, explain: true });
  expect(api.status).toBe(200);
  // The very block the API's explain returns, embedding included.
  expect(cli.stdout.trimEnd()).toBe(api.body.explain.params);
  const { params, row } = await runLikeBrowser(`retrieve_${mode}.cypher`, cli.stdout);
  expect(params.question).toBe(QUESTION);
  expect((params.questionEmbedding as number[]).length).toBe(384);
  expect(api.body.passages.length).toBeGreaterThan(0);
  expect(row.passages.map((p: { id: string }) => p.id)).toEqual(api.body.passages.map((p: { id: string }) => p.id));
  expect(row.context).toBe(api.body.context);
  if (mode === 'gated') expect(row.passages.map((p: { id: string }) => p.id)).toContain(f.answerPassage);
});

test('--param values (JSON when they parse, else strings) reach the file as the API params do', async () => {
  const params = { steps: 2, decay: 0.5, fusion: 'blend', seedIds: ['e-engine'], gate: false };
  const cli = await explain([
    QUESTION,
    '--param',
    'steps=2',
    '--param',
    'decay=0.5',
    '--param',
    'fusion=blend',
    '--param',
    'seedIds=["e-engine"]',
    '--param',
    'gate=false',
  ]);
  expect(cli.code).toBe(0);
  expect(cli.stdout).toContain(":param fusion => 'blend';");
  expect(cli.stdout).toContain(":param seedIds => ['e-engine'];");
  const api = await postJson(`${srv.url}/v1/retrieve`, { question: QUESTION, mode: 'gated', params, explain: true });
  expect(cli.stdout.trimEnd()).toBe(api.body.explain.params);
  const { row } = await runLikeBrowser('retrieve_gated.cypher', cli.stdout);
  expect(row.seeds.map((s: { id: string }) => s.id)).toContain('e-engine');
  expect(row.passages.map((p: { id: string }) => p.id)).toEqual(api.body.passages.map((p: { id: string }) => p.id));
  expect(row.entities).toEqual(api.body.entities);
});

test('a question with quotes, a carriage return and line separators stays one :param line and reads back exactly', async () => {
  const question = "O'Brien\\ asked:\r who worked with Ada Lovelace?\u2028(and\u2029 Babbage)";
  const cli = await explain([question, '--mode', 'vector']);
  expect(cli.code).toBe(0);
  expect(cli.stdout).not.toMatch(/[\r\u2028\u2029]/);
  const line = cli.stdout.split('\n').find((l) => l.startsWith(':param question =>'))!;
  expect(line).toBe(":param question => 'O\\'Brien\\\\ asked:\\r who worked with Ada Lovelace?\\u2028(and\\u2029 Babbage)';");
  const { params, row } = await runLikeBrowser('retrieve_vector.cypher', cli.stdout);
  expect(params.question).toBe(question);
  const api = await postJson(`${srv.url}/v1/retrieve`, { question, mode: 'vector' });
  expect(row.passages.map((p: { id: string }) => p.id)).toEqual(api.body.passages.map((p: { id: string }) => p.id));
});
