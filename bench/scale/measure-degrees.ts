/**
 * Measures the degree distributions the scale benchmark draws from: the 2Wiki corpus run
 * through the offline extractor (the same extraction the text ingest does), entities merged
 * on their normalised names as ingestion merges them. Writes bench/data/scale/degrees.json:
 * histograms of entities per passage, passages per entity (mention degree) and extracted
 * facts per entity (relation degree), plus the totals. No database, no embedder.
 *
 *   npx tsx bench/scale/measure-degrees.ts [--dataset bench/data/2wikimultihopqa] [--out bench/data/scale/degrees.json]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/config.js';
import { createExtractor } from '../../server/extractors/index.js';
import { normalizeName } from '../../server/graph/facts.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bench/data/2wikimultihopqa' },
    out: { type: 'string', default: 'bench/data/scale/degrees.json' },
  },
});

const histogram = (xs: Iterable<number>) => {
  const h: Record<string, number> = {};
  for (const x of xs) h[x] = (h[x] ?? 0) + 1;
  return h;
};

async function main() {
  const extractor = await createExtractor(loadConfig());
  const lines = fs
    .readFileSync(path.join(values.dataset!, 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const perPassage: number[] = [];
  const mentionDegree = new Map<string, number>();
  const relationDegree = new Map<string, number>();
  let facts = 0;
  for (const [i, line] of lines.entries()) {
    const p = JSON.parse(line) as { id: string; title: string; text: string };
    const x = await extractor.extract(p);
    const named = new Set(x.entities.map((e) => normalizeName(e.name)).filter(Boolean));
    perPassage.push(named.size);
    for (const k of named) mentionDegree.set(k, (mentionDegree.get(k) ?? 0) + 1);
    for (const r of x.relations) {
      const a = normalizeName(r.subject);
      const b = normalizeName(r.object);
      if (!a || !b || a === b) continue;
      facts++;
      relationDegree.set(a, (relationDegree.get(a) ?? 0) + 1);
      relationDegree.set(b, (relationDegree.get(b) ?? 0) + 1);
    }
    if (i % 500 === 0) process.stderr.write(`\r${i}/${lines.length}`);
  }
  const entities = new Set([...mentionDegree.keys(), ...relationDegree.keys()]);
  const out = {
    source: `${values.dataset} through the offline extractor (${extractor.id}), names merged by normalizeName`,
    passages: lines.length,
    entities: entities.size,
    mentions: perPassage.reduce((a, b) => a + b, 0),
    facts,
    entitiesPerPassage: histogram(perPassage),
    passagesPerEntity: histogram(mentionDegree.values()),
    // Entities with no fact have relation degree 0.
    factsPerEntity: histogram([...entities].map((e) => relationDegree.get(e) ?? 0)),
  };
  fs.mkdirSync(path.dirname(values.out!), { recursive: true });
  fs.writeFileSync(values.out!, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`\n${out.passages} passages, ${out.entities} entities, ${out.mentions} mentions, ${out.facts} facts -> ${values.out}`);
}

await main();
