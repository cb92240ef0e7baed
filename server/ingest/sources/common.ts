/**
 * What every source reader shares: sniffing (binary or text), streamed lines of plain or gzipped
 * files, error wording, and the content id of documents that come without one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

const SNIFF_BYTES = 64 * 1024;

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

/** The first 64 KiB of a file, for sniffing. */
export async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export function errMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err?.code ? `${err.code}: ${err.message}` : String((e as Error)?.message ?? e);
}

export function brief(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The default source of an input's documents: its name, without the extension of a file
 * (corpus/pubmed.jsonl -> pubmed, corpus/pubmed.jsonl.gz -> pubmed, papers/ -> papers).
 */
export function sourceName(input: string): string {
  const base = path.basename(path.resolve(input));
  return base.replace(/(\.[^.]+)?(\.gz)?$/i, '') || base;
}

/**
 * Why metadata is not a flat map of strings, numbers and booleans (naming the first bad key), or
 * undefined when it is: documents carry it as one property per key (server/graph/writes.ts).
 */
export function metadataProblem(metadata: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(metadata)) {
    if (k === '') return 'a metadata key must not be empty';
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) continue;
    return `"metadata.${brief(k, 60)}" must be a string, a number or a boolean (got ${typeName(v)})`;
  }
  return undefined;
}

/** Stable content id for documents that come without one. */
export function deriveDocumentId(title: string, text: string): string {
  return 'doc-' + createHash('sha256').update(`${title}\n${text}`).digest('hex').slice(0, 16);
}

/**
 * Lines of a text file (gunzipped when the name ends in .gz), streamed with readline.
 * Stream errors (unreadable file, corrupt gzip) are thrown from the iteration.
 */
export async function* fileLines(file: string): AsyncGenerator<string> {
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
