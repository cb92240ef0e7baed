/** A text embedder. Query and document inputs may be embedded differently (asymmetric models). */
export type EmbedKind = 'query' | 'document';

export interface Embedder {
  /** Stable identifier stored with the data, e.g. "local:all-MiniLM-L6-v2". */
  readonly id: string;
  readonly dimension: number;
  /** Returns one L2-normalised vector per input, in order. */
  embed(texts: string[], kind: EmbedKind): Promise<number[][]>;
  /** Releases what the embedder holds (worker threads, model sessions); optional. */
  close?(): Promise<void>;
}
