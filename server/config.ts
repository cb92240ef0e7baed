import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, for locating cypher/, migrations/ and .data/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Loads KEY=VALUE lines from .env without overriding the real environment. */
export function loadDotEnv(file = path.join(ROOT, '.env')): void {
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = line.match(/^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/);
    if (m && process.env[m[1]] === undefined) process.env[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
}

export interface Config {
  host: string;
  port: number;
  logLevel: string;
  apiKey: string | undefined;
  neo4j: { uri: string; user: string; password: string; database: string };
  queryTimeoutMs: number;
  embedder: 'local' | 'voyage' | 'hash';
  voyage: { apiKey: string | undefined; model: string; dimension: number; baseUrl: string | undefined };
  extractor: 'offline' | 'anthropic';
  generator: 'offline' | 'anthropic';
  anthropic: { apiKey: string | undefined; model: string; baseUrl: string | undefined; maxTokens: number };
  /** Relationship types the graph walk may follow (curated graphs add their own). */
  traverseTypes: string[];
  pprGraphName: string;
  demoCorpus: string | undefined;
  /** SSE comment lines this often keep proxies from closing an idle answer stream. */
  sseHeartbeatMs: number;
}

class ConfigError extends Error {}

function int(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) throw new ConfigError(`${name} must be an integer in [${min}, ${max}], got "${raw}"`);
  return v;
}

function oneOf<T extends string>(name: string, def: T, allowed: readonly T[]): T {
  const raw = (process.env[name] || def) as T;
  if (!allowed.includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw;
}

/** A relationship type must be a plain identifier: it is spliced into Cypher. */
export const REL_TYPE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function loadConfig(): Config {
  loadDotEnv();
  const env = process.env;
  const traverseTypes = (env.TRAVERSE_REL_TYPES || 'RELATED,SAME_AS').split(',').map((s) => s.trim()).filter(Boolean);
  for (const t of traverseTypes) {
    if (!REL_TYPE_PATTERN.test(t)) throw new ConfigError(`TRAVERSE_REL_TYPES: "${t}" is not a valid relationship type name`);
  }
  const boltPort = int('NEO4J_BOLT_PORT', 7687, 1, 65535);
  return {
    host: env.HOST || '127.0.0.1',
    port: int('PORT', 8080, 0, 65535),
    logLevel: env.LOG_LEVEL || 'info',
    apiKey: env.API_KEY || undefined,
    neo4j: {
      uri: env.NEO4J_URI || `bolt://127.0.0.1:${boltPort}`,
      user: env.NEO4J_USER || 'neo4j',
      password: env.NEO4J_PASSWORD || 'graph-recall-dev',
      database: env.NEO4J_DATABASE || 'neo4j',
    },
    queryTimeoutMs: int('QUERY_TIMEOUT_MS', 10000, 100, 600000),
    embedder: oneOf('EMBEDDER', env.VOYAGE_API_KEY ? 'voyage' : 'local', ['local', 'voyage', 'hash'] as const),
    voyage: { apiKey: env.VOYAGE_API_KEY || undefined, model: env.VOYAGE_MODEL || 'voyage-3.5-lite', dimension: int('VOYAGE_DIMENSION', 1024, 1, 4096), baseUrl: env.VOYAGE_BASE_URL || undefined },
    extractor: oneOf('EXTRACTOR', env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline', ['offline', 'anthropic'] as const),
    generator: oneOf('GENERATOR', env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline', ['offline', 'anthropic'] as const),
    anthropic: {
      apiKey: env.ANTHROPIC_API_KEY || undefined,
      model: env.ANTHROPIC_MODEL || 'claude-sonnet-4-6',
      baseUrl: env.ANTHROPIC_BASE_URL || undefined,
      maxTokens: int('ANTHROPIC_MAX_TOKENS', 512, 1, 64000),
    },
    traverseTypes,
    pprGraphName: env.PPR_GRAPH_NAME || 'graph_recall_ppr',
    sseHeartbeatMs: int('SSE_HEARTBEAT_MS', 15000, 10, 600000),
    demoCorpus: env.DEMO_CORPUS === 'none' ? undefined : env.DEMO_CORPUS || path.join(ROOT, 'bench', 'data', 'demo', 'corpus.jsonl'),
  };
}
