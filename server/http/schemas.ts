import { z } from 'zod';
import { MODE_NAMES, type Mode } from '../retrieval/params.js';

/** The body fields shared by /v1/retrieve, /v1/compare and /v1/answer (each adds its own). */
export const questionFields = {
  question: z.string().trim().min(1, 'must not be empty').max(4000).optional(),
  questionEmbedding: z.array(z.number().finite()).min(1).max(8192).optional(),
  params: z.record(z.unknown()).optional(),
};

export const modeSchema = z.enum(MODE_NAMES as [Mode, ...Mode[]]);
