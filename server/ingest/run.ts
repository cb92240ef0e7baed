import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { ensureEmbedder } from '../db/embedder-guard.js';
import type { Embedder } from '../embedders/types.js';
import { createExtractor } from '../extractors/index.js';
import type { GraphStore } from '../db/store.js';
import { ingestCurated } from './curated.js';
import { ingestDocuments, type IngestContext } from './documents.js';
import { readFolder, readHetionet, readJsonl } from './sources/index.js';
import type { IngestOptions, IngestSummary } from './types.js';

export type IngestFormat = 'jsonl' | 'folder' | 'hetionet';

/** jsonl for a .jsonl file, hetionet for a folder with nodes.tsv, folder otherwise. */
export function detectFormat(p: string): IngestFormat {
  if (!fs.existsSync(p)) throw new Error(`${p}: no such file or folder`);
  const stat = fs.statSync(p);
  if (stat.isFile()) return 'jsonl';
  if (fs.existsSync(path.join(p, 'nodes.tsv'))) return 'hetionet';
  return 'folder';
}

/** Reads any supported input and ingests it: the one path used by the CLI, the demo loader and the eval harness. */
export async function ingestPath(
  ctx: { store: GraphStore; config: Config; embedder: Embedder; extractorName?: Config['extractor'] },
  input: string,
  opts: IngestOptions & { format?: IngestFormat; source?: string } = {},
): Promise<IngestSummary> {
  const format = opts.format ?? detectFormat(input);
  await ensureEmbedder(ctx.store, ctx.embedder);
  const extractor = await createExtractor({ ...ctx.config, extractor: ctx.extractorName ?? ctx.config.extractor });
  const base: IngestContext = {
    store: ctx.store,
    embedder: ctx.embedder,
    extractor,
    graphName: ctx.config.pprGraphName,
    extraProjectionTypes: ctx.config.traverseTypes,
  };
  if (format === 'hetionet') return ingestCurated(base, await readHetionet(input), opts);
  // The documents' source: opts.source, else the input's name (a JSONL line may give its own).
  return ingestDocuments(base, format === 'jsonl' ? readJsonl(input, opts.source) : readFolder(input, opts.source), opts);
}
