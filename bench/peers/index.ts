/**
 * Peer retrievers for the eval harness: neo4j-graphrag's VectorRetriever and HybridRetriever
 * (Neo4j's own Python package) and plain BM25 over the passage full-text index, run by
 * bench/peers/peers.py in a pinned venv (.data/peers-venv, made by bench/peers/setup.sh) on
 * the same database and with the same question embeddings as graph-recall. See README.md.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

export interface PeerQuestion {
  id: string;
  question: string;
  embedding: number[];
}

export interface PeerOptions {
  uri: string;
  user: string;
  password: string;
  database: string;
  /** Passages returned per question. */
  k: number;
  questions: PeerQuestion[];
}

export interface PeerHit {
  id: string;
  /** Passage.id values, best first. */
  passages: string[];
  /** Wall-clock milliseconds of the search call (after one untimed warm-up question). */
  ms: number;
}

export interface PeerResults {
  /** Package versions: neo4j-graphrag, neo4j (the Python driver), python. */
  versions: Record<string, string>;
  /** Keyed by peer: 'neo4j-graphrag:vector', 'neo4j-graphrag:hybrid', 'bm25'; one entry per question, in input order. */
  results: Record<string, PeerHit[]>;
}

/** The peer names runPeers reports, in the order it runs them. */
export const PEER_NAMES = ['neo4j-graphrag:vector', 'neo4j-graphrag:hybrid', 'bm25'] as const;

const outputSchema = z.object({
  versions: z.record(z.string()),
  results: z.record(z.array(z.object({ id: z.string(), passages: z.array(z.string()), ms: z.number() }))),
});

/** The venv the peers run in: PEERS_VENV, else .data/peers-venv (as setup.sh). */
export function peersVenv(): string {
  return process.env.PEERS_VENV || path.join(root, '.data', 'peers-venv');
}

function run(cmd: string, args: string[], what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject(new Error(`${what}: could not start ${cmd}: ${e.message}`)));
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString('utf8').trim();
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${what} failed (${signal ?? `exit ${code}`})${stderr ? `:\n${stderr}` : ''}`));
    });
  });
}

/** Creates the venv and installs bench/peers/requirements.txt when needed (a no-op once done). */
export async function ensurePeersVenv(): Promise<string> {
  await run('bash', [path.join(here, 'setup.sh')], 'bench/peers/setup.sh');
  return peersVenv();
}

/** Runs every peer over the questions (same database, same embeddings) and returns their ranked passage ids and timings. */
export async function runPeers(opts: PeerOptions): Promise<PeerResults> {
  const venv = await ensurePeersVenv();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'graph-recall-peers-'));
  try {
    const input = path.join(dir, 'input.json');
    const { uri, user, password, database, k, questions } = opts;
    await fs.writeFile(input, JSON.stringify({ uri, user, password, database, k, questions }), { mode: 0o600 });
    const stdout = await run(path.join(venv, 'bin', 'python'), [path.join(here, 'peers.py'), input], 'bench/peers/peers.py');
    let parsed: unknown;
    try {
      parsed = JSON.parse(stdout);
    } catch (e) {
      throw new Error(`bench/peers/peers.py printed no JSON (${(e as Error).message}): ${stdout.slice(0, 500)}`);
    }
    return outputSchema.parse(parsed);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
