/**
 * TCP_NODELAY on the Bolt sockets, before and after, side by side in one run: two drivers
 * (one connection each) against the same database, one opened without TCP_NODELAY (the
 * neo4j-driver 5.x default) and one with it (server/db/nodelay.ts), alternating query by
 * query. Each query is `db.index.vector.queryNodes` with a random 384-d parameter.
 *
 *   NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_PASSWORD=... npx tsx bench/nodelay.ts [--runs 100] [--index passage_embedding]
 */
import { parseArgs } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import { installNoDelay, setNoDelayForNewConnections } from '../server/db/nodelay.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100' }, warmup: { type: 'string', default: '10' }, index: { type: 'string' } },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const uri = process.env.NEO4J_URI ?? 'bolt://127.0.0.1:7687';
const auth = neo4j.auth.basic(process.env.NEO4J_USER || 'neo4j', process.env.NEO4J_PASSWORD || 'graph-recall-dev');
const database = process.env.NEO4J_DATABASE || 'neo4j';

function open(noDelay: boolean): Promise<Driver> {
  setNoDelayForNewConnections(noDelay);
  const d = neo4j.driver(uri, auth, { maxConnectionPoolSize: 1, disableLosslessIntegers: true, logging: { level: 'error', logger: () => {} } });
  // Open the one connection now, while the switch is as asked.
  return d.executeQuery('RETURN 1', {}, { database }).then(() => d);
}

const randomUnit = (): number[] => {
  const v = Array.from({ length: 384 }, () => Math.random() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main(): Promise<void> {
  if (!installNoDelay()) throw new Error('could not patch the neo4j-driver channel (layout changed?)');
  const before = await open(false);
  const after = await open(true);
  setNoDelayForNewConnections(true);
  let index = values.index;
  if (!index) {
    const r = await after.executeQuery("SHOW VECTOR INDEXES YIELD name, state WHERE state = 'ONLINE' RETURN name ORDER BY name", {}, { database });
    index = r.records.map((x) => String(x.get('name'))).find((n) => /passage/i.test(n)) ?? String(r.records[0]?.get('name') ?? '');
    if (!index) throw new Error('no ONLINE vector index: run `npm run migrate` first, or pass --index');
  }
  const query = `CALL db.index.vector.queryNodes($index, 10, $q) YIELD node, score RETURN count(*) AS n`;
  const time = async (d: Driver): Promise<number> => {
    const s = d.session({ database, defaultAccessMode: neo4j.session.READ });
    const t0 = performance.now();
    try {
      await s.executeRead((tx) => tx.run(query, { index, q: randomUnit() }));
    } finally {
      await s.close();
    }
    return performance.now() - t0;
  };
  const t: Record<'before' | 'after', number[]> = { before: [], after: [] };
  for (let i = 0; i < warmup + runs; i++) {
    // Alternate which goes first, so neither always follows the other.
    const order: Array<'before' | 'after'> = i % 2 ? ['before', 'after'] : ['after', 'before'];
    for (const k of order) {
      const ms = await time(k === 'before' ? before : after);
      if (i >= warmup) t[k].push(ms);
    }
  }
  await before.close();
  await after.close();
  const row = (k: 'before' | 'after') =>
    `${k === 'before' ? 'Nagle (driver 5.28 default)' : 'TCP_NODELAY'} | ${pct(t[k], 50).toFixed(1)} | ${pct(t[k], 95).toFixed(1)}`;
  console.log(`db.index.vector.queryNodes(${index}, k=10, 384-d parameter), ${runs} runs each after ${warmup} warm-ups, executeRead`);
  console.log('sockets | p50 ms | p95 ms');
  console.log(row('before'));
  console.log(row('after'));
  console.log(`p50 ratio before/after: ${(pct(t.before, 50) / pct(t.after, 50)).toFixed(2)}x`);
}

await main();
