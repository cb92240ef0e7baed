import fs from 'node:fs';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { PROJECTION_TYPES } from '../graph/facts.js';
import { CYPHER_DIR } from './render.js';

export type ProjectionAction = 'create' | 'refresh' | 'drop' | 'status';

export interface ProjectionState {
  graphName: string;
  exists: boolean;
  fresh: boolean;
  nodeCount: number | null;
  relationshipCount: number | null;
  creationTime: string | null;
  graphUpdatedAt: string | null;
}

/** The file's text, read once (health checks run it on every call). */
let statement: string | undefined;

/** Runs cypher/ppr_projection.cypher, the file a DBA runs for the same purpose. */
export async function manageProjection(
  driver: Driver,
  action: ProjectionAction,
  opts: { graphName: string; database?: string; extraTypes?: string[] },
): Promise<ProjectionState> {
  statement ??= fs.readFileSync(path.join(CYPHER_DIR, 'ppr_projection.cypher'), 'utf8');
  const projectionTypes = [...new Set([...PROJECTION_TYPES, ...(opts.extraTypes ?? [])])];
  const session = driver.session({ database: opts.database });
  try {
    const res = await session.run(statement, { action, graphName: opts.graphName, projectionTypes });
    const r = res.records[0].toObject();
    return {
      graphName: r.graphName,
      exists: r.exists,
      fresh: r.fresh,
      nodeCount: r.nodeCount,
      relationshipCount: r.relationshipCount,
      creationTime: r.creationTime,
      graphUpdatedAt: r.graphUpdatedAt,
    };
  } finally {
    await session.close();
  }
}

/**
 * Projections live in memory: a database restart loses them. Creates (or
 * refreshes a stale) projection; returns the action taken.
 */
export async function ensureProjection(driver: Driver, opts: { graphName: string; database?: string; extraTypes?: string[] }): Promise<'none' | 'refreshed'> {
  const state = await manageProjection(driver, 'status', opts);
  if (state.exists && state.fresh) return 'none';
  await manageProjection(driver, 'refresh', opts);
  return 'refreshed';
}
