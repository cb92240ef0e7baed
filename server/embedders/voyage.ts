import { VoyageAIClient } from 'voyageai';
import type { EmbedKind, Embedder } from './types.js';

export interface VoyageOptions {
  apiKey: string;
  model: string;
  dimension: number;
  baseUrl?: string;
  batchSize?: number;
  maxRetries?: number;
}

/**
 * VoyageAI embeddings (voyageai SDK): batched, retried with backoff by the SDK
 * (429 and 5xx), input_type query vs document. VOYAGE_BASE_URL points it
 * elsewhere (a proxy, or the protocol-speaking test server).
 */
export function createVoyageEmbedder(opts: VoyageOptions): Embedder {
  const client = new VoyageAIClient({
    apiKey: opts.apiKey,
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    maxRetries: opts.maxRetries ?? 5,
    timeoutInSeconds: 60,
  });
  const batchSize = opts.batchSize ?? 128;
  return {
    id: `voyage:${opts.model}:${opts.dimension}`,
    dimension: opts.dimension,
    async embed(texts: string[], kind: EmbedKind): Promise<number[][]> {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts.slice(i, i + batchSize).map((t) => (t.trim() ? t : ' '));
        const res = await client.embed({ input: batch, model: opts.model, inputType: kind, outputDimension: opts.dimension });
        const rows = [...(res.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        if (rows.length !== batch.length) throw new Error(`VoyageAI returned ${rows.length} embeddings for ${batch.length} inputs`);
        for (const r of rows) {
          const v = r.embedding ?? [];
          if (v.length !== opts.dimension) throw new Error(`VoyageAI returned a ${v.length}-d embedding, expected ${opts.dimension}`);
          const n = Math.hypot(...v) || 1;
          out.push(v.map((x) => x / n));
        }
      }
      return out;
    },
  };
}
