/** A text embedder. Query and document inputs may be embedded differently (asymmetric models). */
export type EmbedKind = 'query' | 'document';

export interface Embedder {
  /** Stable identifier stored with the data, e.g. "local:all-MiniLM-L6-v2". */
  readonly id: string;
  readonly dimension: number;
  /**
   * The cosine this model gives unrelated texts, where its scale starts (0 when omitted). Retrieval
   * and synonym thresholds use cosines as (cos - floor) / (1 - floor), so their constants mean the
   * same with every model.
   */
  readonly cosineFloor?: number;
  /**
   * Returns one L2-normalised vector per input, in order. With `signal`, an embedder that works in
   * batches (local) stops before its next batch once the signal aborts, throwing its reason.
   */
  embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<number[][]>;
  /** Releases what the embedder holds (worker threads, model sessions); optional. */
  close?(): Promise<void>;
}
