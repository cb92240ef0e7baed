/**
 * A passage's entities: the title's (inserted first), then one per mention key with its type
 * decided by a vote over its mentions, and each entity's description.
 */
import { normalizeName } from '../../graph/facts.js';
import type { ExtractedEntity } from '../types.js';
import { titleTypeFromText, type ParsedTitle } from './entity-types.js';
import { GENERIC_HEADS, JUNK_WORDS } from './lexicon.js';
import { personNameWords } from './mentions.js';
import { namesIn } from './names.js';
import { isTitleWord, type Mention } from './tokens.js';

/** Maximum description length (characters). */
export const DESCRIPTION_MAX_CHARS = 300;

export interface EntityAcc {
  key: string;
  name: string;
  type: string;
  typeVotes: Map<string, number>;
  sentences: number[];
  firstMention: Mention | undefined;
}

/** The passage's entities by key, in insertion order (the order of the extraction's entities). */
export type Entities = Map<string, EntityAcc>;

/** The keys of the title's entities. */
export interface TitleKeys {
  /** The title entity; '' when the passage has no title. */
  titleKey: string;
  /** The title's short form when its disambiguator is a proper noun or dated ("Leader of Opposition (Uganda)", "X (1913 film)"). */
  aliasKey: string | undefined;
  /** Names inside the title and its disambiguator. */
  parts: string[];
}

/** Adds the title's entities: the title, its short-form alias, and the names inside it. */
export function addTitleEntities(entities: Entities, title: ParsedTitle, firstSentence: string, text: string): TitleKeys {
  const titleKey = normalizeName(title.name);
  if (titleKey) {
    const t = title.type ?? titleTypeFromText(firstSentence, text, title.short) ?? 'Entity';
    entities.set(titleKey, { key: titleKey, name: title.name, type: t, typeVotes: new Map([[t, 100]]), sentences: [], firstMention: undefined });
  }
  let aliasKey: string | undefined;
  if (title.alias) {
    aliasKey = normalizeName(title.alias);
    if (aliasKey && aliasKey !== titleKey && !entities.has(aliasKey)) {
      const t = entities.get(titleKey)?.type ?? 'Entity';
      entities.set(aliasKey, { key: aliasKey, name: title.alias, type: t, typeVotes: new Map([[t, 100]]), sentences: [], firstMention: undefined });
    }
  }
  // names inside the title and its disambiguator: "Prague astronomical clock" -> "Prague", "(Uganda)" -> "Uganda"
  const parts: string[] = [];
  if (titleKey) {
    const found = [...(/\p{Ll}/u.test(title.short) ? namesIn(title.short) : []), ...(title.dis && /\p{Lu}/u.test(title.dis) ? namesIn(title.dis) : [])];
    const ownName = entities.get(titleKey)!.type === 'Person' ? personNameWords(title.name) : [];
    for (const m of found) {
      if (m.key === titleKey || m.key === aliasKey || parts.includes(m.key) || ownName.includes(m.key)) continue;
      if (!m.key.includes(' ') && (GENERIC_HEADS.has(m.key) || JUNK_WORDS.has(m.key) || isTitleWord(m.key))) continue;
      parts.push(m.key);
      if (!entities.has(m.key))
        entities.set(m.key, { key: m.key, name: m.name, type: m.type, typeVotes: new Map([[m.type, 0.5]]), sentences: [], firstMention: undefined });
    }
  }
  return { titleKey, aliasKey, parts };
}

/** Adds every mention to its entity (created on first mention), then gives each entity its most voted type. */
export function addMentionEntities(entities: Entities, mentions: Mention[]): void {
  for (const m of mentions) {
    let e = entities.get(m.key);
    if (!e) {
      e = { key: m.key, name: m.name, type: m.type, typeVotes: new Map(), sentences: [], firstMention: m };
      entities.set(m.key, e);
    }
    e.firstMention ??= m;
    e.typeVotes.set(m.type, (e.typeVotes.get(m.type) ?? 0) + (m.type === 'Entity' ? 0.5 : 1));
    if (e.sentences[e.sentences.length - 1] !== m.sent) e.sentences.push(m.sent);
  }
  for (const e of entities.values()) {
    let best = e.type;
    let bestV = -1;
    for (const [t, v] of e.typeVotes) if (v > bestV) [best, bestV] = [t, v];
    e.type = best;
  }
}

function truncate(s: string, max = DESCRIPTION_MAX_CHARS): string {
  const t = s.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[\s,;:]+$/, '')}\u2026`;
}

/**
 * The extracted entities with their descriptions: the first sentences of the passage for the title,
 * the sentences that mention it for any other entity.
 */
export function describeEntities(entities: Entities, keys: TitleKeys, sentTexts: string[], text: string, passageTitle: string): ExtractedEntity[] {
  const out: ExtractedEntity[] = [];
  for (const e of entities.values()) {
    let description: string;
    if (e.key === keys.titleKey || e.key === keys.aliasKey) {
      let d = '';
      for (const s of sentTexts) {
        if (d.length >= 120) break;
        d += (d ? ' ' : '') + s;
      }
      description = truncate(d || text);
    } else if (e.sentences.length > 0) {
      description = truncate(e.sentences.map((s) => sentTexts[s] ?? '').join(' '));
    } else {
      description = truncate(`${passageTitle}: ${sentTexts[0] ?? text}`);
    }
    out.push({ name: e.name, type: e.type, description });
  }
  return out;
}
