import { z } from 'zod';
import { ProjectionStateSchema } from '../db/projection.js';
import { MODE_NAMES, MODES, type Mode, type ParamSpec } from '../retrieval/params.js';
import { modeSchema } from './schemas.js';

/**
 * Response shapes and the documented retrieval parameters, for the OpenAPI
 * document (server/routes/openapi.ts). Requests are validated by the schemas
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

const Seed = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  score: z.number().nullable().describe('raw cosine to the question (null for name, caller and fact seeds)'),
  factScore: z.number().nullable().describe('cosine of the nearest fact that seeded it (null unless a fact seed)'),
  activation: z.number(),
  sources: z.array(z.string()).describe('vector, name, caller, fact'),
});
const Link = z.object({
  method: z.string().describe("how the linker found the name: exact or variant, '+context' when the context decided"),
  confidence: z.number().describe('0.5-1'),
});
const Entity = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  activation: z.number(),
  links: z
    .array(Link.extend({ passageId: z.string() }))
    .describe('for a curated entity: how each returned passage that names it was linked to it (docs/linking.md); empty otherwise'),
});
const Passage = z.object({
  rank: z.number().int(),
  id: z.string(),
  documentId: z.string().nullable(),
  title: z.string().nullable(),
  text: z.string(),
  score: z.number(),
  graphScore: z.number().nullable(),
  vectorScore: z.number().nullable(),
});
const Path = z.object({
  passageId: z.string().nullable().describe('the passage the path explains (null for an entity path)'),
  entityId: z.string().nullable().describe('the top entity the path leads to (null for a passage path)'),
  score: z.number().nullable().describe('activation of the entity the path ends at'),
  link: Link.nullable()
    .optional()
    .describe('a passage path into the curated layer: how the passage was linked to the entity the path ends at (null: an extracted mention)'),
  nodes: z.array(z.object({ id: z.string().nullable(), name: z.string().nullable() })),
  relationships: z.array(
    z.object({
      type: z.string(),
      predicate: z.string().nullable(),
      direction: z.enum(['forward', 'backward']).describe('forward: from nodes[i] to nodes[i + 1]'),
    }),
  ),
});
const FactEnd = z.object({ id: z.string().nullable(), name: z.string().nullable(), type: z.string().nullable() });
const Fact = z.object({
  rank: z.number().int(),
  subject: FactEnd,
  type: z.string().describe('relationship type'),
  predicate: z.string().describe('readable predicate'),
  object: FactEnd,
  score: z.number(),
  text: z.string().describe('"subject predicate object"'),
});
const TraceNode = z.object({ id: z.string().nullable(), name: z.string().nullable() });
const Trace = z.union([
  z.object({
    steps: z.array(
      z.object({
        step: z.number().int(),
        received: z.array(
          TraceNode.extend({
            before: z.number().describe('activation before this step'),
            inflow: z.number().describe("sum of the sources' shares"),
            gate: z.number(),
            incoming: z.number().describe('decay x gate x inflow, added to the activation'),
            sources: z.array(TraceNode.extend({ activation: z.number(), share: z.number() })),
          }),
        ),
      }),
    ),
  }),
  z.object({
    teleport: z.array(TraceNode.extend({ label: z.string(), weight: z.number() })),
    top: z.array(TraceNode.extend({ label: z.string(), score: z.number() })),
  }),
]);
const Timings = z.object({ embedMs: z.number(), dbMs: z.number(), totalMs: z.number() });

export const RetrievalResultSchema = z.object({
  mode: modeSchema,
  seeds: z.array(Seed),
  entities: z.array(Entity),
  passages: z.array(Passage),
  paths: z.array(Path).describe('evidence paths from a seed to each passage and to the top entities'),
  facts: z.array(Fact).describe("relationships on the evidence paths (vector, hybrid: the seeds' own), ranked"),
  context: z.string().describe('the passages, then the facts, assembled for a generator'),
  params: z.record(z.unknown()).describe('the effective parameters (defaults applied)'),
  timings: Timings,
  explain: z
    .object({ file: z.string(), params: z.string().describe('a :param block for Neo4j Browser that reproduces this request') })
    .optional()
    .describe('with explain: true'),
  trace: Trace.optional().describe('with explain: true or params.trace (gated, ppr): how activation reached the entities'),
});

const Usage = z.object({ inputTokens: z.number(), outputTokens: z.number() }).nullable();

export const AnswerResultSchema = z.object({
  question: z.string(),
  mode: modeSchema,
  answer: z.string(),
  citations: z.array(z.string()).describe('passage ids cited in the answer'),
  usage: Usage,
  generator: z.string(),
  seeds: z.array(Seed),
  entities: z.array(Entity),
  passages: z.array(Passage),
  paths: z.array(Path),
  facts: z.array(Fact),
  context: z.string(),
  params: z.record(z.unknown()),
  timings: Timings.extend({ generateMs: z.number() }),
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
  timings: z.object({ embedMs: z.number(), byMode: z.record(Timings) }),
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
      phase: z.enum(['database', 'migrations', 'demo', 'projection', 'warm-up', 'ready', 'failed']),
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
