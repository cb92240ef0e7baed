import neo4j from 'neo4j-driver';
import { isIdentifier } from '../graph/facts.js';
import type { GraphStore } from './store.js';

/**
 * Fact vectors: every walked relationship ("Rivastigmine treats Alzheimer's disease") carries
 * the embedding of its sentence in `r.embedding`. Neo4j's vector indexes hold one relationship
 * type each, so every type that is walked gets its own index, `fact_<TYPE>`; the statements
 * search `'fact_' + t` for each t in $relTypes but SAME_AS (a synonym edge is not a fact).
 */
export const factIndexName = (type: string): string => `fact_${type}`;

/** The types that carry facts among the walked ones. */
export const factTypes = (types: readonly string[]): string[] => [...new Set(types.filter((t) => t !== 'SAME_AS' && isIdentifier(t)))];

/** Fact index names that exist (any dimension). */
export async function existingFactIndexes(store: GraphStore): Promise<Map<string, number>> {
  const r = await store.read(
    "SHOW VECTOR INDEXES YIELD name, entityType, options WHERE entityType = 'RELATIONSHIP' AND name STARTS WITH 'fact_' " +
      "RETURN name, options.indexConfig['vector.dimensions'] AS dim",
  );
  return new Map(r.records.map((x) => [x.get('name') as string, Number(x.get('dim'))]));
}

/**
 * Creates the missing fact indexes for these types at this dimension (an index of another
 * dimension is recreated) and waits until they are online. Idempotent; a type is an
 * identifier (checked), so splicing it is safe.
 */
export async function ensureFactIndexes(store: GraphStore, types: readonly string[], dimension: number, awaitSeconds = 300): Promise<void> {
  if (!Number.isInteger(dimension) || dimension <= 0) throw new Error(`bad embedding dimension ${dimension}`);
  const existing = await existingFactIndexes(store);
  let created = false;
  for (const type of factTypes(types)) {
    const name = factIndexName(type);
    const dim = existing.get(name);
    if (dim === dimension) continue;
    await store.schemaChange(async () => {
      if (dim !== undefined) await store.write(`DROP INDEX ${name} IF EXISTS`);
      await store.write(
        `CREATE VECTOR INDEX ${name} IF NOT EXISTS FOR ()-[r:${type}]-() ON r.embedding
         OPTIONS {indexConfig: {\`vector.dimensions\`: ${dimension}, \`vector.similarity_function\`: 'cosine', \`vector.quantization.enabled\`: false}}`,
      );
    });
    created = true;
  }
  if (created && awaitSeconds > 0) await store.read('CALL db.awaitIndexes($s)', { s: neo4j.int(awaitSeconds) });
}

/** Drops every fact index (before vectors of another dimension are written). */
export async function dropFactIndexes(store: GraphStore): Promise<void> {
  const names = [...(await existingFactIndexes(store)).keys()];
  await store.schemaChange(async () => {
    for (const name of names) await store.write(`DROP INDEX ${name} IF EXISTS`);
  });
}
