import fs from 'node:fs';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { z } from 'zod';
import { PROJECTION_TYPES } from '../graph/facts.js';
import { setProjectionState } from '../metrics.js';
import { CYPHER_DIR } from './cypher.js';

export type ProjectionAction = 'create' | 'refresh' | 'drop' | 'status';

/** The projection's state, as POST /v1/projection and GET /v1/health report it (the OpenAPI document reads this schema). */
export const ProjectionStateSchema = z.object({
  graphName: z.string(),
  exists: z.boolean(),
  fresh: z.boolean(),
  nodeCount: z.number().int().nullable(),
  relationshipCount: z.number().int().nullable(),
  creationTime: z.string().nullable(),
  graphUpdatedAt: z.string().nullable(),
  building: z.boolean().describe('this server is (re)building the projection, or has a rebuild queued'),
});
export type ProjectionState = z.infer<typeof ProjectionStateSchema>;

interface ProjectionOptions {
  graphName: string;
  database?: string;
  extraTypes?: string[];
}

/** The file's text, read once (health checks run it on every call). */
let statement: string | undefined;

/** Another process (or an earlier statement) created the projection between our check and our create. */
const alreadyExists = (e: unknown) => /already exists|already loaded/i.test(String((e as Error)?.message ?? ''));

/**
 * Runs cypher/ppr_projection.cypher, the file a DBA runs for the same purpose.
 * A create or refresh that meets a projection made meanwhile by someone else
 * (another process, another request) takes it as done and reports the state.
 */
export async function manageProjection(driver: Driver, action: ProjectionAction, opts: ProjectionOptions): Promise<ProjectionState> {
  statement ??= fs.readFileSync(path.join(CYPHER_DIR, 'ppr_projection.cypher'), 'utf8');
  const projectionTypes = [...new Set([...PROJECTION_TYPES, ...(opts.extraTypes ?? [])])];
  const manager = registry.get(driver)?.get(key(opts.database, opts.graphName));
  const session = driver.session({ database: opts.database });
  try {
    const run = (a: ProjectionAction) => session.run(statement!, { action: a, graphName: opts.graphName, projectionTypes });
    const res = await run(action).catch((e: unknown) => {
      if (!alreadyExists(e) || action === 'drop' || action === 'status') throw e;
      return run('status');
    });
    const r = res.records[0].toObject();
    const state: ProjectionState = {
      graphName: r.graphName,
      exists: r.exists,
      fresh: r.fresh,
      nodeCount: r.nodeCount,
      relationshipCount: r.relationshipCount,
      creationTime: r.creationTime,
      graphUpdatedAt: r.graphUpdatedAt,
      building: manager?.building ?? false,
    };
    if (state.exists) manager?.noteExists();
    // In a server, looking at a missing or stale projection starts its rebuild (health checks heal it).
    if (action === 'status' && manager && (!state.exists || !state.fresh)) state.building = manager.heal();
    return state;
  } finally {
    await session.close();
  }
}

/**
 * Projections live in memory: a database restart loses them. Creates (or
 * refreshes a stale) projection through its manager, so it never races the
 * server's own rebuilds; returns the action taken.
 */
export async function ensureProjection(driver: Driver, opts: ProjectionOptions): Promise<'none' | 'refreshed'> {
  const m = projectionManager(driver, opts);
  // A missing or stale projection starts its rebuild (status heals when a manager exists).
  const state = await manageProjection(driver, 'status', opts);
  if (state.exists && state.fresh) return 'none';
  if (!m.building) await m.requestRebuild();
  await m.idle();
  if (m.lastError) throw new Error(`ppr projection ${opts.graphName}: ${m.lastError}`);
  return 'refreshed';
}

/**
 * The server's owner of one projection. Rebuilds are single-flight: one at a
 * time per process; requests made while one runs coalesce into ONE rebuild
 * after it (so it sees every write committed before the request). Writers
 * call requestRebuild after their commit and do not wait; readers that find
 * the projection missing or stale call heal, which starts a rebuild only if
 * none is running or queued. Another process doing the same is harmless:
 * manageProjection takes "already exists" as done.
 */
export class ProjectionManager {
  private current: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private readonly types = new Set<string>();
  private lastFailureAt = 0;
  /** Seconds the last rebuild took (the Retry-After hint), at least 1. */
  private lastSeconds = 1;
  private built = false;
  /** The state the last finished rebuild left (what a refresh request reports). */
  private lastState: ProjectionState | undefined;
  lastError: string | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly opts: { graphName: string; database?: string; onError?: (e: unknown) => void },
  ) {}

  get graphName(): string {
    return this.opts.graphName;
  }

  /** A rebuild runs or is queued. */
  get building(): boolean {
    return this.current !== null || this.next !== null;
  }

  /** How long a client should wait before asking again, in whole seconds. */
  retryAfterSeconds(): number {
    return Math.min(30, Math.max(1, Math.ceil(this.lastSeconds)));
  }

  /** Relationship types the projection must hold besides PROJECTION_TYPES (curated graphs, the walk's allow-list). */
  addTypes(types: readonly string[] = []): void {
    for (const t of types) this.types.add(t);
  }

  /**
   * A rebuild that starts after every write committed before this call. The
   * promise settles when that rebuild ends; callers that do not wait must
   * catch it (`void m.requestRebuild().catch(...)`): the failure is also kept
   * in lastError and a later request tries again.
   */
  requestRebuild(extraTypes?: readonly string[]): Promise<void> {
    this.addTypes(extraTypes);
    if (this.next) return this.next;
    if (!this.current) return this.start(true);
    this.next = this.current
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start(true);
      });
    return this.next;
  }

  /**
   * Makes sure the projection exists and is fresh, in the background, unless a rebuild runs or
   * is queued (or one failed under half a second ago); true when one runs. Unlike requestRebuild
   * it never drops a projection that is already fine: readers that failed while a rebuild swapped
   * the projection call heal after it is back, and must not start another swap (a livelock under
   * load: every swap failed the ppr requests in flight, whose heal started the next swap).
   */
  heal(): boolean {
    if (this.building) return true;
    if (Date.now() - this.lastFailureAt < 500) return false;
    this.start(false).catch(() => undefined);
    return true;
  }

  /** The projection existed once in this process: the server's watchdog rebuilds it when it goes missing (a restart). */
  get wanted(): boolean {
    return this.built;
  }

  noteExists(): void {
    this.built = true;
  }

  /**
   * A caller's create, refresh, drop or status (POST /v1/projection, the CLI), in turn with
   * this manager's own rebuilds: a refresh joins the queued rebuild (or starts one) and reports
   * the state that rebuild left; create and drop wait until no rebuild runs. Run straight, a
   * refresh landing in a background rebuild's drop-then-create reported the projection missing.
   */
  async perform(action: ProjectionAction): Promise<ProjectionState> {
    const opts = { graphName: this.opts.graphName, database: this.opts.database, extraTypes: [...this.types] };
    if (action === 'status') return manageProjection(this.driver, 'status', opts);
    if (action === 'refresh') {
      await this.requestRebuild();
      return { ...this.lastState!, building: this.building };
    }
    await this.idle();
    return manageProjection(this.driver, action, opts);
  }

  /** Resolves when no rebuild runs or is queued (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.building) await (this.next ?? this.current)?.catch(() => undefined);
  }

  private start(force: boolean): Promise<void> {
    setProjectionState('building');
    const run = this.rebuild(force)
      .then(
        () => setProjectionState(this.lastError ? 'missing' : 'ready'),
        (e) => {
          setProjectionState('missing');
          throw e;
        },
      )
      .finally(() => {
        if (this.current === run) this.current = null;
      });
    this.current = run;
    return run;
  }

  /** force: drop and create (after a write); otherwise create only when missing or stale. */
  private async rebuild(force: boolean): Promise<void> {
    const t0 = performance.now();
    try {
      const opts = { graphName: this.opts.graphName, database: this.opts.database, extraTypes: [...this.types] };
      let state = force ? undefined : await manageProjection(this.driver, 'status', opts);
      if (!state?.exists || !state.fresh) {
        state = await manageProjection(this.driver, 'refresh', opts);
        this.lastSeconds = (performance.now() - t0) / 1000;
      }
      this.lastState = state;
      this.lastError = undefined;
    } catch (e) {
      this.lastError = String((e as Error)?.message ?? e).split('\n')[0];
      this.lastFailureAt = Date.now();
      this.opts.onError?.(e);
      throw e;
    }
  }
}

const registry = new WeakMap<Driver, Map<string, ProjectionManager>>();
const key = (database: string | undefined, graphName: string) => `${database ?? ''}\u0000${graphName}`;

/** The one manager of a projection for a driver (created on first use). */
export function projectionManager(driver: Driver, opts: ProjectionOptions): ProjectionManager {
  let byName = registry.get(driver);
  if (!byName) registry.set(driver, (byName = new Map()));
  let m = byName.get(key(opts.database, opts.graphName));
  if (!m) byName.set(key(opts.database, opts.graphName), (m = new ProjectionManager(driver, { graphName: opts.graphName, database: opts.database })));
  m.addTypes(opts.extraTypes);
  return m;
}
