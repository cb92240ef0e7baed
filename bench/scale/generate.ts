/**
 * A graph of N passages shaped like the real ones, as bulk-import rows (server/ingest/import):
 * - entities per passage and passages per entity drawn from the 2Wiki degree histograms
 *   (bench/data/scale/degrees.json, measure-degrees.ts); the hub tail (entities of 2Wiki mentioned
 *   by >= HUB_MIN passages) keeps its share of the passages, so hubs grow with the corpus;
 * - extracted facts (RELATED) between the entities of a passage, 2Wiki's facts per mention;
 * - a curated layer shaped like Hetionet: its node kinds and 24 metaedges at counts scaled from
 *   metanodes.tsv / metaedges.tsv by min(1, N / curatedFull), endpoints skewed within their kind
 *   (each metaedge's source and target node counts respected), 2.25 M edges at full size;
 *   each passage links to CURATED_LINKS curated entities on average;
 * - every vector a perturbation of a real embedding (base-vectors.ts): a passage of a 2Wiki
 *   passage, an entity of a 2Wiki title, a fact of its two entities; entities a question names
 *   are perturbations of that question's embedding.
 * Vectors are computed when a row is emitted (a function of the row's index), never held.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/config.js';
import type { EntityRow, ImportSource, MentionRow, PassageRow, RelationshipRow } from '../../server/ingest/import/types.js';
import { rng } from '../lib/random.js';
import type { BaseVectors } from './base-vectors.js';

const HUB_MIN = 100;
const CURATED_LINKS = 2;
const NOISE_POOL = 1024;
const PREDICATES = ['born in', 'director', 'spouse', 'country', 'member of', 'educated at', 'located in', 'award received', 'father', 'publisher', 'performer'];
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 've', 'tu', 'sa', 'no', 'di', 'pe', 'go', 'ri', 'ba', 'le', 'zu', 'fo', 'ne', 'xi', 'ha', 'mo'];

interface Degrees {
  passages: number;
  mentions: number;
  facts: number;
  entitiesPerPassage: Record<string, number>;
  passagesPerEntity: Record<string, number>;
}

/** Draws from a histogram {value: count}. */
function sampler(h: Record<string, number>, rand: () => number, keep: (v: number) => boolean = () => true): () => number {
  const entries = Object.entries(h)
    .map(([v, c]) => [Number(v), c] as const)
    .filter(([v]) => keep(v));
  const total = entries.reduce((n, [, c]) => n + c, 0);
  const cum = new Float64Array(entries.length);
  entries.reduce((acc, [, c], i) => (cum[i] = acc + c / total), 0);
  return () => {
    const u = rand();
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return entries[lo][0];
  };
}

/** A unique pronounceable word for an index ("Kalomi"). */
function codeWord(i: number): string {
  let s = '';
  let x = i + SYLLABLES.length;
  while (x > 0) {
    s += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  }
  return s[0].toUpperCase() + s.slice(1);
}

interface Csr {
  offsets: Int32Array;
  targets: Int32Array;
}
const row = (c: Csr, i: number) => c.targets.subarray(c.offsets[i], c.offsets[i + 1]);

function toCsr(lists: number[][]): Csr {
  const offsets = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = offsets[i] + lists[i].length;
  const targets = new Int32Array(offsets[lists.length]);
  for (let i = 0; i < lists.length; i++) targets.set(lists[i], offsets[i]);
  return { offsets, targets };
}

export interface CuratedType {
  type: string;
  predicate: string;
  from: Int32Array;
  to: Int32Array;
}

export interface ScaleQuestion {
  text: string;
  embedding: number[];
  /** Entity ids the question names. */
  named: string[];
}

export interface ScaleGraph {
  passages: number;
  entities: number;
  curatedEntities: number;
  mentions: number;
  facts: number;
  curatedEdges: number;
  curatedTypes: string[];
  questions: ScaleQuestion[];
  source: ImportSource;
  /** Entities by passage-degree, the largest first (the hubs), for the report. */
  topDegrees: number[];
}

export interface ScaleOptions {
  passages: number;
  questions: number;
  seed?: number;
  /** Passages at which the curated layer reaches Hetionet's full size (ENGRAM: about 50 k abstracts). */
  curatedFull?: number;
}

function readTsv(file: string): Record<string, string>[] {
  const [head, ...lines] = fs.readFileSync(file, 'utf8').trim().split('\n');
  const cols = head.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((c, i) => [cols[i], c])));
}

export function generateScaleGraph(base: BaseVectors, opts: ScaleOptions): ScaleGraph {
  const N = opts.passages;
  const rand = rng(opts.seed ?? 1);
  const deg = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/data/scale/degrees.json'), 'utf8')) as Degrees;
  const scale = N / deg.passages;
  const dim = base.dimension;

  // ---- extracted entities and their target mention degrees
  const hubDegrees = Object.entries(deg.passagesPerEntity).flatMap(([d, c]) => (Number(d) >= HUB_MIN ? Array(c).fill(Number(d)) : []));
  const nonHubCount = Object.entries(deg.passagesPerEntity).reduce((n, [d, c]) => n + (Number(d) < HUB_MIN ? c : 0), 0);
  const drawDegree = sampler(deg.passagesPerEntity, rand, (d) => d < HUB_MIN);
  const degrees: number[] = hubDegrees.map((d) => Math.min(N, Math.round(d * scale)));
  for (let i = Math.round(nonHubCount * scale); i > 0; i--) degrees.push(drawDegree());
  const E = degrees.length;
  const stubs = new Int32Array(degrees.reduce((a, b) => a + b, 0));
  let at = 0;
  degrees.forEach((d, e) => {
    for (let k = 0; k < d; k++) stubs[at++] = e;
  });

  // ---- passages: their entities (drawn by degree) and facts among them
  const drawK = sampler(deg.entitiesPerPassage, rand);
  const factsPerMention = deg.facts / deg.mentions;
  const ents: number[][] = [];
  const facts: number[][] = [];
  let mentionCount = 0;
  let factCount = 0;
  for (let p = 0; p < N; p++) {
    const k = drawK();
    const set = new Set<number>();
    for (let t = 0; t < k * 2 && set.size < k; t++) set.add(stubs[Math.floor(rand() * stubs.length)]);
    const list = [...set];
    ents.push(list);
    mentionCount += list.length;
    const f: number[] = [];
    const seen = new Set<string>();
    const nf = list.length < 2 ? 0 : Math.round(list.length * factsPerMention);
    for (let t = 0; t < nf * 2 && f.length < 3 * nf; t++) {
      const a = rand() < 0.5 ? list[0] : list[Math.floor(rand() * list.length)];
      const b = list[Math.floor(rand() * list.length)];
      const pred = Math.floor(rand() * PREDICATES.length);
      const key = `${a}/${b}/${pred}`;
      if (a === b || seen.has(key)) continue;
      seen.add(key);
      f.push(a, b, pred);
    }
    facts.push(f);
    factCount += f.length / 3;
  }
  const mentionCsr = toCsr(ents);
  const factCsr = toCsr(facts);

  // ---- the curated layer (Hetionet-shaped)
  const s = Math.min(1, N / (opts.curatedFull ?? 50000));
  const het = path.join(ROOT, 'bench/data/hetionet');
  const kinds = readTsv(path.join(het, 'metanodes.tsv')).map((k) => ({ name: k.metanode, count: Math.max(1, Math.round(Number(k.nodes) * s)) }));
  const kindStart = new Map<string, number>();
  let C = 0;
  for (const k of kinds) {
    kindStart.set(k.name, E + C);
    C += k.count;
  }
  const kindCount = new Map(kinds.map((k) => [k.name, k.count]));
  const kindOf: string[] = kinds.flatMap((k) => Array(k.count).fill(k.name));
  const curated: CuratedType[] = [];
  for (const m of readTsv(path.join(het, 'metaedges.tsv'))) {
    const [src, verb, dst] = m.metaedge.split(/\s+[-<>]\s+/);
    const type = `${verb.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${m.abbreviation.replace(/[^A-Za-z0-9_]/g, '_')}`;
    const count = Math.round(Number(m.edges) * s);
    // Sources and targets among the first source_nodes / target_nodes of their kind (scaled), skewed.
    const ns = Math.max(1, Math.min(kindCount.get(src)!, Math.round(Number(m.source_nodes) * s)));
    const nt = Math.max(1, Math.min(kindCount.get(dst)!, Math.round(Number(m.target_nodes) * s)));
    const from = new Int32Array(count);
    const to = new Int32Array(count);
    const seen = new Set<number>();
    let n = 0;
    for (let t = 0; t < count * 3 && n < count; t++) {
      const a = Math.floor(ns * rand() ** 2);
      const b = Math.floor(nt * rand() ** 1.5);
      if ((src === dst && a === b) || seen.has(a * nt + b)) continue;
      seen.add(a * nt + b);
      from[n] = kindStart.get(src)! + a;
      to[n] = kindStart.get(dst)! + b;
      n++;
    }
    curated.push({ type, predicate: verb, from: from.subarray(0, n), to: to.subarray(0, n) });
  }
  const curatedEdges = curated.reduce((n, c) => n + c.from.length, 0);
  const links: number[][] = Array.from({ length: N }, () => {
    const k = Math.floor(rand() * (2 * CURATED_LINKS + 1));
    return [...new Set(Array.from({ length: k }, () => E + Math.floor(C * rand() ** 2)))];
  });
  const linkCsr = toCsr(links);

  // ---- vectors
  const noiseRand = rng((opts.seed ?? 1) + 7);
  const gauss = () => Math.sqrt(-2 * Math.log(noiseRand() || 1e-12)) * Math.cos(2 * Math.PI * noiseRand());
  const noise = Array.from({ length: NOISE_POOL }, () => {
    const v = Array.from({ length: dim }, gauss);
    const n = Math.hypot(...v);
    return Float32Array.from(v, (x) => x / n);
  });
  const mix = (parts: [ArrayLike<number>, number][]): number[] => {
    const out = new Array<number>(dim).fill(0);
    for (const [v, w] of parts) for (let d = 0; d < dim; d++) out[d] += w * v[d];
    let n = 0;
    for (let d = 0; d < dim; d++) n += out[d] * out[d];
    n = Math.sqrt(n);
    for (let d = 0; d < dim; d++) out[d] /= n;
    return out;
  };
  const h = (i: number, salt: number) => (Math.imul(i + 1, 2654435761) ^ Math.imul(salt, 40503)) >>> 0;
  const noisy = (i: number, salt: number, sigma: number): [ArrayLike<number>, number][] => [
    [noise[h(i, salt) % NOISE_POOL], sigma * 0.8],
    [noise[h(i, salt + 1) % NOISE_POOL], sigma * 0.6],
  ];

  // ---- questions: real question embeddings naming two entities of a passage (a fact between them where there is one)
  const questions: ScaleQuestion[] = [];
  const override = new Map<number, number[]>();
  const order = base.questions.map((_, i) => i);
  for (let q = 0; q < opts.questions; q++) {
    const bq = base.questions[order[q % order.length]];
    let p = 0;
    for (let t = 0; t < 100; t++) {
      p = Math.floor(rand() * N);
      const f = row(factCsr, p);
      const a = f[0];
      if (f.length >= 3 && degrees[a] < HUB_MIN && !override.has(a) && !override.has(f[1])) break;
    }
    const f = row(factCsr, p);
    const named = f.length >= 3 ? [f[0], f[1]] : [...row(mentionCsr, p)].slice(0, 2);
    for (const [k, e] of named.entries()) override.set(e, mix([[bq.v, 1], ...noisy(e, 90 + k, 0.35)]));
    questions.push({ text: '', embedding: bq.v, named: named.map((e) => `e${e}`) });
  }
  const nameOf = (e: number) => `${base.names[h(e, 3) % base.names.length].name} ${codeWord(e)}`;
  const curatedName = (c: number) => `${kindOf[c - E].split(' ')[0]} ${codeWord(c)}`;
  questions.forEach((q, i) => {
    const [a, b] = q.named.map((id) => nameOf(Number(id.slice(1))));
    q.text = `${base.questions[order[i % order.length]].text} (${b ? `${a} and ${b}` : a})`;
  });
  const entityVector = (e: number) =>
    override.get(e) ??
    (e < E ? mix([[base.names[h(e, 3) % base.names.length].v, 1], ...noisy(e, 5, 0.6)]) : mix([[noise[h(e, 11) % NOISE_POOL], 1], ...noisy(e, 12, 0.6)]));

  const source: ImportSource = {
    async *entities(): AsyncGenerator<EntityRow> {
      for (let e = 0; e < E + C; e++) {
        const v = entityVector(e);
        const curatedE = e >= E;
        yield {
          id: curatedE ? `c${e}` : `e${e}`,
          name: curatedE ? curatedName(e) : nameOf(e),
          type: curatedE ? kindOf[e - E] : 'Thing',
          description: curatedE ? `${kindOf[e - E]} of the curated graph` : '',
          curated: curatedE,
          embedding: v,
          descriptionEmbedding: mix([[v, 1], ...noisy(e, 21, 0.3)]),
        };
      }
    },
    async *passages(): AsyncGenerator<PassageRow> {
      // A title names one page, as in the real corpora (2Wiki's titles are unique): the first of the passage's entities
      // that titles no earlier passage, else "Passage N". A hub does not title a share of its passages.
      const titled = new Uint8Array(E);
      for (let p = 0; p < N; p++) {
        const b = base.passages[h(p, 1) % base.passages.length];
        const entities = [...row(mentionCsr, p)];
        const named = entities.slice(0, 6).map(nameOf);
        const own = entities.find((e) => !titled[e]);
        if (own !== undefined) titled[own] = 1;
        yield {
          id: `p${p}`,
          documentId: `p${p}`,
          title: own === undefined ? `Passage ${p}` : nameOf(own),
          // On one line: a line break anywhere would make neo4j-admin parse every file in one thread (offline.ts).
          text: `${b.text.replace(/\s*[\r\n]+\s*/g, ' ')} ${named.join(', ')}.`,
          source: 'scale',
          embedding: mix([[b.v, 1], [base.passages[h(p, 2) % base.passages.length].v, 0.3], ...noisy(p, 7, 0.6)]),
        };
      }
    },
    async *mentions(): AsyncGenerator<MentionRow> {
      for (let p = 0; p < N; p++) {
        for (const e of row(mentionCsr, p)) yield { passage: `p${p}`, entity: `e${e}`, weight: 1, confidence: null, method: null };
        for (const c of row(linkCsr, p)) yield { passage: `p${p}`, entity: `c${c}`, weight: 1, confidence: 0.9, method: 'exact' };
      }
    },
    async *relationships(): AsyncGenerator<RelationshipRow> {
      const cache = new Map<number, number[]>();
      const vecOf = (e: number) => {
        let v = cache.get(e);
        if (!v) {
          if (cache.size > 50000) cache.clear();
          cache.set(e, (v = entityVector(e)));
        }
        return v;
      };
      for (let p = 0; p < N; p++) {
        const f = row(factCsr, p);
        for (let i = 0; i < f.length; i += 3) {
          yield {
            from: `e${f[i]}`,
            to: `e${f[i + 1]}`,
            type: 'RELATED',
            predicate: PREDICATES[f[i + 2]],
            passageId: `p${p}`,
            weight: 1,
            embedding: mix([[vecOf(f[i]), 1], [vecOf(f[i + 1]), 1], ...noisy(p * 64 + i, 31, 0.5)]),
          };
        }
      }
      for (const c of curated) {
        for (let i = 0; i < c.from.length; i++) {
          yield {
            from: `c${c.from[i]}`,
            to: `c${c.to[i]}`,
            type: c.type,
            predicate: c.predicate,
            passageId: null,
            weight: 1,
            embedding: mix([[vecOf(c.from[i]), 1], [vecOf(c.to[i]), 1], ...noisy(c.from[i] * 7 + i, 41, 0.5)]),
          };
        }
      }
    },
  };
  return {
    passages: N,
    entities: E,
    curatedEntities: C,
    mentions: mentionCount + linkCsr.targets.length,
    facts: factCount,
    curatedEdges,
    curatedTypes: curated.map((c) => c.type).sort(),
    questions,
    source,
    topDegrees: [...degrees].sort((a, b) => b - a).slice(0, 5),
  };
}
