/**
 * The bulk rate and its ceiling: the scale benchmark's generated graph (bench/scale/generate.ts) written as
 * neo4j-admin CSV and imported into a store of its own, with its vectors and without any, side by side. The graph
 * without vectors is the ceiling: what neo4j-admin costs for the same nodes and relationships alone.
 *
 *   npm run bench:bulk -- --sizes 10000 --out DIR [--variants vectors,none] [--multiline auto|both] [--seed 1]
 *
 * --multiline both also imports each variant with --multiline-fields=true (one parsing thread per file, what a
 * field with a line break costs). Each variant's CSV and store are written under .data/bulk-bench and removed
 * after it: with vectors that is about 0.2 GB of CSV and 0.2 GB of store per thousand passages, at once.
 * Writes DIR/summary.json and DIR/README.md. Index building is not part of it (bench:scale times it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execSync } from 'node:child_process';
import { ROOT } from '../server/config.js';
import { runAdminImport, scratchAdmin, writeImportCsv } from '../server/ingest/import/offline.js';
import type { ImportSource } from '../server/ingest/import/types.js';
import { importRows } from '../server/ingest/import/types.js';
import { loadBaseVectors } from './scale/base-vectors.js';
import { generateScaleGraph } from './scale/generate.js';

const USAGE = 'usage: npm run bench:bulk -- --sizes 10000 --out DIR [--variants vectors,none] [--multiline auto|both] [--seed 1]';
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000' },
    out: { type: 'string' },
    variants: { type: 'string', default: 'vectors,none' },
    multiline: { type: 'string', default: 'auto' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.out) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const sizes = values.sizes!.split(',').map(Number);
const variants = values.variants!.split(',') as ('vectors' | 'none')[];
if (
  sizes.some((n) => !Number.isInteger(n) || n < 1) ||
  variants.some((v) => v !== 'vectors' && v !== 'none') ||
  !['auto', 'both'].includes(values.multiline!)
) {
  console.error(USAGE);
  process.exit(2);
}

/** The same rows with every vector left out. */
const withoutVectors = (s: ImportSource): ImportSource => ({
  async *entities() {
    for await (const e of s.entities()) yield { ...e, embedding: null, descriptionEmbedding: null } as never;
  },
  async *passages() {
    for await (const p of s.passages()) yield { ...p, embedding: null } as never;
  },
  mentions: () => s.mentions(),
  async *relationships() {
    for await (const r of s.relationships()) yield { ...r, embedding: null } as never;
  },
});

interface Row {
  passages: number;
  variant: string;
  multiline: boolean;
  csv_mb: number;
  csv_s: number;
  admin_s: number;
  rows: number;
  admin_passages_per_s: number;
  load_passages_per_s: number;
  admin_rows_per_s: number;
}

const base = await loadBaseVectors();
const work = path.join(ROOT, '.data', 'bulk-bench');
const rows: Row[] = [];
for (const n of sizes) {
  // Its rows are generated as they are read, so one graph serves every variant.
  const graph = generateScaleGraph(base, { passages: n, questions: 0, seed: Number(values.seed) });
  for (const variant of variants) {
    fs.rmSync(work, { recursive: true, force: true });
    const csv = await writeImportCsv(variant === 'none' ? withoutVectors(graph.source) : graph.source, path.join(work, 'csv'));
    for (const multiline of values.multiline === 'both' && !csv.multiline ? [false, true] : [csv.multiline]) {
      fs.rmSync(path.join(work, 'store'), { recursive: true, force: true });
      const imp = runAdminImport(scratchAdmin(ROOT, path.join(work, 'store'), '3g'), { ...csv, multiline });
      const count = importRows(csv.stats);
      const row: Row = {
        passages: n,
        variant,
        multiline,
        csv_mb: Math.round(csv.bytes / 2 ** 20),
        csv_s: Math.round(csv.seconds * 10) / 10,
        admin_s: Math.round(imp.seconds * 10) / 10,
        rows: count,
        admin_passages_per_s: Math.round(n / imp.seconds),
        load_passages_per_s: Math.round(n / (csv.seconds + imp.seconds)),
        admin_rows_per_s: Math.round(count / imp.seconds),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const out = path.resolve(values.out!);
fs.mkdirSync(out, { recursive: true });
const commit = execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8' }).trim();
fs.writeFileSync(path.join(out, 'summary.json'), `${JSON.stringify({ commit, argv: process.argv.slice(2), rows }, null, 2)}\n`);
const fmt = (x: number) => x.toLocaleString('en-US');
fs.writeFileSync(
  path.join(out, 'README.md'),
  [
    `# Bulk import rate, with and without vectors`,
    '',
    `Date: ${new Date().toISOString().slice(0, 10)}. Commit: ${commit}. Command: \`npm run bench:bulk -- ${process.argv.slice(2).join(' ')}\`.`,
    "neo4j-admin database import full on the embedded launcher's JVM (heap 3g), into a store no server runs on; index building not included.",
    '',
    '| passages | vectors | multiline parsing | CSV MB | CSV s | neo4j-admin s | rows | passages/s (neo4j-admin) | passages/s (CSV + neo4j-admin) | rows/s (neo4j-admin) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${fmt(r.passages)} | ${r.variant === 'none' ? 'none' : 'all'} | ${r.multiline ? 'yes' : 'no'} | ${fmt(r.csv_mb)} | ${r.csv_s} | ${r.admin_s} | ${fmt(r.rows)} | ${fmt(r.admin_passages_per_s)} | ${fmt(r.load_passages_per_s)} | ${fmt(r.admin_rows_per_s)} |`,
    ),
    '',
  ].join('\n'),
);
console.log(`wrote ${out}/summary.json and README.md`);
