/**
 * Entity-linking precision and recall on the hand-checked fixture (test/fixtures/linking/), no database.
 *
 *   npx tsx bench/linking-eval.ts [--fixture path] [--hetionet dir] [--json] [--sweep]
 *
 * The dictionary is built from the Hetionet sample's entities (readHetionet, as a curated import
 * writes them). Each abstract's `title + "\n" + text` is embedded with the local embedder (the
 * passage embedding ingestion stores), and so is describeForEmbedding of every entity whose context
 * the linker checks (the description embedding a curated import stores). Then findMentions and
 * resolveMentions, as server/ingest/link.ts runs them.
 *
 * Scores:
 * - mention level: each mention the linker links is a prediction (entityId, span); it is right when a
 *   gold mention of that entity has an overlapping span (each gold mention matched once);
 * - entity level: per abstract, the set of linked entities against the set of gold entities, summed
 *   over abstracts (micro);
 * - traps: predictions touching an ordinary-word span of the fixture.
 * --sweep also scores a range of minContext values (same embeddings).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalEmbedder } from '../server/embedders/local.js';
import type { Embedder } from '../server/embedders/types.js';
import {
  buildDictionary,
  cosine,
  findMentions,
  type LINK_DEFAULTS,
  type Link,
  type LinkDictionary,
  type Mention,
  needsContext,
  resolveEach,
  resolveMentions,
} from '../server/ingest/linking.js';
import { describeForEmbedding } from '../server/ingest/resolution.js';
import { readHetionet } from '../server/ingest/sources/hetionet.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_FIXTURE = path.join(root, 'test/fixtures/linking/abstracts.jsonl');
export const DEFAULT_HETIONET = path.join(root, 'bench/data/hetionet');
/** Fixture ids are nodes.tsv ids; the graph's (and the linker's) are prefixed. */
const PREFIX = 'hetionet:';

interface Span {
  start: number;
  end: number;
  surface: string;
}
export interface FixtureAbstract {
  id: string;
  title: string;
  text: string;
  mentions: (Span & { entityId: string })[];
  traps?: Span[];
}

export interface MentionPrediction extends Span {
  abstract: string;
  entityId: string;
  confidence: number;
  method: string;
}

export interface Scores {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface LinkingEval {
  abstracts: number;
  gold: number;
  traps: number;
  dictionarySize: number;
  mention: Scores;
  entity: Scores;
  trapHits: MentionPrediction[];
  /** Wrong predictions: `kind` is trap (an ordinary-word span), wrong-entity (a gold span, another entity) or extra. */
  falsePositives: (MentionPrediction & { kind: 'trap' | 'wrong-entity' | 'extra'; gold?: string })[];
  /** Missed gold mentions: `why` is no-match (no dictionary span), dropped (matched, not linked) or other (linked elsewhere). */
  falseNegatives: (Span & { abstract: string; entityId: string; why: 'no-match' | 'dropped' | 'other'; detail: string })[];
  /** Per abstract: the links resolveMentions gives (one per entity), for the tests. */
  links: Map<string, Link[]>;
  predictions: MentionPrediction[];
  timing: { readMs: number; dictionaryMs: number; findMs: number; embedMs: number; resolveMs: number; texts: number };
}

export function readFixture(file = DEFAULT_FIXTURE): FixtureAbstract[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FixtureAbstract);
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
function scores(tp: number, fp: number, fn: number): Scores {
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return { tp, fp, fn, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** What the linker needs, computed once: dictionary, mentions, vectors. */
export interface Prepared {
  fixture: FixtureAbstract[];
  dict: LinkDictionary;
  names: Map<string, { name: string; type: string }>;
  mentions: Mention[][];
  passageVectors: number[][];
  descriptionVectors: Map<string, number[]>;
  timing: Omit<LinkingEval['timing'], 'resolveMs'>;
}

export async function prepare(opts: { fixture?: FixtureAbstract[]; hetionet?: string; embedder: Embedder }): Promise<Prepared> {
  const fixture = opts.fixture ?? readFixture();
  let t = performance.now();
  const graph = await readHetionet(opts.hetionet ?? DEFAULT_HETIONET);
  const readMs = performance.now() - t;
  t = performance.now();
  const dict = buildDictionary(graph.entities.map((e) => ({ id: e.id, name: e.name, type: e.type })));
  const dictionaryMs = performance.now() - t;
  const names = new Map(graph.entities.map((e) => [e.id, { name: e.name, type: e.type }]));
  t = performance.now();
  const texts = fixture.map((a) => `${a.title}\n${a.text}`);
  const mentions = texts.map((text) => findMentions(dict, text));
  const findMs = performance.now() - t;
  t = performance.now();
  const passageVectors = await opts.embedder.embed(texts, 'document');
  const ids = [...new Set(mentions.flatMap(needsContext))];
  const byId = new Map(graph.entities.map((e) => [e.id, e]));
  const vectors = await opts.embedder.embed(
    ids.map((id) => describeForEmbedding(byId.get(id)!)),
    'document',
  );
  const descriptionVectors = new Map(ids.map((id, i) => [id, vectors[i]]));
  const embedMs = performance.now() - t;
  return {
    fixture,
    dict,
    names,
    mentions,
    passageVectors,
    descriptionVectors,
    timing: { readMs, dictionaryMs, findMs, embedMs, texts: texts.length + ids.length },
  };
}

export function evaluate(p: Prepared, opts: Partial<typeof LINK_DEFAULTS> = {}): LinkingEval {
  const t = performance.now();
  const predictions: MentionPrediction[] = [];
  const links = new Map<string, Link[]>();
  let etp = 0;
  let efp = 0;
  let efn = 0;
  p.fixture.forEach((a, i) => {
    const vec = p.passageVectors[i];
    links.set(a.id, resolveMentions(p.mentions[i], vec, p.descriptionVectors, opts));
    // Each mention's own decision (resolveMentions merges these per entity).
    resolveEach(p.mentions[i], vec, p.descriptionVectors, opts).forEach((l, n) => {
      const m = p.mentions[i][n];
      if (l)
        predictions.push({ abstract: a.id, entityId: l.entityId, start: m.start, end: m.end, surface: m.surface, confidence: l.confidence, method: l.method });
    });
    const gold = new Set(a.mentions.map((g) => PREFIX + g.entityId));
    const got = new Set(links.get(a.id)!.map((l) => l.entityId));
    for (const id of got) gold.has(id) ? etp++ : efp++;
    for (const id of gold) if (!got.has(id)) efn++;
  });
  const resolveMs = performance.now() - t;

  const falsePositives: LinkingEval['falsePositives'] = [];
  const falseNegatives: LinkingEval['falseNegatives'] = [];
  const trapHits: MentionPrediction[] = [];
  let tp = 0;
  for (const [i, a] of p.fixture.entries()) {
    const preds = predictions.filter((x) => x.abstract === a.id);
    const matched = new Set<number>();
    for (const x of preds) {
      const g = a.mentions.findIndex((gm, n) => !matched.has(n) && PREFIX + gm.entityId === x.entityId && overlaps(gm, x));
      if (g >= 0) {
        matched.add(g);
        tp++;
        continue;
      }
      const trap = a.traps?.some((s) => overlaps(s, x));
      if (trap) trapHits.push(x);
      const other = a.mentions.find((gm) => overlaps(gm, x));
      falsePositives.push({ ...x, kind: trap ? 'trap' : other ? 'wrong-entity' : 'extra', gold: other?.entityId });
    }
    a.mentions.forEach((gm, n) => {
      if (matched.has(n)) return;
      const id = PREFIX + gm.entityId;
      const m = p.mentions[i].find((x) => overlaps(x, gm));
      const linked = preds.find((x) => overlaps(x, gm));
      let why: 'no-match' | 'dropped' | 'other' = 'no-match';
      let detail = 'no dictionary span';
      if (linked) {
        why = 'other';
        detail = `linked ${linked.entityId} on "${linked.surface}"`;
      } else if (m) {
        why = 'dropped';
        const cands = m.candidates.map((c) => {
          const v = p.descriptionVectors.get(c.id);
          const cos = v ? cosine(p.passageVectors[i], v) : Number.NaN;
          return `${c.type} "${c.name}"${c.weak ? ' weak' : ''} cos ${cos.toFixed(3)}`;
        });
        detail = `"${m.surface}" matched ${cands.join(', ')}${m.candidates.some((c) => c.id === id) ? '' : ' (gold entity not a candidate)'}`;
      }
      falseNegatives.push({ abstract: a.id, entityId: gm.entityId, start: gm.start, end: gm.end, surface: gm.surface, why, detail });
    });
  }
  const gold = p.fixture.reduce((s, a) => s + a.mentions.length, 0);
  return {
    abstracts: p.fixture.length,
    gold,
    traps: p.fixture.reduce((s, a) => s + (a.traps?.length ?? 0), 0),
    dictionarySize: p.dict.size,
    mention: scores(tp, predictions.length - tp, gold - tp),
    entity: scores(etp, efp, efn),
    trapHits,
    falsePositives,
    falseNegatives,
    links,
    predictions,
    timing: { ...p.timing, resolveMs },
  };
}

const pct = (x: number) => x.toFixed(3);

export function markdown(r: LinkingEval, names: Prepared['names']): string {
  const label = (id: string) => {
    const n = names.get(id.startsWith(PREFIX) ? id : PREFIX + id);
    return n ? `${n.type} "${n.name}"` : id;
  };
  const out: string[] = [];
  out.push(`${r.abstracts} abstracts, ${r.gold} gold mentions, ${r.traps} traps; dictionary of ${r.dictionarySize} curated names.`, '');
  out.push('| level | TP | FP | FN | precision | recall | F1 |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, s] of [
    ['mention', r.mention],
    ['entity (per abstract)', r.entity],
  ] as const) {
    out.push(`| ${name} | ${s.tp} | ${s.fp} | ${s.fn} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)} |`);
  }
  out.push('', `Traps linked: ${r.trapHits.length} of ${r.traps}.`, '');
  const t = r.timing;
  out.push(
    `Timing: read the sample ${t.readMs.toFixed(0)} ms, dictionary ${t.dictionaryMs.toFixed(0)} ms, findMentions ${t.findMs.toFixed(1)} ms (all abstracts), ` +
      `embedding ${t.texts} texts ${t.embedMs.toFixed(0)} ms, resolveMentions ${t.resolveMs.toFixed(1)} ms.`,
    '',
  );
  out.push(`### False positives (${r.falsePositives.length})`, '');
  for (const f of r.falsePositives) {
    const gold = f.gold ? ` (gold: ${label(f.gold)})` : '';
    out.push(`- ${f.abstract} [${f.kind}] "${f.surface}" -> ${label(f.entityId)}, ${f.method} ${f.confidence.toFixed(2)}${gold}`);
  }
  out.push('', `### False negatives (${r.falseNegatives.length})`, '');
  for (const f of r.falseNegatives) out.push(`- ${f.abstract} [${f.why}] "${f.surface}" = ${label(f.entityId)}: ${f.detail}`);
  return out.join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const embedder = await createLocalEmbedder({ workers: 1, threads: 1 });
  try {
    const prepared = await prepare({ fixture: readFixture(arg('--fixture') ?? DEFAULT_FIXTURE), hetionet: arg('--hetionet'), embedder });
    const r = evaluate(prepared);
    if (args.includes('--json')) {
      const { links, ...rest } = r;
      console.log(JSON.stringify({ ...rest, links: Object.fromEntries(links) }, null, 2));
    } else console.log(markdown(r, prepared.names));
    if (args.includes('--sweep')) {
      console.log('\n| minContext | mention P | mention R | entity P | entity R | traps linked |\n|---:|---:|---:|---:|---:|---:|');
      for (const minContext of [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]) {
        const s = evaluate(prepared, { minContext });
        console.log(
          `| ${minContext} | ${pct(s.mention.precision)} | ${pct(s.mention.recall)} | ${pct(s.entity.precision)} | ${pct(s.entity.recall)} | ${s.trapHits.length} |`,
        );
      }
    }
  } finally {
    await embedder.close?.();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
