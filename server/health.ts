import { readMigrations } from './db/migrate.js';
import type { Embedder } from './embedders/types.js';
import type { GraphStore } from './graph/store.js';
import { manageProjection, type ProjectionState } from './retrieval/projection.js';

export interface Health {
  /** building: all is well but the ppr projection is being (re)built in the background. */
  status: 'ok' | 'building' | 'degraded' | 'unavailable';
  database: { reachable: boolean; latencyMs?: number; version?: string; error?: string };
  migrations?: { applied: number; pending: string[] };
  indexes?: { name: string; type: string; state: string; populationPercent: number }[];
  projection?: ProjectionState | { error: string };
  embedder: { id: string; dimension: number };
}

/** Database reachability, migrations, index states and the PPR projection's state. */
export async function health(store: GraphStore, emb: Embedder, graphName: string): Promise<Health> {
  const embedder = { id: emb.id, dimension: emb.dimension };
  const t0 = performance.now();
  const session = store.driver.session({ database: store.database, defaultAccessMode: 'READ' });
  try {
    const v = await session.run('CALL dbms.components() YIELD versions RETURN versions[0] AS v');
    const latencyMs = Math.round(performance.now() - t0);
    const applied = await session.run('MATCH (m:GraphRecallMigration) RETURN collect(m.name) AS names');
    const names: string[] = applied.records[0].get('names');
    const pending = readMigrations()
      .map((m) => m.name)
      .filter((n) => !names.includes(n));
    const idx = await session.run(
      "SHOW INDEXES YIELD name, type, state, populationPercent WHERE type IN ['VECTOR', 'FULLTEXT'] RETURN name, type, state, populationPercent ORDER BY name",
    );
    const indexes = idx.records.map((r) => r.toObject() as { name: string; type: string; state: string; populationPercent: number });
    let projection: Health['projection'];
    try {
      projection = await manageProjection(store.driver, 'status', { graphName, database: store.database });
    } catch (e) {
      projection = { error: String((e as Error).message) };
    }
    const schemaProblem = pending.length > 0 || indexes.some((i) => i.state !== 'ONLINE');
    const projectionOk = 'exists' in projection && projection.exists && projection.fresh;
    const building = 'building' in projection && projection.building;
    return {
      status: schemaProblem || (!projectionOk && !building) ? 'degraded' : projectionOk ? 'ok' : 'building',
      database: { reachable: true, latencyMs, version: v.records[0].get('v') },
      migrations: { applied: names.length, pending },
      indexes,
      projection,
      embedder,
    };
  } catch (e) {
    return { status: 'unavailable', database: { reachable: false, error: String((e as Error).message).split('\n')[0] }, embedder };
  } finally {
    await session.close();
  }
}
