#!/usr/bin/env node
// Neo4j 5.26 + APOC + GDS without Docker: assembles NEO4J_HOME from Maven
// Central (docker/jvm/pom.xml) and runs the real server on this JVM.
//
//   node docker/neo4j.mjs start|stop|status|logs [--help]
//
// Every command is idempotent. Settings come from the environment (or .env):
// NEO4J_PASSWORD, NEO4J_BOLT_PORT, NEO4J_HTTP_PORT, NEO4J_HEAP, NEO4J_PAGECACHE,
// NEO4J_DATA_DIR, NEO4J_JAVA_HOME, NEO4J_JVM_OPTS, NEO4J_CDS, NEO4J_START_TIMEOUT (seconds a start may
// take, default 180), NEO4J_VECTOR_BUFFER_MB (each vector index's RAM buffer while it is
// built), NEO4J_VECTOR_MERGE_FACTOR (segments of one size a vector index merges while it is built),
// NEO4J_INDEX_MAX_MERGE_MB (index segments of at least this size are never merged by a write),
// NEO4J_TRANSACTION_MAX (the memory one transaction may use, default half the heap),
// NEO4J_TRANSACTION_TOTAL_MAX (the memory all transactions together may use, default 70 % of it).
// Plain JavaScript so it runs before `npm ci` has built anything except neo4j-driver.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
// Node's own .env reader, as the server's (server/config.ts): the real environment wins over the file.
if (fs.existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));

class LauncherError extends Error {}

// Same defaults and ranges as server/config.ts's schema; empty = unset.
const env = (name, def) => process.env[name] || def;
function positive(name, def, unit, max, min = 1) {
  const raw = env(name, String(def));
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new LauncherError(`${name} must be a whole number of ${unit} in [${min}, ${max}], got "${raw}"`);
  }
  return Number(raw);
}

function port(name, def) {
  const raw = env(name, String(def));
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || n < 1 || n > 65535) throw new LauncherError(`${name} must be an integer in [1, 65535], got "${raw}"`);
  return n;
}

let cfg;
try {
  cfg = {
    password: env('NEO4J_PASSWORD', 'graph-recall-dev'),
    boltPort: port('NEO4J_BOLT_PORT', 7687),
    httpPort: port('NEO4J_HTTP_PORT', 7474),
    heap: env('NEO4J_HEAP', '2g'),
    pagecache: env('NEO4J_PAGECACHE', '1g'),
    dataDir: path.resolve(root, env('NEO4J_DATA_DIR', '.data/neo4j')),
    startTimeoutMs: 1000 * positive('NEO4J_START_TIMEOUT', 180, 'seconds', 86400),
    vectorBufferMb: positive('NEO4J_VECTOR_BUFFER_MB', 1, 'MB', 65536),
    vectorMergeFactor: positive('NEO4J_VECTOR_MERGE_FACTOR', 1000, 'segments', 100000, 2),
    indexMaxMergeMb: positive('NEO4J_INDEX_MAX_MERGE_MB', 2048, 'MB', 65536),
    transactionMax: env('NEO4J_TRANSACTION_MAX', ''),
    transactionTotalMax: env('NEO4J_TRANSACTION_TOTAL_MAX', ''),
  };
} catch (e) {
  console.error(`error: ${e.message}`);
  process.exit(2);
}
const home = path.join(here, 'jvm', 'target', 'neo4j-home');
const confDir = path.join(cfg.dataDir, 'conf');
const pidFile = path.join(cfg.dataDir, 'neo4j.pid');
const consoleLog = path.join(cfg.dataDir, 'logs', 'console.log');
const boltUri = `bolt://127.0.0.1:${cfg.boltPort}`;

// The flags Neo4j's own launcher passes (server.jvm.additional defaults).
const JVM_FLAGS = [
  '-XX:+UseG1GC',
  '-XX:-OmitStackTraceInFastThrow',
  '-XX:+UnlockExperimentalVMOptions',
  '-XX:+TrustFinalNonStaticFields',
  '-XX:+DisableExplicitGC',
  '-Djdk.nio.maxCachedBufferSize=1024',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-Djdk.tls.ephemeralDHKeySize=2048',
  '-Djdk.tls.rejectClientInitiatedRenegotiation=true',
  '-XX:FlightRecorderOptions=stackdepth=256',
  '-XX:+UnlockDiagnosticVMOptions',
  '-XX:+DebugNonSafepoints',
  '-Dlog4j2.disable.jmx=true',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
  '--enable-native-access=ALL-UNNAMED',
];

/** The path of `cmd` on PATH, or '' when it is missing. */
function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

// The JVM Neo4j runs on: NEO4J_JAVA_HOME's, else the newest JDK (17 or later) in Debian's /usr/lib/jvm, else `java` on
// PATH. The newest because a newer JIT plans a long statement on a just-started JVM sooner, which is what a restart
// waits for (docs/recovery.md); NEO4J_JAVA_HOME pins one (Neo4j 5.26 is certified on 17 and 21).
function javaMajor(jdkHome) {
  try {
    const m = /^JAVA_VERSION="(\d+)/m.exec(fs.readFileSync(path.join(jdkHome, 'release'), 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
function findJava() {
  if (process.env.NEO4J_JAVA_HOME) {
    const bin = path.join(process.env.NEO4J_JAVA_HOME, 'bin', 'java');
    if (!fs.existsSync(bin)) throw new LauncherError(`NEO4J_JAVA_HOME=${process.env.NEO4J_JAVA_HOME} has no bin/java.`);
    return bin;
  }
  const jvmDir = '/usr/lib/jvm';
  const jdks = fs.existsSync(jvmDir)
    ? fs
        .readdirSync(jvmDir)
        .map((d) => path.join(jvmDir, d))
        .filter((d) => !fs.lstatSync(d).isSymbolicLink() && fs.existsSync(path.join(d, 'bin', 'java')))
        .map((dir) => ({ dir, major: javaMajor(dir) }))
        .filter((j) => j.major >= 17)
        .sort((a, b) => b.major - a.major || a.dir.localeCompare(b.dir))
    : [];
  return jdks.length > 0 ? path.join(jdks[0].dir, 'bin', 'java') : which('java');
}

function parseSize(s) {
  const m = String(s)
    .trim()
    .match(/^(\d+(?:\.\d+)?)\s*([kmgt]?)b?$/i);
  if (!m) throw new LauncherError(`cannot read memory size "${s}" (use e.g. 512m or 2g)`);
  return Number(m[1]) * 1024 ** ' kmgt'.indexOf((m[2] || ' ').toLowerCase());
}

/** A size in bytes as Neo4j's setting value in whole MiB, e.g. 512m. */
const mib = (bytes) => `${Math.floor(bytes / 2 ** 20)}m`;

function readPid() {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer().once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

async function loadDriver() {
  try {
    return (await import('neo4j-driver')).default;
  } catch {
    throw new LauncherError('neo4j-driver is not installed: run `npm ci` first');
  }
}

async function probe(timeoutMs) {
  const neo4j = await loadDriver();
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    const driver = neo4j.driver(boltUri, neo4j.auth.basic('neo4j', cfg.password), {
      connectionTimeout: 2000,
      logging: { level: 'error', logger: () => {} },
    });
    try {
      const session = driver.session();
      const res = await session.run('RETURN apoc.version() AS apoc, gds.version() AS gds');
      const info = await session.run('CALL dbms.components() YIELD name, versions, edition RETURN versions[0] AS v, edition');
      await session.close();
      return { apoc: res.records[0].get('apoc'), gds: res.records[0].get('gds'), neo4j: info.records[0].get('v'), edition: info.records[0].get('edition') };
    } catch (e) {
      lastError = e;
      if (/unauthorized|authentication/i.test(String(e.message))) {
        throw new LauncherError(
          `Neo4j at ${boltUri} rejected NEO4J_PASSWORD. The password is fixed when the data folder is created: use the original one, or remove ${cfg.dataDir} to start over.`,
        );
      }
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await driver.close();
    }
  }
  throw new LauncherError(
    `Neo4j did not answer on ${boltUri} within ${timeoutMs / 1000}s (${lastError?.message ?? 'no answer'}). See ${consoleLog} and ${path.join(cfg.dataDir, 'logs', 'neo4j.log')}`,
  );
}

function ensureHome(javaBin) {
  if (!javaBin) throw new LauncherError('Java is missing: install OpenJDK 17 (apt-get install openjdk-17-jre-headless) and retry.');
  const marker = path.join(home, 'lib', 'neo4j-server-' + pomVersion('neo4j.version') + '.jar');
  if (fs.existsSync(marker)) return;
  if (!which('mvn')) throw new LauncherError('Maven is missing: install it (apt-get install maven) so the Neo4j jars can be resolved from Maven Central.');
  console.log('Resolving Neo4j, APOC and GDS jars from Maven Central (first run only)...');
  fs.rmSync(home, { recursive: true, force: true });
  const r = spawnSync('mvn', ['-q', '-B', '-f', path.join(here, 'jvm', 'pom.xml'), 'package'], { stdio: 'inherit' });
  if (r.status !== 0) throw new LauncherError('mvn package failed: see the output above.');
}

function pomVersion(prop) {
  const pom = fs.readFileSync(path.join(here, 'jvm', 'pom.xml'), 'utf8');
  return pom.match(new RegExp(`<${prop}>([^<]+)</${prop}>`))[1];
}

function writeConf() {
  fs.mkdirSync(confDir, { recursive: true });
  const d = (p) => path.join(cfg.dataDir, p);
  fs.writeFileSync(
    path.join(confDir, 'neo4j.conf'),
    [
      '# Written by docker/neo4j.mjs on every start; edit the environment, not this file.',
      `server.directories.data=${d('data')}`,
      `server.directories.logs=${d('logs')}`,
      `server.directories.run=${d('run')}`,
      `server.directories.import=${d('import')}`,
      `server.directories.plugins=${path.join(home, 'plugins')}`,
      `server.bolt.listen_address=127.0.0.1:${cfg.boltPort}`,
      `server.bolt.advertised_address=127.0.0.1:${cfg.boltPort}`,
      `server.http.listen_address=127.0.0.1:${cfg.httpPort}`,
      'server.https.enabled=false',
      `server.memory.pagecache.size=${cfg.pagecache}`,
      'dbms.security.auth_enabled=true',
      'dbms.security.procedures.unrestricted=apoc.*,gds.*',
      'dbms.usage_report.enabled=false',
      'db.transaction.timeout=0',
      // Check transaction timeouts every 100 ms (default 2 s) so QUERY_TIMEOUT_MS is honoured closely.
      'db.transaction.monitor.check.interval=100ms',
      // Plans keyed by parameter types only, not also by the size of each string and list value:
      // with size hints (the default) a question of a new length class re-plans the whole
      // statement (4-18 s for gated) although the plan is the same.
      'internal.cypher.use_parameter_size=false',
      // One query may use at most half the heap (NEO4J_TRANSACTION_MAX; the pool of all transactions
      // is 70 % of it), so a request with extreme parameters fails alone, with its own error (the
      // server answers 400), instead of exhausting the pool for every concurrent query.
      `db.memory.transaction.max=${mib(cfg.transactionMax ? parseSize(cfg.transactionMax) : parseSize(cfg.heap) / 2)}`,
      ...(cfg.transactionTotalMax ? [`dbms.memory.transaction.total.max=${mib(parseSize(cfg.transactionTotalMax))}`] : []),
      // A vector index being built flushes a Lucene segment each time this buffer fills, and a search
      // visits every segment (docs/scale.md#vector-index-segments).
      `internal.dbms.index.vector.population_ram_buffer_size=${cfg.vectorBufferMb}`,
      // Neo4j builds a vector index merging nothing (1000) and merges at 50 once it is online, so the first write after a
      // large build merges hundreds of segments; 50 merges them during the build (docs/scale.md#vector-index-segments).
      `internal.dbms.index.vector.population_merge_factor=${cfg.vectorMergeFactor}`,
      // A write merges only segments smaller than this (Lucene's maxMergeMB, every index). Below the size of a large
      // build's segments, that first write merges none of them (docs/scale.md#vector-index-segments).
      `internal.dbms.index.lucene.max_merge=${cfg.indexMaxMergeMb}`,
      '',
    ].join('\n'),
  );
}

// A class-data archive of this data folder's Neo4j (dynamic CDS): the first start writes it
// when Neo4j stops (every class the run loaded, the Cypher planner's included); later starts map it
// instead of loading and verifying those classes again. A restart then serves sooner and plans its
// first statements sooner (docs/recovery.md). One per JVM (an archive maps only into the JVM that
// wrote it), rewritten when the jars or that JVM are newer than it; NEO4J_CDS=false turns it off.
function classArchiveFlags(javaBin) {
  if (env('NEO4J_CDS', 'true') === 'false') return [];
  const jdk = path.basename(path.dirname(path.dirname(javaBin))).replace(/[^A-Za-z0-9._-]/g, '_');
  const classArchive = path.join(cfg.dataDir, 'jvm', `neo4j-classes-${jdk}.jsa`);
  fs.rmSync(path.join(cfg.dataDir, 'jvm', 'neo4j-classes.jsa'), { force: true }); // the one-archive layout before
  fs.mkdirSync(path.dirname(classArchive), { recursive: true });
  const stale = (f) =>
    !fs.existsSync(f) || [path.join(home, 'lib'), path.join(home, 'plugins'), javaBin].some((p) => fs.statSync(p).mtimeMs > fs.statSync(f).mtimeMs);
  if (!stale(classArchive)) return [`-XX:SharedArchiveFile=${classArchive}`, '-Xshare:auto'];
  fs.rmSync(classArchive, { force: true });
  return [`-XX:ArchiveClassesAtExit=${classArchive}`];
}

async function start() {
  const t0 = Date.now();
  const running = readPid();
  if (running) {
    const v = await probe(60_000);
    console.log(`Neo4j already running (pid ${running}) on ${boltUri}: Neo4j ${v.neo4j}, APOC ${v.apoc}, GDS ${v.gds}`);
    return;
  }
  const heap = parseSize(cfg.heap);
  const pc = parseSize(cfg.pagecache);
  if (heap + pc > os.totalmem() * 0.9) {
    throw new LauncherError(
      `NEO4J_HEAP (${cfg.heap}) + NEO4J_PAGECACHE (${cfg.pagecache}) exceed 90% of this machine's ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB: lower them.`,
    );
  }
  for (const port of [cfg.boltPort, cfg.httpPort]) {
    if (!(await portFree(port))) {
      throw new LauncherError(`Port ${port} on 127.0.0.1 is taken by another process. Stop it, or set NEO4J_BOLT_PORT / NEO4J_HTTP_PORT to free ports.`);
    }
  }
  const found = findJava();
  ensureHome(found);
  const javaBin = fs.realpathSync(found);
  writeConf();
  const env = { ...process.env, NEO4J_HOME: home, NEO4J_CONF: confDir };
  const fresh = !fs.existsSync(path.join(cfg.dataDir, 'data', 'dbms'));
  if (fresh) {
    // Must run before the first start; afterwards Neo4j ignores it.
    const r = spawnSync(javaBin, ['-cp', `${home}/lib/*`, 'org.neo4j.cli.AdminTool', 'dbms', 'set-initial-password', cfg.password], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new LauncherError(`setting the initial password failed: ${r.stderr || r.stdout}`);
  }
  fs.mkdirSync(path.dirname(consoleLog), { recursive: true });
  const out = fs.openSync(consoleLog, 'a');
  const child = spawn(
    javaBin,
    [
      `-Xms${cfg.heap}`,
      `-Xmx${cfg.heap}`,
      ...JVM_FLAGS,
      ...classArchiveFlags(javaBin),
      // Extra JVM options, space-separated (e.g. -XX:TieredStopAtLevel=1); empty by default.
      ...(process.env.NEO4J_JVM_OPTS ?? '').split(/\s+/).filter(Boolean),
      '-cp',
      `${home}/plugins/*:${home}/lib/*`,
      'org.neo4j.server.CommunityEntryPoint',
      `--home-dir=${home}`,
      `--config-dir=${confDir}`,
    ],
    { env, detached: true, stdio: ['ignore', out, out] },
  );
  fs.writeFileSync(pidFile, String(child.pid));
  child.unref();
  let exited = null;
  child.on('exit', (code) => {
    exited = code;
  });
  try {
    const v = await Promise.race([
      probe(cfg.startTimeoutMs),
      new Promise((_, reject) => {
        const t = setInterval(() => {
          if (exited !== null) {
            clearInterval(t);
            reject(new LauncherError(`Neo4j exited with code ${exited} during start-up; last lines of ${consoleLog}:\n${tail(consoleLog, 20)}`));
          }
        }, 300);
        t.unref();
      }),
    ]);
    console.log(
      `Neo4j ${v.neo4j} ${v.edition} started on ${boltUri} in ${((Date.now() - t0) / 1000).toFixed(1)}s${fresh ? ' (new database)' : ''}, on Java ${javaMajor(path.dirname(path.dirname(javaBin))) || '(version unknown)'}`,
    );
    console.log(`RETURN apoc.version(), gds.version() -> ${v.apoc}, ${v.gds}`);
  } catch (e) {
    // Gone before the error is reported: a caller that starts again at once (a new data folder) finds the ports free.
    try {
      process.kill(child.pid);
    } catch {}
    for (let i = 0; i < 120 && exited === null; i++) await new Promise((r) => setTimeout(r, 500));
    if (exited === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {}
    }
    fs.rmSync(pidFile, { force: true });
    throw e;
  }
  process.exit(0);
}

async function stop() {
  const pid = readPid();
  if (!pid) {
    fs.rmSync(pidFile, { force: true });
    console.log('Neo4j is not running.');
    return;
  }
  process.kill(pid, 'SIGTERM');
  // A large graph's last checkpoint at shutdown can take minutes; after 3 it is killed (the next
  // start recovers from the transaction log).
  for (let i = 0; i < 360 && readPid(); i++) await new Promise((r) => setTimeout(r, 500));
  if (readPid()) {
    process.kill(pid, 'SIGKILL');
    // Killed while it may have been writing a class archive: a half-written one must not be mapped.
    const dir = path.join(cfg.dataDir, 'jvm');
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const archive = path.join(dir, f);
      if (f.endsWith('.jsa') && Date.now() - fs.statSync(archive).mtimeMs < 120_000) fs.rmSync(archive, { force: true });
    }
  }
  fs.rmSync(pidFile, { force: true });
  console.log(`Neo4j stopped (pid ${pid}).`);
}

async function status() {
  const pid = readPid();
  if (!pid) {
    console.log(`Neo4j is not running (data: ${cfg.dataDir}).`);
    process.exitCode = 3;
    return;
  }
  const v = await probe(5000);
  console.log(`Neo4j ${v.neo4j} running (pid ${pid}) on ${boltUri}; APOC ${v.apoc}, GDS ${v.gds}; data: ${cfg.dataDir}`);
}

function tail(file, n) {
  if (!fs.existsSync(file)) return `(no ${file})`;
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .slice(-n - 1)
    .join('\n');
}

function logs() {
  console.log(tail(path.join(cfg.dataDir, 'logs', 'neo4j.log'), 60));
  console.log(tail(consoleLog, 20));
}

const HELP = `Usage: node docker/neo4j.mjs <start|stop|status|logs>  (npm run db:start|db:stop|db:status|db:logs)

Runs Neo4j ${pomVersion('neo4j.version')} with APOC ${pomVersion('apoc.version')} and GDS ${pomVersion('gds.version')}, resolved from Maven Central, without Docker.
Environment (or .env): NEO4J_PASSWORD (default graph-recall-dev), NEO4J_BOLT_PORT (7687),
NEO4J_HTTP_PORT (7474), NEO4J_HEAP (2g), NEO4J_PAGECACHE (1g), NEO4J_DATA_DIR (.data/neo4j),
NEO4J_START_TIMEOUT (seconds a start may take before it is abandoned: 180; more on a loaded machine),
NEO4J_JAVA_HOME (the JDK to run on; empty: the newest JDK 17+ in /usr/lib/jvm, else java on PATH),
NEO4J_CDS (true: keep a JVM class-data archive in NEO4J_DATA_DIR/jvm, written at the first stop, so later
starts serve and plan sooner), NEO4J_JVM_OPTS (extra JVM options, space-separated; empty),
NEO4J_VECTOR_BUFFER_MB (MB each vector index buffers while it is built: 1, Neo4j's default; docs/scale.md),
NEO4J_VECTOR_MERGE_FACTOR (segments of one size a vector index merges into one while it is built: 1000, Neo4j's
own, which leaves the merges to the first write; 50 merges as Neo4j does once the index is online; docs/scale.md),
NEO4J_INDEX_MAX_MERGE_MB (index segments of at least this many MB are never merged by a write: 2048, Neo4j's own;
below a large build's segment size, the first write after it merges none of them; docs/scale.md),
NEO4J_TRANSACTION_MAX (memory one transaction may use, e.g. 512m; empty: half of NEO4J_HEAP),
NEO4J_TRANSACTION_TOTAL_MAX (memory all transactions together may use; empty: Neo4j's 70 % of NEO4J_HEAP).`;

const commands = { start, stop, status, logs };
const cmd = process.argv[2];
if (!commands[cmd]) {
  console.log(HELP);
  process.exit(cmd === '--help' || cmd === '-h' ? 0 : 2);
}
try {
  await commands[cmd]();
} catch (e) {
  console.error(`error: ${e instanceof LauncherError ? e.message : e.stack}`);
  process.exit(1);
}
