/**
 * The scale benchmark's database and Retriever, shared by bench/scale.ts (which builds and measures
 * the graphs) and bench/dbhits.ts (which profiles them): the port, the password, and the Retriever
 * as the server would build it for the generated graph's walked types.
 */
import { loadConfig } from '../../server/config.js';
import { GraphStore } from '../../server/db/store.js';
import { cosineFloorOf } from '../../server/embedders/index.js';
import { DEFAULT_TRAVERSE_TYPES } from '../../server/graph/facts.js';
import { Retriever } from '../../server/retrieval/retriever.js';
import type { ScaleGraph } from './generate.js';

export const SCALE_BOLT = Number(process.env.SCALE_BOLT_PORT || 20687);
export const SCALE_PASSWORD = 'graph-recall-scale';
/**
 * The embedded launcher's sizing for a scale graph, from the environment or these defaults; the report
 * prints them. At 4 MB, writes (the --ingest) leave the build's vector index segments (5-10 MB each)
 * unmerged (docs/scale.md#vector-index-segments).
 */
export const SCALE_NEO4J = {
  NEO4J_HEAP: process.env.NEO4J_HEAP || '6g',
  NEO4J_PAGECACHE: process.env.NEO4J_PAGECACHE || '5g',
  NEO4J_INDEX_MAX_MERGE_MB: process.env.NEO4J_INDEX_MAX_MERGE_MB || '4',
};

/**
 * The launcher settings for the rebuild of the node vector indexes after the build (--no-merge skips it): a 64 MB
 * build buffer and a merge factor of 10, so `entity_embedding` ends in a few large segments instead of one per 5-10 MB.
 * Every entity-index search (the synonym pass, the seeds) visits every segment. No bound on merged size for that
 * rebuild (65536 MB); the DB then restarts with SCALE_NEO4J (docs/scale.md#vector-index-segments).
 */
export const SCALE_MERGED_NODE_INDEXES = {
  NEO4J_VECTOR_BUFFER_MB: process.env.SCALE_MERGE_BUFFER_MB || '64',
  NEO4J_VECTOR_MERGE_FACTOR: process.env.SCALE_MERGE_FACTOR || '10',
  NEO4J_INDEX_MAX_MERGE_MB: '65536',
};

export const connectScale = () =>
  GraphStore.connect({ uri: `bolt://127.0.0.1:${SCALE_BOLT}`, user: 'neo4j', password: SCALE_PASSWORD, database: 'neo4j', embedded: false } as never);

/** The Retriever over a scale graph: the server's defaults, its walked types plus the graph's curated ones. */
export function scaleRetriever(store: GraphStore, graph: Pick<ScaleGraph, 'curatedTypes'>): Retriever {
  const cfg = loadConfig();
  return new Retriever(store, {
    timeoutMs: 300000,
    allowedRelTypes: [...DEFAULT_TRAVERSE_TYPES, ...graph.curatedTypes],
    pprGraphName: cfg.pprGraphName,
    cosineFloor: cosineFloorOf(cfg.embedder),
  });
}
