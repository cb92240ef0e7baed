/**
 * Ingestion: source readers -> documents/curated pipelines -> graph store.
 * Every statement lives in server/graph (writes.ts, lookups.ts) and
 * server/db (schema); this layer only shapes the data.
 */
export * from './sources/index.js';
export type {
  CuratedEdge,
  CuratedEntity,
  CuratedGraph,
  IngestOptions,
  IngestSummary,
  Progress,
  ReadItem,
  SourceDocument,
  SourcePassage,
  SourceProblem,
  StageSeconds,
} from './types.js';
export { IngestInputError, formatProblem } from './problems.js';
export { describeForEmbedding, meanOfMentioningPassages, resolveEntities, type ResolvedEntity } from './resolution.js';
export { findSynonyms, numeralsAgree } from './synonyms.js';
export { ingestDocuments, readAll, type IngestContext } from './documents.js';
export { curatedTypes, ingestCurated, walkedTypes } from './curated.js';
export { reembed } from './reembed.js';
export { embedFacts } from './facts.js';
export { detectFormat, ingestPath, type IngestFormat } from './run.js';
export { formatSeconds, progressBar } from './progress.js';
export { deleteDocument } from '../graph/writes.js';
