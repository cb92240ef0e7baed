/**
 * Proxy quality metrics for the offline entity/relation extractor.
 *
 *   npx tsx bench/extractor-coverage.ts <datasetdir> [--json] [--limit N] [--misses N] [--concepts]
 *
 *   --json      one JSON object instead of the text report
 *   --limit N   only the first N passages (questions with a cut-off supporting passage are skipped)
 *   --misses N  list up to N answer misses and seed-reach misses
 *   --concepts  enable the extractor's optional common-noun 'Concept' entities
 *
 * <datasetdir> holds corpus.jsonl ({"id","title","text"} per line) and dev.jsonl
 * ({"id","question","answers":[...],"supporting_ids":[...]} per line).
 *
 * Reports:
 *  (a) answer coverage: share of dev questions (yes/no answers excluded) whose answer, by
 *      normalizeName, is the name of an entity extracted from its supporting passages; also
 *      the same share among questions whose answer occurs verbatim (normalised) in the
 *      supporting text, which is the ceiling for an extractor;
 *  (b) bridge connectivity: share of questions whose supporting passages are connected when
 *      two passages are linked by sharing a normalised entity ("all connected"), and share with
 *      at least one such pair ("any pair"); also the same without Date/Number entities;
 *  (c) question seeding: share of questions where an entity extracted from the question text
 *      is an entity of a supporting passage, and share where *every* supporting passage is
 *      reachable from such seeded passages through shared entities (what a graph walk needs;
 *      unlike (b) it also holds for comparison questions whose two sides are unrelated);
 *  (d) average entities and relations per passage, distinct entity keys, throughput;
 *  (e) title hops: of the passages whose text writes "directed / composed / produced / written by <Name>", the share
 *      whose title (or its short form, the disambiguator aside) has a fact with that verb's "_by" predicate, the hop
 *      "the director of X" asks for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOfflineExtractor } from '../server/extractors/offline/index.js';
import { parseTitle } from '../server/extractors/offline/entity-types.js';
import { normalizeName } from '../server/graph/facts.js';
import type { Extraction } from '../server/extractors/types.js';

interface Passage {
  id: string;
  title: string;
  text: string;
}
interface Question {
  id: string;
  type?: string;
  question: string;
  answers: string[];
  supporting_ids: string[];
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}% (${n}/${d})`;
}

/** Supporting passages linked when they share an entity key; `all`: one component, `any`: some pair linked,
 * `seeded`: every passage is reachable from a passage that contains a question entity. */
function connected(sets: Array<Set<string>>, seeds: Set<string> = new Set()): { all: boolean; any: boolean; seeded: boolean } {
  const n = sets.length;
  const start = sets.map((s, i) => ([...seeds].some((k) => s.has(k)) ? i : -1)).filter((i) => i >= 0);
  if (n < 2) return { all: true, any: true, seeded: start.length === n };
  const adj: number[][] = Array.from({ length: n }, () => []);
  let any = false;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      let share = false;
      for (const k of sets[i])
        if (sets[j].has(k)) {
          share = true;
          break;
        }
      if (share) {
        any = true;
        adj[i].push(j);
        adj[j].push(i);
      }
    }
  const reach = (from: number[]): number => {
    const seen = new Set<number>(from);
    const stack = [...from];
    while (stack.length) {
      for (const v of adj[stack.pop()!]) {
        if (!seen.has(v)) {
          seen.add(v);
          stack.push(v);
        }
      }
    }
    return seen.size;
  };
  return { all: reach([0]) === n, any, seeded: start.length > 0 && reach(start) === n };
}

export interface CoverageReport {
  dataset: string;
  passages: number;
  questions: number;
  seconds: number;
  passagesPerSecond: number;
  entitiesPerPassage: number;
  relationsPerPassage: number;
  distinctEntityKeys: number;
  answerCoverage: number;
  answerCoverageWhenInText: number;
  answerInTextRate: number;
  bridgeAllConnected: number;
  bridgeAnyPair: number;
  bridgeAllConnectedNoDates: number;
  questionSeeding: number;
  seedReach: number;
  /** (e), per verb: passages that write "<verb> by <Name>", and those whose title has the fact. */
  titleHops: Record<string, { n: number; hit: number }>;
}

/** The verbs of section (e), written "<verb> by <Name>". */
const TITLE_HOP_VERBS = ['directed', 'composed', 'produced', 'written'];

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir || dir.startsWith('--')) {
    console.error('usage: npx tsx bench/extractor-coverage.ts <datasetdir> [--json] [--limit N] [--misses N] [--concepts]');
    process.exit(2);
  }
  const limit = Number(argValue('--limit') ?? 0);
  const showMisses = Number(argValue('--misses') ?? 0);
  const asJson = process.argv.includes('--json');
  let corpus = readJsonl<Passage>(join(dir, 'corpus.jsonl'));
  if (limit > 0) corpus = corpus.slice(0, limit);
  const dev = readJsonl<Question>(join(dir, 'dev.jsonl'));
  const extractor = createOfflineExtractor({ concepts: process.argv.includes('--concepts') });

  const byId = new Map<string, { p: Passage; x: Extraction; keys: Set<string>; keysNoDates: Set<string> }>();
  let ents = 0;
  let rels = 0;
  const allKeys = new Set<string>();
  await extractor.extract({ id: 'warm-up', title: 'Warm Up', text: 'The NLP model loads on first use.' }); // not timed
  const t0 = performance.now();
  for (const p of corpus) {
    const x = await extractor.extract(p);
    const keys = new Set(x.entities.map((e) => normalizeName(e.name)));
    const keysNoDates = new Set(x.entities.filter((e) => e.type !== 'Date' && e.type !== 'Number').map((e) => normalizeName(e.name)));
    byId.set(p.id, { p, x, keys, keysNoDates });
    ents += x.entities.length;
    rels += x.relations.length;
    for (const k of keys) allKeys.add(k);
  }
  const seconds = (performance.now() - t0) / 1000;
  const titleHops = new Map<string, { n: number; hit: number }>();
  for (const { p, x } of byId.values()) {
    const verb = TITLE_HOP_VERBS.find((v) => new RegExp(`\\b${v} by \\p{Lu}`, 'u').test(p.text));
    if (!verb) continue;
    const title = normalizeName(p.title);
    const short = normalizeName(parseTitle(p.title).short);
    const th = titleHops.get(verb) ?? { n: 0, hit: 0 };
    th.n++;
    const stem = verb.slice(0, 4);
    if (x.relations.some((r) => r.predicate.includes(stem) && r.predicate.endsWith('_by') && [title, short].includes(normalizeName(r.subject)))) th.hit++;
    titleHops.set(verb, th);
  }

  let answerable = 0;
  let covered = 0;
  let inText = 0;
  let coveredInText = 0;
  let bridgeAll = 0;
  let bridgeAny = 0;
  let bridgeAllNoDates = 0;
  let seeded = 0;
  let seedReach = 0;
  let counted = 0;
  const byType = new Map<string, { n: number; all: number; reach: number }>();
  const misses: string[] = [];
  const bridgeMisses: string[] = [];
  for (const q of dev) {
    const sup = q.supporting_ids.map((id) => byId.get(id)).filter((v) => v !== undefined);
    if (sup.length !== q.supporting_ids.length) continue; // --limit cut some supporting passages off
    counted++;
    const supKeys = new Set<string>();
    for (const s of sup) for (const k of s.keys) supKeys.add(k);
    const supText = ` ${normalizeName(sup.map((s) => `${s.p.title} ${s.p.text}`).join(' '))} `;
    const answers = q.answers.map(normalizeName).filter((a) => a && a !== 'yes' && a !== 'no');
    if (answers.length > 0) {
      answerable++;
      const hit = answers.some((a) => supKeys.has(a));
      const present = answers.some((a) => supText.includes(` ${a} `));
      if (hit) covered++;
      if (present) {
        inText++;
        if (hit) coveredInText++;
        else if (misses.length < showMisses) misses.push(`${q.answers[0]}  <-  ${q.question}`);
      }
    }
    const qx = await extractor.extract({ id: q.id, title: '', text: q.question });
    const qKeys = new Set(qx.entities.map((e) => normalizeName(e.name)));
    if ([...qKeys].some((k) => supKeys.has(k))) seeded++;
    const c = connected(
      sup.map((s) => s.keys),
      qKeys,
    );
    if (c.seeded) seedReach++;
    const bt = byType.get(q.type ?? '-') ?? { n: 0, all: 0, reach: 0 };
    bt.n++;
    if (c.all) bt.all++;
    if (c.seeded) bt.reach++;
    byType.set(q.type ?? '-', bt);
    if (c.all) bridgeAll++;
    if (!c.seeded && bridgeMisses.length < showMisses)
      bridgeMisses.push(`${q.question}  [${sup.map((s) => s.p.title).join(' | ')}]  q-entities: ${[...qKeys].join(', ')}`);
    if (c.any) bridgeAny++;
    if (connected(sup.map((s) => s.keysNoDates)).all) bridgeAllNoDates++;
  }

  const report: CoverageReport = {
    dataset: dir.replace(/\/+$/, '').split('/').pop() ?? dir,
    passages: corpus.length,
    questions: counted,
    seconds: Number(seconds.toFixed(2)),
    passagesPerSecond: Math.round(corpus.length / seconds),
    entitiesPerPassage: Number((ents / corpus.length).toFixed(2)),
    relationsPerPassage: Number((rels / corpus.length).toFixed(2)),
    distinctEntityKeys: allKeys.size,
    answerCoverage: Number((covered / Math.max(1, answerable)).toFixed(3)),
    answerCoverageWhenInText: Number((coveredInText / Math.max(1, inText)).toFixed(3)),
    answerInTextRate: Number((inText / Math.max(1, answerable)).toFixed(3)),
    bridgeAllConnected: Number((bridgeAll / Math.max(1, counted)).toFixed(3)),
    bridgeAnyPair: Number((bridgeAny / Math.max(1, counted)).toFixed(3)),
    bridgeAllConnectedNoDates: Number((bridgeAllNoDates / Math.max(1, counted)).toFixed(3)),
    questionSeeding: Number((seeded / Math.max(1, counted)).toFixed(3)),
    seedReach: Number((seedReach / Math.max(1, counted)).toFixed(3)),
    titleHops: Object.fromEntries(titleHops),
  };
  if (asJson) {
    console.log(JSON.stringify(report));
    return;
  }
  console.log(`dataset ${report.dataset}: ${corpus.length} passages, ${counted} questions, extractor ${extractor.id}`);
  console.log(`  throughput            ${report.passagesPerSecond} passages/s (${report.seconds}s)`);
  console.log(
    `  entities/passage      ${report.entitiesPerPassage}   relations/passage ${report.relationsPerPassage}   distinct keys ${report.distinctEntityKeys}`,
  );
  console.log(`  (a) answer coverage   ${pct(covered, answerable)} of non-yes/no; ${pct(coveredInText, inText)} where answer is in supporting text`);
  console.log(
    `  (b) bridge connected  all: ${pct(bridgeAll, counted)}  any pair: ${pct(bridgeAny, counted)}  all w/o dates+numbers: ${pct(bridgeAllNoDates, counted)}`,
  );
  console.log(
    `  (c) question seeding  ${pct(seeded, counted)} share an entity with a supporting passage; all supporting passages reachable from seeds: ${pct(seedReach, counted)}`,
  );
  if (byType.size > 1)
    for (const [t, v] of byType) console.log(`      ${t.padEnd(18)} n=${v.n}  connected ${pct(v.all, v.n)}  reachable from question ${pct(v.reach, v.n)}`);
  console.log(`  (e) title hops        ${[...titleHops].map(([v, th]) => `${v} by: ${pct(th.hit, th.n)}`).join('  ')}`);
  if (showMisses > 0) {
    console.log('  answer misses (answer in text, not an entity):');
    for (const m of misses) console.log(`    - ${m}`);
    console.log('  seed-reach misses (some supporting passage not reachable from the question entities):');
    for (const m of bridgeMisses) console.log(`    - ${m}`);
  }
}

await main();
