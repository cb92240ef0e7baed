import crypto from 'node:crypto';
import type { Driver } from 'neo4j-driver';
import type { Embedder } from '../embedders/types.js';
import type { Extraction, Extractor } from '../extractors/types.js';
import { normalizeName } from '../extractors/offline.js';
import { manageProjection } from '../retrieval/projection.js';
import { toPassages } from './sources.js';
import type { CuratedGraph, ReadItem, SourceDocument, SourcePassage, SourceProblem } from './types.js';

/**
 * documents -> passages -> extraction -> resolution -> embeddings -> graph.
 *
 * Documents are processed in batches; each batch is written in ONE transaction
 * with MERGE on stable ids, so a batch is all or nothing and a second run of
 * the same input writes nothing (documents whose content hash is unchanged are
 * skipped before any work). An interrupted run resumes where it stopped.
 * Synonym edges are found through the vector index for new entities only, so
 * the whole pipeline is linear in the input.
 */
export interface IngestContext {
  driver: Driver;
  database?: string;
  embedder: Embedder;
  extractor: Extractor;
  graphName: string;
  extraProjectionTypes?: string[];
}

export interface IngestOptions {
  batchSize?: number;
  strict?: boolean;
  chunkSize?: number;
  chunkOverlap?: number;
  synonymThreshold?: number;
  refreshProjection?: boolean;
  /**
   * How an entity's description embedding (the gate's input) is made:
   * 'passages' (default) averages the embeddings of the passages that mention
   * it, which costs nothing more since passages are embedded anyway; 'text'
   * embeds the description text itself (the exact form, several times slower
   * with the local model because every entity needs its own forward pass).
   */
  descriptionEmbedding?: 'passages' | 'text';
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  stage: 'read' | 'ingest' | 'synonyms' | 'projection' | 'questions';
  done: number;
  total: number;
}

export interface StageSeconds {
  read: number;
  extract: number;
  embed: number;
  resolve: number;
  write: number;
  synonyms: number;
  projection: number;
}

export interface IngestSummary {
  documents: { read: number; written: number; unchanged: number; replaced: number };
  passages: number;
  entities: number;
  mentions: number;
  relations: number;
  synonyms: number;
  problems: SourceProblem[];
  seconds: StageSeconds;
}

export class IngestInputError extends Error {
  constructor(readonly problems: SourceProblem[]) {
    super(`${problems.length} problem(s) in the input; nothing was written (--strict):\n${problems.slice(0, 20).map(formatProblem).join('\n')}`);
  }
}

export const formatProblem = (p: SourceProblem) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.reason}`;

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const DESCRIPTION_MAX = 600;

interface ResolvedEntity {
  id: string;
  name: string;
  type: string;
  description: string;
}

export function entityId(name: string): string {
  return `e:${normalizeName(name)}`;
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
  for (const { passage, extraction } of extractions) {
    const inPassage = new Set<string>();
    for (const ent of extraction.entities) {
      const key = normalizeName(ent.name);
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
      const a = entityId(r.subject);
      const b = entityId(r.object);
      if (a === b || !groups.has(a) || !groups.has(b)) continue;
      if (r.predicate === 'alias') aliases.push({ a, b });
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
export function meanOfMentioningPassages(entityIds: string[], mentions: { p: string; e: string }[], passageIds: string[], passageVectors: number[][]): number[][] {
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

export async function readAll(items: AsyncIterable<ReadItem>): Promise<{ documents: SourceDocument[]; problems: SourceProblem[] }> {
  const documents: SourceDocument[] = [];
  const problems: SourceProblem[] = [];
  for await (const item of items) {
    if ('document' in item) documents.push(item.document);
    else problems.push(item.problem);
  }
  return { documents, problems };
}

export async function ingestDocuments(ctx: IngestContext, items: AsyncIterable<ReadItem>, opts: IngestOptions = {}): Promise<IngestSummary> {
  const batchSize = opts.batchSize ?? 64;
  const seconds: StageSeconds = { read: 0, extract: 0, embed: 0, resolve: 0, write: 0, synonyms: 0, projection: 0 };
  const timed = async <T>(stage: keyof StageSeconds, f: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      seconds[stage] += (performance.now() - t0) / 1000;
    }
  };
  const { documents, problems } = await timed('read', () => readAll(items));
  if (opts.strict && problems.length) throw new IngestInputError(problems);
  const summary: IngestSummary = {
    documents: { read: documents.length, written: 0, unchanged: 0, replaced: 0 },
    passages: 0, entities: 0, mentions: 0, relations: 0, synonyms: 0, problems, seconds,
  };
  const hashOf = (d: SourceDocument) => sha(JSON.stringify([d.title, d.text, d.metadata ?? null, opts.chunkSize ?? null, opts.chunkOverlap ?? null, ctx.extractor.id, ctx.embedder.id]));

  // Unchanged documents are skipped before any extraction or embedding.
  const known = await readKnownHashes(ctx, documents.map((d) => d.id));
  const todo = documents.filter((d) => known.get(d.id) !== hashOf(d));
  summary.documents.unchanged = documents.length - todo.length;

  for (let i = 0; i < todo.length; i += batchSize) {
    const batch = todo.slice(i, i + batchSize);
    opts.onProgress?.({ stage: 'ingest', done: i, total: todo.length });
    const passages = batch.flatMap((d) => toPassages(d, opts.chunkSize, opts.chunkOverlap));
    const extractions = await timed('extract', async () => {
      const out: { passage: SourcePassage; extraction: Extraction }[] = [];
      for (const passage of passages) out.push({ passage, extraction: await ctx.extractor.extract(passage) });
      return out;
    });
    const resolved = await timed('resolve', () => resolveEntities(extractions));
    const existing = await timed('resolve', () => readExistingEntities(ctx, resolved.entities.map((e) => e.id)));
    const fresh = resolved.entities.filter((e) => !existing.has(e.id));
    const vectors = await timed('embed', async () => {
      const passageVectors = await ctx.embedder.embed(passages.map((p) => `${p.title}\n${p.text}`), 'document');
      const names = await ctx.embedder.embed(fresh.map((e) => e.name), 'document');
      const descriptions = opts.descriptionEmbedding === 'text'
        ? await ctx.embedder.embed(fresh.map(describeForEmbedding), 'document')
        : meanOfMentioningPassages(fresh.map((e) => e.id), resolved.mentions, passages.map((p) => p.id), passageVectors);
      return { passages: passageVectors, names, descriptions };
    });
    const replaced = batch.filter((d) => known.has(d.id)).map((d) => d.id);
    await timed('write', () =>
      writeBatch(ctx, {
        documents: batch.map((d) => ({ id: d.id, title: d.title, source: d.source, hash: hashOf(d), metadata: d.metadata ? JSON.stringify(d.metadata) : null })),
        replaced,
        passages: passages.map((p, k) => ({ ...p, embedding: vectors.passages[k] })),
        entities: fresh.map((e, k) => ({ ...e, embedding: vectors.names[k], descriptionEmbedding: vectors.descriptions[k] })),
        mentions: resolved.mentions,
        relations: resolved.relations,
        aliases: resolved.aliases,
      }),
    );
    summary.documents.written += batch.length;
    summary.documents.replaced += replaced.length;
    summary.passages += passages.length;
    summary.entities += fresh.length;
    summary.mentions += resolved.mentions.length;
    summary.relations += resolved.relations.length;
    summary.synonyms += resolved.aliases.length;
  }
  opts.onProgress?.({ stage: 'ingest', done: todo.length, total: todo.length });
  summary.synonyms += await timed('synonyms', () => findSynonyms(ctx, opts.synonymThreshold ?? 0.85, opts.onProgress));
  if (opts.refreshProjection !== false) {
    await timed('projection', async () => {
      opts.onProgress?.({ stage: 'projection', done: 0, total: 1 });
      const state = await manageProjection(ctx.driver, 'status', { graphName: ctx.graphName, database: ctx.database });
      if (!state.exists || !state.fresh) {
        await manageProjection(ctx.driver, 'refresh', { graphName: ctx.graphName, database: ctx.database, extraTypes: ctx.extraProjectionTypes });
      }
      opts.onProgress?.({ stage: 'projection', done: 1, total: 1 });
    });
  }
  return summary;
}

async function readKnownHashes(ctx: IngestContext, ids: string[]): Promise<Map<string, string>> {
  const s = ctx.driver.session({ database: ctx.database, defaultAccessMode: 'READ' });
  try {
    const res = await s.run('UNWIND $ids AS id MATCH (d:Document {id: id}) RETURN d.id AS id, d.hash AS hash', { ids });
    return new Map(res.records.map((r) => [r.get('id'), r.get('hash')]));
  } finally {
    await s.close();
  }
}

async function readExistingEntities(ctx: IngestContext, ids: string[]): Promise<Set<string>> {
  const s = ctx.driver.session({ database: ctx.database, defaultAccessMode: 'READ' });
  try {
    const res = await s.run('UNWIND $ids AS id MATCH (e:Entity {id: id}) RETURN e.id AS id', { ids });
    return new Set(res.records.map((r) => r.get('id')));
  } finally {
    await s.close();
  }
}

interface BatchWrite {
  documents: { id: string; title: string; source: string; hash: string; metadata: string | null }[];
  replaced: string[];
  passages: (SourcePassage & { embedding: number[] })[];
  entities: (ResolvedEntity & { embedding: number[]; descriptionEmbedding: number[] })[];
  mentions: { p: string; e: string }[];
  relations: { a: string; b: string; predicate: string; passageId: string }[];
  aliases: { a: string; b: string }[];
}

/** One transaction: a batch is written whole or not at all. */
async function writeBatch(ctx: IngestContext, b: BatchWrite): Promise<void> {
  const s = ctx.driver.session({ database: ctx.database });
  try {
    await s.executeWrite(async (tx) => {
      if (b.replaced.length) await removePassagesOf(tx, b.replaced, false);
      await tx.run(
        `UNWIND $documents AS d
         MERGE (x:Document {id: d.id})
         SET x.title = d.title, x.source = d.source, x.hash = d.hash, x.metadata = d.metadata, x.ingestedAt = datetime()`,
        { documents: b.documents },
      );
      await tx.run(
        `UNWIND $passages AS p
         MATCH (d:Document {id: p.documentId})
         MERGE (x:Passage {id: p.id})
         SET x.title = p.title, x.text = p.text, x.embedding = p.embedding, x.documentId = p.documentId
         MERGE (x)-[:PART_OF]->(d)`,
        { passages: b.passages },
      );
      await tx.run(
        `UNWIND $entities AS e
         MERGE (x:Entity {id: e.id})
         ON CREATE SET x.name = e.name, x.type = e.type, x.description = e.description,
                       x.embedding = e.embedding, x.descriptionEmbedding = e.descriptionEmbedding, x.synonymsPending = true`,
        { entities: b.entities },
      );
      await tx.run(
        `UNWIND $mentions AS m
         MATCH (p:Passage {id: m.p}), (e:Entity {id: m.e})
         MERGE (p)-[r:MENTIONS]->(e) ON CREATE SET r.weight = 1.0`,
        { mentions: b.mentions },
      );
      await tx.run(
        `UNWIND $relations AS r
         MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b})
         MERGE (a)-[x:RELATED {predicate: r.predicate, passageId: r.passageId}]->(b) ON CREATE SET x.weight = 1.0`,
        { relations: b.relations },
      );
      await tx.run(
        `UNWIND $aliases AS r
         MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b})
         MERGE (a)-[x:SAME_AS]-(b) ON CREATE SET x.score = 1.0, x.weight = 1.0, x.source = 'alias'`,
        { aliases: b.aliases },
      );
      await tx.run("MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()");
    });
  } finally {
    await s.close();
  }
}

type Tx = { run: (q: string, p?: Record<string, unknown>) => Promise<unknown> };

/**
 * Removes the passages of the given documents, the RELATED facts they
 * supported, and every extracted entity left with no mention and no curated
 * label; with deleteDocuments the documents go too.
 */
export async function removePassagesOf(tx: Tx, documentIds: string[], deleteDocuments: boolean): Promise<void> {
  await tx.run(
    `UNWIND $ids AS id
     MATCH (:Document {id: id})<-[:PART_OF]-(p:Passage)
     OPTIONAL MATCH ()-[r:RELATED {passageId: p.id}]->()
     DELETE r`,
    { ids: documentIds },
  );
  await tx.run(
    `UNWIND $ids AS id
     MATCH (:Document {id: id})<-[:PART_OF]-(p:Passage)
     OPTIONAL MATCH (p)-[:MENTIONS]->(e:Entity)
     WITH p, collect(DISTINCT e) AS touched
     DETACH DELETE p
     WITH touched UNWIND touched AS e
     WITH DISTINCT e WHERE NOT e:Curated AND NOT EXISTS { (e)<-[:MENTIONS]-(:Passage) }
     DETACH DELETE e`,
    { ids: documentIds },
  );
  if (deleteDocuments) await tx.run('UNWIND $ids AS id MATCH (d:Document {id: id}) DETACH DELETE d', { ids: documentIds });
  await tx.run("MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()");
}

/** Deletes a document and whatever only it supported; false when there is no such document. */
export async function deleteDocument(driver: Driver, id: string, database?: string): Promise<boolean> {
  const s = driver.session({ database });
  try {
    return await s.executeWrite(async (tx) => {
      const found = await tx.run('MATCH (d:Document {id: $id}) RETURN count(d) AS n', { id });
      if (Number(found.records[0].get('n')) === 0) return false;
      await removePassagesOf(tx, [id], true);
      return true;
    });
  } finally {
    await s.close();
  }
}

/** Entity types whose embeddings say nothing about identity: "20 May 1975" is not "17 May 1975". */
export const VALUE_TYPES = ['Date', 'Number', 'Money', 'Percent', 'Nationality'];

/**
 * A lexical guard on embedding synonyms: names whose numbers or regnal
 * numerals differ ("Hugh I of Cyprus" / "Hugh III of Cyprus", "Apollo 11" /
 * "Apollo 13") name different things, however close their embeddings.
 */
export function numeralsAgree(a: string, b: string): boolean {
  // Every digit run, also inside tokens ("CYP3A4" vs "CYP3A5"), and standalone regnal numerals.
  const marks = (s: string) => [...(s.match(/\d+/g) ?? []), ...(s.match(/\b[IVXLC]+\b/g) ?? [])].sort().join(' ');
  return marks(a) === marks(b);
}

/**
 * SAME_AS edges between each new entity and its nearest neighbours in the
 * entity vector index with cosine >= threshold: k lookups per entity, never an
 * all-pairs pass. Value types and curated entities (whose ids are already
 * canonical: on Hetionet, embeddings would merge CYP3A4 with CYP3A5) are
 * skipped, and numbers must agree. Two workers
 * (the lookups are CPU-bound in Neo4j); each chunk's edges are written and its
 * entities marked done in one transaction, so an interrupted pass resumes.
 */
async function findSynonyms(ctx: IngestContext, threshold: number, onProgress?: IngestOptions['onProgress']): Promise<number> {
  const s = ctx.driver.session({ database: ctx.database, defaultAccessMode: 'READ' });
  let ids: string[];
  try {
    ids = (await s.run('MATCH (e:Entity {synonymsPending: true}) RETURN e.id AS id')).records.map((r) => r.get('id'));
  } finally {
    await s.close();
  }
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 200) chunks.push(ids.slice(i, i + 200));
  let created = 0;
  let done = 0;
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      const session = ctx.driver.session({ database: ctx.database });
      try {
        const found = await session.executeRead((tx) =>
          tx.run(
            `UNWIND $ids AS id
             MATCH (e:Entity {id: id}) WHERE NOT e.type IN $valueTypes AND NOT e:Curated AND e.embedding IS NOT NULL
             CALL (e) {
               CALL db.index.vector.queryNodes('entity_embedding', 10, e.embedding) YIELD node
               WITH node WHERE node <> e AND NOT node.type IN $valueTypes AND NOT node:Curated
               WITH node, gds.similarity.cosine(node.embedding, e.embedding) AS cosine
               WHERE cosine >= $threshold
               RETURN collect({id: node.id, name: node.name, cosine: cosine}) AS near
             }
             RETURN e.id AS id, e.name AS name, near`,
            { ids: chunk, valueTypes: VALUE_TYPES, threshold },
          ),
        );
        const pairs = found.records.flatMap((r) =>
          (r.get('near') as { id: string; name: string; cosine: number }[])
            .filter((n) => numeralsAgree(r.get('name'), n.name))
            .map((n) => ({ a: r.get('id') as string, b: n.id, score: n.cosine })),
        );
        const made = await session.executeWrite(async (tx) => {
          const res = await tx.run(
            `UNWIND $pairs AS p
             MATCH (a:Entity {id: p.a}), (b:Entity {id: p.b})
             MERGE (a)-[r:SAME_AS]-(b)
             ON CREATE SET r.score = p.score, r.weight = p.score, r.source = 'embedding', r.isNew = true
             WITH r WHERE r.isNew
             REMOVE r.isNew
             RETURN count(r) AS made`,
            { pairs },
          );
          await tx.run('UNWIND $ids AS id MATCH (e:Entity {id: id}) REMOVE e.synonymsPending', { ids: chunk });
          return Number(res.records[0].get('made'));
        });
        created += made;
        done += chunk.length;
        onProgress?.({ stage: 'synonyms', done, total: ids.length });
      } finally {
        await session.close();
      }
    }
  };
  await Promise.all([worker(), worker()]);
  if (created) {
    const w = ctx.driver.session({ database: ctx.database });
    await w.run("MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()").finally(() => w.close());
  }
  return created;
}

/**
 * A curated graph (Hetionet-style): entities labelled :Entity:Curated that keep
 * their own relationship types. The types are recorded in GraphRecallMeta so
 * the server can walk them and the projection can include them.
 */
export async function ingestCurated(
  ctx: IngestContext,
  graph: CuratedGraph,
  opts: { batchSize?: number; strict?: boolean; onProgress?: IngestOptions['onProgress'] } = {},
): Promise<IngestSummary> {
  const seconds: StageSeconds = { read: 0, extract: 0, embed: 0, resolve: 0, write: 0, synonyms: 0, projection: 0 };
  if (opts.strict && graph.problems.length) throw new IngestInputError(graph.problems);
  const batchSize = opts.batchSize ?? 1000;
  const types = [...new Set(graph.edges.map((e) => e.type))];
  for (const t of types) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) throw new Error(`curated relationship type "${t}" is not a valid identifier`);
  const existing = await readExistingEntities(ctx, graph.entities.map((e) => e.id));
  const fresh = graph.entities.filter((e) => !existing.has(e.id));
  const total = fresh.length + graph.edges.length;
  let done = 0;
  for (let i = 0; i < fresh.length; i += batchSize) {
    const batch = fresh.slice(i, i + batchSize);
    opts.onProgress?.({ stage: 'ingest', done, total });
    let t0 = performance.now();
    const names = await ctx.embedder.embed(batch.map((e) => e.name), 'document');
    const descriptions = await ctx.embedder.embed(batch.map(describeForEmbedding), 'document');
    seconds.embed += (performance.now() - t0) / 1000;
    t0 = performance.now();
    const s = ctx.driver.session({ database: ctx.database });
    try {
      await s.executeWrite((tx) =>
        tx.run(
          `UNWIND $entities AS e
           MERGE (x:Entity {id: e.id})
           ON CREATE SET x.name = e.name, x.type = e.type, x.description = e.description,
                         x.embedding = e.embedding, x.descriptionEmbedding = e.descriptionEmbedding, x.synonymsPending = true
           SET x:Curated
           MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()`,
          { entities: batch.map((e, k) => ({ ...e, embedding: names[k], descriptionEmbedding: descriptions[k] })) },
        ),
      );
    } finally {
      await s.close();
    }
    seconds.write += (performance.now() - t0) / 1000;
    done += batch.length;
  }
  let relations = 0;
  const t0 = performance.now();
  for (const type of types) {
    const edges = graph.edges.filter((e) => e.type === type);
    for (let i = 0; i < edges.length; i += batchSize * 5) {
      const batch = edges.slice(i, i + batchSize * 5);
      opts.onProgress?.({ stage: 'ingest', done, total });
      const s = ctx.driver.session({ database: ctx.database });
      try {
        // The type is validated above against the identifier pattern; it cannot be a parameter.
        await s.executeWrite((tx) =>
          tx.run(
            `UNWIND $edges AS r
             MATCH (a:Entity {id: r.from}), (b:Entity {id: r.to})
             MERGE (a)-[x:${type}]->(b) ON CREATE SET x.predicate = r.predicate, x.weight = 1.0
             WITH count(*) AS n
             MERGE (m:GraphRecallMeta {key: 'graph'})
             SET m.updatedAt = datetime(), m.curatedTypes = apoc.coll.toSet(coalesce(m.curatedTypes, []) + [$type])`,
            { edges: batch, type },
          ),
        );
      } finally {
        await s.close();
      }
      relations += batch.length;
      done += batch.length;
    }
  }
  seconds.write += (performance.now() - t0) / 1000;
  const summary: IngestSummary = {
    documents: { read: 0, written: 0, unchanged: 0, replaced: 0 },
    passages: 0, entities: fresh.length, mentions: 0, relations, synonyms: 0, problems: graph.problems, seconds,
  };
  let t1 = performance.now();
  summary.synonyms = await findSynonyms(ctx, 0.85, opts.onProgress);
  seconds.synonyms = (performance.now() - t1) / 1000;
  t1 = performance.now();
  await manageProjection(ctx.driver, 'refresh', { graphName: ctx.graphName, database: ctx.database, extraTypes: [...(ctx.extraProjectionTypes ?? []), ...types] });
  seconds.projection = (performance.now() - t1) / 1000;
  return summary;
}

/** Relationship types of curated graphs recorded by ingestCurated. */
export async function curatedTypes(driver: Driver, database?: string): Promise<string[]> {
  const s = driver.session({ database, defaultAccessMode: 'READ' });
  try {
    const res = await s.run("OPTIONAL MATCH (m:GraphRecallMeta {key: 'graph'}) RETURN coalesce(m.curatedTypes, []) AS types");
    return (res.records[0].get('types') as string[]).filter((t) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(t));
  } finally {
    await s.close();
  }
}
