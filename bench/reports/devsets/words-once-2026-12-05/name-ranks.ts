/**
 * Where the names a dev question writes rank among the entity_name index's hits for the seed mapping's full-text
 * query, as the statements search it (each word as often as the question repeats it) and with each word once.
 * A name counts if the question writes it whole (its words, lowercased) and, in a question with a capital past its
 * first word, one of its capitalised words is one of those; "maximal" names are not inside another matched name.
 * Opens the eval database of the set (it must have been built by `npm run eval` first); run nothing else on it.
 *
 *   npx tsx bench/reports/devsets/words-once-2026-12-05/name-ranks.ts <set>
 */
import fs from 'node:fs';
import { datasetFiles, openCorpus } from '../../../database.js';
import { loadConfig } from '../../../../server/config.js';
import { createEmbedder } from '../../../../server/embedders/index.js';

const set = process.argv[2] ?? 'musique';
const cfg = loadConfig();
const embedder = await createEmbedder(cfg);
const files = datasetFiles(`bench/data/${set}`);
const { db, store } = await openCorpus(cfg, embedder, `bench/data/${set}`, files.corpus);
const questions = fs
  .readFileSync(files.devFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { question: string });

const statement = (once: boolean) => `
WITH ' ' + trim(apoc.text.regreplace(toLower($question), '[^\\\\p{L}\\\\p{N}]+', ' ')) + ' ' AS q,
     split(trim(apoc.text.regreplace($question, '[^\\\\p{L}\\\\p{N}]+', ' ')), ' ') AS words,
     [w IN split(apoc.text.regreplace(toLower($question), "[^\\\\p{L}\\\\p{N}'\u2019]+", ' '), ' ') WHERE w =~ "\\\\p{L}+['\u2019]\\\\p{L}+"] AS apostrophed
WITH q, apostrophed, [w IN words[1..] WHERE w =~ '\\\\p{Lu}.*' | toLower(w)] AS innerCaps,
     split(trim(q + apoc.text.join(apostrophed, ' ')), ' ') AS terms
WITH q, innerCaps, ${once ? 'reduce(o = [], w IN terms | CASE WHEN w IN o THEN o ELSE o + w END)' : 'terms'} AS terms
CALL db.index.fulltext.queryNodes('entity_name', apoc.text.join(terms[0..256], ' '), {limit: 100000}) YIELD node
WITH q, innerCaps, collect(node) AS nodes
UNWIND range(0, size(nodes) - 1) AS i
WITH q, innerCaps, nodes[i] AS node, i, ' ' + trim(apoc.text.regreplace(toLower(nodes[i].name), '[^\\\\p{L}\\\\p{N}]+', ' ')) + ' ' AS nameWords
WHERE size(node.name) >= 3 AND q CONTAINS nameWords AND node.name <> toLower(node.name)
WITH node, i, [w IN split(trim(apoc.text.regreplace(node.name, '[^\\\\p{L}\\\\p{N}]+', ' ')), ' ') WHERE w =~ '\\\\p{Lu}.*' | toLower(w)] AS nameCaps, innerCaps
WHERE size(innerCaps) = 0 OR any(w IN nameCaps WHERE w IN innerCaps)
RETURN collect([node.name, i]) AS names`;

for (const once of [false, true]) {
  const ranks: number[] = [];
  const far: string[] = [];
  for (const q of questions) {
    const names = (await store.read(statement(once), { question: q.question })).records[0].get('names') as [string, unknown][];
    for (const [n, i] of names) {
      ranks.push(Number(i));
      const maximal = !names.some(([o]) => o !== n && o.toLowerCase().includes(n.toLowerCase()));
      if (maximal && Number(i) >= 50) far.push(`${n}@${Number(i) + 1}`);
    }
  }
  ranks.sort((a, b) => a - b);
  console.log(
    `${set}, ${once ? 'each word once' : 'as the statements search'}: ${ranks.length} names, rank p50 ${ranks[Math.floor(ranks.length / 2)] + 1}, p90 ${ranks[Math.floor(ranks.length * 0.9)] + 1}, max ${ranks.at(-1)! + 1}; beyond the first 50: ${ranks.filter((r) => r >= 50).length}, of them maximal: ${far.join(', ') || 'none'}`,
  );
}
await store.driver.close();
db.stop();
await embedder.close?.();
