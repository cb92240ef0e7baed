/**
 * Entity resolution within a batch (one entity per normalised name) and the
 * vectors an entity's description is compared with.
 */
import type { Extraction } from '../extractors/types.js';
import { ALIAS_PREDICATE, normalizeName } from '../graph/facts.js';
import type { SourcePassage } from './types.js';

const DESCRIPTION_MAX = 600;

export interface ResolvedEntity {
  id: string;
  name: string;
  type: string;
  description: string;
}

/**
 * Merges a batch's extractions on normalised names: one entity per key, the
 * most frequent display name and type, descriptions joined until the cap.
 */
export function resolveEntities(extractions: { passage: SourcePassage; extraction: Extraction }[]) {
  const groups = new Map<string, { names: Map<string, number>; types: Map<string, number>; descriptions: string[] }>();
  const mentions: { p: string; e: string }[] = [];
  const relations: { a: string; b: string; predicate: string; passageId: string }[] = [];
  const aliases: { a: string; b: string }[] = [];
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  // Names repeat across a document's passages and relations: each is normalised once (a large
  // document has tens of thousands of name occurrences, and this runs on the event loop).
  const keys = new Map<string, string>();
  const keyOf = (name: string) => {
    let k = keys.get(name);
    if (k === undefined) keys.set(name, (k = normalizeName(name)));
    return k;
  };
  for (const { passage, extraction } of extractions) {
    const inPassage = new Set<string>();
    for (const ent of extraction.entities) {
      const key = keyOf(ent.name);
      if (!key) continue;
      const id = `e:${key}`;
      const g = groups.get(id) ?? { names: new Map<string, number>(), types: new Map<string, number>(), descriptions: [] as string[] };
      groups.set(id, g);
      bump(g.names, ent.name.trim());
      bump(g.types, ent.type || 'Thing');
      if (ent.description && !g.descriptions.includes(ent.description)) g.descriptions.push(ent.description);
      if (!inPassage.has(id)) mentions.push({ p: passage.id, e: id });
      inPassage.add(id);
    }
    for (const r of extraction.relations) {
      const a = `e:${keyOf(r.subject)}`;
      const b = `e:${keyOf(r.object)}`;
      if (a === b || !groups.has(a) || !groups.has(b)) continue;
      if (r.predicate === ALIAS_PREDICATE) aliases.push({ a, b });
      else relations.push({ a, b, predicate: r.predicate || 'related_to', passageId: passage.id });
    }
  }
  const top = (m: Map<string, number>) => [...m.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0][0];
  const entities: ResolvedEntity[] = [...groups.entries()].map(([id, g]) => {
    let description = '';
    for (const d of g.descriptions) {
      const next = description ? `${description} ${d}` : d;
      if (next.length > DESCRIPTION_MAX) break;
      description = next;
    }
    return { id, name: top(g.names), type: top(g.types), description: description || top(g.names) };
  });
  return { entities, mentions, relations, aliases };
}

/** For each entity, the normalised mean of the vectors of the passages (of this batch) that mention it. */
export function meanOfMentioningPassages(
  entityIds: string[],
  mentions: { p: string; e: string }[],
  passageIds: string[],
  passageVectors: number[][],
): number[][] {
  const byPassage = new Map(passageIds.map((id, i) => [id, passageVectors[i]]));
  const sums = new Map<string, number[]>();
  for (const m of mentions) {
    const v = byPassage.get(m.p);
    if (!v) continue;
    const acc = sums.get(m.e);
    if (acc) for (let i = 0; i < v.length; i++) acc[i] += v[i];
    else sums.set(m.e, [...v]);
  }
  return entityIds.map((id) => {
    const v = sums.get(id)!;
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  });
}

/** The text an entity's description embedding is computed from (the gate compares it with the question). */
export const describeForEmbedding = (e: { name: string; description: string }) =>
  e.description.toLowerCase().includes(e.name.toLowerCase()) ? e.description : `${e.name}: ${e.description}`;
