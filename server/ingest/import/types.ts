/**
 * The rows of a bulk import: a user's pre-extracted corpus (passages, entities, the passages'
 * mentions of entities, relationships between entities), every vector precomputed. Ids are the
 * user's own stable ids: an online load MERGEs on them, so a repeated load changes nothing.
 */
export interface PassageRow {
  id: string;
  /** The document the passage belongs to (a Document node per distinct id). */
  documentId: string;
  title: string;
  text: string;
  /** Document.source of a document created by the import. */
  source: string;
  embedding: number[];
}

export interface EntityRow {
  id: string;
  name: string;
  type: string;
  description: string;
  /** Curated entities (a knowledge graph's own, `:Entity:Curated`) are never merged by name. */
  curated: boolean;
  embedding: number[];
  /** The gate's vector (name and description); the name's vector when the input has none. */
  descriptionEmbedding: number[];
}

export interface MentionRow {
  passage: string;
  entity: string;
  weight: number;
  /** A link into the curated layer carries how it was found (docs/linking.md); both or neither. */
  confidence: number | null;
  method: string | null;
}

export interface RelationshipRow {
  from: string;
  to: string;
  /** A relationship type: RELATED for extracted facts, a curated graph's own types otherwise. */
  type: string;
  predicate: string;
  /** The passage an extracted fact was read from (document deletion removes it with the passage). */
  passageId: string | null;
  weight: number;
  /** The fact's sentence vector ("subject predicate object"), for the fact seeds. */
  embedding: number[] | null;
}

/** Where rows come from: each call starts the rows of its kind from the beginning. */
export interface ImportSource {
  entities(): AsyncIterable<EntityRow>;
  passages(): AsyncIterable<PassageRow>;
  mentions(): AsyncIterable<MentionRow>;
  relationships(): AsyncIterable<RelationshipRow>;
}

/** What a load wrote, and how long it took (the indexes' build is timed apart). */
export interface ImportStats {
  documents: number;
  passages: number;
  entities: number;
  mentions: number;
  relationships: number;
  /** Relationship types other than RELATED and SAME_AS (recorded as curated, walked and fact-indexed). */
  curatedTypes: string[];
  loadSeconds: number;
}

export const emptyStats = (): ImportStats => ({ documents: 0, passages: 0, entities: 0, mentions: 0, relationships: 0, curatedTypes: [], loadSeconds: 0 });

/** Node and relationship rows of a load (PART_OF and Document rows included). */
export const importRows = (s: ImportStats): number => s.documents + 2 * s.passages + s.entities + s.mentions + s.relationships;

/** Rows per second of a load. */
export const rowsPerSecond = (s: ImportStats): number => importRows(s) / Math.max(s.loadSeconds, 1e-9);
