import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** An import folder (docs/import.md) in a temporary directory: each file's rows, one JSON (or raw) line each. */
export function importFolder(files: Partial<Record<'passages' | 'entities' | 'mentions' | 'relationships', (object | string)[]>>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-'));
  for (const [kind, rows] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, `${kind}.jsonl`), `${rows!.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`);
  }
  return dir;
}

/** A unit vector of `dim` numbers pointing mostly along axis `k`. */
export const axis = (k: number, dim = 384): number[] => Array.from({ length: dim }, (_, i) => (i === k % dim ? 0.9 : 0.01));
