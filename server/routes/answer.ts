import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { answerInput, drain } from '../answer/shared.js';
import type { AnswerResult } from '../answer/types.js';
import { clientGone, jsonBody, parseBody } from '../http/handlers.js';
import { modeSchema, questionFields, questionSchema } from '../http/schemas.js';
import { SseWriter } from '../http/sse.js';
import { round } from '../retrieval/retriever.js';
import { embedQuestion, retrieveTimed, validateParams, withFilter } from '../retrieval/service.js';
import type { Services } from '../services.js';
import { ENDPOINTS } from '../http/endpoints.js';

export const AnswerBody = z
  .object({
    question: questionSchema,
    mode: modeSchema.default('gated'),
    params: questionFields.params,
    filter: questionFields.filter,
    topK: z.number().int().min(1).max(20).default(5),
  })
  .strict();

/** The retrieval an answer reads, and the generator's stream over its passages. */
async function startAnswer(svc: Services, body: z.infer<typeof AnswerBody>, signal?: AbortSignal) {
  const params = withFilter(validateParams(body.mode, body.params), body.filter);
  const q = await embedQuestion(svc.embedder, body, () => svc.retriever.checkAvailable(body.mode));
  // One retrieval statement; errors here still get a proper HTTP status.
  const r = await retrieveTimed(svc.retriever, { mode: body.mode, question: body.question, ...q, params }, signal);
  const passages = r.passages.slice(0, body.topK);
  const gen = await svc.generator();
  // The passages with their graph evidence (seeds, entities, paths, facts): answers name the bridge and use facts.
  const stream = gen.stream(body.question, answerInput(r, body.topK), signal);
  return { r, passages, stream };
}

/** An answer as one JSON object from a parsed body: POST /v1/answer without SSE, and the MCP tool `answer`. */
export async function runAnswer(svc: Services, body: z.infer<typeof AnswerBody>, signal?: AbortSignal, t0 = performance.now()) {
  const { r, passages, stream } = await startAnswer(svc, body, signal);
  const tg = performance.now();
  const result = await drain(stream);
  return {
    question: body.question,
    mode: body.mode,
    answer: result.answer,
    citations: result.citations,
    usage: result.usage,
    generator: result.generator,
    seeds: r.seeds,
    entities: r.entities,
    passages,
    paths: r.paths,
    facts: r.facts,
    context: r.context,
    params: r.params,
    timings: { ...r.timings, generateMs: round(performance.now() - tg), totalMs: round(performance.now() - t0) },
  };
}

/** POST /v1/answer: one retrieval, then an answer as JSON or streamed over SSE. */
export function answerRouter(svc: Services): Router {
  const heartbeatMs = svc.config.sseHeartbeatMs;
  const router = Router();
  router.post(ENDPOINTS.answer.path, jsonBody, async (req: Request, res: Response) => {
    const t0 = performance.now();
    const body = parseBody(AnswerBody, req.body);
    const signal = clientGone(req, res);
    if (!(req.header('accept') ?? '').includes('text/event-stream')) {
      res.json(await runAnswer(svc, body, signal, t0));
      return;
    }
    const { r, passages, stream } = await startAnswer(svc, body, signal);

    const sse = new SseWriter(res, heartbeatMs);
    try {
      await sse.send('entities', { mode: body.mode, seeds: r.seeds, entities: r.entities, timings: r.timings });
      await sse.send('passages', {
        passages,
        paths: r.paths.filter((p) => p.passageId === null || passages.some((x) => x.id === p.passageId)),
        facts: r.facts,
      });
      const tg = performance.now();
      let firstTokenMs: number | null = null;
      let result: AnswerResult;
      for (;;) {
        const n = await stream.next();
        if (n.done) {
          result = n.value;
          break;
        }
        firstTokenMs ??= round(performance.now() - t0);
        await sse.send('token', { text: n.value });
      }
      if (signal.aborted) return;
      await sse.send('done', {
        answer: result.answer,
        citations: result.citations,
        usage: result.usage,
        generator: result.generator,
        timings: { ...r.timings, generateMs: round(performance.now() - tg), firstTokenMs, totalMs: round(performance.now() - t0) },
      });
    } catch (e) {
      if (!signal.aborted) {
        req.log.warn({ err: String((e as Error).message) }, 'answer stream failed');
        await sse.send('error', { code: 'generation_failed', message: String((e as Error).message).slice(0, 500) });
      }
    } finally {
      await stream.return?.(undefined as never).catch(() => {});
      sse.end();
    }
  });
  return router;
}
