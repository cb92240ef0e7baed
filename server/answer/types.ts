/** The answer generators' contract: the passages they may cite, and what they return. */

/** A passage the answer may cite. */
export interface AnswerPassage {
  id: string;
  title: string | null;
  text: string;
}

export interface AnswerResult {
  answer: string;
  citations: string[];
  usage: { inputTokens: number; outputTokens: number } | null;
  generator: string;
}

/**
 * Answer generators stream text chunks, then return the whole result.
 * Both implementations cite passage ids in square brackets.
 */
export interface Generator {
  readonly id: string;
  stream(question: string, passages: AnswerPassage[], signal?: AbortSignal): AsyncGenerator<string, AnswerResult>;
  complete(question: string, passages: AnswerPassage[]): Promise<AnswerResult>;
}
