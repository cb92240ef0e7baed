/** JSONL corpora: one `{id?, title, text, source?, metadata?}` object a line. */
import type { ReadItem, SourceDocument } from '../types.js';
import { brief, deriveDocumentId, errMessage, fileLines, isPlainObject, looksBinary, metadataProblem, readHead, sourceName, typeName } from './common.js';

/**
 * Documents of a JSONL corpus, one `{id?, title, text, source?, metadata?}` object a line; a line
 * without a source takes `source` (default: the file's name without its extension).
 * Yields a problem (with its 1-based line) for every unusable line; blank lines are skipped.
 */
export async function* readJsonl(file: string, source = sourceName(file)): AsyncGenerator<ReadItem> {
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
    const document: SourceDocument = { id, title, text, source: parsed.source ?? source };
    if (metadata !== undefined) document.metadata = metadata;
    yield { document };
  }
  if (nonBlank === 0) yield { problem: { file, reason: 'empty file' } };
}

type ParsedLine = { id?: string; title: string; text: string; source?: string; metadata?: Record<string, unknown> } | { reason: string };

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
  } else if (metadata !== undefined) {
    const bad = metadataProblem(metadata);
    if (bad) reasons.push(bad);
  }
  const source = value.source;
  if (source !== undefined && (typeof source !== 'string' || source.trim() === '')) {
    reasons.push(`"source" must be a non-empty string (got ${typeof source === 'string' ? 'an empty string' : typeName(source)})`);
  }
  if (reasons.length > 0 || title === undefined || text === undefined) return { reason: reasons.join('; ') };
  return { id, title, text, source: source as string | undefined, metadata: metadata as Record<string, unknown> | undefined };
}
