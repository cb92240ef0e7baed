/**
 * Source readers: JSONL corpora, folders of .txt/.md files, and the Hetionet curated graph.
 * Readers never throw on bad input lines or files: they yield a SourceProblem saying where and why,
 * and carry on with the rest. They stream, so large files are fine.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type {
  CuratedEdge,
  CuratedEntity,
  CuratedGraph,
  ReadItem,
  SourceDocument,
  SourcePassage,
  SourceProblem,
} from './types.js';

const SNIFF_BYTES = 64 * 1024;
const CYPHER_TYPE = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ---------------------------------------------------------------------------------------------
// Shared helpers

/** True for data that is not UTF-8 text: NUL bytes, or more than 1% replacement chars when decoded. */
export function looksBinary(buf: Buffer): boolean {
  const head = buf.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return true;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head);
  let bad = 0;
  for (let i = 0; i < decoded.length; i++) if (decoded.charCodeAt(i) === 0xfffd) bad++;
  // A multi-byte character cut at the 64KB boundary costs one replacement char; tolerate it.
  if (head.length === SNIFF_BYTES && decoded.endsWith('\uFFFD')) bad--;
  return bad > decoded.length * 0.01;
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function errMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err?.code ? `${err.code}: ${err.message}` : String((e as Error)?.message ?? e);
}

function brief(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Stable content id for documents that come without one. */
export function deriveDocumentId(title: string, text: string): string {
  return 'doc-' + createHash('sha256').update(`${title}\n${text}`).digest('hex').slice(0, 16);
}

/**
 * Lines of a text file (gunzipped when the name ends in .gz), streamed with readline.
 * Stream errors (unreadable file, corrupt gzip) are thrown from the iteration.
 */
async function* fileLines(file: string): AsyncGenerator<string> {
  const raw = fs.createReadStream(file);
  let input: NodeJS.ReadableStream = raw;
  let failure: Error | undefined;
  if (file.endsWith('.gz')) {
    const gunzip = zlib.createGunzip();
    // pipeline forwards errors of either stream and destroys both on failure or early exit.
    pipeline(raw, gunzip, (err) => {
      if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') failure = err;
    });
    input = gunzip;
  }
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of rl) yield line;
  } finally {
    rl.close();
    raw.destroy();
  }
  if (failure) throw failure;
}

// ---------------------------------------------------------------------------------------------
// JSONL

/**
 * Documents of a JSONL corpus, one `{id?, title, text, metadata?}` object a line.
 * Yields a problem (with its 1-based line) for every unusable line; blank lines are skipped.
 */
export async function* readJsonl(file: string): AsyncGenerator<ReadItem> {
  let head: Buffer;
  try {
    head = await readHead(file);
  } catch (e) {
    yield { problem: { file, reason: `cannot read file (${errMessage(e)})` } };
    return;
  }
  if (head.length === 0) {
    yield { problem: { file, reason: 'empty file' } };
    return;
  }
  if (looksBinary(head)) {
    yield { problem: { file, reason: 'binary file, not JSONL' } };
    return;
  }

  const firstSeen = new Map<string, number>();
  let lineNo = 0;
  let nonBlank = 0;
  const lines = fileLines(file);
  while (true) {
    let next: IteratorResult<string>;
    try {
      next = await lines.next();
    } catch (e) {
      yield { problem: { file, line: lineNo + 1, reason: `read error (${errMessage(e)})` } };
      return;
    }
    if (next.done) break;
    lineNo++;
    let line = next.value;
    if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line.trim() === '') continue;
    nonBlank++;

    const parsed = parseJsonlLine(line);
    if ('reason' in parsed) {
      yield { problem: { file, line: lineNo, reason: parsed.reason } };
      continue;
    }
    const { title, text, metadata } = parsed;
    const id = parsed.id ?? deriveDocumentId(title, text);
    const seen = firstSeen.get(id);
    if (seen !== undefined) {
      yield { problem: { file, line: lineNo, reason: `duplicate id ${id} (first seen on line ${seen})` } };
      continue;
    }
    firstSeen.set(id, lineNo);
    const document: SourceDocument = { id, title, text, source: file };
    if (metadata !== undefined) document.metadata = metadata;
    yield { document };
  }
  if (nonBlank === 0) yield { problem: { file, reason: 'empty file' } };
}

type ParsedLine =
  | { id?: string; title: string; text: string; metadata?: Record<string, unknown> }
  | { reason: string };

function parseJsonlLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { reason: `invalid JSON: ${brief((e as Error).message, 100)}` };
  }
  if (!isPlainObject(value)) return { reason: `not a JSON object (got ${typeName(value)})` };

  const reasons: string[] = [];
  let id: string | undefined;
  if ('id' in value && value.id !== undefined) {
    const v = value.id;
    if (typeof v === 'number' && Number.isFinite(v)) id = String(v);
    else if (typeof v === 'string' && v.trim() !== '') id = v;
    else if (typeof v === 'string') reasons.push('empty "id"');
    else reasons.push(`"id" must be a non-empty string or number (got ${typeName(v)})`);
  }
  const field = (name: 'title' | 'text'): string | undefined => {
    const v = value[name];
    if (v === undefined) reasons.push(`missing "${name}"`);
    else if (typeof v !== 'string') reasons.push(`"${name}" must be a string (got ${typeName(v)})`);
    else if (v.trim() === '') reasons.push(`empty "${name}"`);
    else return v;
    return undefined;
  };
  const title = field('title');
  const text = field('text');
  const metadata = value.metadata;
  if (metadata !== undefined && !isPlainObject(metadata)) {
    reasons.push(`"metadata" must be an object (got ${typeName(metadata)})`);
  }
  if (reasons.length > 0 || title === undefined || text === undefined) return { reason: reasons.join('; ') };
  return { id, title, text, metadata: metadata as Record<string, unknown> | undefined };
}

// ---------------------------------------------------------------------------------------------
// Folder of .txt / .md files

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
 * id = `file:<relative posix path>`; title = first `# heading` of a .md file, else the file name.
 */
export async function* readFolder(dir: string): AsyncGenerator<ReadItem> {
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
    yield { document: { id: `file:${rel}`, title, text, source: file, metadata: { path: rel } } };
  }
}

// ---------------------------------------------------------------------------------------------
// Chunking

const WS = /\s/;
const SENTENCE_END = new Set(['.', '!', '?', '…']);
const CJK_SENTENCE_END = new Set(['。', '！', '？']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '»', '*', '_']);
const PARAGRAPH_BREAK = /\r?\n[ \t]*\r?\n/y;

function isParagraphBreakAt(text: string, p: number): boolean {
  PARAGRAPH_BREAK.lastIndex = p;
  return PARAGRAPH_BREAK.test(text);
}

/** A chunk may end at p (exclusive) right after a sentence: `end.` + whitespace, or CJK `。`. */
function isSentenceEndAt(text: string, p: number): boolean {
  if (p > 0 && CJK_SENTENCE_END.has(text[p - 1])) return true;
  if (p >= text.length || !WS.test(text[p])) return false;
  let q = p - 1;
  while (q > 0 && CLOSERS.has(text[q])) q--;
  return q >= 0 && SENTENCE_END.has(text[q]);
}

/**
 * Split text into chunks of at most `size` characters, consecutive chunks sharing up to `overlap`
 * characters. Cuts prefer paragraph breaks, then sentence ends, then whitespace, in the second half
 * of the window (and past `overlap`); a word is cut only when it alone is longer than the window. Chunks are trimmed
 * substrings of the text, in order, together covering all of its non-whitespace characters.
 * Texts no longer than `size` give `[text.trim()]`; blank text gives `[]`.
 */
export function chunkText(text: string, size = 1200, overlap = 200): string[] {
  if (!Number.isInteger(size) || !Number.isInteger(overlap) || !(size > overlap && overlap >= 0)) {
    throw new RangeError(`chunkText: need integers size > overlap >= 0 (got size=${size}, overlap=${overlap})`);
  }
  const n = text.length;
  let start = 0;
  while (start < n && WS.test(text[start])) start++;
  let stop = n;
  while (stop > start && WS.test(text[stop - 1])) stop--;
  if (start >= stop) return [];
  if (stop - start <= size) return [text.slice(start, stop)];

  const chunks: string[] = [];
  while (start < stop) {
    if (stop - start <= size) {
      chunks.push(text.slice(start, stop));
      break;
    }
    const limit = start + size;
    // Paragraph and sentence cuts only in the second half of the window, and far enough in that
    // the next chunk, starting `overlap` back, still moves forward.
    const soft = start + Math.max(Math.floor(size / 2), overlap + 1);
    let end = -1;
    let clean = true;
    for (let p = limit; p >= soft && end < 0; p--) if (isParagraphBreakAt(text, p)) end = p;
    for (let p = limit; p >= soft && end < 0; p--) if (isSentenceEndAt(text, p)) end = p;
    for (let p = limit; p > start && end < 0; p--) if (WS.test(text[p])) end = p;
    if (end < 0) {
      // A single word longer than the window: cut it, but not inside a surrogate pair.
      end = limit;
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c <= 0xdbff && end - 1 > start) end--;
      clean = false;
    }
    chunks.push(text.slice(start, end).trimEnd());

    // Next chunk starts `overlap` characters back: at a word start after a clean cut; anywhere
    // inside the over-long word after a hard cut. Always strictly after the current start.
    let next = end - overlap;
    if (clean) {
      if (next <= start) next = end;
      while (next < end && next > 0 && !WS.test(text[next - 1]) && !WS.test(text[next])) next++;
    } else if (next <= start) {
      next = start + 1;
    }
    while (next < stop && WS.test(text[next])) next++;
    start = next;
  }
  return chunks;
}

/** Passages of a document: id = doc.id for a single chunk, else `${doc.id}#${i}`. */
export function toPassages(doc: SourceDocument, size?: number, overlap?: number): SourcePassage[] {
  const chunks = chunkText(doc.text, size, overlap);
  return chunks.map((text, i) => ({
    id: chunks.length === 1 ? doc.id : `${doc.id}#${i}`,
    documentId: doc.id,
    title: doc.title,
    text,
  }));
}

// ---------------------------------------------------------------------------------------------
// Hetionet

/** Outgoing and incoming wording of Hetionet predicates, for entity descriptions. */
const PHRASES: Record<string, [string, string]> = {
  associates: ['associated with', 'associated with'],
  binds: ['binds', 'bound by'],
  causes: ['causes', 'caused by'],
  covaries: ['covaries with', 'covaries with'],
  downregulates: ['downregulates', 'downregulated by'],
  expresses: ['expresses', 'expressed in'],
  includes: ['includes', 'included in'],
  interacts: ['interacts with', 'interacts with'],
  localizes: ['localizes to', 'site of'],
  palliates: ['palliates', 'palliated by'],
  participates: ['participates in', 'involves'],
  presents: ['presents', 'presented in'],
  regulates: ['regulates', 'regulated by'],
  resembles: ['resembles', 'resembles'],
  treats: ['treats', 'treated by'],
  upregulates: ['upregulates', 'upregulated by'],
};
const MAX_NEIGHBOURS_IN_DESCRIPTION = 3;

interface Metaedge {
  type: string;
  predicate: string;
}

/** Column positions by header name; undefined entries are missing columns. */
function columns(header: string, names: string[]): Record<string, number | undefined> {
  const cols = header.replace(/^\uFEFF/, '').split('\t').map((c) => c.trim().toLowerCase());
  const out: Record<string, number | undefined> = {};
  for (const name of names) {
    const i = cols.indexOf(name);
    out[name] = i >= 0 ? i : undefined;
  }
  return out;
}

async function readMetaedges(file: string, problems: SourceProblem[]): Promise<Map<string, Metaedge>> {
  const byAbbr = new Map<string, Metaedge>();
  const typeOwner = new Map<string, string>();
  let lineNo = 0;
  let col: Record<string, number | undefined> = {};
  for await (const line of fileLines(file)) {
    lineNo++;
    if (lineNo === 1) {
      col = columns(line, ['metaedge', 'abbreviation']);
      if (col.metaedge === undefined || col.abbreviation === undefined) {
        throw new Error(`${file}: header must name columns metaedge and abbreviation (got "${brief(line)}")`);
      }
      continue;
    }
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const metaedge = cells[col.metaedge!]?.trim() ?? '';
    const abbr = cells[col.abbreviation!]?.trim() ?? '';
    const m = /^(.+?)\s+([-<>])\s+(.+?)\s+\2\s+(.+)$/.exec(metaedge);
    if (!abbr || !m) {
      problems.push({ file, line: lineNo, reason: `cannot parse metaedge "${brief(metaedge)}" / abbreviation "${abbr}"` });
      continue;
    }
    const predicate = m[3].trim();
    const verb = predicate.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
    const type = `${verb}_${abbr.replace(/[^A-Za-z0-9_]/g, '_')}`;
    if (!CYPHER_TYPE.test(type)) {
      problems.push({ file, line: lineNo, reason: `relationship type "${type}" for ${abbr} is not Cypher-safe` });
      continue;
    }
    const owner = typeOwner.get(type);
    if (owner !== undefined && owner !== abbr) {
      problems.push({ file, line: lineNo, reason: `relationship type ${type} of ${abbr} collides with ${owner}` });
      continue;
    }
    if (byAbbr.has(abbr)) {
      problems.push({ file, line: lineNo, reason: `duplicate abbreviation ${abbr}` });
      continue;
    }
    typeOwner.set(type, abbr);
    byAbbr.set(abbr, { type, predicate });
  }
  return byAbbr;
}

/**
 * A Hetionet-format graph from dir: nodes.tsv (id, name, kind), metaedges.tsv (metaedge,
 * abbreviation, ...) and edge lists *.sif / *.sif.gz (source, metaedge, target).
 * Missing files or headers throw; bad lines become problems.
 */
export async function readHetionet(dir: string, opts: { maxEdges?: number } = {}): Promise<CuratedGraph> {
  const maxEdges = opts.maxEdges ?? Infinity;
  if (!(maxEdges === Infinity || (Number.isInteger(maxEdges) && maxEdges >= 0))) {
    throw new RangeError(`readHetionet: maxEdges must be a non-negative integer (got ${opts.maxEdges})`);
  }
  const names = await fs.promises.readdir(dir);
  const edgeFiles = names.filter((n) => /\.sif(\.gz)?$/i.test(n)).sort();
  for (const required of ['nodes.tsv', 'metaedges.tsv']) {
    if (!names.includes(required)) throw new Error(`readHetionet: ${path.join(dir, required)} not found`);
  }
  if (edgeFiles.length === 0) throw new Error(`readHetionet: no *.sif or *.sif.gz edge list in ${dir}`);

  const problems: SourceProblem[] = [];
  const metaedges = await readMetaedges(path.join(dir, 'metaedges.tsv'), problems);

  // Nodes
  const nodesFile = path.join(dir, 'nodes.tsv');
  const nodes = new Map<string, { name: string; kind: string; line: number }>();
  let lineNo = 0;
  let col: Record<string, number | undefined> = {};
  for await (const line of fileLines(nodesFile)) {
    lineNo++;
    if (lineNo === 1) {
      col = columns(line, ['id', 'name', 'kind']);
      if (col.id === undefined || col.name === undefined || col.kind === undefined) {
        throw new Error(`${nodesFile}: header must name columns id, name and kind (got "${brief(line)}")`);
      }
      continue;
    }
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const id = cells[col.id!]?.trim() ?? '';
    const name = cells[col.name!]?.trim() ?? '';
    const kind = cells[col.kind!]?.trim() ?? '';
    if (!id || !name || !kind) {
      problems.push({ file: nodesFile, line: lineNo, reason: `expected non-empty id, name and kind (got ${cells.length} columns)` });
      continue;
    }
    const prev = nodes.get(id);
    if (prev) {
      problems.push({ file: nodesFile, line: lineNo, reason: `duplicate node id ${id} (first seen on line ${prev.line})` });
      continue;
    }
    nodes.set(id, { name, kind, line: lineNo });
  }

  // Edges; for descriptions keep a few neighbours per node, at most 3 per (direction, metaedge).
  const edges: CuratedEdge[] = [];
  const seenEdges = new Set<string>();
  const neighbours = new Map<string, { out: boolean; abbr: string; other: string }[]>();
  const remember = (node: string, out: boolean, abbr: string, other: string): void => {
    let list = neighbours.get(node);
    if (!list) neighbours.set(node, (list = []));
    if (list.length >= 24) return;
    let same = 0;
    for (const n of list) if (n.out === out && n.abbr === abbr) same++;
    if (same < MAX_NEIGHBOURS_IN_DESCRIPTION) list.push({ out, abbr, other });
  };

  edgeLoop: for (const name of edgeFiles) {
    const file = path.join(dir, name);
    let c: Record<string, number | undefined> = { source: 0, metaedge: 1, target: 2 };
    lineNo = 0;
    try {
      for await (const line of fileLines(file)) {
        lineNo++;
        if (lineNo === 1) {
          const h = columns(line, ['source', 'metaedge', 'target']);
          if (h.source !== undefined && h.metaedge !== undefined && h.target !== undefined) {
            c = h;
            continue;
          }
          problems.push({ file, line: 1, reason: 'no "source metaedge target" header; reading columns by position' });
        }
        if (edges.length >= maxEdges) break edgeLoop;
        if (line.trim() === '') continue;
        const cells = line.split('\t');
        const src = cells[c.source!]?.trim() ?? '';
        const abbr = cells[c.metaedge!]?.trim() ?? '';
        const dst = cells[c.target!]?.trim() ?? '';
        if (!src || !abbr || !dst) {
          problems.push({ file, line: lineNo, reason: `expected source, metaedge and target (got ${cells.length} columns)` });
          continue;
        }
        const meta = metaedges.get(abbr);
        const missing = [src, dst].filter((id) => !nodes.has(id));
        if (!meta || missing.length > 0) {
          const why = [
            ...(meta ? [] : [`unknown metaedge abbreviation ${abbr}`]),
            ...missing.map((id) => `unknown node ${id}`),
          ];
          problems.push({ file, line: lineNo, reason: why.join('; ') });
          continue;
        }
        const key = `${src}\t${meta.type}\t${dst}`;
        if (seenEdges.has(key)) {
          problems.push({ file, line: lineNo, reason: `duplicate edge ${src} ${abbr} ${dst}` });
          continue;
        }
        seenEdges.add(key);
        edges.push({ from: `hetionet:${src}`, to: `hetionet:${dst}`, type: meta.type, predicate: meta.predicate });
        remember(src, true, abbr, dst);
        remember(dst, false, abbr, src);
      }
    } catch (e) {
      problems.push({ file, line: lineNo + 1, reason: `read error (${errMessage(e)})` });
    }
  }

  const entities: CuratedEntity[] = [];
  for (const [id, node] of nodes) {
    const kind = node.kind.toLowerCase();
    let description = `${node.name}: ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} in Hetionet`;
    const list = neighbours.get(id);
    if (list) {
      // Round-robin over (direction, metaedge) groups, outgoing first, so the words are varied.
      const groups = new Map<string, string[]>();
      for (const n of [...list.filter((x) => x.out), ...list.filter((x) => !x.out)]) {
        const predicate = metaedges.get(n.abbr)!.predicate;
        const [fwd, rev] = PHRASES[predicate] ?? [predicate, `${predicate} by`];
        const key = `${n.out}:${n.abbr}`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)!.push(`${n.out ? fwd : rev} ${nodes.get(n.other)!.name}`);
      }
      const picked: string[] = [];
      for (let round = 0; picked.length < MAX_NEIGHBOURS_IN_DESCRIPTION && round < MAX_NEIGHBOURS_IN_DESCRIPTION; round++) {
        for (const phrases of groups.values()) {
          if (picked.length >= MAX_NEIGHBOURS_IN_DESCRIPTION) break;
          if (phrases[round] !== undefined) picked.push(phrases[round]);
        }
      }
      if (picked.length > 0) description += `; ${picked.join('; ')}`;
    }
    entities.push({ id: `hetionet:${id}`, name: node.name, type: node.kind, description });
  }
  return { entities, edges, problems };
}
