/**
 * The shape of a retrieval result, written once: zod schemas (the OpenAPI document is generated
 * from them, server/http/responses.ts) and the TypeScript types inferred from them. The Cypher
 * statements build these rows (cypher/partials/result.cypher); the Retriever returns them.
 */
import { z } from 'zod';
import { MODE_NAMES, type Mode } from './params.js';

export const SeedSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  score: z.number().nullable().describe('raw cosine to the question (null for name, caller and fact seeds)'),
  factScore: z
    .number()
    .nullable()
    .describe(
      'score of the best fact that seeded it: its cosine, plus factWordBonus where the question writes its predicate, at most 1 (null unless a fact seed)',
    ),
  activation: z.number(),
  sources: z.array(z.string()).describe('vector, name, caller, fact'),
});
export const EntityLinkSchema = z.object({
  method: z.string().describe("how the linker found the name: exact or variant, '+context' when the context decided"),
  confidence: z.number().describe('0.5-1'),
});
export const RankedEntitySchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  activation: z.number(),
  links: z
    .array(EntityLinkSchema.extend({ passageId: z.string() }))
    .describe('for a curated entity: how each returned passage that names it was linked to it (docs/linking.md); empty otherwise'),
});
export const RankedPassageSchema = z.object({
  rank: z.number().int(),
  id: z.string(),
  documentId: z.string().nullable(),
  title: z.string().nullable(),
  text: z.string(),
  score: z.number(),
  graphScore: z.number().nullable(),
  vectorScore: z.number().nullable(),
});
export const EvidencePathSchema = z.object({
  passageId: z.string().nullable().describe('the passage the path explains (null for an entity path)'),
  entityId: z.string().nullable().describe('the top entity the path leads to (null for a passage path)'),
  score: z.number().nullable().describe('activation of the entity the path ends at'),
  link: EntityLinkSchema.nullable()
    .optional()
    .describe('a passage path into the curated layer: how the passage was linked to the entity the path ends at (null: an extracted mention)'),
  nodes: z.array(z.object({ id: z.string(), name: z.string().nullable().describe('null for a passage') })),
  relationships: z.array(
    z.object({
      type: z.string(),
      predicate: z.string().nullable(),
      direction: z.enum(['forward', 'backward']).describe('forward: from nodes[i] to nodes[i + 1]'),
    }),
  ),
});
export const FactEndSchema = z.object({ id: z.string(), name: z.string(), type: z.string().nullable() });
export const FactSchema = z.object({
  rank: z.number().int(),
  subject: FactEndSchema,
  type: z.string().describe('relationship type'),
  predicate: z.string().describe('readable predicate'),
  object: FactEndSchema,
  score: z.number(),
  text: z.string().describe('"subject predicate object"'),
});
const TraceNode = z.object({ id: z.string(), name: z.string() });
export const TraceSchema = z.union([
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
export const TimingsSchema = z.object({ embedMs: z.number(), dbMs: z.number(), totalMs: z.number() });

export const RetrievalResultSchema = z.object({
  mode: z.enum(MODE_NAMES as [Mode, ...Mode[]]),
  seeds: z.array(SeedSchema),
  entities: z.array(RankedEntitySchema),
  passages: z.array(RankedPassageSchema),
  paths: z.array(EvidencePathSchema).describe('evidence paths from a seed to each passage and to the top entities'),
  facts: z.array(FactSchema).describe("relationships on the evidence paths (vector, hybrid: the seeds' own), ranked"),
  context: z.string().describe('the passages, then the facts, assembled for a generator'),
  params: z.record(z.unknown()).describe('the effective parameters (defaults applied)'),
  timings: TimingsSchema,
  explain: z
    .object({ file: z.string(), params: z.string().describe('a :param block for Neo4j Browser that reproduces this request') })
    .optional()
    .describe('with explain: true'),
  trace: TraceSchema.optional().describe('with explain: true or params.trace (gated, ppr): how activation reached the entities'),
});

export type Seed = z.infer<typeof SeedSchema>;
/** How a passage was linked to a curated entity it names (docs/linking.md). */
export type EntityLink = z.infer<typeof EntityLinkSchema>;
export type RankedEntity = z.infer<typeof RankedEntitySchema>;
export type RankedPassage = z.infer<typeof RankedPassageSchema>;
/** A path over the walked relationship types from a seed to a passage's most activated entity, or to a top entity. */
export type EvidencePath = z.infer<typeof EvidencePathSchema>;
export type FactEnd = z.infer<typeof FactEndSchema>;
/** A relationship on an evidence path (vector, hybrid: a seed's own), read as "subject predicate object". */
export type Fact = z.infer<typeof FactSchema>;
export type Trace = z.infer<typeof TraceSchema>;
/** gated's trace: per step, what each entity received and from which sources. */
export type GatedTrace = Extract<Trace, { steps: unknown }>;
/** ppr's trace: the teleport set and the top scores. */
export type PprTrace = Extract<Trace, { teleport: unknown }>;
/** What the API answers: the Retriever's result with the embedding and total times (retrieveTimed, service.ts). */
export type TimedResult = z.infer<typeof RetrievalResultSchema>;
/** What the Retriever returns: the database's time only. */
export type RetrievalResult = Omit<TimedResult, 'timings'> & { timings: { dbMs: number } };
