import { z } from 'zod';
import { ProjectionStateSchema } from '../db/projection.js';
import { STARTUP_PHASES } from '../health.js';
import { MODE_NAMES, MODES, type Mode, type ParamSpec } from '../retrieval/params.js';
import {
  EvidencePathSchema,
  FactSchema,
  RankedEntitySchema,
  RankedPassageSchema,
  RetrievalResultSchema,
  SeedSchema,
  TimingsSchema,
} from '../retrieval/results.js';
import { modeSchema } from './schemas.js';

/**
 * Response shapes and the documented retrieval parameters, for the OpenAPI
 * document (server/routes/openapi.ts); the retrieval result's own schema is
 * server/retrieval/results.ts. Requests are validated by the schemas
 * in the route modules; these describe what the server sends back.
 */

export const ErrorSchema = z
  .object({
    error: z
      .object({
        code: z
          .string()
          .describe(
            'machine-readable: invalid_request, invalid_param, invalid_json, unauthorized, forbidden, not_found, projection_unavailable, too_large, unsupported_media_type, database_unavailable, query_timeout, ...',
          ),
        message: z.string().describe('for people; an echoed input is cut at about 200 characters'),
        field: z.string().optional().describe('the offending field as a dotted path (params.steps, documents.0.text), or (body)'),
      })
      .describe('what went wrong'),
  })
  .describe('every error response');

const modesOf = (name: string) => MODE_NAMES.filter((m) => name in MODES[m].params);

/** One parameter's schema, described with its meaning, modes and default(s). */
function documented(name: string, modes: Mode[]): z.ZodTypeAny {
  const specs = modes.map((m) => (MODES[m].params as Record<string, ParamSpec>)[name]);
  const defaults = [...new Set(modes.map((m, i) => `${JSON.stringify(specs[i].default)}${modes.length > 1 ? ` (${m})` : ''}`))];
  const uniqueDefaults = new Set(specs.map((s) => JSON.stringify(s.default)));
  const def = uniqueDefaults.size === 1 ? JSON.stringify(specs[0].default) : defaults.join(', ');
  return specs[0].schema.optional().describe(`${specs[0].doc}. Modes: ${modesOf(name).join(', ')}. Default: ${def}`);
}

/** A mode's params: every name with its range, strict (unknown names are a 400). */
export function modeParamsDoc(mode: Mode): z.ZodTypeAny {
  const names = Object.keys(MODES[mode].params);
  return z
    .object(Object.fromEntries(names.map((n) => [n, documented(n, [mode])])))
    .strict()
    .describe(`${mode} mode parameters (all optional; server/retrieval/params.ts)`);
}

/** Every parameter of every mode: a request's `params` may use only its mode's names. */
export function anyModeParamsDoc(): z.ZodTypeAny {
  const names = [...new Set(MODE_NAMES.flatMap((m) => Object.keys(MODES[m].params)))];
  return z
    .object(Object.fromEntries(names.map((n) => [n, documented(n, modesOf(n))])))
    .strict()
    .describe("retrieval parameters; each applies only to the modes it lists (another mode's name is a 400 unknown field)");
}

const Usage = z.object({ inputTokens: z.number(), outputTokens: z.number() }).nullable();

export const AnswerResultSchema = z.object({
  question: z.string(),
  mode: modeSchema,
  answer: z.string(),
  citations: z.array(z.string()).describe('passage ids cited in the answer'),
  usage: Usage,
  generator: z.string(),
  seeds: z.array(SeedSchema),
  entities: z.array(RankedEntitySchema),
  passages: z.array(RankedPassageSchema),
  paths: z.array(EvidencePathSchema),
  facts: z.array(FactSchema),
  context: z.string(),
  params: z.record(z.unknown()),
  timings: TimingsSchema.extend({ generateMs: z.number() }),
});

export const AnswerStreamSchema = z
  .string()
  .describe(
    'Server-Sent Events: `entities` {mode, seeds, entities, timings}, `passages` {passages, paths, facts}, `token` {text} (many), ' +
      'then `done` {answer, citations, usage, generator, timings incl. firstTokenMs} or `error` {code, message}; heartbeat comments in between',
  );

export const CompareResultSchema = z.object({
  results: z.record(RetrievalResultSchema).describe('by mode'),
  overlap: z.array(z.object({ modes: z.array(modeSchema).length(2), jaccardAt5: z.number(), rankCorrelationAt10: z.number().nullable() })),
  timings: z.object({ embedMs: z.number(), byMode: z.record(TimingsSchema) }),
});

export const SourcesSchema = z
  .object({
    sources: z
      .array(z.object({ source: z.string().describe('a Document.source (filter.sources)'), documents: z.number().int().describe('its documents') }))
      .describe('the sources, the most documents first'),
  })
  .describe('the document sources of the graph, with their document counts');

export const DocumentsResultSchema = z.object({
  documents: z.object({ read: z.number().int(), written: z.number().int(), unchanged: z.number().int(), replaced: z.number().int() }),
  passages: z.number().int(),
  entities: z.number().int(),
  relations: z.number().int(),
  synonyms: z.number().int(),
  links: z.number().int().describe("the passages' links to curated entities written (docs/linking.md); 0 without a curated graph"),
  seconds: z.record(z.number()).describe('per ingestion stage'),
});

export const HealthSchema = z.object({
  status: z.enum(['ok', 'building', 'degraded', 'unavailable', 'loading', 'failed']),
  loading: z
    .object({
      phase: z.enum([...STARTUP_PHASES, 'ready', 'failed']),
      message: z.string(),
      elapsedSeconds: z.number(),
      progress: z.object({ stage: z.string(), done: z.number().int(), total: z.number().int(), percent: z.number().int() }).optional(),
      error: z.string().optional(),
    })
    .optional()
    .describe('while the server starts (status loading, or failed): what it is doing and how far the demo load got'),
  database: z.object({ reachable: z.boolean(), latencyMs: z.number().optional(), version: z.string().optional(), error: z.string().optional() }),
  migrations: z.object({ applied: z.number().int(), pending: z.array(z.string()) }).optional(),
  indexes: z.array(z.object({ name: z.string(), type: z.string(), state: z.string(), populationPercent: z.number() })).optional(),
  projection: z.union([ProjectionStateSchema, z.object({ error: z.string() })]).optional(),
  embedder: z.object({ id: z.string(), dimension: z.number().int() }).optional(),
});
