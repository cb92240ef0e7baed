// Subject: server/config.ts: the environment schema, .env.example and docs/configuration.md agree.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configReference, ConfigError, DEFAULT_DEMO_CORPUS, envSchema, loadConfig, loadDotEnv, ROOT } from '../../../server/config.js';
import { DEFAULT_PPR_GRAPH_NAME, DEFAULT_TRAVERSE_TYPES } from '../../../server/graph/facts.js';

const schemaNames = Object.keys(envSchema.shape).sort();

/** Rows of the markdown table in docs/configuration.md: [variable, default, description]. */
function documentedConfigRows(): string[][] {
  const section = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  if (!section.startsWith('# Configuration\n')) throw new Error('docs/configuration.md does not open with "# Configuration"');
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const rows = section.split('\n').filter((l) => l.trim().startsWith('|'));
  expect(cells(rows[0]!)).toEqual(['variable', 'default', 'description']);
  return rows.slice(2).map(cells);
}

describe('configuration schema and its documentation', () => {
  it('.env.example lists exactly the schema variables', () => {
    const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const names = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(schemaNames);
  });

  it("docs/configuration.md's table lists exactly the schema variables, with the schema's defaults and descriptions", () => {
    const rows = documentedConfigRows();
    const names = rows.map((r) => r[0]!.replace(/^`|`$/g, ''));
    expect([...names].sort()).toEqual(schemaNames);
    expect(rows.map((r) => ({ name: r[0]!.replace(/^`|`$/g, ''), default: r[1], description: r[2] }))).toEqual(configReference());
  });

  it('describes every variable in one line', () => {
    for (const v of configReference()) {
      expect(v.description).toMatch(/\S/);
      expect(v.description).not.toMatch(/\n/);
    }
  });

  it('no module under server/ but config.ts reads process.env', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|mts|js|mjs)$/.test(e.name) && p !== path.join(ROOT, 'server', 'config.ts') && /process\.env\b/.test(fs.readFileSync(p, 'utf8'))) {
          offenders.push(path.relative(ROOT, p));
        }
      }
    };
    walk(path.join(ROOT, 'server'));
    expect(offenders).toEqual([]);
  });
});

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      logLevel: 'info',
      apiKey: undefined,
      neo4j: { uri: 'bolt://127.0.0.1:7687', user: 'neo4j', password: 'graph-recall-dev', database: 'neo4j', embedded: true },
      queryTimeoutMs: 10000,
      embedder: 'local',
      voyage: { apiKey: undefined, model: 'voyage-3.5-lite', dimension: 1024, baseUrl: undefined },
      modelDir: undefined,
      extractor: 'offline',
      generator: 'offline',
      anthropic: { apiKey: undefined, model: 'claude-sonnet-4-6', baseUrl: undefined, maxTokens: 512 },
      traverseTypes: [...DEFAULT_TRAVERSE_TYPES],
      pprGraphName: DEFAULT_PPR_GRAPH_NAME,
      demoCorpus: DEFAULT_DEMO_CORPUS,
      sseHeartbeatMs: 15000,
    });
    expect(fs.existsSync(DEFAULT_DEMO_CORPUS)).toBe(true);
  });

  it('treats empty values as unset (as .env.example writes them)', () => {
    const empty = Object.fromEntries(schemaNames.map((n) => [n, '']));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'silent',
      API_KEY: 'k',
      NEO4J_URI: 'neo4j+s://db.example.com',
      NEO4J_USER: 'u',
      NEO4J_PASSWORD: 'p',
      NEO4J_DATABASE: 'graphs',
      QUERY_TIMEOUT_MS: '250',
      TRAVERSE_REL_TYPES: ' RELATED , TREATS_CtD ,',
      PPR_GRAPH_NAME: 'my-graph',
      VOYAGE_API_KEY: 'pa-x',
      VOYAGE_MODEL: 'voyage-3.5',
      VOYAGE_DIMENSION: '256',
      VOYAGE_BASE_URL: 'http://127.0.0.1:9/v1',
      GRAPH_RECALL_MODEL_DIR: '/models/minilm',
      ANTHROPIC_API_KEY: 'sk-x',
      ANTHROPIC_MODEL: 'claude-x',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      ANTHROPIC_MAX_TOKENS: '64',
      DEMO_CORPUS: 'none',
      SSE_HEARTBEAT_MS: '10',
    });
    expect(c).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      logLevel: 'silent',
      apiKey: 'k',
      neo4j: { uri: 'neo4j+s://db.example.com', user: 'u', password: 'p', database: 'graphs', embedded: false },
      queryTimeoutMs: 250,
      // a key switches the default embedder, extractor and generator
      embedder: 'voyage',
      voyage: { apiKey: 'pa-x', model: 'voyage-3.5', dimension: 256, baseUrl: 'http://127.0.0.1:9/v1' },
      modelDir: '/models/minilm',
      extractor: 'anthropic',
      generator: 'anthropic',
      anthropic: { apiKey: 'sk-x', model: 'claude-x', baseUrl: 'http://127.0.0.1:9', maxTokens: 64 },
      traverseTypes: ['RELATED', 'TREATS_CtD'],
      pprGraphName: 'my-graph',
      demoCorpus: undefined,
      sseHeartbeatMs: 10,
    });
  });

  it('builds the embedded database URI from NEO4J_BOLT_PORT', () => {
    expect(loadConfig({ NEO4J_BOLT_PORT: '27720' }).neo4j).toMatchObject({ uri: 'bolt://127.0.0.1:27720', embedded: true });
  });

  it('lets explicit choices win over the API-key defaults, and overrides win over the environment', () => {
    const env = { VOYAGE_API_KEY: 'pa-x', ANTHROPIC_API_KEY: 'sk-x', EMBEDDER: 'local', EXTRACTOR: 'offline' };
    expect(loadConfig(env)).toMatchObject({ embedder: 'local', extractor: 'offline', generator: 'anthropic' });
    expect(loadConfig(env, { EMBEDDER: 'hash' }).embedder).toBe('hash');
    expect(env.EMBEDDER).toBe('local');
  });

  it.each([
    ['PORT', '70000', /PORT must be an integer in \[0, 65535\], got "70000"/],
    ['PORT', 'eighty', /PORT must be an integer in \[0, 65535\], got "eighty"/],
    ['QUERY_TIMEOUT_MS', '50', /QUERY_TIMEOUT_MS must be an integer in \[100, 600000\]/],
    ['QUERY_TIMEOUT_MS', '1.5', /QUERY_TIMEOUT_MS must be an integer/],
    ['VOYAGE_DIMENSION', '0', /VOYAGE_DIMENSION must be an integer in \[1, 4096\]/],
    ['ANTHROPIC_MAX_TOKENS', '64001', /ANTHROPIC_MAX_TOKENS must be an integer in \[1, 64000\]/],
    ['SSE_HEARTBEAT_MS', '5', /SSE_HEARTBEAT_MS must be an integer in \[10, 600000\]/],
    ['NEO4J_BOLT_PORT', '0', /NEO4J_BOLT_PORT must be an integer in \[1, 65535\]/],
    ['EMBEDDER', 'openai', /EMBEDDER must be one of local, e5, bge, voyage, hash, got "openai"/],
    ['EXTRACTOR', 'spacy', /EXTRACTOR must be one of offline, anthropic/],
    ['GENERATOR', 'gpt', /GENERATOR must be one of offline, anthropic/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    ['TRAVERSE_REL_TYPES', 'RELATED,BAD-TYPE', /TRAVERSE_REL_TYPES "BAD-TYPE" is not a valid relationship type name/],
    ['TRAVERSE_REL_TYPES', 'RELATED) DETACH DELETE (n', /TRAVERSE_REL_TYPES .* is not a valid relationship type name/],
    ['PPR_GRAPH_NAME', 'a graph', /PPR_GRAPH_NAME must be letters, digits, _ or -/],
    ['NEO4J_URI', 'http://localhost:7474', /NEO4J_URI must be a bolt:\/\/, neo4j:\/\//],
    ['NEO4J_HEAP', 'lots', /NEO4J_HEAP must be a memory size/],
    ['VOYAGE_BASE_URL', 'not a url', /VOYAGE_BASE_URL must be a URL/],
  ])('refuses %s=%s with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('names every invalid variable at once', () => {
    expect(() => loadConfig({ PORT: '-1', EMBEDDER: 'x', QUERY_TIMEOUT_MS: 'soon' })).toThrow(/PORT[\s\S]*QUERY_TIMEOUT_MS[\s\S]*EMBEDDER/);
  });
});

describe('.env', () => {
  // process.loadEnvFile writes the real process environment, which jest's sandbox only copies: check it in a child process.
  function configWithDotEnv(fileText: string, env: Record<string, string>): { port: number; host: string; apiKey?: string; fromFile?: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-recall-env-'));
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, fileText);
    const script = `
      import { register } from 'tsx/esm/api';
      register();
      const { loadConfig, loadDotEnv } = await import('./server/config.ts');
      loadDotEnv(process.argv[1]);
      const c = loadConfig();
      console.log(JSON.stringify({ port: c.port, host: c.host, apiKey: c.apiKey, fromFile: process.env.GRAPH_RECALL_TEST_ONLY_IN_FILE }));`;
    try {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      if (r.status !== 0) throw new Error(r.stderr);
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('is read with the real environment winning over the file', () => {
    const c = configWithDotEnv('# a comment\nPORT=9999\nHOST=file-host\nAPI_KEY="quoted key"\nGRAPH_RECALL_TEST_ONLY_IN_FILE=yes\n', { HOST: 'env-host' });
    expect(c).toEqual({ port: 9999, host: 'env-host', apiKey: 'quoted key', fromFile: 'yes' });
  });

  it('may be absent', () => {
    expect(() => loadDotEnv(path.join(os.tmpdir(), 'no-such-dir', '.env'))).not.toThrow();
  });
});
