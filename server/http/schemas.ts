import { z } from 'zod';
import { filterSchema, MODE_NAMES, type Mode } from '../retrieval/params.js';

/** Longest question, in characters (MiniLM reads its first 256 tokens, bge 512; full-text search its first 256 words). */
export const QUESTION_MAX_CHARS = 20_000;
/** Longest caller-given embedding (its length must also equal the embedder's dimension). */
export const EMBEDDING_MAX_DIMENSION = 8192;

export const questionSchema = z.string().trim().min(1, 'must not be empty').max(QUESTION_MAX_CHARS);

/** The body fields shared by /v1/retrieve, /v1/compare and /v1/answer (each adds its own). */
export const questionFields = {
  question: questionSchema.optional(),
  questionEmbedding: z.array(z.number().finite()).min(1).max(EMBEDDING_MAX_DIMENSION).optional(),
  params: z.record(z.unknown()).optional(),
  filter: filterSchema
    .optional()
    .describe(
      'restricts the passages (candidates, context, facts read from them) to documents with any of `sources`, any of `documentIds` and every `metadata` key equal to its value; fields absent do not restrict, an empty list is a 400 (docs/filter.md)',
    ),
};

export const modeSchema = z.enum(MODE_NAMES as [Mode, ...Mode[]]);
