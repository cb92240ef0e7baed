import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { classifyDbError } from '../db/driver.js';
import { fromDbError, projectionBehind, projectionMissing } from './db-errors.js';
import { AppError, dbError } from '../errors.js';
import type { GraphStore } from '../db/store.js';
import { projectionManager, type ProjectionManager } from '../db/projection.js';
import { CYPHER_DIR, paramBlock } from '../db/cypher.js';
import { INTEGER_PARAMS, MODES, STATEMENTS, defaultParams, statementFile, type Mode } from './params.js';
import type { RetrievalResult } from './results.js';

export interface RetrieveRequest {
  mode: Mode;
  questionEmbedding: number[];
  question?: string;
  params?: Record<string, unknown>;
  explain?: boolean;
}

export interface RetrieverOptions {
  timeoutMs: number;
  /** Relationship types a caller may ask the walk to follow. */
  allowedRelTypes: string[];
  pprGraphName: string;
  /** The embedder's cosine of unrelated texts (Embedder.cosineFloor): the default of params.cosineFloor. */
  cosineFloor?: number;
}

/** The longest the request that plans a statement may run (a plan on a cold, busy JVM takes tens of seconds). */
export const PLAN_TIMEOUT_MS = 120_000;

/**
 * The longest a plan refresh's EXPLAIN may run (Retriever.refreshPlans). Far above PLAN_TIMEOUT_MS:
 * cutting a re-plan off loses the plan, while the requests keep the stale one until the re-plan ends,
 * so a slow re-plan costs nothing but the core it runs on. On 2 cores under a burst of writes re-plans
 * outlasted the 120 s of PLAN_TIMEOUT_MS, and the cut-off made the requests that reached Neo4j as it fell
 * plan side by side (504; bench/reports/server/refresh-timeout-2026-12-07). A backstop only.
 */
export const REFRESH_TIMEOUT_MS = 600_000;

/** A plan refresh's EXPLAIN failed (Retriever.refreshPlans): `file`'s statement counts as unplanned again. */
export class PlanRefreshCutOff extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(String((cause as Error)?.message ?? cause), { cause });
  }
}

/**
 * The prefix of every statement the server sends: Neo4j keeps using the statement's cached plan
 * when the graph's statistics have changed since the plan was made. Without it, Neo4j plans a
 * statement it finds stale again in every request that finds it so, side by side: during a burst
 * of writes many requests planned gated at once on 2 cores, and some answered 504
 * (bench/reports/server/replan-under-writes-2026-12-07). The plans are brought up to date one
 * statement at a time by refreshPlans, beside the requests (server/planning.ts). The rest of the
 * text is the file's, unchanged; a DBA runs the file without it.
 */
export const REUSE_PLAN = 'CYPHER replan=skip\n';

/** The parameter sets refreshPlans keeps: a statement's plan is cached per parameter types. */
const KEPT_PARAMETER_SETS = 32;

/**
 * Runs the cypher/ files: the same text a DBA runs in Neo4j Browser, read once,
 * executed in a read transaction with a timeout, parameters only.
 */
export class Retriever {
  /** The statement files by name: one per mode, and ppr one per engine (statementFile). */
  private readonly statements = new Map<string, string>();
  /** Files whose statement Neo4j has planned (it ran, or failed after planning) since the database last went away. */
  private readonly planned = new Set<string>();
  /** While this process changes the schema (GraphStore.schemaChange): requests wait for it in firstPlan. */
  private schemaWork: Promise<void> | undefined;
  /** Per file, the one request that is planning its statement: the others wait for it (see firstPlan). */
  private readonly planning = new Map<string, Promise<void>>();
  /**
   * The statements run since the database last went away, one entry per file and parameter types
   * (Neo4j caches one plan per such pair), with the last values sent: what refreshPlans re-plans.
   */
  private readonly ran = new Map<string, { file: string; params: Record<string, unknown> }>();
  /** The ppr projection's manager: rebuilds it when a query finds it missing or stale. */
  readonly projection: ProjectionManager;

  constructor(
    private readonly store: GraphStore,
    private readonly opts: RetrieverOptions,
  ) {
    for (const { file } of STATEMENTS) this.statements.set(file, fs.readFileSync(path.join(CYPHER_DIR, file), 'utf8'));
    this.projection = projectionManager(store.driver, { graphName: opts.pprGraphName, database: store.database, extraTypes: opts.allowedRelTypes });
    // An index dropped or created drops Neo4j's cached plans, and every request that reached Neo4j after it would plan
    // its statement at once: requests wait while this process changes the schema, then the first of each statement
    // plans it alone (firstPlan).
    let changes = 0;
    let release = () => {};
    store.onSchemaChange({
      before: () => {
        if (changes++ === 0) this.schemaWork = new Promise<void>((r) => (release = r));
      },
      after: () => {
        this.forgetPlans();
        if (--changes > 0) return;
        this.schemaWork = undefined;
        release();
      },
    });
  }

  /** Defaults, with the server's configuration applied, then the caller's values. */
  effectiveParams(mode: Mode, params: Record<string, unknown> = {}): Record<string, unknown> {
    const base = defaultParams(mode);
    if ('relTypes' in base) base.relTypes = [...this.opts.allowedRelTypes];
    if ('graphName' in base) base.graphName = this.opts.pprGraphName;
    if ('cosineFloor' in base) base.cosineFloor = this.opts.cosineFloor ?? 0;
    const merged = { ...base, ...params };
    if (Array.isArray(merged.relTypes)) {
      const bad = (merged.relTypes as string[]).filter((t) => !this.opts.allowedRelTypes.includes(t));
      if (bad.length) {
        throw new AppError(
          'invalid_param',
          `params.relTypes: ${bad.join(', ')} not in the allow-list (${this.opts.allowedRelTypes.join(', ')})`,
          'params.relTypes',
        );
      }
    }
    return merged;
  }

  async retrieve(req: RetrieveRequest, signal?: AbortSignal): Promise<RetrievalResult> {
    // explain: true also asks the walk for its trace (gated, ppr).
    const params = this.effectiveParams(req.mode, req.explain && 'trace' in MODES[req.mode].params ? { trace: true, ...req.params } : req.params);
    const queryParams = { ...params, question: req.question ?? '', questionEmbedding: req.questionEmbedding };
    const driverParams = toDriverParams(queryParams);
    const file = statementFile(req.mode, params);
    const t0 = performance.now();
    const plan = await this.firstPlan(req.mode, file, signal);
    const timeoutMs = plan.planner ? Math.max(this.opts.timeoutMs, PLAN_TIMEOUT_MS) : this.opts.timeoutMs;
    let outcome: 'planned' | 'unknown' = 'unknown';
    try {
      // The request that plans the statement is not cut off by the query timeout: a plan takes
      // seconds, far more on a loaded machine, and one cut short helps no later request either.
      const res = await this.inReadTransaction(REUSE_PLAN + this.statements.get(file)!, driverParams, timeoutMs, signal);
      outcome = 'planned';
      this.remember(file, driverParams);
      const row = res.records[0].toObject();
      const result: RetrievalResult = {
        mode: req.mode,
        seeds: row.seeds,
        entities: row.entities,
        passages: row.passages,
        paths: row.paths,
        facts: row.facts,
        context: row.context,
        params,
        timings: { dbMs: round(performance.now() - t0) },
      };
      if (row.trace) result.trace = row.trace;
      if (req.explain) result.explain = { file: `cypher/${file}`, params: paramBlock(queryParams) };
      return result;
    } catch (e) {
      // A statement that failed at run time was planned; one cut off by an outage or the timeout may not have been.
      const kind = classifyDbError(e);
      // (saturated: it waited for a connection of this server's pool and never reached the database.)
      if (kind === 'unavailable') this.forgetPlans();
      else if (kind !== 'timeout' && kind !== 'saturated') outcome = 'planned';
      // A GDS call that fails while this server swaps the projection is the swap, not a defect.
      const duringSwap = req.mode === 'ppr' && this.projection.building && /gds\./i.test(String((e as Error)?.message ?? ''));
      const behind = req.mode === 'ppr' && projectionBehind(e);
      if (projectionMissing(e) || duringSwap || behind) {
        // Missing (a restart, a drop), stale (a write) or swapped out under us: rebuilt in the background.
        // Behind: a seed the projection lacks was committed after it was made, before its writer asked
        // for a rebuild (or marked the graph changed); the projection is stale whatever the marker says.
        if (behind) this.projection.requestRebuild().catch(() => undefined);
        else this.projection.heal();
        const wait = this.projection.retryAfterSeconds();
        const why = this.projection.lastError ? ` (last attempt failed: ${this.projection.lastError})` : '';
        throw new AppError('projection_building', `the ppr projection ${this.opts.pprGraphName} is being built; retry in ${wait} s${why}`, undefined, wait);
      }
      throw fromDbError(e, timeoutMs, performance.now() - t0);
    } finally {
      plan.done(outcome);
    }
  }

  /**
   * Runs a mode's default statement once, so that Neo4j plans and caches it (the server's warm-up,
   * server/planning.ts): the same text and parameter types as a request, so the same cache entry,
   * under the plan timeout instead of QUERY_TIMEOUT_MS (a request's timeout would abort the plan,
   * and every request after it would start planning again). A failure of the statement itself
   * (ppr before its projection exists) still leaves the plan cached.
   */
  async plan(mode: Mode, questionEmbedding: number[]): Promise<void> {
    const params = { ...this.effectiveParams(mode), question: 'warm up', questionEmbedding };
    const file = statementFile(mode, params);
    const driverParams = toDriverParams(params);
    this.remember(file, driverParams);
    await this.inReadTransaction(REUSE_PLAN + this.statements.get(file)!, driverParams, PLAN_TIMEOUT_MS);
  }

  /**
   * Brings the cached plans up to date, one statement after the other: an EXPLAIN of each
   * statement run so far (per parameter types), without REUSE_PLAN, so that Neo4j plans it again
   * if it finds the plan stale (its own rule: statistics changed by more than
   * dbms.cypher.statistics_divergence_threshold, and the plan older than
   * dbms.cypher.min_replan_interval), and otherwise only looks the plan up. An EXPLAIN runs
   * nothing. Requests meanwhile keep the plan they have (REUSE_PLAN) until the new one replaces
   * it, so the EXPLAIN runs under REFRESH_TIMEOUT_MS. An EXPLAIN cut off while it re-plans (a DBA's
   * TERMINATE TRANSACTION, an outage, that timeout) leaves Neo4j with no plan of that statement at all, and every
   * request of it would plan it at once: the file counts as unplanned again, so its next request
   * plans it alone (firstPlan), and the refresh leaves it to that request. Resolves to the number of
   * statements looked at; a failure is thrown as PlanRefreshCutOff (the caller logs it).
   */
  async refreshPlans(): Promise<number> {
    const entries = [...this.ran.values()].filter(({ file }) => this.planned.has(file));
    for (const { file, params } of entries) {
      try {
        await this.inReadTransaction('EXPLAIN ' + this.statements.get(file)!, params, REFRESH_TIMEOUT_MS);
      } catch (e) {
        this.planned.delete(file);
        throw new PlanRefreshCutOff(file, e);
      }
    }
    return entries.length;
  }

  /**
   * Keeps a statement's parameter types under its file (the newest KEPT_PARAMETER_SETS), as values of those types and
   * sizes that hold none of the caller's data (withoutCallerData): a plan is cached per types, not values.
   */
  private remember(file: string, params: Record<string, unknown>): void {
    const key = `${file} ${parameterTypes(params)}`;
    // Placeholders of one parameter-type set serve its plan alike: made once, moved to the newest end on each request.
    const kept = this.ran.get(key)?.params ?? withoutCallerData(params);
    this.ran.delete(key);
    this.ran.set(key, { file, params: kept });
    if (this.ran.size > KEPT_PARAMETER_SETS) this.ran.delete(this.ran.keys().next().value!);
  }

  /**
   * One explicit read transaction, no driver retries: during an outage the caller gets its 503 at
   * once instead of after the driver's retry budget (the client retries, told by Retry-After).
   * An abort closes the session, which rolls the transaction back.
   */
  private async inReadTransaction(text: string, params: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal) {
    const session = this.store.driver.session({ database: this.store.database, defaultAccessMode: 'READ' });
    const onAbort = () => void session.close();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const tx = await session.beginTransaction({ timeout: timeoutMs });
      const res = await tx.run(text, params);
      await tx.commit();
      return res;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await session.close();
    }
  }

  /**
   * Throws the error a request for this mode would get at once without the database (the server's: the database is
   * down, or the mode's statement is being planned again); the routes ask before the model embeds the question
   * (embedQuestion's beforeModel), so an outage's stream of 503s costs no model time while Neo4j plans.
   */
  checkAvailable(_mode: Mode): void {}

  /** The server's warm-up ran this mode's default statement: its plan is cached, no request needs to plan it. */
  notePlanned(mode: Mode): void {
    this.planned.add(MODES[mode].file);
  }

  /** The database went away (a restart loses its query cache): every statement is planned again. */
  forgetPlans(): void {
    this.planned.clear();
    this.ran.clear();
  }

  /**
   * Planning a long statement takes seconds, and Neo4j plans a statement once per concurrent request
   * that misses its query cache: clients arriving together planned gated once each and timed out
   * (504; bench/reports/code-notes/design-figures-2026-12-01). So the
   * first request of a statement file plans it alone and the others wait for it, as long as their own
   * timeout allows (then 503 + Retry-After). Resolves to the callback that reports the outcome.
   */
  private async firstPlan(mode: Mode, file: string, signal?: AbortSignal): Promise<{ planner: boolean; done: (outcome: 'planned' | 'unknown') => void }> {
    const deadline = performance.now() + this.opts.timeoutMs;
    for (;;) {
      let inFlight = this.schemaWork;
      if (!inFlight) {
        if (this.planned.has(file)) return { planner: false, done: () => undefined };
        inFlight = this.planning.get(file);
      }
      if (!inFlight) break;
      const left = deadline - performance.now();
      let timer: NodeJS.Timeout | undefined;
      const expired = await Promise.race([
        inFlight.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, left)))),
      ]);
      clearTimeout(timer);
      if (signal?.aborted) throw dbError('cancelled');
      if (expired) {
        throw dbError('planning', mode);
      }
    }
    let resolve!: () => void;
    this.planning.set(file, new Promise<void>((r) => (resolve = r)));
    return {
      planner: true,
      done: (outcome) => {
        if (outcome === 'planned') this.planned.add(file);
        this.planning.delete(file);
        resolve();
      },
    };
  }
}

/** A statement's parameter values as the driver must send them: the integer parameters as Cypher integers. */
export function toDriverParams(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, INTEGER_PARAMS.has(k) ? neo4j.int(v as number) : v]));
}

/**
 * The parameters with every value replaced by one of the same Cypher type and size (strings and lists keep their
 * lengths, which Neo4j may bucket into the cache key; maps their shape): what refreshPlans needs to find a request's
 * cached plan, without the question, its vector, a filter's values or any other value a caller sent.
 */
export function withoutCallerData(params: Record<string, unknown>): Record<string, unknown> {
  const blank = (v: unknown): unknown => {
    if (v === null || v === undefined || typeof v === 'boolean' || neo4j.isInt(v)) return v;
    if (typeof v === 'number') return 0.5;
    if (typeof v === 'string') return 'x'.repeat(v.length);
    if (Array.isArray(v)) return v.map(blank);
    if (typeof v === 'object') return Object.fromEntries(Object.values(v as object).map((x, i) => [`k${i}`, blank(x)]));
    return v;
  };
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, blank(v)]));
}

/** The types Neo4j keys a cached plan by, e.g. `entityK:int filter:null questionEmbedding:list<float>`. */
export function parameterTypes(params: Record<string, unknown>): string {
  const type = (v: unknown): string => {
    if (v === null || v === undefined) return 'null';
    if (neo4j.isInt(v)) return 'int';
    if (Array.isArray(v)) return `list<${v.length ? type(v[0]) : 'empty'}>`;
    return typeof v === 'number' ? 'float' : typeof v;
  };
  return Object.keys(params)
    .sort()
    .map((k) => `${k}:${type(params[k])}`)
    .join(' ');
}

export const round = (ms: number) => Math.round(ms * 100) / 100;
