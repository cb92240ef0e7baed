import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { Router } from 'express';
import { z } from 'zod';
import { ProjectionStateSchema } from '../db/projection.js';
import { BODY_LIMIT } from '../http/handlers.js';
import {
  AnswerResultSchema,
  AnswerStreamSchema,
  anyModeParamsDoc,
  CompareResultSchema,
  DocumentsResultSchema,
  ErrorSchema,
  HealthSchema,
  modeParamsDoc,
  SourcesSchema,
} from '../http/responses.js';
import { RetrievalResultSchema } from '../retrieval/results.js';
import { MODE_NAMES } from '../retrieval/params.js';
import { AnswerBody } from './answer.js';
import { CompareBody } from './compare.js';
import { DocumentsBody } from './documents.js';
import { JobSchema, ListQuery } from './jobs.js';
import { ProjectionBody } from './projection.js';
import { RetrieveBody } from './retrieve.js';
import { ENDPOINTS, openapiPath } from '../http/endpoints.js';

extendZodWithOpenApi(z);

const json = (schema: z.ZodTypeAny) => ({ 'application/json': { schema } });
const error = (description: string): ResponseConfig => ({ description, content: json(ErrorSchema) });
const retryAfter = {
  'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' as const, minimum: 0 } },
};

/** The statuses each kind of endpoint can answer besides its success. */
const E = {
  400: error(
    'bad input: invalid JSON, a body past the shape limits (deeper than 32, wider than 10,000, a key over 1,000 bytes or repeated, a number past a double, not UTF-8: field `(body)`, docs/security.md), a missing, unknown or out-of-range field (named in `field`), a URL that does not decode',
  ),
  401: error('missing or wrong API key: API_KEY on writes; on reads READ_API_KEY or API_KEY, when the server sets READ_API_KEY (field X-Api-Key)'),
  403: error('the endpoint is disabled: the server has no API_KEY'),
  404: error('no such document'),
  409: error('the ppr projection is missing or stale: the message gives the command that rebuilds it'),
  413: error(`the request body is larger than ${BODY_LIMIT}`),
  415: error('the body is not UTF-8 JSON (content-type application/json), or its content-encoding is unknown'),
  405: error('not allowed: the MCP endpoint is stateless, POST only'),
  406: error('the MCP client must accept application/json and text/event-stream'),
  503: {
    description: 'the database is unreachable, the server is busy, or it is still starting (code starting): retry after Retry-After seconds',
    headers: retryAfter,
    content: json(ErrorSchema),
  },
  504: error('the retrieval exceeded QUERY_TIMEOUT_MS'),
} satisfies Record<number, ResponseConfig>;
const pick = (...codes: (keyof typeof E)[]) => Object.fromEntries(codes.map((c) => [c, E[c]]));
const RETRIEVAL_ERRORS = pick(400, 401, 409, 413, 415, 503, 504);
const KEYED: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];
/** Reads: open unless the server sets READ_API_KEY (then READ_API_KEY or API_KEY). */
const READ: Record<string, string[]>[] = [{}, ...KEYED];

/** A JSON-RPC 2.0 message of the Model Context Protocol (docs/mcp.md): the envelope only; the tools describe their own arguments (tools/list). */
const McpMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().describe('absent in a notification (answered 202)'),
    method: z.string().describe('initialize, tools/list, tools/call, ...'),
    params: z.record(z.unknown()).optional(),
  })
  .passthrough();
const McpResponse = z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]).optional() }).passthrough();

/** The OpenAPI document for an embedder of this dimension. */
export function openapiDocument(dimension: number): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  registry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer' });
  registry.register('Error', ErrorSchema);
  const anyParams = registry.register('RetrievalParams', anyModeParamsDoc());
  const perMode = z
    .object(Object.fromEntries(MODE_NAMES.map((m) => [m, registry.register(`${m[0].toUpperCase()}${m.slice(1)}Params`, modeParamsDoc(m)).optional()])))
    .strict()
    .describe("per-mode parameters; every mode's given are validated, also for a mode not asked to run");
  const Retrieval = registry.register('RetrievalResult', RetrievalResultSchema);
  const embedding = z
    .array(z.number())
    .length(dimension)
    .optional()
    .describe(`the question's embedding: exactly ${dimension} finite numbers (this server's embedder), with a finite, non-zero norm`);
  const oneOf = 'one of question or questionEmbedding is required (question wins for full-text and name seeds; questionEmbedding skips embedding)';

  registry.registerPath({
    method: ENDPOINTS.retrieve.method,
    path: openapiPath(ENDPOINTS.retrieve),
    security: READ,
    summary: 'One question through one retrieval mode (one Cypher statement)',
    description: oneOf,
    request: { body: { required: true, content: json(RetrieveBody.extend({ questionEmbedding: embedding, params: anyParams.optional() })) } },
    responses: { 200: { description: 'the retrieval result', content: json(Retrieval) }, ...RETRIEVAL_ERRORS },
  });
  registry.registerPath({
    method: ENDPOINTS.answer.method,
    path: openapiPath(ENDPOINTS.answer),
    security: READ,
    summary: 'One retrieval, then an answer citing passage ids',
    description: 'JSON by default; with `Accept: text/event-stream` a stream of Server-Sent Events.',
    request: { body: { required: true, content: json(AnswerBody.extend({ params: anyParams.optional() })) } },
    responses: {
      200: {
        description: 'the answer (JSON), or the event stream',
        content: { 'application/json': { schema: registry.register('AnswerResult', AnswerResultSchema) }, 'text/event-stream': { schema: AnswerStreamSchema } },
      },
      ...RETRIEVAL_ERRORS,
    },
  });
  registry.registerPath({
    method: ENDPOINTS.compare.method,
    path: openapiPath(ENDPOINTS.compare),
    security: READ,
    summary: 'The same question through several modes on one embedding, with overlap metrics',
    description: oneOf,
    request: { body: { required: true, content: json(CompareBody.extend({ questionEmbedding: embedding, params: perMode.optional() })) } },
    responses: { 200: { description: "each mode's result, Jaccard@5 and rank correlation@10", content: json(CompareResultSchema) }, ...RETRIEVAL_ERRORS },
  });
  // Writes are jobs (docs/jobs.md): 201/204 when the write could finish at once, else 202 + Location.
  const Job = registry.register('Job', JobSchema);
  const asJob = {
    description:
      'accepted as a job (another write ahead of it, larger than JOB_SYNC_MAX_BYTES, or Prefer: respond-async): stored in Neo4j before this answer; poll Location',
    headers: {
      Location: { description: '/v1/jobs/{id}', schema: { type: 'string' as const } },
      'Preference-Applied': { description: 'respond-async, when the request asked for it', schema: { type: 'string' as const } },
    },
    content: json(z.object({ job: Job })),
  };
  const prefer = z.object({
    prefer: z.string().optional().describe('respond-async: answer 202 with a job, whatever the size of the write'),
  });
  const QUEUE_FULL = {
    503: { ...E[503], description: `${E[503].description}; or the job queue holds JOB_QUEUE_BYTES (code overloaded)` },
  };
  registry.registerPath({
    method: ENDPOINTS.documents.method,
    path: openapiPath(ENDPOINTS.documents),
    summary: 'Ingest documents, as a job when it cannot finish at once (API key)',
    security: KEYED,
    request: { headers: prefer, body: { required: true, content: json(DocumentsBody) } },
    responses: {
      201: { description: 'written at once: ingestion counts', content: json(DocumentsResultSchema) },
      202: asJob,
      ...pick(400, 401, 403, 413, 415, 504),
      ...QUEUE_FULL,
    },
  });
  registry.registerPath({
    method: ENDPOINTS.sources.method,
    path: openapiPath(ENDPOINTS.sources),
    summary: 'The document sources with their document counts (the values filter.sources takes)',
    security: READ,
    responses: { 200: { description: 'the sources', content: json(SourcesSchema) }, ...pick(401, 503) },
  });
  registry.registerPath({
    method: ENDPOINTS.mcp.method,
    path: openapiPath(ENDPOINTS.mcp),
    summary: 'The Model Context Protocol over Streamable HTTP, stateless: tools retrieve, answer, compare and explain (docs/mcp.md)',
    description:
      'One JSON-RPC message per POST, answered as JSON; no session. A failed tool call is a result with isError (the REST error as structuredContent.error), not an HTTP error.',
    security: READ,
    request: {
      headers: z.object({ accept: z.literal('application/json, text/event-stream').describe('MCP clients accept both') }),
      body: { required: true, content: json(McpMessage) },
    },
    responses: {
      200: { description: 'the JSON-RPC response (a result, or a JSON-RPC error)', content: json(McpResponse) },
      202: { description: 'a notification, accepted' },
      // The body parser and the key guard answer as the REST API does, the MCP transport as JSON-RPC.
      ...Object.fromEntries(([400, 401, 406, 413, 415, 503] as const).map((c) => [c, { ...E[c], content: json(z.union([ErrorSchema, McpResponse])) }])),
    },
  });
  for (const method of ['get', 'delete'] as const) {
    registry.registerPath({
      method,
      path: openapiPath(ENDPOINTS.mcp),
      summary: 'Not served: the MCP endpoint keeps no session (405, Allow: POST)',
      responses: { ...pick(405) },
    });
  }
  registry.registerPath({
    method: ENDPOINTS.deleteDocument.method,
    path: openapiPath(ENDPOINTS.deleteDocument),
    summary: 'Remove a document, its passages and what only they supported (API key)',
    security: KEYED,
    request: { headers: prefer, params: z.object({ id: z.string().min(1).max(1024).describe('the document id') }) },
    responses: { 204: { description: 'removed at once' }, 202: asJob, ...pick(400, 401, 403, 404), ...QUEUE_FULL },
  });
  const jobId = z.object({ id: z.string().describe('the job id (the Location of its 202)') });
  registry.registerPath({
    method: ENDPOINTS.jobs.method,
    path: openapiPath(ENDPOINTS.jobs),
    summary: 'Recent jobs, newest first (finished ones for JOB_RETENTION_MS)',
    security: READ,
    request: { query: ListQuery },
    responses: { 200: { description: 'the jobs', content: json(z.object({ jobs: z.array(Job) })) }, ...pick(400, 401, 503) },
  });
  registry.registerPath({
    method: ENDPOINTS.job.method,
    path: openapiPath(ENDPOINTS.job),
    summary: "A job's status, progress, and its result or error",
    security: READ,
    request: { params: jobId },
    responses: {
      200: { description: 'the job', content: json(z.object({ job: Job })) },
      ...pick(401),
      404: error('no such job, or it finished more than JOB_RETENTION_MS ago'),
      ...pick(503),
    },
  });
  registry.registerPath({
    method: ENDPOINTS.cancelJob.method,
    path: openapiPath(ENDPOINTS.cancelJob),
    summary: 'Cancel a queued job (API key)',
    security: KEYED,
    request: { params: jobId },
    responses: {
      200: { description: 'cancelled: the job', content: json(z.object({ job: Job })) },
      ...pick(401, 403),
      404: error('no such job'),
      409: error('the job is running or has finished: only a queued job can be cancelled'),
      ...pick(503),
    },
  });
  registry.registerPath({
    method: ENDPOINTS.projection.method,
    path: openapiPath(ENDPOINTS.projection),
    summary: 'Create, refresh, drop or inspect the GDS projection used by ppr mode with engine gds (API key)',
    security: KEYED,
    request: { body: { required: true, content: json(ProjectionBody) } },
    responses: { 200: { description: 'the projection state', content: json(ProjectionStateSchema) }, ...pick(400, 401, 403, 413, 415, 503, 504) },
  });
  registry.registerPath({
    method: ENDPOINTS.health.method,
    path: openapiPath(ENDPOINTS.health),
    summary: 'Database reachability, migrations, index states, projection state',
    responses: {
      200: { description: 'the database answers (status ok, building or degraded)', content: json(HealthSchema) },
      503: {
        description: 'the database does not answer, or the server is still starting (status loading, with the phase and the demo load progress)',
        headers: retryAfter,
        content: json(HealthSchema),
      },
    },
  });
  registry.registerPath({
    method: ENDPOINTS.openapi.method,
    path: openapiPath(ENDPOINTS.openapi),
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1', content: json(z.record(z.unknown())) } },
  });
  registry.registerPath({
    method: ENDPOINTS.metrics.method,
    path: openapiPath(ENDPOINTS.metrics),
    summary: 'Prometheus metrics (text exposition format)',
    responses: { 200: { description: 'metrics', content: { 'text/plain': { schema: z.string() } } } },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'graph-recall',
      version: '0.1.0',
      description:
        'GraphRAG retrieval over Neo4j: gated spreading activation, Personalized PageRank, dense and hybrid baselines. ' +
        'Generated from the zod schemas that validate the requests. Bodies are UTF-8 JSON; errors are {error: {code, message, field?}}.',
    },
  }) as unknown as Record<string, unknown>;
}

/** GET /v1/openapi.json: the API as the code describes it, built once. */
export function openapiRouter(embedder: { dimension: number }): Router {
  const router = Router();
  let doc: Record<string, unknown> | undefined;
  router.get(ENDPOINTS.openapi.path, (_req, res) => {
    doc ??= openapiDocument(embedder.dimension);
    res.json(doc);
  });
  return router;
}
