/**
 * What the running server and `graph-recall explain` need of the statement files: where they
 * are, and the `:param` block that sets a statement's parameters in Neo4j Browser or
 * cypher-shell. The files themselves are rendered by scripts/render-cypher.ts
 * (`npm run cypher:render`), which the server never loads.
 */
import path from 'node:path';
import { ROOT } from '../config.js';

/** The committed statement files (cypher/retrieve_*.cypher, cypher/ppr_projection.cypher). */
export const CYPHER_DIR = path.join(ROOT, 'cypher');

const SHORT_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * The body of a single-quoted Cypher string that reads back as `s` and stays on one line:
 * backslash, quote and the usual control characters get their short escapes; every other
 * control character (C0, DEL, C1), U+2028, U+2029 and lone surrogates become \uXXXX.
 */
function escapeString(s: string): string {
  return s.replace(
    /[\\'\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A Cypher literal for a parameter value (used in :param blocks only, never in statements). */
export function cypherLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return `'${escapeString(v)}'`;
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? v.toFixed(1).replace(/\.0$/, '') : String(v)) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(cypherLiteral).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : `\`${k.replaceAll('`', '``')}\``}: ${cypherLiteral(x)}`)
      .join(', ')}}`;
  }
  throw new Error(`cannot render ${typeof v} as Cypher`);
}

/** The `:param` lines that set every parameter, for Neo4j Browser or cypher-shell. */
export function paramBlock(values: Record<string, unknown>, expressions: Record<string, string> = {}): string {
  const lines = Object.entries(values).map(([k, v]) => `:param ${k} => ${cypherLiteral(v)};`);
  for (const [k, expr] of Object.entries(expressions)) lines.push(`:param ${k} => ${expr};`);
  return lines.join('\n');
}
