/**
 * The embedded Neo4j (docker/neo4j.mjs, used when NEO4J_URI is unset) and the wait for a
 * database that may start after the server or a command.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { GraphStore } from './store.js';

/**
 * Starts the embedded Neo4j (docker/neo4j.mjs) when NEO4J_URI is unset, without blocking the
 * event loop (the HTTP port is already open and answering). The launcher reads the same
 * environment (and .env) for its NEO4J_* settings. Resolves true when this call started it
 * (false: NEO4J_URI is set, or it was already running), so the server stops on exit only what
 * it started.
 */
export function startEmbeddedNeo4j(cfg: Config): Promise<boolean> {
  if (!cfg.neo4j.embedded) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'start'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      process.stdout.write(c);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`could not start the embedded Neo4j (see above); or set NEO4J_URI to an existing database (${cfg.neo4j.uri})`));
      else resolve(!/already running/i.test(out));
    });
  });
}

/** Stops the embedded Neo4j (docker/neo4j.mjs stop); a failure is logged, never thrown. */
export function stopEmbeddedNeo4j(log: Logger): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'docker', 'neo4j.mjs'), 'stop'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status === 0) log.info('embedded Neo4j stopped');
  else log.warn({ code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().slice(0, 500) }, 'could not stop the embedded Neo4j');
}

/** Waits for the database: the server may start before it. Wrong credentials fail at once. */
export async function waitForDatabase(store: GraphStore, cfg: Config['neo4j'], log: Logger, waitMs = 120_000, onWait?: (error: string) => void): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await store.driver.verifyConnectivity({ database: store.database });
      return;
    } catch (e) {
      const msg = String((e as Error).message).split('\n')[0];
      if (/unauthori[sz]ed|authentication/i.test(msg)) throw new Error(`Neo4j at ${cfg.uri} rejected the credentials (NEO4J_USER / NEO4J_PASSWORD)`);
      if (Date.now() > deadline) throw new Error(`Neo4j at ${cfg.uri} is unreachable: ${msg}`);
      log.warn({ uri: cfg.uri, err: msg }, 'waiting for Neo4j');
      onWait?.(msg);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
