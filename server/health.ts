import { readMigrations } from './db/migrate.js';
import type { Embedder } from './embedders/types.js';
import type { GraphStore } from './db/store.js';
import { manageProjection, type ProjectionState } from './db/projection.js';

export interface Health {
  /**
   * building: all is well but the ppr projection is being (re)built in the background.
   * loading: the server is starting (see `loading`); failed: its start-up failed (see `loading.error`).
   */
  status: 'ok' | 'building' | 'degraded' | 'unavailable' | 'loading' | 'failed';
  /** While the server starts: what it is doing, and how far it got. */
  loading?: StartupStatus;
  database: { reachable: boolean; latencyMs?: number; version?: string; error?: string };
  migrations?: { applied: number; pending: string[] };
  indexes?: { name: string; type: string; state: string; populationPercent: number }[];
  projection?: ProjectionState | { error: string };
  /** Per mode: ready, planning (503 + Retry-After until its statement is planned) or database_down. */
  modes?: Record<string, 'ready' | 'planning' | 'database_down'>;
  /** Absent only while the server starts (the local model may still be downloading). */
  embedder?: { id: string; dimension: number };
}

/** The steps of `serve` before retrieval can answer, in order. */
export const STARTUP_PHASES = ['database', 'migrations', 'demo', 'indexes', 'warm-up'] as const;
export type StartupPhase = (typeof STARTUP_PHASES)[number] | 'ready' | 'failed';

export interface StartupStatus {
  phase: StartupPhase;
  /** What is happening, for people. */
  message: string;
  elapsedSeconds: number;
  /** The demo load's progress (stage ingest, synonyms, projection), when it runs. */
  progress?: { stage: string; done: number; total: number; percent: number };
  error?: string;
}

const PHASE_MESSAGES: Record<StartupPhase, string> = {
  database: 'starting: waiting for Neo4j (the embedded one when NEO4J_URI is unset) and the embedding model',
  migrations: 'applying schema migrations',
  demo: 'loading the demo corpus into the empty database (first start only)',
  indexes: 'waiting for the indexes to come online (after a bulk import: every vector index is built now)',
  'warm-up': 'planning the retrieval statements',
  ready: 'ready',
  failed: 'start-up failed',
};

/** The server's start-up, as the loading page of health reports it. */
export class Startup {
  private readonly t0 = Date.now();
  phase: StartupPhase = 'database';
  progress: StartupStatus['progress'];
  error: string | undefined;
  /** Set once the embedder exists. */
  embedder: { id: string; dimension: number } | undefined;
  /** Set while waiting for the database: its last answer. */
  databaseError: string | undefined;

  enter(phase: StartupPhase): void {
    this.phase = phase;
    this.progress = undefined;
  }

  fail(e: unknown): void {
    this.phase = 'failed';
    this.error = String((e as Error)?.message ?? e).split('\n')[0];
  }

  setProgress(stage: string, done: number, total: number): void {
    this.progress = { stage, done, total, percent: total > 0 ? Math.floor((100 * done) / total) : 100 };
  }

  get ready(): boolean {
    return this.phase === 'ready';
  }

  /** Seconds a client should wait before asking again: longer while the demo corpus loads. */
  retryAfterSeconds(): number {
    return this.phase === 'demo' ? 5 : 2;
  }

  status(): StartupStatus {
    const s: StartupStatus = { phase: this.phase, message: PHASE_MESSAGES[this.phase], elapsedSeconds: Math.round((Date.now() - this.t0) / 100) / 10 };
    if (this.progress) {
      s.progress = { ...this.progress };
      s.message += `: ${this.progress.stage} ${this.progress.done}/${this.progress.total}`;
    }
    if (this.error) s.error = this.error;
    return s;
  }

  /** GET /v1/health while the server starts. */
  health(): Health {
    const loading = this.status();
    const database: Health['database'] =
      this.phase === 'database' ? { reachable: false, ...(this.databaseError ? { error: this.databaseError } : {}) } : { reachable: this.phase !== 'failed' };
    return { status: this.phase === 'failed' ? 'failed' : 'loading', loading, database, ...(this.embedder ? { embedder: this.embedder } : {}) };
  }
}

/**
 * Database reachability, migrations, index states and the PPR projection's state. The four
 * look-ups run side by side, each in a session of its own, so a busy database (an ingest
 * writing) costs the slowest of them rather than their sum.
 */
export async function health(store: GraphStore, emb: Embedder, graphName: string): Promise<Health> {
  const embedder = { id: emb.id, dimension: emb.dimension };
  const query = async (text: string) => {
    const session = store.driver.session({ database: store.database, defaultAccessMode: 'READ' });
    try {
      return (await session.run(text)).records;
    } finally {
      await session.close();
    }
  };
  const t0 = performance.now();
  const reachable = query('CALL dbms.components() YIELD versions RETURN versions[0] AS v').then((r) => ({
    version: r[0].get('v') as string,
    latencyMs: Math.round(performance.now() - t0),
  }));
  const applied = query('MATCH (m:GraphRecallMigration) RETURN collect(m.name) AS names').then((r) => r[0].get('names') as string[]);
  const indexList = query(
    "SHOW INDEXES YIELD name, type, state, populationPercent WHERE type IN ['VECTOR', 'FULLTEXT'] RETURN name, type, state, populationPercent ORDER BY name",
  ).then((r) => r.map((x) => x.toObject() as { name: string; type: string; state: string; populationPercent: number }));
  const projectionState: Promise<ProjectionState | { error: string }> = manageProjection(store.driver, 'status', { graphName, database: store.database }).catch(
    (e) => ({
      error: String((e as Error).message),
    }),
  );
  try {
    const [{ version, latencyMs }, names, indexes, projection] = await Promise.all([reachable, applied, indexList, projectionState]);
    const pending = readMigrations()
      .map((m) => m.name)
      .filter((n) => !names.includes(n));
    const schemaProblem = pending.length > 0 || indexes.some((i) => i.state !== 'ONLINE');
    const projectionOk = 'exists' in projection && projection.exists && projection.fresh;
    const building = 'building' in projection && projection.building;
    return {
      status: schemaProblem || (!projectionOk && !building) ? 'degraded' : projectionOk ? 'ok' : 'building',
      database: { reachable: true, latencyMs, version },
      migrations: { applied: names.length, pending },
      indexes,
      projection,
      embedder,
    };
  } catch (e) {
    // The others may still be pending: they settle on their own (each closes its session).
    await Promise.allSettled([reachable, applied, indexList, projectionState]);
    return { status: 'unavailable', database: { reachable: false, error: String((e as Error).message).split('\n')[0] }, embedder };
  }
}
