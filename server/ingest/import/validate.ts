/**
 * The import folder (docs/import.md): passages.jsonl, entities.jsonl, mentions.jsonl and
 * relationships.jsonl, one JSON object a line. Everything is checked before anything is
 * written: each row's fields (zod), vectors of the configured dimension, ids unique, and every
 * mention and relationship naming a passage or entity of the folder (or, for an online load,
 * already in the database). Bad rows are reported by file and line number.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { z } from 'zod';
import { IDENTIFIER_PATTERN } from '../../graph/facts.js';
import type { EntityRow, ImportSource, MentionRow, PassageRow, RelationshipRow } from './types.js';

export const IMPORT_FILES = {
  passages: 'passages.jsonl',
  entities: 'entities.jsonl',
  mentions: 'mentions.jsonl',
  relationships: 'relationships.jsonl',
} as const;
type Kind = keyof typeof IMPORT_FILES;

export interface ImportProblem {
  file: string;
  line: number;
  message: string;
}

export class ImportValidationError extends Error {
  constructor(
    readonly problems: ImportProblem[],
    readonly total: number,
  ) {
    super(
      `${total} bad row${total === 1 ? '' : 's'}; nothing was written:\n` +
        problems.map((p) => `  ${p.file}:${p.line}: ${p.message}`).join('\n') +
        (total > problems.length ? `\n  ... and ${total - problems.length} more` : ''),
    );
  }
}

const id = z.string().trim().min(1, 'must be a non-empty string').max(512);
const vector = (dim: number) =>
  z
    .array(z.number().finite(), { invalid_type_error: 'must be an array of numbers' })
    .length(dim, `must hold ${dim} numbers (the embedder's dimension)`)
    .refine((v) => v.some((x) => x !== 0), 'must not be all zeros');

export function rowSchemas(dim: number) {
  return {
    passages: z
      .object({
        id,
        documentId: id.optional(),
        title: z.string().default(''),
        text: z.string().min(1),
        source: z.string().default('import'),
        embedding: vector(dim),
      })
      .strict()
      .transform((p): PassageRow => ({ ...p, documentId: p.documentId ?? p.id })),
    entities: z
      .object({
        id,
        name: z.string().trim().min(1),
        type: z.string().default('Thing'),
        description: z.string().default(''),
        curated: z.boolean().default(false),
        embedding: vector(dim),
        descriptionEmbedding: vector(dim).optional(),
      })
      .strict()
      .transform((e): EntityRow => ({ ...e, descriptionEmbedding: e.descriptionEmbedding ?? e.embedding })),
    mentions: z
      .object({
        passage: id,
        entity: id,
        weight: z.number().finite().positive().default(1),
        confidence: z.number().min(0).max(1).optional(),
        method: z.string().min(1).optional(),
      })
      .strict()
      .refine((m) => (m.confidence === undefined) === (m.method === undefined), 'confidence and method go together (a curated link) or not at all')
      .transform((m): MentionRow => ({ ...m, confidence: m.confidence ?? null, method: m.method ?? null })),
    relationships: z
      .object({
        from: id,
        to: id,
        type: z
          .string()
          .regex(IDENTIFIER_PATTERN, 'must be an identifier (letters, digits, _)')
          .refine((t) => t !== 'MENTIONS' && t !== 'PART_OF', 'MENTIONS and PART_OF are not relationships between entities')
          .default('RELATED'),
        predicate: z.string().min(1).optional(),
        passageId: id.optional(),
        weight: z.number().finite().positive().default(1),
        embedding: vector(dim).optional(),
      })
      .strict()
      .transform(
        (r): RelationshipRow => ({
          ...r,
          predicate: r.predicate ?? r.type.toLowerCase().replace(/_/g, ' '),
          passageId: r.passageId ?? null,
          embedding: r.embedding ?? null,
        }),
      ),
  };
}

/** The lines of a JSONL file with their numbers (blank lines skipped); none for a missing file. */
async function* jsonLines(file: string): AsyncGenerator<{ line: number; text: string }> {
  if (!fs.existsSync(file)) return;
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of rl) {
    line++;
    if (text.trim()) yield { line, text };
  }
}

function issueText(e: z.ZodError): string {
  return e.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** Parsed rows of one file; a bad line goes to `bad` and is skipped. */
async function* parsedRows<T>(dir: string, kind: Kind, schema: z.ZodType<T, z.ZodTypeDef, unknown>, bad?: (p: ImportProblem) => void) {
  const file = IMPORT_FILES[kind];
  for await (const { line, text } of jsonLines(path.join(dir, file))) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      bad?.({ file, line, message: `not JSON (${(e as Error).message})` });
      continue;
    }
    const r = schema.safeParse(json);
    if (!r.success) bad?.({ file, line, message: issueText(r.error) });
    else yield { line, row: r.data };
  }
}

export interface ValidateOptions {
  dimension: number;
  /** Ids that exist already (an online load into a graph): mentions and relationships may name them. */
  known?: (kind: 'passage' | 'entity', ids: string[]) => Promise<Set<string>>;
  /** At most this many problems are kept (all are counted). */
  maxProblems?: number;
}

export interface ValidatedFolder {
  source: ImportSource;
  counts: Record<Kind, number>;
}

/**
 * Checks the whole folder; throws ImportValidationError naming every bad row (file:line), or
 * returns a source that streams the (now known good) rows again for writing.
 */
export async function validateFolder(dir: string, opts: ValidateOptions): Promise<ValidatedFolder> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
  const present = Object.values(IMPORT_FILES).filter((f) => fs.existsSync(path.join(dir, f)));
  if (!present.length) throw new Error(`${dir} holds none of ${Object.values(IMPORT_FILES).join(', ')}`);
  const schemas = rowSchemas(opts.dimension);
  const max = opts.maxProblems ?? 100;
  const problems: ImportProblem[] = [];
  let total = 0;
  const bad = (p: ImportProblem) => {
    total++;
    if (problems.length < max) problems.push(p);
  };
  const counts: Record<Kind, number> = { passages: 0, entities: 0, mentions: 0, relationships: 0 };
  const ids = { passages: new Set<string>(), entities: new Set<string>() };
  for (const kind of ['passages', 'entities'] as const) {
    for await (const { line, row } of parsedRows(dir, kind, schemas[kind] as z.ZodType<PassageRow | EntityRow, z.ZodTypeDef, unknown>, bad)) {
      if (ids[kind].has(row.id)) bad({ file: IMPORT_FILES[kind], line, message: `id "${row.id}" appears twice` });
      ids[kind].add(row.id);
      counts[kind]++;
    }
  }
  // References to ids outside the folder are looked up in the database (online load), a page at a time.
  const missing = { passage: new Map<string, ImportProblem[]>(), entity: new Map<string, ImportProblem[]>() };
  const refer = (kind: 'passage' | 'entity', ref: string, file: string, line: number, field: string) => {
    if ((kind === 'passage' ? ids.passages : ids.entities).has(ref)) return;
    const list = missing[kind].get(ref) ?? [];
    list.push({
      file,
      line,
      message: `${field}: no ${kind} "${ref}" in ${kind === 'passage' ? IMPORT_FILES.passages : IMPORT_FILES.entities}${opts.known ? ' or the database' : ''}`,
    });
    missing[kind].set(ref, list);
  };
  for await (const { line, row } of parsedRows(dir, 'mentions', schemas.mentions, bad)) {
    refer('passage', row.passage, IMPORT_FILES.mentions, line, 'passage');
    refer('entity', row.entity, IMPORT_FILES.mentions, line, 'entity');
    counts.mentions++;
  }
  for await (const { line, row } of parsedRows(dir, 'relationships', schemas.relationships, bad)) {
    refer('entity', row.from, IMPORT_FILES.relationships, line, 'from');
    refer('entity', row.to, IMPORT_FILES.relationships, line, 'to');
    if (row.passageId) refer('passage', row.passageId, IMPORT_FILES.relationships, line, 'passageId');
    counts.relationships++;
  }
  for (const kind of ['passage', 'entity'] as const) {
    const refs = [...missing[kind].keys()];
    const found = new Set<string>();
    for (let i = 0; opts.known && i < refs.length; i += 10000) for (const x of await opts.known(kind, refs.slice(i, i + 10000))) found.add(x);
    for (const [ref, list] of missing[kind]) if (!found.has(ref)) list.forEach(bad);
  }
  if (total > 0) {
    problems.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
    throw new ImportValidationError(problems, total);
  }
  const rows = <T>(kind: Kind) =>
    async function* () {
      for await (const { row } of parsedRows(dir, kind, schemas[kind] as unknown as z.ZodType<T, z.ZodTypeDef, unknown>)) yield row;
    };
  return {
    counts,
    source: {
      passages: rows<PassageRow>('passages'),
      entities: rows<EntityRow>('entities'),
      mentions: rows<MentionRow>('mentions'),
      relationships: rows<RelationshipRow>('relationships'),
    },
  };
}
