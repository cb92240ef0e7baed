import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_PPR_GRAPH_NAME, DEFAULT_TRAVERSE_TYPES, GRAPH_NAME_PATTERN, IDENTIFIER_PATTERN } from './graph/facts.js';

/** Repository root, for locating cypher/, migrations/ and .data/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The corpus `npm start` loads into an empty database: 102 passages of the MuSiQue sample (the README's
 * demo question among 5 multi-hop questions), small enough that a fresh start answers within minutes.
 * The whole sample (bench/data/musique, 1,890 passages) stays the evaluation set and is one DEMO_CORPUS away.
 */
/** The environment a child process inherits (a tool the server runs), with `extra` on top. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

export const DEFAULT_DEMO_CORPUS = path.join(ROOT, 'bench', 'data', 'musique-demo', 'corpus.jsonl');

/**
 * Loads .env (KEY=VALUE lines) into process.env with Node's own parser; a
 * variable already set in the real environment wins over the file. Returns
 * process.env, so `loadConfig()` reads both.
 */
export function loadDotEnv(file = path.join(ROOT, '.env')): NodeJS.ProcessEnv {
  if (fs.existsSync(file)) process.loadEnvFile(file);
  return process.env;
}

// ---------------------------------------------------------------------------------------------
// The schema: every environment variable the server reads, with its type, range, default and a
// one-line description. .env.example and the table in docs/configuration.md list exactly these
// (test/unit/cli/config.test.ts checks both).

/** How a default is shown in the reference when it is not a literal (derived from other variables). */
const shownDefaults = new WeakMap<z.ZodTypeAny, string>();

function doc<T extends z.ZodTypeAny>(schema: T, description: string, shownDefault?: string): T {
  const described = schema.describe(description);
  if (shownDefault !== undefined) shownDefaults.set(described, shownDefault);
  return described;
}

const int = (min: number, max: number) =>
  z
    .string()
    .refine((s) => /^\s*-?\d+\s*$/.test(s) && Number(s) >= min && Number(s) <= max, `must be an integer in [${min}, ${max}]`)
    .transform(Number);
const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) });
const url = (what: string) => z.string().refine((s) => URL.canParse(s), `must be ${what}`);
const size = z.string().regex(/^\d+(\.\d+)?\s*[kmgt]?b?$/i, 'must be a memory size such as 512m or 2g');
const text = z.string();

const NEO4J_SCHEMES = /^(bolt|neo4j)(\+s|\+ssc)?:\/\/[^/]/;
/** The embedders EMBEDDER (and the CLI's --embedder) may name. */
export const EMBEDDERS = ['local', 'e5', 'bge', 'voyage', 'hash'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const envSchema = z.object({
  // HTTP server
  PORT: doc(int(0, 65535).default('8080'), 'HTTP listen port (0: any free port)'),
  HOST: doc(text.default('127.0.0.1'), 'HTTP listen address'),
  LOG_LEVEL: doc(choice(LOG_LEVELS).default('info'), `pino log level: ${LOG_LEVELS.join(' | ')}`),
  API_KEY: doc(text.optional(), 'enables the write endpoints; clients send it as X-Api-Key (unset: they answer 403)'),
  READ_API_KEY: doc(
    text.optional(),
    'when set, the read endpoints (retrieve, answer, compare, GET /v1/jobs, /v1/sources, /mcp) need it or API_KEY as X-Api-Key or Bearer (unset: reads are open)',
  ),
  // Neo4j
  NEO4J_URI: doc(
    text.regex(NEO4J_SCHEMES, 'must be a bolt://, neo4j:// (+s, +ssc) URI').optional(),
    'an existing Neo4j 5.26+ with APOC and GDS; unset starts the embedded one',
    '(unset: embedded)',
  ),
  NEO4J_USER: doc(text.default('neo4j'), 'Neo4j user'),
  NEO4J_PASSWORD: doc(text.default('graph-recall-dev'), 'Neo4j password (the embedded database is created with it)'),
  NEO4J_DATABASE: doc(text.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a database name').default('neo4j'), 'database name'),
  NEO4J_BOLT_PORT: doc(int(1, 65535).default('7687'), 'embedded Neo4j Bolt port (127.0.0.1 only)'),
  NEO4J_HTTP_PORT: doc(int(1, 65535).default('7474'), 'embedded Neo4j HTTP port (127.0.0.1 only)'),
  NEO4J_HEAP: doc(size.default('2g'), 'embedded Neo4j JVM heap'),
  NEO4J_PAGECACHE: doc(size.default('1g'), 'embedded Neo4j page cache'),
  NEO4J_DATA_DIR: doc(text.default('.data/neo4j'), 'embedded Neo4j data and logs (relative to the repository)'),
  NEO4J_JAVA_HOME: doc(
    text.default(''),
    'embedded Neo4j: the JDK to run on; empty: the newest JDK 17 or later in /usr/lib/jvm, else java on PATH (a newer JIT plans sooner after a restart)',
  ),
  NEO4J_CDS: doc(
    choice(['true', 'false']).default('true'),
    'embedded Neo4j: keep a class-data archive of its JVM in NEO4J_DATA_DIR (written at the first stop), so a restart serves and plans sooner',
  ),
  NEO4J_JVM_OPTS: doc(text.default(''), 'embedded Neo4j: extra JVM options, space-separated'),
  NEO4J_START_TIMEOUT: doc(
    int(1, 86400).default('180'),
    'seconds the embedded Neo4j may take to start before the launcher gives up (more on a loaded machine)',
  ),
  NEO4J_VECTOR_BUFFER_MB: doc(
    int(1, 65536).default('1'),
    'embedded Neo4j: MB of RAM each vector index buffers while it is built; each full buffer becomes a Lucene segment, and a search visits every segment',
  ),
  NEO4J_VECTOR_MERGE_FACTOR: doc(
    int(2, 100000).default('1000'),
    "embedded Neo4j: segments of one size a vector index merges into one while it is built (1000, Neo4j's own, merges nothing then, and the first write after a large build merges them; 50 merges as Neo4j does once the index is online)",
  ),
  NEO4J_INDEX_MAX_MERGE_MB: doc(
    int(1, 65536).default('2048'),
    "embedded Neo4j: index segments of at least this many MB are never merged by a write (Lucene's maxMergeMB, Neo4j's own 2048); an offline import's vector indexes are built as hundreds of segments of 5-10 MB, and below that size the first write after the build merges none of them instead of waiting for all of them (docs/scale.md)",
  ),
  NEO4J_TRANSACTION_MAX: doc(
    z.union([z.literal(''), size]).default(''),
    'embedded Neo4j: memory one transaction may use (db.memory.transaction.max); a request over it answers 400 (retrieval) or 413 (a write); empty: half of NEO4J_HEAP',
  ),
  NEO4J_TRANSACTION_TOTAL_MAX: doc(
    z.union([z.literal(''), size]).default(''),
    "embedded Neo4j: memory all transactions together may use (dbms.memory.transaction.total.max); a request that finds it full answers 503; empty: Neo4j's 70 % of NEO4J_HEAP",
  ),
  // Retrieval
  QUERY_TIMEOUT_MS: doc(
    int(100, 600000).default('10000'),
    'retrieval transaction timeout in ms (504 past it); the request that plans a statement (the first of its mode) gets 120 s',
  ),
  TRAVERSE_REL_TYPES: doc(
    text
      .transform((s) =>
        s
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      )
      .superRefine((types, ctx) => {
        for (const t of types) if (!IDENTIFIER_PATTERN.test(t)) ctx.addIssue({ code: 'custom', message: `"${t}" is not a valid relationship type name` });
      })
      .default(DEFAULT_TRAVERSE_TYPES.join(',')),
    'relationship types the graph walk may follow, comma-separated (curated graphs add theirs)',
  ),
  PPR_GRAPH_NAME: doc(
    text.regex(GRAPH_NAME_PATTERN, 'must be letters, digits, _ or -').default(DEFAULT_PPR_GRAPH_NAME),
    'GDS projection name used by ppr mode with engine gds',
  ),
  // Models
  EMBEDDER: doc(
    choice(EMBEDDERS).optional(),
    'embedder: local (MiniLM) | e5 (local multilingual-e5-small, npm run setup:e5) | bge (local bge-small-en-v1.5, npm run setup:bge) | voyage | hash (hash: tests only)',
    'local (voyage if VOYAGE_API_KEY)',
  ),
  VOYAGE_API_KEY: doc(text.optional(), 'VoyageAI API key'),
  VOYAGE_MODEL: doc(text.default('voyage-3.5-lite'), 'VoyageAI embedding model'),
  VOYAGE_DIMENSION: doc(int(1, 4096).default('1024'), 'VoyageAI embedding dimension'),
  VOYAGE_BASE_URL: doc(url('a URL').optional(), 'VoyageAI API base URL (a proxy or a test server)'),
  GRAPH_RECALL_MODEL_DIR: doc(
    text.optional(),
    'a folder with model.onnx and vocab.txt, used (verified, never written) instead of the one `npm run setup` provisions',
    '.models/all-MiniLM-L6-v2-int8',
  ),
  EXTRACTOR: doc(choice(['offline', 'anthropic']).optional(), 'entity extraction: offline | anthropic', 'offline (anthropic if ANTHROPIC_API_KEY)'),
  GENERATOR: doc(choice(['offline', 'anthropic']).optional(), 'answer generation: offline | anthropic', 'offline (anthropic if ANTHROPIC_API_KEY)'),
  ANTHROPIC_API_KEY: doc(text.optional(), 'Anthropic API key (Claude: extraction with tool use, streamed answers)'),
  ANTHROPIC_MODEL: doc(text.default('claude-sonnet-4-6'), 'Claude model'),
  ANTHROPIC_BASE_URL: doc(url('a URL').optional(), 'Anthropic API base URL (a proxy or a test server)'),
  ANTHROPIC_MAX_TOKENS: doc(int(1, 64000).default('512'), 'longest answer in tokens (the current Messages API takes no temperature)'),
  // Load: embedding workers, admission control, shutdown
  EMBED_WORKERS: doc(
    int(0, 16).default('1'),
    'local embedder worker threads (0: on the event loop, blocking it); unset, `ingest` and `reembed` use one per core',
  ),
  EMBED_THREADS: doc(int(1, 16).default('1'), 'ONNX Runtime threads per embedding worker'),
  EMBED_QUEUE: doc(int(1, 100000).default('256'), 'embedding batches that may wait for a worker; past it requests get 503 overloaded'),
  RETRIEVE_CONCURRENCY: doc(int(1, 1000).default('4'), 'retrievals (retrieve, answer, compare) run at once'),
  RETRIEVE_QUEUE: doc(int(0, 100000).default('8'), 'retrievals waiting for a slot; past it 503 overloaded with Retry-After'),
  // Writes as jobs (docs/jobs.md)
  JOB_SYNC_MAX_BYTES: doc(
    int(0, 1_000_000_000).default('16384'),
    'a write whose documents (as JSON) are larger than this answers 202 with a job even when nothing else is queued',
  ),
  JOB_QUEUE_BYTES: doc(
    int(1, 100_000_000_000).default('67108864'),
    'bytes of queued and running jobs; past it a write answers 503 overloaded with Retry-After',
  ),
  JOB_RETENTION_MS: doc(int(1, 100_000_000_000).default('86400000'), 'how long finished jobs stay readable (GET /v1/jobs/:id) before they are dropped'),
  JOB_LEASE_MS: doc(
    int(100, 3_600_000).default('15000'),
    'the job lease of the instance that runs jobs: renewed every third of it; another instance takes over this long after it died',
  ),
  SHUTDOWN_TIMEOUT_MS: doc(int(0, 600000).default('10000'), 'on SIGTERM/SIGINT, how long in-flight requests may run before the server exits'),
  KEEP_NEO4J: doc(choice(['true', 'false']).default('false'), 'true: leave the embedded Neo4j that `serve` started running when the server exits'),
  // Demo and answers
  DEMO_CORPUS: doc(
    text.optional(),
    'corpus loaded into an empty database at start; "none" disables it, bench/data/musique/corpus.jsonl loads all 1,890 MuSiQue passages',
    'bench/data/musique-demo/corpus.jsonl',
  ),
  SSE_HEARTBEAT_MS: doc(int(10, 600000).default('15000'), 'heartbeat comment interval of the SSE answer stream, in ms'),
});

export type EnvName = keyof typeof envSchema.shape;
/** Raw values by variable name, as in the environment (strings; empty = unset). */
export type EnvOverrides = Partial<Record<EnvName, string>>;

/** The variables with their default (as shown to people) and description, in schema order. */
export function configReference(): { name: EnvName; default: string; description: string }[] {
  return (Object.entries(envSchema.shape) as [EnvName, z.ZodTypeAny][]).map(([name, s]) => ({
    name,
    default: shownDefaults.get(s) ?? (s instanceof z.ZodDefault ? String(s._def.defaultValue()) : '(unset)'),
    description: s.description ?? '',
  }));
}

// ---------------------------------------------------------------------------------------------

export interface Config {
  host: string;
  port: number;
  logLevel: string;
  apiKey: string | undefined;
  /** READ_API_KEY: when set, the read endpoints need it (or apiKey); server/http/handlers.ts requireReadKey. */
  readApiKey: string | undefined;
  neo4j: {
    uri: string;
    user: string;
    password: string;
    database: string;
    /**
     * Set by loadConfig: true when NEO4J_URI is unset, and `serve` starts the embedded Neo4j
     * (docker/neo4j.mjs, configured by NEO4J_BOLT_PORT ... NEO4J_DATA_DIR) at `uri`.
     */
    embedded?: boolean;
  };
  queryTimeoutMs: number;
  embedder: (typeof EMBEDDERS)[number];
  voyage: { apiKey: string | undefined; model: string; dimension: number; baseUrl: string | undefined };
  /** GRAPH_RECALL_MODEL_DIR: a provisioned local model folder; undefined = the one `npm run setup` provisions. */
  modelDir: string | undefined;
  extractor: 'offline' | 'anthropic';
  generator: 'offline' | 'anthropic';
  anthropic: { apiKey: string | undefined; model: string; baseUrl: string | undefined; maxTokens: number };
  /** Relationship types the graph walk may follow (curated graphs add their own). */
  traverseTypes: string[];
  pprGraphName: string;
  demoCorpus: string | undefined;
  /** SSE comment lines this often keep proxies from closing an idle answer stream. */
  sseHeartbeatMs: number;
  /** The local embedder's worker threads (0: in the calling thread), ONNX threads each, and queue bound. */
  embed: { workers: number; threads: number; maxQueue: number };
  /** Admission control: requests run at once and waiting, per kind (server/http/admission.ts). */
  admission: { retrieve: { concurrency: number; queue: number } };
  /** Writes as jobs (server/jobs): the 201/202 rule, the queue's bound, retention and the runner's lease. */
  jobs: { syncMaxBytes: number; queueBytes: number; retentionMs: number; leaseMs: number };
  /** On SIGTERM/SIGINT, how long in-flight requests may take before the server exits. */
  shutdownTimeoutMs: number;
  /** Leave the embedded Neo4j running when the server exits. */
  keepNeo4j: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the environment (by default process.env after loading .env) and
 * builds the configuration. `overrides` take precedence over the environment
 * (the CLI's --embedder, ...) and are validated the same way. Throws a
 * ConfigError naming every invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined> = loadDotEnv(), overrides: EnvOverrides = {}): Config {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(envSchema.shape) as EnvName[]) {
    const v = overrides[name] ?? env[name];
    if (v !== undefined && v !== '') raw[name] = v; // empty = unset, as in .env.example
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `${name} ${i.message}, got "${raw[name] ?? ''}"`;
    });
    throw new ConfigError(`invalid configuration:\n  ${[...new Set(lines)].join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    apiKey: e.API_KEY,
    readApiKey: e.READ_API_KEY,
    neo4j: {
      uri: e.NEO4J_URI ?? `bolt://127.0.0.1:${e.NEO4J_BOLT_PORT}`,
      user: e.NEO4J_USER,
      password: e.NEO4J_PASSWORD,
      database: e.NEO4J_DATABASE,
      embedded: e.NEO4J_URI === undefined,
    },
    queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    embedder: e.EMBEDDER ?? (e.VOYAGE_API_KEY ? 'voyage' : 'local'),
    voyage: { apiKey: e.VOYAGE_API_KEY, model: e.VOYAGE_MODEL, dimension: e.VOYAGE_DIMENSION, baseUrl: e.VOYAGE_BASE_URL },
    modelDir: e.GRAPH_RECALL_MODEL_DIR,
    extractor: e.EXTRACTOR ?? (e.ANTHROPIC_API_KEY ? 'anthropic' : 'offline'),
    generator: e.GENERATOR ?? (e.ANTHROPIC_API_KEY ? 'anthropic' : 'offline'),
    anthropic: { apiKey: e.ANTHROPIC_API_KEY, model: e.ANTHROPIC_MODEL, baseUrl: e.ANTHROPIC_BASE_URL, maxTokens: e.ANTHROPIC_MAX_TOKENS },
    traverseTypes: e.TRAVERSE_REL_TYPES,
    pprGraphName: e.PPR_GRAPH_NAME,
    demoCorpus: e.DEMO_CORPUS === 'none' ? undefined : (e.DEMO_CORPUS ?? DEFAULT_DEMO_CORPUS),
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    embed: { workers: e.EMBED_WORKERS, threads: e.EMBED_THREADS, maxQueue: e.EMBED_QUEUE },
    admission: {
      retrieve: { concurrency: e.RETRIEVE_CONCURRENCY, queue: e.RETRIEVE_QUEUE },
    },
    jobs: { syncMaxBytes: e.JOB_SYNC_MAX_BYTES, queueBytes: e.JOB_QUEUE_BYTES, retentionMs: e.JOB_RETENTION_MS, leaseMs: e.JOB_LEASE_MS },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    keepNeo4j: e.KEEP_NEO4J === 'true',
  };
}
