/**
 * Planning the retrieval statements, at start-up and again when the database is back after an
 * outage (a restart loses Neo4j's query cache), and the per-mode readiness that follows from it:
 * a mode answers the moment its own statement is planned, and 503 + Retry-After until then
 * (docs/recovery.md). Each plan is Retriever.plan.
 */
import os from 'node:os';
import { classifyDbError } from './db/driver.js';
import { databaseUnreachable, dbError } from './errors.js';
import { PLAN_TIMEOUT_MS, PlanRefreshCutOff, Retriever } from './retrieval/retriever.js';
import { MODE_NAMES, type Mode } from './retrieval/params.js';
import type { ModeReadiness, Services } from './services.js';

/** The mode a request gets when it names none (POST /v1/retrieve, /v1/answer): planned first. */
export const DEFAULT_MODE: Mode = 'gated';

/** After the default mode, the others cheapest plan first. */
const CHEAPEST_FIRST: Mode[] = ['vector', 'hybrid', 'ppr', 'gated'];
/**
 * Statements planned side by side once the default mode's plan is done. Neo4j plans one statement
 * on one thread; the default mode plans alone, first, so that nothing else competes with it for
 * the CPU (a cold JVM also compiles and collects on another core meanwhile). After it, one core is
 * left to the default mode's requests: on a 2-core machine two lanes made the first gated request
 * after its plan wait seconds behind the other plans (bench/reports/recovery/).
 */
const LANES = Math.max(1, os.availableParallelism() - 1);

/** The planning order: the default mode first, then the others cheapest first. */
export function planningOrder(defaultMode: Mode = DEFAULT_MODE): Mode[] {
  return [defaultMode, ...CHEAPEST_FIRST.filter((m) => m !== defaultMode)];
}

export interface WarmUpOptions {
  /** Modes still to plan: ServedRetriever answers 503 for them; each is removed once planned (or failed). */
  cold?: Set<Mode>;
  /** Called as each mode's plan settles (the default mode first). */
  onPlanned?: (mode: Mode) => void;
  /** A stored passage embedding: the question vector of the warm-up statements (read from the graph when absent). */
  embedding?: number[];
  /** False once the database went away again: this warm-up stops, and touches neither `cold` nor the plans. */
  current?: () => boolean;
}

/** A warm-up overtaken by an outage: its plans are lost with the restart. */
class Cancelled extends Error {}

/**
 * Plans every mode's statement: the default mode alone first, then the others on LANES lanes.
 * Failures are only logged. Resolves to the embedding it planned with (kept for the next outage:
 * one query fewer before the default mode is planned), or undefined when the graph has none.
 */
export async function warmUp(svc: Services, opts: WarmUpOptions = {}): Promise<number[] | undefined> {
  const t0 = performance.now();
  const { cold, onPlanned } = opts;
  const current = opts.current ?? (() => true);
  // A database that has just come back may refuse a query or two, and the pool may be full: retry those (never a statement's own failure).
  const retrying = async <T>(work: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await work();
      } catch (e) {
        if (!current()) throw new Cancelled('the database went away again');
        const kind = classifyDbError(e);
        if ((kind !== 'unavailable' && kind !== 'saturated') || performance.now() - t0 > PLAN_TIMEOUT_MS) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const ms: Record<string, number> = {};
  const plan = async (mode: Mode, embedding: number[]) => {
    const t1 = performance.now();
    const failure = await retrying(() => svc.retriever.plan(mode, embedding)).then(
      () => undefined,
      (e: Error) => e,
    );
    if (!current()) throw new Cancelled('the database went away again');
    ms[mode] = Math.round(performance.now() - t1);
    // A statement that failed after planning (ppr before its projection exists) is planned too;
    // one that could not run at all is planned by its first request (Retriever.firstPlan).
    if (!failure) svc.retriever.notePlanned(mode);
    else svc.logger.debug({ mode, err: String(failure.message).slice(0, 200) }, 'warm-up statement failed');
    cold?.delete(mode);
    svc.logger.info({ mode, ms: ms[mode], sinceStart: Math.round(performance.now() - t0) }, failure ? 'statement tried' : 'statement planned');
    onPlanned?.(mode);
  };
  try {
    const embedding = opts.embedding ?? (await storedEmbedding(svc, retrying));
    if (!embedding || embedding.length !== svc.embedder.dimension) return undefined;
    const [first, ...rest] = planningOrder(DEFAULT_MODE);
    await plan(first!, embedding);
    const lane = async () => {
      for (let mode = rest.shift(); mode; mode = rest.shift()) await plan(mode, embedding);
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    svc.logger.info({ ms: Math.round(performance.now() - t0), byMode: ms }, 'statements warmed up');
    return embedding;
  } catch (e) {
    svc.logger.debug({ err: String((e as Error).message).slice(0, 200) }, e instanceof Cancelled ? 'warm-up cancelled' : 'warm-up skipped');
    return undefined;
  } finally {
    // Whatever was not planned is planned by its first request (Retriever.firstPlan); a cancelled
    // warm-up leaves `cold` to the one that replaced it.
    if (current()) {
      for (const mode of cold ?? []) onPlanned?.(mode);
      cold?.clear();
    }
  }
}

async function storedEmbedding(svc: Services, retrying: <T>(work: () => Promise<T>) => Promise<T>): Promise<number[] | undefined> {
  const res = await retrying(() => svc.store.read('MATCH (p:Passage) WHERE p.embedding IS NOT NULL RETURN p.embedding AS e LIMIT 1'));
  return res.records[0]?.get('e') as number[] | undefined;
}

/**
 * The server's Retriever: while the watchdog finds the database down, and while the database is
 * back from an outage and a mode's statement is being planned again (warmUp), retrieval answers
 * 503 with Retry-After 1 at once instead of a request that hangs or starts one more copy of the
 * same plan.
 */
export class ServedRetriever extends Retriever {
  readonly cold = new Set<Mode>();
  /** The watchdog's last probe failed: the database is down or still starting. */
  down: () => boolean = () => false;

  override checkAvailable(mode: Mode): void {
    // A database that is starting accepts Bolt connections but holds queries until it serves
    // (then they time out: a 504 seconds later); while the watchdog's probe fails, answer 503 at once.
    if (this.down()) throw databaseUnreachable();
    if (this.cold.has(mode)) throw dbError('planning', mode);
  }

  override async retrieve(...args: Parameters<Retriever['retrieve']>): ReturnType<Retriever['retrieve']> {
    this.checkAvailable(args[0].mode);
    return super.retrieve(...args);
  }

  /** Per mode: ready (answers), planning (503 until its statement is planned) or database_down. */
  readiness(): ModeReadiness {
    const down = this.down();
    return Object.fromEntries(MODE_NAMES.map((m) => [m, down ? 'database_down' : this.cold.has(m) ? 'planning' : 'ready'])) as ModeReadiness;
  }
}

/** The least time between two refreshes of the cached plans (Replanner.refreshWhenDue). */
const PLAN_REFRESH_MS = 30_000;

/**
 * Runs warmUp for the server: at start-up and after each outage (every mode cold again, the
 * default first). An outage cancels the warm-up in progress (`cancel`): the restart loses its
 * plans, and the warm-up after it starts again from the default mode. While the default mode
 * plans, the ppr projection's rebuild waits (`holdProjection`): on a 2-core machine a GDS
 * projection beside the plan slows the plan down.
 *
 * Requests never plan a statement again when the graph has changed (Retriever's REUSE_PLAN);
 * refreshWhenDue does it for them, one statement at a time.
 */
export class Replanner {
  private generation = 0;
  /** The question vector of the warm-up statements, read from the graph once. */
  private embedding: number[] | undefined;
  holdProjection = false;
  /** When the last plan refresh started (performance.now()), and the graph's size it saw then. */
  private lastRefresh = { at: performance.now(), size: '' };
  private refreshing = false;

  constructor(
    private readonly svc: Services,
    private readonly retriever: ServedRetriever,
  ) {}

  /** The database went away: the warm-up in progress stops at its next step. */
  cancel(): void {
    this.generation++;
    this.holdProjection = false;
  }

  /** Plans every statement again, the default mode first; settles when every mode is planned (or tried). */
  run(onPlanned?: (mode: Mode) => void): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    this.retriever.forgetPlans();
    this.holdProjection = DEFAULT_MODE !== 'ppr';
    for (const mode of MODE_NAMES) this.retriever.cold.add(mode);
    const planned = (mode: Mode) => {
      if (mode === DEFAULT_MODE) this.holdProjection = false;
      onPlanned?.(mode);
    };
    return warmUp(this.svc, { cold: this.retriever.cold, embedding: this.embedding, onPlanned: planned, current }).then((e) => {
      this.embedding = e ?? this.embedding;
      if (current()) this.holdProjection = false;
    });
  }

  /**
   * At most every PLAN_REFRESH_MS, and only when the graph's node or relationship count changed
   * since the last time (whoever wrote): Retriever.refreshPlans, in the background. Not during a
   * warm-up (it plans every statement anyway) nor while the database is down.
   */
  refreshWhenDue(): void {
    if (this.refreshing || this.retriever.cold.size > 0 || this.retriever.down()) return;
    if (performance.now() - this.lastRefresh.at < PLAN_REFRESH_MS) return;
    this.refreshing = true;
    this.lastRefresh.at = performance.now();
    void this.refresh().finally(() => (this.refreshing = false));
  }

  /** Refreshes the plans if the graph's size changed; resolves to the statements looked at (0: unchanged). */
  async refresh(): Promise<number> {
    const t0 = performance.now();
    try {
      const res = await this.svc.store.read(
        'CALL () { MATCH (n) RETURN count(n) AS nodes } CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships } RETURN nodes, relationships',
      );
      const size = `${res.records[0]!.get('nodes')} ${res.records[0]!.get('relationships')}`;
      if (size === this.lastRefresh.size) return 0;
      const statements = await this.retriever.refreshPlans();
      this.lastRefresh.size = size;
      this.svc.logger.info({ statements, ms: Math.round(performance.now() - t0) }, 'cached plans refreshed');
      return statements;
    } catch (e) {
      const err = String((e as Error)?.message ?? e).slice(0, 200);
      if (e instanceof PlanRefreshCutOff) {
        this.svc.logger.warn({ file: e.file, err }, 'plan refresh cut off: Neo4j may have lost this plan; the next request of the statement plans it alone');
      } else this.svc.logger.debug({ err }, 'plan refresh failed');
      return 0;
    }
  }
}
