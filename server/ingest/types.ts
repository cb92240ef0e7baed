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
}
export interface CuratedGraph {
  entities: CuratedEntity[];
  edges: CuratedEdge[];
  problems: SourceProblem[];
}
