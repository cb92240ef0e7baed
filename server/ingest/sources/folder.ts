/** Folders of .txt / .md files. */
import fs from 'node:fs';
import path from 'node:path';
import type { ReadItem } from '../types.js';
import { errMessage, looksBinary, sourceName } from './common.js';

const TEXT_EXTENSIONS = new Set(['.txt', '.md']);

/** Relative posix paths of the .txt/.md files under dir, sorted; hidden entries (".git") are skipped. */
async function listTextFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Follow links to files; not to directories (avoids cycles).
        const st = await fs.promises.stat(path.join(dir, childRel)).catch(() => undefined);
        isFile = !!st?.isFile();
        isDir = false;
      }
      if (isDir) await walk(childRel);
      else if (isFile && TEXT_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) out.push(childRel);
    }
  }
  await walk('');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Strip a leading `---` ... `---` YAML front-matter block. */
export function stripFrontMatter(text: string): string {
  const m = /^\uFEFF?---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/** Text of the first level-1 ATX heading (`# Title`), ignoring fenced code blocks. */
export function firstHeading(markdown: string): string | undefined {
  let fence: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence) continue;
    const h = /^\s{0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (h && h[1].trim() !== '') return h[1].trim();
  }
  return undefined;
}

/**
 * Documents from every .txt and .md file under dir (recursive, sorted by path).
 * id = `file:<relative posix path>`; title = first `# heading` of a .md file, else the file name;
 * source = `source` (default: the folder's name); metadata = {path: <relative posix path>}.
 */
export async function* readFolder(dir: string, source = sourceName(dir)): AsyncGenerator<ReadItem> {
  let files: string[];
  try {
    files = await listTextFiles(dir);
  } catch (e) {
    yield { problem: { file: dir, reason: `cannot read folder (${errMessage(e)})` } };
    return;
  }
  for (const rel of files) {
    const file = path.join(dir, ...rel.split('/'));
    let buf: Buffer;
    try {
      buf = await fs.promises.readFile(file);
    } catch (e) {
      yield { problem: { file, reason: `cannot read file (${errMessage(e)})` } };
      continue;
    }
    if (buf.length === 0) {
      yield { problem: { file, reason: 'empty file' } };
      continue;
    }
    if (looksBinary(buf)) {
      yield { problem: { file, reason: 'binary file, not text' } };
      continue;
    }
    let text = buf.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const ext = path.extname(rel).toLowerCase();
    const isMd = ext === '.md';
    if (isMd) text = stripFrontMatter(text);
    if (text.trim() === '') {
      yield { problem: { file, reason: isMd ? 'empty file (nothing after front matter)' : 'empty file' } };
      continue;
    }
    const title = (isMd ? firstHeading(text) : undefined) ?? path.basename(rel, path.extname(rel));
    yield { document: { id: `file:${rel}`, title, text, source, metadata: { path: rel } } };
  }
}
