/**
 * Planning time of the retrieval statements: EXPLAIN plans a statement without running it, so its
 * round trip is (nearly) all planning. Each statement gets the parameters the server sends
 * (same names and types: the same query-cache key), the question embedding borrowed from a passage.
 *
 *   npx tsx bench/planning.ts --dir cypher [--files retrieve_gated.cypher,...] [--repeat 3] [--label new]
 *
 * Warm: `CALL db.clearQueryCaches()` before each EXPLAIN, so every run plans again on a JVM that
 * has planned before; the median of --repeat runs. Cold is the same with --repeat 1 right after a
 * fresh Neo4j start, one file per start (bench/reports/statements/planning-2026-12-01 says how).
 * --prefix puts Cypher options before EXPLAIN (e.g. "CYPHER planner=dp"). --sections also plans the file cut
 * before each top-level clause (every other one), with RETURN 1 in place of the rest: the cumulative
 * planning cost line by line, to see which part of a statement costs what. NEO4J_URI, NEO4J_USER,
 * NEO4J_PASSWORD name the database. Prints one JSON line per file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { defaultParams, STATEMENTS } from '../server/retrieval/params.js';
import { toDriverParams } from '../server/retrieval/retriever.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'cypher' },
    files: { type: 'string' },
    repeat: { type: 'string', default: '3' },
    label: { type: 'string', default: '' },
    prefix: { type: 'string', default: '' },
    sections: { type: 'boolean', default: false },
  },
});

/** The mode and engine of a file: the old single ppr file takes ppr's parameters too. */
function paramsFor(file: string): Record<string, unknown> {
  const st = STATEMENTS.find((s) => s.file === file) ?? STATEMENTS.find((s) => file.startsWith(s.file.replace('.cypher', '')));
  if (!st) throw new Error(`--files: ${file} is no statement file`);
  return { ...defaultParams(st.mode), ...st.params };
}

async function main() {
  const driver = neo4j.driver(
    process.env.NEO4J_URI ?? 'bolt://127.0.0.1:7687',
    neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? ''),
  );
  const session = driver.session({ defaultAccessMode: 'READ' });
  try {
    const res = await session.run('MATCH (p:Passage) WHERE p.embedding IS NOT NULL RETURN p.embedding AS e LIMIT 1');
    const embedding = res.records[0]?.get('e') as number[];
    const files = values.files ? values.files.split(',') : fs.readdirSync(values.dir!).filter((f) => f.startsWith('retrieve_'));
    for (const file of files.sort()) {
      const text = fs.readFileSync(path.join(values.dir!, file), 'utf8');
      const lines = text.split('\n');
      const params = toDriverParams({ ...paramsFor(file), question: 'planning', questionEmbedding: embedding });
      const plan = async (statement: string) => {
        const ms: number[] = [];
        for (let i = 0; i < Number(values.repeat); i++) {
          await session.run('CALL db.clearQueryCaches()');
          const t0 = performance.now();
          await session.run(`${values.prefix} EXPLAIN ${statement}`, params);
          ms.push(Math.round(performance.now() - t0));
        }
        return { ms, median: [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] };
      };
      console.log(JSON.stringify({ label: values.label, file, lines: lines.length - 1, ...(await plan(text)) }));
      if (!values.sections) continue;
      const cuts = lines.flatMap((l, i) => (/^(CALL|WITH|MATCH|UNWIND)\b/.test(l) ? [i] : [])).filter((_, k) => k % 2 === 1);
      for (const cut of cuts) {
        const { median } = await plan(`${lines.slice(0, cut).join('\n')}\nRETURN 1 AS planned`);
        console.log(JSON.stringify({ label: values.label, file, before_line: cut + 1, median }));
      }
    }
  } finally {
    await session.close();
    await driver.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
