/**
 * The memory and disk model of the scale benchmark: what the measured stores cost per vector
 * and per record, and what 1 M and 10 M passages would need. Neo4j keeps three kinds of memory:
 * the heap (queries, transaction state), the page cache (the store files: records, properties,
 * the vectors as float32 arrays) and, outside both, the vector indexes (Lucene HNSW files read
 * through the OS file cache: a search that misses it reads the disk at every hop).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface StoreSizes {
  total: number;
  /** Store files (records, properties, vectors), the transaction logs excluded. */
  store: number;
  vectorIndexes: number;
  fulltextIndexes: number;
  otherIndexes: number;
  transactionLogs: number;
}

function walk(dir: string, visit: (file: string, bytes: number) => void): void {
  if (!fs.existsSync(dir)) return;
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) walk(p, visit);
    else if (d.isFile()) visit(p, fs.statSync(p).size);
  }
}

/** Bytes on disk of a data folder's `neo4j` database, by kind. */
export function storeSizes(dataDir: string): StoreSizes {
  const s: StoreSizes = { total: 0, store: 0, vectorIndexes: 0, fulltextIndexes: 0, otherIndexes: 0, transactionLogs: 0 };
  walk(path.join(dataDir, 'data', 'databases', 'neo4j'), (f, b) => {
    const rel = f.split(`${path.sep}schema${path.sep}index${path.sep}`)[1];
    if (rel === undefined) s.store += b;
    else if (rel.startsWith('vector')) s.vectorIndexes += b;
    else if (rel.startsWith('fulltext')) s.fulltextIndexes += b;
    else s.otherIndexes += b;
  });
  walk(path.join(dataDir, 'data', 'transactions', 'neo4j'), (_, b) => (s.transactionLogs += b));
  s.total = s.store + s.vectorIndexes + s.fulltextIndexes + s.otherIndexes;
  return s;
}

/**
 * Lucene segments per vector index (its `.si` files), by index name: a search visits every segment, and
 * a write may merge them (docs/scale.md#vector-index-segments). `ids` maps each index's id (its folder
 * under schema/index/vector-*) to its name, as SHOW VECTOR INDEXES gives them. Largest first.
 */
export function vectorSegments(dataDir: string, ids: Record<string, string>): Record<string, number> {
  const root = path.join(dataDir, 'data', 'databases', 'neo4j', 'schema', 'index');
  const counts: [string, number][] = [];
  for (const provider of fs.existsSync(root) ? fs.readdirSync(root).filter((d) => d.startsWith('vector')) : []) {
    for (const id of fs.readdirSync(path.join(root, provider))) {
      if (!(id in ids)) continue;
      let n = 0;
      walk(path.join(root, provider, id), (f) => (n += f.endsWith('.si') ? 1 : 0));
      counts.push([ids[id], n]);
    }
  }
  return Object.fromEntries(counts.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

interface Measured {
  passages: number;
  entities: number;
  relationships: number;
  heap_mb: number;
  rss_mb: number;
  counts: Record<string, number>;
  sizes: StoreSizes;
  generated: { facts: number; curatedEdges: number; curatedEntities: number };
}

const GIB = 2 ** 30;
/** Hetionet at full size: the curated layer stops growing there. */
const HETIONET = { entities: 47031, edges: 2250197 };

export function memoryModel(results: Measured[], dimension: number) {
  const last = results[results.length - 1];
  const g = last.generated;
  const extractedEntities = last.entities - g.curatedEntities;
  // Vectors: passages 1; entities 2 (name, indexed; description, stored); facts 1 (indexed).
  const facts = last.relationships - last.counts.mentions - last.passages; // all but MENTIONS and PART_OF carry a vector
  const stored = last.passages + 2 * last.entities + facts;
  const indexed = last.passages + last.entities + facts;
  const records = last.passages * 2 + last.entities + last.relationships; // passages, documents, entities; every relationship
  // A float32 vector in the property store: dynamic array records of 120 payload bytes each, 128 on disk.
  const vectorStoreBytes = Math.ceil((dimension * 4) / 120) * 128;
  const perRecord = Math.max(0, (last.sizes.store - stored * vectorStoreBytes) / records);
  const perIndexedVector = last.sizes.vectorIndexes / indexed;
  const fulltextPerNode = last.sizes.fulltextIndexes / (last.passages + last.entities);
  const per = {
    entitiesPerPassage: extractedEntities / last.passages,
    factsPerPassage: (facts - g.curatedEdges) / last.passages,
    mentionsPerPassage: last.counts.mentions / last.passages,
  };
  const project = (n: number) => {
    const curated = n >= 50000 ? HETIONET : { entities: g.curatedEntities, edges: g.curatedEdges };
    const entities = n * per.entitiesPerPassage + curated.entities;
    const f = n * per.factsPerPassage + curated.edges;
    const rels = f + n * per.mentionsPerPassage + n;
    const storeBytes = (n + 2 * entities + f) * vectorStoreBytes + (2 * n + entities + rels) * perRecord;
    const vectorIndexBytes = (n + entities + f) * perIndexedVector;
    const fulltextBytes = (n + entities) * fulltextPerNode;
    const heapBytes = Math.max(8 * GIB, Math.min(31 * GIB, last.heap_mb * 2 ** 20 * 2));
    // The page cache holds the store; the OS file cache the vector and full-text indexes; 2 GiB for the OS.
    const ramBytes = heapBytes + storeBytes + vectorIndexBytes + fulltextBytes + 2 * GIB;
    return {
      passages: n,
      entities: Math.round(entities),
      facts: Math.round(f),
      vectors_indexed: Math.round(n + entities + f),
      store_gib: +(storeBytes / GIB).toFixed(1),
      vector_indexes_gib: +(vectorIndexBytes / GIB).toFixed(1),
      fulltext_gib: +(fulltextBytes / GIB).toFixed(1),
      disk_gib: +((storeBytes + vectorIndexBytes + fulltextBytes) / GIB).toFixed(1),
      heap_gib: +(heapBytes / GIB).toFixed(0),
      pagecache_gib: +(storeBytes / GIB).toFixed(0),
      ram_gib: +(ramBytes / GIB).toFixed(0),
    };
  };
  return {
    from: `${last.passages} passages (the largest size measured)`,
    dimension,
    bytes: {
      per_vector_in_store: vectorStoreBytes,
      per_record_in_store: Math.round(perRecord),
      per_indexed_vector_in_vector_indexes: Math.round(perIndexedVector),
      fulltext_per_node: Math.round(fulltextPerNode),
      per_passage_all_in: Math.round(last.sizes.total / last.passages),
    },
    shape: { ...per, vectorsPerPassage: stored / last.passages, indexedVectorsPerPassage: indexed / last.passages },
    measured: results.map((r) => ({
      passages: r.passages,
      store_mb: Math.round(r.sizes.store / 2 ** 20),
      vector_indexes_mb: Math.round(r.sizes.vectorIndexes / 2 ** 20),
      fulltext_mb: Math.round(r.sizes.fulltextIndexes / 2 ** 20),
      heap_mb: r.heap_mb,
      rss_mb: r.rss_mb,
    })),
    projections: [1e6, 1e7].map(project),
  };
}

export type MemoryModel = ReturnType<typeof memoryModel>;
