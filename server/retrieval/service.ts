import type { Embedder } from '../embedders/types.js';
import { AppError, fromZod } from '../errors.js';
import { observeRetrieval } from '../metrics.js';
import type { TimedResult } from './results.js';
import { round, type Retriever } from './retriever.js';
import { paramsSchema, type Mode } from './params.js';

/** Validates a mode's params, naming the offending field as <prefix>.<name> (params.<name> by default). */
export function validateParams(mode: Mode, params: Record<string, unknown> | undefined, prefix = 'params'): Record<string, unknown> {
  const parsed = paramsSchema(mode).safeParse(params ?? {});
  if (!parsed.success) throw fromZod(parsed.error, prefix);
  return parsed.data as Record<string, unknown>;
}

/**
 * A request's filter (the body's `filter`) as the statements' $filter parameter. Given also as
 * params.filter it is refused: one filter, in one place.
 */
export function withFilter(params: Record<string, unknown>, filter: unknown, field = 'params.filter'): Record<string, unknown> {
  if (filter === undefined) return params;
  if (params.filter !== undefined) throw new AppError('invalid_request', `${field}: the filter is given twice (filter and ${field}); give it once`, field);
  return { ...params, filter };
}

/**
 * Embeds the question once, or checks the caller's embedding against the embedder's dimension. `beforeModel` runs
 * after the input is checked and before the model does: a route passes its modes' availability check there, so a
 * mode that cannot run now answers its 503 without model time, and bad input still gets its 400 first.
 */
export async function embedQuestion(
  embedder: Embedder,
  body: { question?: string; questionEmbedding?: number[] },
  beforeModel?: () => void,
): Promise<{ embedding: number[]; embedMs: number }> {
  if (body.questionEmbedding) {
    if (body.questionEmbedding.length !== embedder.dimension) {
      throw new AppError(
        'invalid_request',
        `questionEmbedding: expected ${embedder.dimension} numbers (${embedder.id}), got ${body.questionEmbedding.length}`,
        'questionEmbedding',
      );
    }
    checkEmbedding(body.questionEmbedding);
    return { embedding: body.questionEmbedding, embedMs: 0 };
  }
  if (!body.question) throw new AppError('invalid_request', 'question: question or questionEmbedding is required', 'question');
  beforeModel?.();
  const t0 = performance.now();
  const [embedding] = await embedder.embed([body.question], 'query');
  return { embedding, embedMs: round(performance.now() - t0) };
}

/** Smallest positive normal double: a squared norm below it is subnormal or zero. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * The vector index takes a query vector only when every value is finite and its squared L2 norm
 * (in double precision) is finite and positive: all zeros, a 1e300 (norm overflows) or only
 * subnormal values such as 1e-320 (norm underflows) would fail inside the statement.
 */
export function checkEmbedding(v: number[]): void {
  let sq = 0;
  for (const x of v) {
    if (!Number.isFinite(x)) throw new AppError('invalid_request', 'questionEmbedding: every value must be a finite number', 'questionEmbedding');
    sq += x * x;
  }
  if (!Number.isFinite(sq) || sq < MIN_NORMAL) {
    throw new AppError(
      'invalid_request',
      `questionEmbedding: the vector's norm must be finite and greater than zero (sum of squares ${sq})`,
      'questionEmbedding',
    );
  }
}

/** One retrieval statement, with the embedding time folded into the timings, observed in the metrics. */
export async function retrieveTimed(
  retriever: Retriever,
  req: { mode: Mode; question?: string; embedding: number[]; embedMs: number; params: Record<string, unknown>; explain?: boolean },
  signal?: AbortSignal,
): Promise<TimedResult> {
  const t0 = performance.now();
  const r = await retriever.retrieve(
    { mode: req.mode, question: req.question, questionEmbedding: req.embedding, params: req.params, explain: req.explain },
    signal,
  );
  const timings = { embedMs: req.embedMs, dbMs: r.timings.dbMs, totalMs: round(req.embedMs + performance.now() - t0) };
  observeRetrieval(req.mode, timings);
  return { ...r, timings };
}
