/**
 * Extraction of one passage, stage by stage: tokenize, find mentions, build entities (the title's
 * first), relations, then descriptions.
 */
import type { Extraction, PassageInput } from '../types.js';
import { addMentionEntities, addTitleEntities, describeEntities, type Entities } from './entities.js';
import { parseTitle } from './entity-types.js';
import { findMentions, resolvePartialNames } from './mentions.js';
import { tokenize } from './nlp.js';
import { extractRelations } from './relations.js';

export interface OfflineExtractorOptions {
  /**
   * Also extract lowercase noun compounds ("film director", "grocery chain") as 'Concept' entities.
   * Default false: on the bundled datasets they add ~1.3 entities per passage and mostly create
   * high-degree hub nodes ("film director") rather than real multi-hop bridges.
   */
  concepts?: boolean;
}

/** Synchronous extraction of one passage (the Extractor wraps this in a Promise). */
export function extractPassage(passage: PassageInput, options: OfflineExtractorOptions = {}): Extraction {
  // Some corpora space out intra-word hyphens ("Park Geun - hye", "person - centered", "Go- Go", "comedy- drama"): rejoin
  // them. A suspended hyphen keeps its space ("one- and two-reel", "fifth- to sixth-century").
  const text = (passage.text ?? '').replace(/(\p{L}) ?- (?!(?:and|or|to|nor)\b)(?=\p{L})/gu, '$1-');
  const title = parseTitle(passage.title ?? '');
  const tokenized = tokenize(text, title.short);
  const { toks, sentSpans, sentTexts } = tokenized;
  const mentions = findMentions(tokenized, passage.title ?? '', title.short, !!options.concepts);

  // The title's entities come first, and its type (known before the mentions are read) decides
  // whether a lone surname in the text is the title person.
  const entities: Entities = new Map();
  const keys = addTitleEntities(entities, title, sentTexts[0] ?? text, text);
  resolvePartialNames(mentions, keys.titleKey ? { key: keys.titleKey, name: title.name, type: entities.get(keys.titleKey)!.type } : undefined);
  addMentionEntities(entities, mentions);

  const relations = extractRelations(toks, sentSpans, mentions, entities, keys);
  return { entities: describeEntities(entities, keys, sentTexts, text, passage.title), relations };
}
