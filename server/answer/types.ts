/** The answer generators' contract: what they may use (passages, and the graph evidence around them), and what they return. */

/** A passage the answer may cite. */
export interface AnswerPassage {
  id: string;
  title: string | null;
  text: string;
}

/** An entity as the retrieval result names it. */
export interface AnswerEntity {
  id: string;
  name: string;
  type?: string | null;
}

/**
 * A fact on an evidence path, as the retrieval result gives it
 * ("Rivastigmine treats Alzheimer's disease"). Structurally the retrieval's
 * Fact (server/retrieval/results.ts), so a RetrievalResult's facts fit as they are.
 */
export interface AnswerFact {
  rank: number;
  subject: AnswerEntity;
  /** The relationship type (TREATS_CtD, RELATED, ...). */
  type: string;
  /** The readable predicate ("treats"). */
  predicate: string;
  object: AnswerEntity;
  score: number;
  text: string;
}

/** An evidence path from a seed to a passage's entity (passageId) or to a top entity (entityId). */
export interface AnswerPath {
  passageId?: string | null;
  entityId?: string | null;
  score?: number | null;
  /** name: null for a passage on the path. */
  nodes: { id: string; name: string | null }[];
  relationships: { type: string; predicate: string | null }[];
}

/**
 * What an answer is made from: the passages it may cite and, when the caller
 * has them, the retrieval's graph evidence: seeds (what the question named),
 * top entities, evidence paths and facts.
 */
export interface AnswerInput {
  passages: AnswerPassage[];
  seeds?: (AnswerEntity & { activation?: number })[];
  entities?: (AnswerEntity & { activation: number })[];
  paths?: AnswerPath[];
  facts?: AnswerFact[];
}

export interface AnswerResult {
  answer: string;
  citations: string[];
  usage: { inputTokens: number; outputTokens: number } | null;
  generator: string;
}

/**
 * Answer generators stream text chunks, then return the whole result. They
 * take the passages alone or an AnswerInput (passages with the graph
 * evidence). Both implementations cite passage ids in square brackets.
 */
export interface Generator {
  readonly id: string;
  stream(question: string, input: AnswerPassage[] | AnswerInput, signal?: AbortSignal): AsyncGenerator<string, AnswerResult>;
  complete(question: string, input: AnswerPassage[] | AnswerInput): Promise<AnswerResult>;
}
