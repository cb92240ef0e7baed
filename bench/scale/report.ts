/** The scale benchmark's report: README.md (commands, tables, targets, model) and p50.svg. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/config.js';
import { VECTOR_INDEXES } from '../../server/db/embedder-guard.js';
import { factIndexName } from '../../server/db/fact-indexes.js';
import { logLogChartSvg } from '../lib/svg.js';
import { SCALE_MERGED_NODE_INDEXES, SCALE_NEO4J } from './connection.js';
import type { MemoryModel } from './model.js';
import type { SizeResult } from './types.js';

const MODES = ['vector', 'hybrid', 'gated', 'ppr'];
const f1 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(1));
const int = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : Math.round(x).toLocaleString('en-US'));
const git = (...a: string[]) => spawnSync('git', a, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();

export function writeScaleReport(out: string, rows: SizeResult[], model: MemoryModel, run: Record<string, unknown> & { argv: string[] }): void {
  fs.writeFileSync(
    path.join(out, 'p50.svg'),
    logLogChartSvg('p50 per mode against graph size (log-log)', 'passages', 'p50 ms (client side)', [
      { label: 'bare', points: rows.map((r) => ({ x: r.passages, y: r.bare_p50_ms })) },
      ...MODES.map((m) => ({ label: m, points: rows.map((r) => ({ x: r.passages, y: r.modes[m].p50_ms })) })),
    ]),
  );
  const ratio = (r: SizeResult, m: string) => r.modes[m].p50_ms / r.bare_p50_ms;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const lines = [
    `# Scale benchmark: ${rows.map((r) => int(r.passages)).join(', ')} passages`,
    '',
    `Date: ${new Date().toISOString().slice(0, 10)}. Commit: ${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' (with uncommitted changes)' : ''}.`,
    `Command: \`npm run bench:scale -- ${run.argv.join(' ')}\` (bulk path: ${run.bulk}; ${run.questions} questions after ${run.warmup} warm-up, ${run.rounds ?? 1} round(s), interleaved with the bare query, rotating order${rows.some((r) => r.gds) ? `; ppr's GDS engine afterwards, on the first ${run.gdsQuestions}` : ''}).`,
    `Machine: ${(spawnSync('nproc', { encoding: 'utf8' }).stdout || '?').trim()} cores shared with other work; Neo4j heap ${SCALE_NEO4J.NEO4J_HEAP}, page cache ${SCALE_NEO4J.NEO4J_PAGECACHE}, index max_merge ${SCALE_NEO4J.NEO4J_INDEX_MAX_MERGE_MB} MB; node vector indexes rebuilt after the build with a ${SCALE_MERGED_NODE_INDEXES.NEO4J_VECTOR_BUFFER_MB} MB buffer at merge factor ${SCALE_MERGED_NODE_INDEXES.NEO4J_VECTOR_MERGE_FACTOR} unless run with --no-merge.`,
    '',
    '## Latency (client side, Bolt round trip included; p50 / p95 ms; ratio = p50 / bare p50)',
    '',
    '| passages | entities | relationships | bare | vector | hybrid | gated | ppr (push) | gated / bare | ppr / bare |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${int(r.passages)} | ${int(r.entities)} | ${int(r.relationships)} | ${f1(r.bare_p50_ms)} / ${f1(r.bare_p95_ms)} | ` +
        MODES.map((m) => `${f1(r.modes[m].p50_ms)} / ${f1(r.modes[m].p95_ms)}`).join(' | ') +
        ` | ${ratio(r, 'gated').toFixed(2)}x | ${ratio(r, 'ppr').toFixed(2)}x |`,
    ),
    '',
    ...(rows.every((r) => r.bare_first_p50_ms)
      ? [
          'The first round alone (the caches cold after the build; p50 ms and ratio to the bare p50 of the same round):',
          '',
          '| passages | bare | ' + MODES.join(' | ') + ' |',
          '|---|---|' + MODES.map(() => '---|').join(''),
          ...rows.map(
            (r) =>
              `| ${int(r.passages)} | ${f1(r.bare_first_p50_ms)} | ` +
              MODES.map((m) => `${f1(r.modes[m].first_p50_ms)} (${(r.modes[m].first_p50_ms / r.bare_first_p50_ms).toFixed(2)}x)`).join(' | ') +
              ' |',
          ),
          '',
        ]
      : []),
    '![p50 per mode against size](p50.svg)',
    '',
    '## Targets',
    '',
    `- gated <= 10x bare at the largest size: ${ratio(last, 'gated').toFixed(2)}x (${ratio(last, 'gated') <= 10 ? 'met' : 'MISSED'}).`,
    `- ppr <= 20x bare at the largest size: ${ratio(last, 'ppr').toFixed(2)}x (${ratio(last, 'ppr') <= 20 ? 'met' : 'MISSED'}).`,
    `- gated's ratio at the largest size / at the smallest: ${(ratio(last, 'gated') / ratio(first, 'gated')).toFixed(2)} (target <= 1.5: ${ratio(last, 'gated') / ratio(first, 'gated') <= 1.5 ? 'met' : 'MISSED'}).`,
    '',
    '## Build (bulk import, then the indexes)',
    '',
    '| passages | path | generate s | load s (CSV + neo4j-admin, or online) | passages/s | rows/s | index build s (of which the merged rebuild of the node indexes) | build s | store MB | heap used MB | RSS MB |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${int(r.passages)} | ${r.build?.bulk ?? 'reused'} | ${f1(r.build?.generate_s)} | ${f1(r.build?.load_s)}${r.build?.csv_s ? ` (${f1(r.build.csv_s)} + ${f1(r.build.load_s - r.build.csv_s)})` : ''} | ` +
        `${int(r.build?.passages_per_s)} | ${int(r.build?.rows_per_s)} | ${f1(r.build?.index_s)}${r.build?.merge_s ? ` (${f1(r.build.merge_s)})` : ''} | ${int(r.build_s)} | ${int(r.store_mb)} | ${int(r.heap_mb)} | ${int(r.rss_mb)} |`,
    ),
    '',
    ...(rows.some((r) => r.gds)
      ? [
          "## ppr's GDS engine (its in-memory projection, built once per size; latency measured after the other modes)",
          '',
          '| passages | projected nodes | projected relationships | projection build s | projection MB | ppr (gds) p50 / p95 ms | ppr (gds) / bare |',
          '|---|---|---|---|---|---|---|',
          ...rows
            .filter((r) => r.gds && r.modes.ppr_gds)
            .map(
              (r) =>
                `| ${int(r.passages)} | ${int(r.gds!.nodes)} | ${int(r.gds!.relationships)} | ${f1(r.gds!.projection_s)} | ${int(r.gds!.projection_mb)} | ` +
                `${f1(r.modes.ppr_gds.p50_ms)} / ${f1(r.modes.ppr_gds.p95_ms)} | ${ratio(r, 'ppr_gds').toFixed(2)}x |`,
            ),
          '',
        ]
      : []),
    ...(rows.some((r) => r.ingest)
      ? [
          '## Text ingest into each graph (`--ingest`: the same real documents, the ordinary ingest)',
          '',
          '| passages in the graph | corpus | passages ingested | s | passages/s | vs the smallest | stages (s) | RSS growth MB |',
          '|---|---|---|---|---|---|---|---|',
          ...rows
            .filter((r) => r.ingest)
            .map(
              (r) =>
                `| ${int(r.passages)} | ${r.ingest!.corpus} | ${int(r.ingest!.passages)} | ${f1(r.ingest!.seconds)} | ${f1(r.ingest!.passages_per_s)} | ` +
                `${(r.ingest!.passages_per_s / rows.find((x) => x.ingest)!.ingest!.passages_per_s).toFixed(2)} | ` +
                `${Object.entries(r.ingest!.stages)
                  .filter(([, v]) => v > 0)
                  .map(([k, v]) => `${k} ${f1(v)}`)
                  .join(', ')} | ${int(r.ingest!.rss_growth_mb)} |`,
            ),
          '',
          'Lucene segments of the vector indexes the ingest writes, as built and after it (a search visits each; a write may merge them):',
          '',
          ...rows
            .filter((r) => r.ingest && r.vector_segments)
            .map(
              (r) =>
                `- ${int(r.passages)}: ${Object.entries(r.vector_segments!.built)
                  .filter(([name]) => [...VECTOR_INDEXES, factIndexName('RELATED')].includes(name))
                  .map(([name, n]) => `\`${name}\` ${n} -> ${r.vector_segments!.after_ingest?.[name] ?? '-'}`)
                  .join(', ')}`,
            ),
          '',
        ]
      : []),
    '## Memory and disk model (model.json)',
    '',
    `Per vector in the store ${model.bytes.per_vector_in_store} B (float32 in dynamic array records), per record ${model.bytes.per_record_in_store} B, ` +
      `per indexed vector in the vector indexes ${model.bytes.per_indexed_vector_in_vector_indexes} B, full-text ${model.bytes.fulltext_per_node} B per node; ` +
      `${model.shape.vectorsPerPassage.toFixed(1)} vectors stored and ${model.shape.indexedVectorsPerPassage.toFixed(1)} indexed per passage at ${model.from}.`,
    '',
    '| passages | entities | facts | indexed vectors | store GiB | vector indexes GiB | disk GiB | heap GiB | page cache GiB | RAM GiB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...model.projections.map(
      (p) =>
        `| ${int(p.passages)} | ${int(p.entities)} | ${int(p.facts)} | ${int(p.vectors_indexed)} | ${p.store_gib} | ${p.vector_indexes_gib} | ${p.disk_gib} | ${p.heap_gib} | ${p.pagecache_gib} | ${p.ram_gib} |`,
    ),
    '',
  ];
  const notes = path.join(out, 'notes.md');
  if (fs.existsSync(notes)) lines.push(fs.readFileSync(notes, 'utf8'));
  fs.writeFileSync(path.join(out, 'README.md'), `${lines.join('\n')}\n`);
}
