import type { SourceProblem } from './types.js';

export const formatProblem = (p: SourceProblem) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.reason}`;

/** --strict: the input has problems, so nothing was written. */
export class IngestInputError extends Error {
  constructor(readonly problems: SourceProblem[]) {
    super(`${problems.length} problem(s) in the input; nothing was written (--strict):\n${problems.slice(0, 20).map(formatProblem).join('\n')}`);
  }
}
