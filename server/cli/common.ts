import os from 'node:os';
import { InvalidArgumentError } from 'commander';
import { loadConfig, loadDotEnv, type Config, type EnvOverrides } from '../config.js';
import type { GraphStore } from '../db/store.js';
import type { Services } from '../services.js';

/** An option value that must be an integer >= min (refused by commander, exit code 2, otherwise). */
export function intAtLeast(min: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min) throw new InvalidArgumentError(`Must be an integer >= ${min}.`);
    return Number(value);
  };
}

/**
 * A bulk command (ingest, reembed) runs alone, so the local embedder may use every core: one
 * worker per core unless EMBED_WORKERS is set (the server's default, 1, keeps a core for
 * queries). Embedding is most of an ingest's time, so a second worker shortens it by about a quarter
 * (bench/reports/code-notes/design-figures-2026-12-01).
 */
export function bulkEmbedWorkers(env: NodeJS.ProcessEnv = loadDotEnv()): EnvOverrides {
  const set = env.EMBED_WORKERS;
  return set !== undefined && set !== '' ? {} : { EMBED_WORKERS: String(os.availableParallelism()) };
}

/** How long a one-shot command waits for the database (the server waits longer). */
export const COMMAND_WAIT_MS = 10_000;

/**
 * Runs a one-shot command: configuration (environment, .env, then `env`
 * overrides such as --embedder), the services, a reachable database; the
 * driver is closed afterwards. The implementation modules load only here, so
 * --help and refused arguments stay fast.
 */
export async function withServices<T>(work: (svc: Services) => Promise<T>, env: EnvOverrides = {}): Promise<T> {
  const config: Config = loadConfig(undefined, env);
  const [{ createServices }, { waitForDatabase }] = await Promise.all([import('../compose.js'), import('../db/embedded.js')]);
  const svc = await createServices(config);
  try {
    await waitForDatabase(svc.store, config.neo4j, svc.logger, COMMAND_WAIT_MS);
    return await work(svc);
  } finally {
    await svc.store.close();
  }
}

/**
 * Runs a one-shot command that needs the database alone (no embedder, no extractor): the
 * configuration, a store, a reachable database; the driver is closed afterwards.
 */
export async function withStore<T>(work: (store: GraphStore, config: Config) => Promise<T>): Promise<T> {
  const config: Config = loadConfig();
  const [{ GraphStore }, { createLogger }, { waitForDatabase }] = await Promise.all([
    import('../db/store.js'),
    import('../logger.js'),
    import('../db/embedded.js'),
  ]);
  const store = GraphStore.connect(config.neo4j);
  try {
    await waitForDatabase(store, config.neo4j, createLogger(config.logLevel), COMMAND_WAIT_MS);
    return await work(store, config);
  } finally {
    await store.close();
  }
}
