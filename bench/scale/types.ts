/** What the scale benchmark measures per size: written by bench/scale.ts, read by report.ts. */
import type { ImportStats } from '../../server/ingest/import/types.js';
import type { StoreSizes } from './model.js';

export interface BuildFigures {
  bulk: 'offline' | 'online';
  generate_s: number;
  csv_s?: number;
  csv_mb?: number;
  load_s: number;
  index_s: number;
  /** Of index_s: the node vector indexes' merged rebuild (absent with --no-merge). */
  merge_s?: number;
  build_s: number;
  rows_per_s: number;
  passages_per_s: number;
  stats: ImportStats;
}

/** p50 and p95 over every round's runs; first_p50_ms over the first round's alone (caches cold after the build). */
export interface Latency {
  bare_p50_ms: number;
  bare_p95_ms: number;
  bare_first_p50_ms: number;
  modes: Record<string, { p50_ms: number; p95_ms: number; first_p50_ms: number; db_p50_ms: number; seeds_p50: number }>;
}

/** ppr's GDS engine at this size: its projection's build time and memory, and its latency in Latency.modes.ppr_gds. */
export interface GdsFigures {
  projection_s: number;
  projection_mb: number;
  nodes: number;
  relationships: number;
}

export interface SizeResult extends Latency {
  passages: number;
  entities: number;
  relationships: number;
  build_s: number;
  store_mb: number;
  heap_mb: number;
  rss_mb: number;
  counts: Record<string, number>;
  build: BuildFigures | null;
  sizes: StoreSizes;
  gds: GdsFigures | null;
  generated: { facts: number; curatedEdges: number; curatedEntities: number; topDegrees: number[] };
  /** --ingest: the same real passages ingested the ordinary way into this size's graph. */
  ingest?: IngestFigures;
  /** Lucene segments of each vector index, before the questions and after the --ingest. */
  vector_segments?: { built: Record<string, number>; after_ingest?: Record<string, number> };
}

/** The ordinary text ingest of a real corpus's first passages into a generated graph (bench/scale/ingest.ts). */
export interface IngestFigures {
  corpus: string;
  passages: number;
  entities: number;
  relations: number;
  synonyms: number;
  seconds: number;
  passages_per_s: number;
  /** Growth of this process's resident memory during the ingest (it holds the generated graph too). */
  rss_growth_mb: number;
  /** Seconds per stage, as IngestSummary.seconds. */
  stages: Record<string, number>;
  embedder: string;
  extractor: string;
}
