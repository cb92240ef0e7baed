import neo4j from 'neo4j-driver';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../config.js';
import type { GraphStore } from './store.js';

/**
 * Applies migrations/NNN_name.cypher in order. Each file's statements run in
 * one transaction; the version, name and checksum are then recorded as a
 * (:GraphRecallMigration) node. A changed applied file stops everything.
 * Files may use {{EMBEDDING_DIM}}, substituted from configuration (an integer,
 * never user input); the checksum covers the file as written.
 */
export interface MigrationFile {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
}

export class MigrationError extends Error {}

export function readMigrations(dir = path.join(ROOT, 'migrations')): MigrationFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.cypher$/.test(f))
    .sort()
    .map((f) => {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      return {
        version: Number(f.slice(0, 3)),
        name: f,
        checksum: crypto.createHash('sha256').update(text).digest('hex'),
        statements: splitStatements(text),
      };
    });
}

/** Splits on semicolons at line ends, dropping // comment lines. */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * awaitSeconds: how long to wait for the indexes to come online (300 by default; 0: do not wait,
 * as the server's start, which waits with awaitIndexesOnline instead). A graph loaded by an
 * offline import builds every vector index here, which takes minutes to an hour (docs/scale.md).
 */
export async function migrate(store: GraphStore, opts: { dimension: number; dir?: string; awaitSeconds?: number }): Promise<MigrationResult> {
  if (!Number.isInteger(opts.dimension) || opts.dimension < 1 || opts.dimension > 4096) {
    throw new MigrationError(`embedding dimension must be an integer in [1, 4096], got ${opts.dimension}`);
  }
  const files = readMigrations(opts.dir);
  const res = await store.read('MATCH (m:GraphRecallMigration) RETURN m.version AS version, m.name AS name, m.checksum AS checksum');
  const applied = new Map(res.records.map((r) => [Number(r.get('version')), { name: r.get('name'), checksum: r.get('checksum') }]));
  for (const f of files) {
    const prev = applied.get(f.version);
    if (prev && prev.checksum !== f.checksum) {
      throw new MigrationError(
        `migration ${f.name} was changed after it was applied (recorded checksum ${prev.checksum.slice(0, 12)}, file ${f.checksum.slice(0, 12)}). ` +
          'Applied migrations are immutable: restore the file and add a new numbered migration instead.',
      );
    }
  }
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  for (const f of files) {
    if (applied.has(f.version)) {
      result.alreadyApplied.push(f.name);
      continue;
    }
    await store.writeTransaction(async (tx) => {
      for (const stmt of f.statements) await tx.run(stmt.replaceAll('{{EMBEDDING_DIM}}', String(opts.dimension)));
    });
    // Schema and data writes cannot share a transaction; MERGE keeps this idempotent.
    await store.write('MERGE (m:GraphRecallMigration {version: $version}) SET m.name = $name, m.checksum = $checksum, m.appliedAt = datetime()', {
      version: f.version,
      name: f.name,
      checksum: f.checksum,
    });
    result.applied.push(f.name);
  }
  if (opts.awaitSeconds !== 0) await store.read('CALL db.awaitIndexes($s)', { s: neo4j.int(opts.awaitSeconds ?? 300) });
  return result;
}

/**
 * Waits, without a deadline, until every index is online, reporting the least populated one's
 * progress; fails when an index failed to populate. A large imported graph builds its vector
 * indexes for minutes to an hour: the server reports it (GET /v1/health) instead of giving up.
 */
export async function awaitIndexesOnline(store: GraphStore, onProgress?: (percent: number, populating: string[]) => void, pollMs = 2000): Promise<void> {
  for (;;) {
    const r = await store.read('SHOW INDEXES YIELD name, state, populationPercent, failureMessage RETURN name, state, populationPercent, failureMessage');
    const rows = r.records.map((x) => ({
      name: String(x.get('name')),
      state: String(x.get('state')),
      percent: Number(x.get('populationPercent')),
      failure: x.get('failureMessage'),
    }));
    const failed = rows.find((x) => x.state === 'FAILED');
    if (failed) throw new MigrationError(`index ${failed.name} failed to populate: ${String(failed.failure).slice(0, 300)}`);
    const populating = rows.filter((x) => x.state !== 'ONLINE');
    if (!populating.length) return;
    onProgress?.(
      Math.min(...populating.map((x) => x.percent)),
      populating.map((x) => x.name),
    );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Applies pending migrations, the vector indexes at the embedder's dimension. */
export function migrateStore(svc: { store: GraphStore; embedder: { dimension: number } }, awaitSeconds?: number): Promise<MigrationResult> {
  return migrate(svc.store, { dimension: svc.embedder.dimension, awaitSeconds });
}
