/**
 * The graph's shared facts: what every layer (extraction, ingestion,
 * retrieval, configuration) must agree on. One home, so a change here
 * changes it everywhere.
 */

/** A relationship type, label or property name spliced into Cypher must be a plain identifier. */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A GDS graph name (never spliced: passed as a parameter, but kept readable). */
export const GRAPH_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

export const isIdentifier = (s: string): boolean => IDENTIFIER_PATTERN.test(s);

/** Defaults shared by the configuration, the statements' parameters and the projection. */
export const DEFAULT_PPR_GRAPH_NAME = 'graph_recall_ppr';
export const DEFAULT_TRAVERSE_TYPES: readonly string[] = ['RELATED', 'SAME_AS'];
/** Relationship types every ppr projection holds (curated graphs add their own). */
export const PROJECTION_TYPES: readonly string[] = ['MENTIONS', 'RELATED', 'SAME_AS'];

/**
 * Predicate of a relation that says two names denote the same thing ("Emperor Itzcoatl" / "Itzcoatl",
 * "Publix Super Markets, Inc., commonly known as Publix", "Sam Cooke (born Samuel Cook)"); the ingest
 * pipeline turns it into a SAME_AS edge.
 */
export const ALIAS_PREDICATE = 'alias';

/** Entity types whose values are literals: "20 May 1975" is not "17 May 1975", however close their embeddings. */
export const VALUE_TYPES: readonly string[] = ['Date', 'Number', 'Money', 'Percent'];
/**
 * Types that never take part in identity (no synonym edges) and are never a
 * relation's subject: the value types plus nationalities ("American", "1975").
 */
export const LITERAL_TYPES: readonly string[] = [...VALUE_TYPES, 'Nationality'];

/** The words of a parent-child predicate: a parent's ("father_of") and a child's ("son_of"). */
export const KIN_PARENT_WORDS: readonly string[] = ['father', 'mother', 'parent'];
export const KIN_CHILD_WORDS: readonly string[] = ['son', 'daughter', 'child'];

/**
 * Relation words a question writes without their stem: a question word of a pair's first list writes a predicate
 * holding a word of its second. Kinship only. The fact seeds' written-predicate test reads it beside the shared-stem
 * rule (docs/statements.md#fact-seeds).
 * - From the other end: "Bea Ballard's father" writes "Bea Ballard daughter_of J. G. Ballard" (a page states its
 *   subject's kin from its own side).
 * - Kin two hops away, by its first hop: a grandparent's or grandchild's is a parent or a child, a parent-in-law's and
 *   a sibling-in-law's a spouse (or, for a sibling-in-law, a sibling), a child-in-law's a child. The question's
 *   "<kin> in law" is read as one word, "<kin>-in-law" (IN_LAW_KIN), so "mother" alone does not write a parent there.
 */
export const CONVERSE_WORDS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [['father', 'mother', 'parent', 'parents'], KIN_CHILD_WORDS],
  [['son', 'daughter', 'child', 'children'], KIN_PARENT_WORDS],
  [
    ['husband', 'wife', 'spouse'],
    ['marry', 'married', 'husband', 'wife', 'spouse'],
  ],
  [
    [
      'grandfather',
      'grandmother',
      'grandparent',
      'grandparents',
      'grandson',
      'granddaughter',
      'grandchild',
      'grandchildren',
      'son-in-law',
      'daughter-in-law',
      'child-in-law',
    ],
    [...KIN_PARENT_WORDS, ...KIN_CHILD_WORDS],
  ],
  [
    ['father-in-law', 'mother-in-law', 'parent-in-law'],
    ['marry', 'married', 'husband', 'wife', 'spouse'],
  ],
  [
    ['brother-in-law', 'sister-in-law', 'sibling-in-law'],
    ['marry', 'married', 'husband', 'wife', 'spouse', 'brother', 'sister', 'sibling'],
  ],
];

/**
 * The way a kin word points from the person it is asked of, and so which end of a parent-child fact that person must
 * be. A pair's first list asks for an ancestor ("X's father", "X's grandmother": a parent is the first hop), the second
 * for a descendant ("X's son", "X's grandson", "X's son-in-law": a child is). A parent word's subject is the parent
 * (father_of, KIN_PARENT_WORDS), a child word's subject the child (son_of, KIN_CHILD_WORDS). So "Gothelo's
 * grandmother" writes "Gothelo son_of Godfrey" and "Godfrey father_of Gothelo", not "Godfrey son_of Gothelo": the fact
 * seeds' written-predicate test applies it to the shared stem and to CONVERSE_WORDS alike
 * (docs/statements.md#fact-seeds).
 */
export const KIN_DIRECTIONS: readonly (readonly string[])[] = [
  ['father', 'mother', 'parent', 'parents', 'grandfather', 'grandmother', 'grandparent', 'grandparents'],
  ['son', 'daughter', 'child', 'children', 'grandson', 'granddaughter', 'grandchild', 'grandchildren', 'son-in-law', 'daughter-in-law', 'child-in-law'],
];

/**
 * Gendered kin words and the person titles that give a name's gender: a question's "father" is not a fact's far end
 * titled "Princess" ("Daughter of King Constantine I of Greece and his wife, Princess Sophia of Prussia": both are
 * daughter_of facts, the father is the king). A pair: the kin words, then the titles a name of that gender holds
 * (any of its words: "Mary of Burgundy, Duchess of Cleves").
 */
export const KIN_GENDERS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [
    ['father', 'husband', 'son', 'brother'],
    ['king', 'prince', 'duke', 'count', 'earl', 'baron', 'lord', 'sir', 'emperor', 'archduke', 'margrave', 'landgrave', 'elector', 'tsar', 'infante', 'mr'],
  ],
  [
    ['mother', 'wife', 'daughter', 'sister'],
    [
      'queen',
      'princess',
      'duchess',
      'countess',
      'baroness',
      'lady',
      'dame',
      'empress',
      'archduchess',
      'margravine',
      'landgravine',
      'electress',
      'tsarina',
      'infanta',
      'mrs',
      'ms',
      'miss',
    ],
  ],
];

/**
 * A side of the family, and the kin word whose gender it gives the kin word after it: a "paternal grandmother" is
 * reached through a father, so that hop is not a name titled for a woman only (KIN_GENDERS); "maternal" likewise.
 */
export const KIN_SIDES: readonly (readonly [string, string])[] = [
  ['paternal', 'father'],
  ['maternal', 'mother'],
];

/**
 * The kin words CONVERSE_WORDS lists with "-in-law": a question's "<kin> in law" (its words lowercased, punctuation gone)
 * is read as the one word "<kin>-in-law".
 */
export const IN_LAW_KIN: readonly string[] = CONVERSE_WORDS.flatMap(([asked]) =>
  asked.filter((w) => w.endsWith('-in-law')).map((w) => w.slice(0, -'-in-law'.length)),
);

/**
 * Canonical matching key for an entity name. Deterministic, idempotent
 * (normalizeName(normalizeName(x)) === normalizeName(x)); entities are merged on it.
 *
 * Steps, in order:
 *  1. Unicode NFKD and removal of combining marks (accents: "Université" -> "universite").
 *  2. Lowercase.
 *  3. Typographic quotes/apostrophes -> ASCII; "&" -> " and ".
 *  4. Thousands separators between digits dropped ("273,282" -> "273282").
 *  5. Possessives dropped: "x's" -> "x", "xs'" -> "xs" ("The Beatles'" -> "the beatles");
 *     remaining apostrophes removed ("O'Brien" -> "obrien").
 *  6. Dots removed unless between digits ("U.S." -> "us", "St. Louis" -> "st louis", "5.1" kept).
 *  7. Every other non-letter/non-digit character -> space; whitespace collapsed and trimmed.
 *  8. One leading article ("the", "a", "an") removed when something follows it.
 */
export function normalizeName(name: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  s = s.replace(/[\u2018\u2019\u201a\u201b\u02bc\u02b9\u0060\u00b4\u2032]/g, "'").replace(/&/g, ' and ');
  s = s.replace(/(\d),(?=\d{3}(?!\d))/g, '$1');
  s = s.replace(/([\p{L}\p{N}])'s(?![\p{L}\p{N}])/gu, '$1').replace(/s'(?![\p{L}\p{N}])/gu, 's');
  s = s.replace(/'/g, '');
  s = s.replace(/(?<!\d)\.|\.(?!\d)/g, '');
  s = s
    .replace(/[^\p{L}\p{N}.]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  s = s.replace(/^(?:the|a|an) (?=\S)/, '');
  return s;
}

/** An extracted entity's id: its normalised name, so the same name merges across documents. */
export function entityId(name: string): string {
  return `e:${normalizeName(name)}`;
}

/**
 * Marks the graph as changed (the ppr projection compares its creation time
 * with this). Append it to any write statement, or run it alone in the same
 * transaction.
 */
export const TOUCH_GRAPH = "MERGE (m:GraphRecallMeta {key: 'graph'}) SET m.updatedAt = datetime()";
