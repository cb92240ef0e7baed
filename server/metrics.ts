/**
 * Prometheus metrics (prom-client), served at GET /metrics (server/routes/metrics.ts).
 *
 * Series (all prefixed graph_recall_):
 *   http_requests_total{method,route,status}, http_request_duration_seconds{method,route}
 *   retrieval_seconds{mode,phase=embed|db|total}       from each retrieval's timings
 *   requests_in_flight{kind}, requests_queued{kind}     admission control (retrieve)
 *   requests_rejected_total{kind}                      503 overloaded
 *   ingested_documents_total, ingested_passages_total
 *   projection_state{state}                            1 for the current state, 0 for the others
 * plus prom-client's default process metrics (RSS, event-loop lag, GC, ...).
 *
 * Each retrieval is observed where it is timed (server/retrieval/service.ts, retrieveTimed: every
 * route and the MCP tools); ingestion jobs call observeIngest when they finish (server/jobs).
 * Other callers (the CLI, the bench) may call observeRetrieval / observeIngest / setProjectionState.
 */
import type { NextFunction, Request, Response } from 'express';
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'graph_recall_' });

const httpRequests = new client.Counter({
  name: 'graph_recall_http_requests_total',
  help: 'HTTP requests by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
const httpDuration = new client.Histogram({
  name: 'graph_recall_http_request_duration_seconds',
  help: 'HTTP request duration, until the response is finished (SSE streams included)',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});
const retrieval = new client.Histogram({
  name: 'graph_recall_retrieval_seconds',
  help: 'retrieval latency by mode and phase (embed: question embedding, db: the Cypher statement, total)',
  labelNames: ['mode', 'phase'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
export const inFlight = new client.Gauge({
  name: 'graph_recall_requests_in_flight',
  help: 'requests admitted and running, by admission kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});
export const queued = new client.Gauge({
  name: 'graph_recall_requests_queued',
  help: 'requests waiting for an admission slot, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});
export const rejected = new client.Counter({
  name: 'graph_recall_requests_rejected_total',
  help: 'requests refused with 503 overloaded, by admission kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});
const documents = new client.Counter({ name: 'graph_recall_ingested_documents_total', help: 'documents ingested', registers: [registry] });
const passages = new client.Counter({ name: 'graph_recall_ingested_passages_total', help: 'passages written by ingestion', registers: [registry] });
const projection = new client.Gauge({
  name: 'graph_recall_projection_state',
  help: 'state of the ppr GDS projection: 1 for the current state, 0 for the others',
  labelNames: ['state'] as const,
  registers: [registry],
});
for (const k of ['retrieve']) {
  inFlight.set({ kind: k }, 0);
  queued.set({ kind: k }, 0);
  rejected.inc({ kind: k }, 0);
}

export interface RetrievalTimings {
  embedMs?: number | null;
  dbMs?: number | null;
  totalMs?: number | null;
}

/** One retrieval's timings (ms), as the results carry them. */
export function observeRetrieval(mode: string, timings: RetrievalTimings): void {
  for (const phase of ['embed', 'db', 'total'] as const) {
    const ms = timings[`${phase}Ms`];
    if (typeof ms === 'number' && Number.isFinite(ms)) retrieval.observe({ mode, phase }, ms / 1000);
  }
}

/** One ingestion's counts: documents written (new or replaced), passages written. */
export function observeIngest(counts: { documents?: number; passages?: number }): void {
  if (counts.documents) documents.inc(counts.documents);
  if (counts.passages) passages.inc(counts.passages);
}

const seenStates = new Set(['ready', 'building', 'stale', 'missing']);
/** The ppr projection's state (any short word: ready, building, stale, missing, ...). */
export function setProjectionState(state: string): void {
  seenStates.add(state);
  for (const s of seenStates) projection.set({ state: s }, s === state ? 1 : 0);
}

/**
 * Express middleware: counts every request by route and status, and times it. A request refused
 * before routing (admission control, a key) is labelled by `knownRoute`, the endpoint path it
 * asked for (server/http/endpoints.ts), so labels stay bounded.
 */
export function observeResponses(knownRoute: (path: string) => string | undefined): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const t0 = performance.now();
    res.once('close', () => {
      const route = (req.route?.path as string | undefined) ?? knownRoute(req.path) ?? (res.statusCode === 404 ? 'unmatched' : 'static');
      httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      httpDuration.observe({ method: req.method, route }, (performance.now() - t0) / 1000);
    });
    next();
  };
}
