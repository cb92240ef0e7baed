import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../server/config.js';

const BIN = path.join(ROOT, 'bin', 'graph-recall.mjs');

/**
 * Runs the CLI with no database reachable: NEO4J_URI points nowhere, so a command that got as far
 * as connecting fails with 1 (a refusal before connecting exits with its own code). `env` adds to
 * the test's environment; a variable set to undefined there is left out.
 */
export function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runScript(BIN, args, env);
}

/** Any of the repository's scripts (bin/, or a bench/*.ts through tsx), run the way cli() runs the CLI. */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = script.endsWith('.ts') ? ['--import', 'tsx', script, ...args] : [script, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, NEO4J_URI: 'bolt://127.0.0.1:1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `graph-recall serve` as a process of its own against the test database, with nothing of the
 * developer's environment but PATH and HOME: the database's variables, then `env`.
 */
export function spawnServe(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NEO4J_URI: process.env.NEO4J_URI,
      NEO4J_USER: process.env.NEO4J_USER || 'neo4j',
      NEO4J_PASSWORD: process.env.NEO4J_PASSWORD,
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
