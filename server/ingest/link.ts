/**
 * Links the literature layer into the curated one (server/ingest/linking.ts has the rules).
 * Two ways in, one result:
 * - a document batch is linked as it lands, its links written in the batch's transaction
 *   (ingestDocuments asks linkerFor once per run);
 * - a curated import, or `graph-recall link`, re-links the passages already in the graph,
 *   a page per transaction, skipping those linked with the current dictionary (resumable).
 * No curated graph: nothing runs and nothing is written.
 */
import type { GraphStore } from '../db/store.js';
import { curatedCount, curatedNames, descriptionVectors, passageCount, passagePage, writeLinks, type PassageLinks } from '../graph/links.js';
import { buildDictionary, findMentions, LINKER_VERSION, type LinkDictionary, needsContext, resolveMentions } from './linking.js';
import type { Progress } from './types.js';

export interface Linker {
  /** Names the dictionary: curated entity count and the rules' version. */
  version: string;
  size: number;
  /** Links for each passage (text = title and text, vector = the passage's embedding). */
  link(passages: { id: string; title?: string; text: string; embedding?: ArrayLike<number> | null }[]): Promise<PassageLinks[]>;
}

const cache = new Map<string, { version: string; dict: LinkDictionary }>();

/** The linker for the graph's current curated entities, or null when it has none. */
export async function linkerFor(store: GraphStore): Promise<Linker | null> {
  const n = await curatedCount(store);
  if (n === 0) return null;
  const version = `${n}:${LINKER_VERSION}`;
  let hit = cache.get(store.database);
  if (!hit || hit.version !== version) {
    hit = { version, dict: buildDictionary(await curatedNames(store)) };
    cache.set(store.database, hit);
  }
  const { dict } = hit;
  return {
    version,
    size: dict.size,
    async link(passages) {
      const found = passages.map((p) => findMentions(dict, p.title ? `${p.title}\n${p.text}` : p.text));
      const vectors = await descriptionVectors(store, [...new Set(found.flatMap(needsContext))]);
      return passages.map((p, i) => ({ passageId: p.id, links: resolveMentions(found[i], p.embedding, vectors) }));
    },
  };
}

/**
 * Links every passage not yet linked with the current dictionary, pageSize per transaction.
 * Returns the passages linked and the links written.
 */
export async function linkExisting(
  store: GraphStore,
  opts: { pageSize?: number; onProgress?: (p: Progress) => void /** Re-link passages already linked with this dictionary too. */; force?: boolean } = {},
): Promise<{ passages: number; links: number; skipped: number }> {
  const linker = await linkerFor(store);
  const out = { passages: 0, links: 0, skipped: 0 };
  if (!linker) return out;
  const pageSize = opts.pageSize ?? 500;
  const { version } = linker;
  const total = await passageCount(store);
  for (let after = ''; ; ) {
    const page = await passagePage(store, after, pageSize, version);
    if (page.length === 0) break;
    after = page[page.length - 1].id;
    const todo = opts.force ? page : page.filter((p) => p.linkedWith !== version);
    out.skipped += page.length - todo.length;
    if (todo.length) {
      const rows = await linker.link(todo);
      out.links += await writeLinks(store, rows, version);
      out.passages += todo.length;
    }
    opts.onProgress?.({ stage: 'link', done: out.passages + out.skipped, total });
  }
  return out;
}
