#!/usr/bin/env node
/**
 * The layer rule of server/, checked by `npm run lint` (after madge, which finds cycles only):
 *
 *   cli -> startup -> app/routes -> http -> services -> retrieval / ingest / answer -> db -> shared
 *
 * A module may import from its own layer or from a lower one, never from a higher one. Every
 * import counts, type-only ones included; every file under server/ must belong to a layer, so a
 * new folder is placed here on purpose. docs/development.md explains each layer.
 *
 *   node scripts/layers.mjs          prints each import that runs up the layers, exits 1 if any
 *   node scripts/layers.mjs --list   prints each file's layer
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'server');

/** Top to bottom. A file is placed by its exact path first, then by its longest folder. */
export const LAYERS = [
  { name: 'cli', members: ['cli/'] },
  { name: 'startup', members: ['startup.ts', 'prepare.ts', 'planning.ts', 'watchdog.ts', 'lifecycle.ts'] },
  { name: 'app/routes', members: ['app.ts', 'routes/'] },
  { name: 'http', members: ['http/'] },
  { name: 'services', members: ['services.ts', 'compose.ts', 'health.ts', 'jobs/'] },
  { name: 'retrieval / ingest / answer', members: ['retrieval/', 'ingest/', 'answer/', 'extractors/', 'embedders/', 'graph/'] },
  { name: 'db', members: ['db/'] },
  { name: 'shared vocabulary, config, logger, errors', members: ['graph/facts.ts', 'config.ts', 'logger.ts', 'errors.ts', 'metrics.ts'] },
];

/** The layer index of a path relative to server/ (0 = top), or -1. */
export function layerOf(rel) {
  const exact = LAYERS.findIndex((l) => l.members.includes(rel));
  if (exact >= 0) return exact;
  let best = -1;
  let bestLength = 0;
  LAYERS.forEach((l, i) => {
    for (const m of l.members) if (m.endsWith('/') && rel.startsWith(m) && m.length > bestLength) [best, bestLength] = [i, m.length];
  });
  return best;
}

/** Source files of server/ (the page's browser scripts in public/ aside). */
function sources(dir = SERVER) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p === path.join(SERVER, 'public') ? [] : sources(p);
    return /\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Relative specifiers a module imports: static, dynamic, side-effect and re-exports. */
export function importsOf(text) {
  const out = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) out.push(m[1]);
  return out;
}

/** The file a specifier names: `.js` is the TypeScript source's compiled name. */
function resolve(from, spec) {
  const target = path.resolve(path.dirname(from), spec);
  for (const c of [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts')]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return target;
}

export function check() {
  const problems = [];
  const placed = [];
  for (const file of sources()) {
    const rel = path.relative(SERVER, file).split(path.sep).join('/');
    const layer = layerOf(rel);
    placed.push([rel, layer]);
    if (layer < 0) {
      problems.push(`server/${rel} belongs to no layer: add it to LAYERS in scripts/layers.mjs`);
      continue;
    }
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      const target = resolve(file, spec);
      if (!target.startsWith(SERVER + path.sep)) continue;
      const trel = path.relative(SERVER, target).split(path.sep).join('/');
      const tlayer = layerOf(trel);
      if (tlayer >= 0 && tlayer < layer)
        problems.push(`server/${rel} (${LAYERS[layer].name}) imports server/${trel} (${LAYERS[tlayer].name}): an import from a lower layer to a higher one`);
    }
  }
  return { problems, placed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, placed } = check();
  if (process.argv.includes('--list')) for (const [rel, l] of placed) console.log(`${l < 0 ? '?' : LAYERS[l].name}\tserver/${rel}`);
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`${problems.length} layer violation(s); the order: ${LAYERS.map((l) => l.name).join(' -> ')} (docs/development.md)`);
    process.exit(1);
  }
  console.log(`layers: ${placed.length} files of server/, no import runs up the layers`);
}
