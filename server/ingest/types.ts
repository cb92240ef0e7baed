/** What the readers produce and the pipeline consumes. */
export interface SourceDocument {
  /** Stable id: given by the source, or derived from its content. */
  id: string;
  title: string;
  text: string;
  source: string;
  metadata?: Record<string, unknown>;
}

/** A chunk of a document: the unit that is embedded, extracted and retrieved. */
export interface SourcePassage {
  id: string;
  documentId: string;
  title: string;
  text: string;
}

/** A line or file the reader could not use, with where and why. */
export interface SourceProblem {
  file: string;
  line?: number;
  reason: string;
}

export type ReadItem = { document: SourceDocument } | { problem: SourceProblem };

/** A curated knowledge graph (Hetionet-style): entities that keep their own relationship types. */
export interface CuratedEntity {
  id: string;
  name: string;
  type: string;
  description: string;
}
export interface CuratedEdge {
  from: string;
  to: string;
  /** A Cypher-safe relationship type name, e.g. BINDS_CbG. */
  type: string;
  predicate: string;
  /** The predicate in plain words where the source's verb is a term of art; read into the fact's sentence (docs/linking.md#glosses). */
  gloss?: string;
}
export interface CuratedGraph {
  entities: CuratedEntity[];
  edges: CuratedEdge[];
  problems: SourceProblem[];
}

/** How ingestion runs. */
export interface IngestOptions {
  batchSize?: number;
  strict?: boolean;
  chunkSize?: number;
  chunkOverlap?: number;
  /** Raw cosine for a SAME_AS edge; default SYNONYM_COSINE on the embedder's scale (onEmbedderScale). */
  synonymThreshold?: number;
  refreshProjection?: boolean;
  /**
   * How an entity's description embedding (the gate's input) is made:
   * 'passages' (default) averages the embeddings of the passages that mention
   * it, which costs nothing more since passages are embedded anyway; 'text'
   * embeds the description text itself (the exact form, several times slower
   * with the local model because every entity needs its own forward pass).
   */
  descriptionEmbedding?: 'passages' | 'text';
  onProgress?: (p: Progress) => void;
  /**
   * Stops the ingest between passages and before each embedding and write, throwing the signal's
   * reason (POST /v1/documents: the client went away, or the database did). What was committed stays.
   */
  signal?: AbortSignal;
}

export interface Progress {
  stage: 'read' | 'ingest' | 'facts' | 'synonyms' | 'link' | 'projection' | 'questions';
  done: number;
  total: number;
}

export interface StageSeconds {
  read: number;
  extract: number;
  embed: number;
  resolve: number;
  write: number;
  synonyms: number;
  projection: number;
  /** Rebuilding the vector indexes after a bulk load (server/db/compact-indexes.ts). */
  index: number;
  /** Finding passages' mentions of curated entities (server/ingest/link.ts). */
  link: number;
}

export interface IngestSummary {
  documents: { read: number; written: number; unchanged: number; replaced: number };
  passages: number;
  entities: number;
  mentions: number;
  relations: number;
  synonyms: number;
  /** Passage -> curated entity links written (MENTIONS with a method). */
  links: number;
  problems: SourceProblem[];
  /** Time spent in each stage; extract, resolve and embed of one batch overlap the write of the one before. */
  seconds: StageSeconds;
}
