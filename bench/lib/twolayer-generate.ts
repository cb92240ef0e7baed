/**
 * The two-layer benchmark's generator (no LLM, no database, seeded): from a Hetionet-format
 * sample, hold out edges of kinds literature states (Compound-binds-Gene, Compound-causes-Side
 * Effect, Compound-upregulates-Gene, Disease-associates-Gene), write them as literature passages
 * (several facts about one entity per passage, varied wording, names as running text writes
 * them), and ask questions that need one curated hop (treats, palliates, resembles: kept in the
 * curated graph) and one literature hop (the held-out facts). The gold passages are those
 * stating held-out facts of the curated hop's entities; they never name the question's disease.
 * Distractor passages name the disease and answer nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { rng } from './random.js';

export interface SampleNode {
  name: string;
  kind: string;
}
export interface SampleEdge {
  source: string;
  metaedge: string;
  target: string;
}
/** A Hetionet-format sample as its files hold it (raw ids, no `hetionet:` prefix). */
export interface Sample {
  nodes: Map<string, SampleNode>;
  edges: SampleEdge[];
  /** metaedges.tsv and nodes.tsv as they are, copied into the filtered sample. */
  files: { nodes: string; metaedges: string };
}

export interface LiteratureDocument {
  id: string;
  title: string;
  text: string;
  source: 'literature';
  /** Not ingested: what the passage is, for the report and the tests. */
  kind: 'facts' | 'distractor';
  /** facts: the entity the passage is about (raw id) and the predicate's abbreviation. */
  subject: string;
  metaedge?: string;
  facts?: SampleEdge[];
}

export interface TwoLayerQuestion {
  id: string;
  /** The template family (curated hop > literature hop). */
  template: string;
  /** Which wording of the family. */
  wording: number;
  question: string;
  /** The disease the question names (raw id) and its name. */
  anchor: string;
  anchorName: string;
  /** The curated hop's entities whose literature passages answer (raw ids). */
  via: string[];
  /** The gold documents: passages stating held-out facts of `via`. */
  supporting_ids: string[];
  /** The answer entities (the held-out facts' objects), raw ids. */
  answers: string[];
}

export interface TwoLayerOptions {
  seed: number;
  /** Share of the entities reached by a curated hop whose facts go to the literature. */
  share: number;
  /** Facts held out (and written) per entity and predicate, at most. */
  maxFacts: number;
  /** Questions per template family, at most. */
  perTemplate: number;
  /** Literature entities per predicate that no question reaches (background passages), at most. */
  background: number;
  /** Distractor passages per question disease. */
  distractors: number;
  /** Gold passages per question, at most (questions with more are not asked). */
  maxGold: number;
}

export const DEFAULT_OPTIONS: TwoLayerOptions = { seed: 1, share: 0.5, maxFacts: 4, perTemplate: 20, background: 120, distractors: 2, maxGold: 5 };

export interface TwoLayerDataset {
  options: TwoLayerOptions;
  heldOut: SampleEdge[];
  documents: LiteratureDocument[];
  questions: TwoLayerQuestion[];
}

// ---------------------------------------------------------------------------------------------
// Reading and writing the sample

function readMaybeGzip(file: string): string {
  const buf = fs.readFileSync(file);
  return file.endsWith('.gz') ? zlib.gunzipSync(buf).toString('utf8') : buf.toString('utf8');
}

/** nodes.tsv, metaedges.tsv and the *.sif(.gz) edge lists of a Hetionet-format folder. */
export function readSample(dir: string): Sample {
  const nodesText = fs.readFileSync(path.join(dir, 'nodes.tsv'), 'utf8');
  const metaedges = fs.readFileSync(path.join(dir, 'metaedges.tsv'), 'utf8');
  const nodes = new Map<string, SampleNode>();
  const lines = nodesText.split('\n');
  const head = lines[0].split('\t').map((c) => c.trim().toLowerCase());
  const [ci, cn, ck] = ['id', 'name', 'kind'].map((c) => head.indexOf(c));
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const cells = line.split('\t');
    nodes.set(cells[ci].trim(), { name: cells[cn].trim(), kind: cells[ck].trim() });
  }
  const edges: SampleEdge[] = [];
  for (const f of fs
    .readdirSync(dir)
    .filter((n) => /\.sif(\.gz)?$/i.test(n))
    .sort()) {
    for (const [i, line] of readMaybeGzip(path.join(dir, f)).split('\n').entries()) {
      if (!line.trim() || (i === 0 && line.startsWith('source\t'))) continue;
      const [source, metaedge, target] = line.split('\t').map((c) => c.trim());
      edges.push({ source, metaedge, target });
    }
  }
  return { nodes, edges, files: { nodes: nodesText, metaedges } };
}

const edgeKey = (e: SampleEdge) => `${e.source}\t${e.metaedge}\t${e.target}`;

/** The sample without the held-out edges, as a Hetionet-format folder (readHetionet reads it). */
export function writeFilteredSample(sample: Sample, heldOut: SampleEdge[], dir: string): { kept: number } {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) if (/\.sif(\.gz)?$/i.test(f)) fs.rmSync(path.join(dir, f));
  const out = new Set(heldOut.map(edgeKey));
  const kept = sample.edges.filter((e) => !out.has(edgeKey(e)));
  fs.writeFileSync(path.join(dir, 'nodes.tsv'), sample.files.nodes);
  fs.writeFileSync(path.join(dir, 'metaedges.tsv'), sample.files.metaedges);
  const body = ['source\tmetaedge\ttarget', ...kept.map(edgeKey)].join('\n');
  fs.writeFileSync(path.join(dir, 'edges-twolayer.sif.gz'), zlib.gzipSync(`${body}\n`, { level: 9 }));
  return { kept: kept.length };
}

// ---------------------------------------------------------------------------------------------
// Names as running text writes them

/** Mid-sentence: a name capitalised only at its start ("Memantine", "Nausea") is lower case; symbols and acronyms as they are. */
export function midForm(name: string): string {
  return /^\p{Lu}[^\p{Lu}\d]*$/u.test(name) && !/^\p{Lu}\p{Ll}?$/u.test(name) ? name[0].toLowerCase() + name.slice(1) : name;
}
/** A node's name as running text writes it mid-sentence: compounds and side effects in lower case, diseases (already lower case but for eponyms) and genes as they are. */
export function textForm(node: SampleNode): string {
  return node.kind === 'Compound' || node.kind === 'Side Effect' ? midForm(node.name) : node.name;
}
/** Sentence-initial: the first letter capitalised. */
export function initialForm(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}
export function possessive(form: string): string {
  return /s$/i.test(form) ? `${form}'` : `${form}'s`;
}
function list(forms: string[]): string {
  if (forms.length <= 1) return forms.join('');
  if (forms.length === 2) return `${forms[0]} and ${forms[1]}`;
  return `${forms.slice(0, -1).join(', ')} and ${forms[forms.length - 1]}`;
}
const capitalise = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Whole-word, case-insensitive: does text name this name (possessive or not)? */
export function names(text: string, name: string): boolean {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${esc}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

// ---------------------------------------------------------------------------------------------
// Literature predicates and their wordings

type Pick = <T>(xs: readonly T[]) => T;
/** s: the subject's mid-sentence form, S: sentence-initial, sp: possessive; os: the objects' forms. */
interface Words {
  s: string;
  S: string;
  sp: string;
  Sp: string;
}
interface Predicate {
  abbr: string;
  subjectKind: string;
  objectKind: string;
  titles: readonly ((w: Words) => string)[];
  /** Sentences stating one to several facts (objects as they are to be written). */
  many: readonly ((w: Words, os: string) => string)[];
  one: readonly ((w: Words, o: string, O: string) => string)[];
}

export const PREDICATES: Record<string, Predicate> = {
  CbG: {
    abbr: 'CbG',
    subjectKind: 'Compound',
    objectKind: 'Gene',
    titles: [(w) => `Target profile of ${w.s}`, (w) => `${w.S} binding studies`, (w) => `Molecular targets of ${w.s}`, (w) => `${w.S}: receptor binding`],
    many: [
      (w, os) => `${w.S} binds ${os}.`,
      (w, os) => `Radioligand assays found that ${w.s} binds to ${os}.`,
      (w, os) => `${w.Sp} binding targets include ${os}.`,
      (w, os) => `In vitro, ${w.s} was shown to bind ${os}.`,
      (w, os) => `Binding of ${w.s} to ${os} was confirmed by surface plasmon resonance.`,
    ],
    one: [
      (w, o) => `${o} is a direct target of ${w.s}.`,
      (w, o) => `${o} is bound by ${w.s} with micromolar affinity.`,
      (w, o) => `Docking studies place ${w.s} in the ligand pocket of ${o}, and binding was measured in cells.`,
      (w, o) => `${w.S} also binds ${o}.`,
    ],
  },
  CcSE: {
    abbr: 'CcSE',
    subjectKind: 'Compound',
    objectKind: 'Side Effect',
    titles: [(w) => `Adverse effects of ${w.s}`, (w) => `Safety profile of ${w.s}`, (w) => `${w.S}: reported side effects`, (w) => `Tolerability of ${w.s}`],
    many: [
      (w, os) => `${w.S} causes ${os}.`,
      (w, os) => `Patients receiving ${w.s} reported ${os}.`,
      (w, os) => `${w.Sp} side effects include ${os}.`,
      (w, os) => `Treatment with ${w.s} can cause ${os}.`,
      (w, os) => `Post-marketing surveillance of ${w.s} recorded ${os} as adverse reactions.`,
    ],
    one: [
      (w, _o, O) => `${O} was observed as an adverse effect of ${w.s}.`,
      (w, o) => `Cases of ${o} were reported after ${w.s} administration.`,
      (w, o) => `${w.S} may also cause ${o}.`,
      (w, _o, O) => `${O} is a known side effect of ${w.s}.`,
    ],
  },
  CuG: {
    abbr: 'CuG',
    subjectKind: 'Compound',
    objectKind: 'Gene',
    titles: [(w) => `Transcriptional response to ${w.s}`, (w) => `${w.S} and gene expression`, (w) => `Expression signature of ${w.s}`],
    many: [
      (w, os) => `${w.S} upregulates ${os}.`,
      (w, os) => `Expression of ${os} increased after exposure to ${w.s}.`,
      (w, os) => `In cell lines treated with ${w.s}, the expression of ${os} went up.`,
      (w, os) => `${w.Sp} transcriptional signature includes increased expression of ${os}.`,
    ],
    one: [
      (w, o) => `${o} was upregulated by ${w.s} in a dose-dependent manner.`,
      (w, o) => `${w.S} also raises the expression of ${o}.`,
      (w, o) => `Transcript levels of ${o} rose in cells exposed to ${w.s}.`,
    ],
  },
  DaG: {
    abbr: 'DaG',
    subjectKind: 'Disease',
    objectKind: 'Gene',
    titles: [(w) => `Genetics of ${w.s}`, (w) => `${w.S}: associated genes`, (w) => `Genetic risk factors for ${w.s}`],
    many: [
      (w, os) => `${w.S} is associated with ${os}.`,
      (w, os) => `Genome-wide association studies link ${os} to ${w.s}.`,
      (w, os) => `Variants in ${os} were associated with ${w.s}.`,
      (w, os) => `${w.Sp} genetic risk factors include ${os}.`,
    ],
    one: [
      (w, o) => `${o} is associated with ${w.s}.`,
      (w, o) => `A candidate-gene study also associated ${o} with ${w.s}.`,
      (w, o) => `Rare variants of ${o} were found in families with ${w.s}.`,
    ],
  },
};

/** A passage stating facts (objects' raw ids) of one subject: two or three sentences. */
function factPassage(sample: Sample, subject: string, pred: Predicate, objects: string[], pick: Pick, rand: () => number) {
  const s = textForm(sample.nodes.get(subject)!);
  const w: Words = { s, S: initialForm(s), sp: possessive(s), Sp: initialForm(possessive(s)) };
  const forms = objects.map((o) => textForm(sample.nodes.get(o)!));
  // Split the objects into sentences of one to three facts, the first a list when there are several.
  const sentences: string[] = [];
  // No wording twice in one passage.
  const many = shuffle([...pred.many], rand);
  const one = shuffle([...pred.one], rand);
  let rest = [...forms];
  while (rest.length) {
    const n = rest.length === 1 ? 1 : Math.min(rest.length, 1 + Math.floor(rand() * 3));
    const part = rest.slice(0, n);
    rest = rest.slice(n);
    if (part.length === 1 && (sentences.length > 0 || rand() < 0.4) && one.length) sentences.push(one.pop()!(w, part[0], initialForm(part[0])));
    else sentences.push((many.pop() ?? pick(pred.many))(w, list(part)));
  }
  // A neutral closing sentence now and then, so passages differ in length.
  if (rand() < 0.4)
    sentences.push(
      pick([
        'Further studies are needed to establish the clinical relevance of these findings.',
        'These observations were replicated in an independent cohort.',
        'The findings agree with earlier reports.',
      ]),
    );
  return { title: capitalise(pick(pred.titles)(w)), text: sentences.join(' ') };
}

const DISTRACTORS: readonly ((d: string, D: string, n: () => number) => string)[] = [
  (_d, D, n) => `${D} affects an estimated ${10 + n() * 40} per 100,000 people, and its incidence rises after the age of ${40 + n()}.`,
  (d) => `The diagnosis of ${d} rests on the clinical history and examination; misdiagnosis remains common in primary care.`,
  (_d, D) => `${D} is reported more often in women than in men, and more often in urban than in rural registries.`,
  (d) => `The economic burden of ${d} includes direct medical costs as well as lost working days.`,
  (_d, D, n) => `${D} was recorded in ${n()} % of the cohort, followed for a median of ${2 + (n() % 9)} years.`,
  (d) => `Awareness campaigns about ${d} have shortened the time from the first symptoms to a specialist visit.`,
  (d) => `Quality-of-life questionnaires show that ${d} weighs on family members as well as on patients.`,
];
const DISTRACTOR_TITLES: readonly ((d: string, D: string) => string)[] = [
  (d, _D) => `Epidemiology of ${d}`,
  (_d, D) => `${D} in the population`,
  (d) => `The burden of ${d}`,
  (_d, D) => `${D}: a registry study`,
];

// ---------------------------------------------------------------------------------------------
// Question templates: a curated hop from the disease, then a literature hop

interface Family {
  name: string;
  /** The curated hop: its metaedge and which end is the disease; 'both' for a symmetric one. */
  curated: string;
  end: 'target' | 'source' | 'both';
  literature: string;
  wordings: readonly ((d: string) => string)[];
}

export const FAMILIES: readonly Family[] = [
  {
    name: 'treats>binds',
    curated: 'CtD',
    end: 'target',
    literature: 'CbG',
    wordings: [
      (d) => `Which genes are bound by the compounds that treat ${d}?`,
      (d) => `What are the gene targets of drugs used to treat ${d}?`,
      (d) => `Drugs that treat ${d} bind which genes?`,
    ],
  },
  {
    name: 'treats>causes',
    curated: 'CtD',
    end: 'target',
    literature: 'CcSE',
    wordings: [
      (d) => `Which side effects are caused by the drugs that treat ${d}?`,
      (d) => `What adverse effects do compounds used for ${d} cause?`,
      (d) => `Which side effects have been reported for medicines that treat ${d}?`,
    ],
  },
  {
    name: 'treats>upregulates',
    curated: 'CtD',
    end: 'target',
    literature: 'CuG',
    wordings: [
      (d) => `Which genes are upregulated by the compounds that treat ${d}?`,
      (d) => `Drugs used to treat ${d} increase the expression of which genes?`,
    ],
  },
  {
    name: 'palliates>binds',
    curated: 'CpD',
    end: 'target',
    literature: 'CbG',
    wordings: [(d) => `Which genes are bound by the compounds that palliate ${d}?`, (d) => `What do drugs that relieve the symptoms of ${d} bind?`],
  },
  {
    name: 'resembles>associates',
    curated: 'DrD',
    end: 'both',
    literature: 'DaG',
    wordings: [
      (d) => `Which genes are associated with diseases that resemble ${d}?`,
      (d) => `What genes are linked to conditions similar to ${d}?`,
      (d) => `Diseases resembling ${d} are associated with which genes?`,
    ],
  },
];

function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The disease -> curated-hop entities of a family (sorted, deterministic). */
function curatedHop(sample: Sample, f: Family): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  const add = (d: string, x: string) => {
    if (d === x) return;
    let s = out.get(d);
    if (!s) out.set(d, (s = new Set()));
    s.add(x);
  };
  for (const e of sample.edges) {
    if (e.metaedge !== f.curated) continue;
    if (f.end === 'target' || f.end === 'both') add(e.target, e.source);
    if (f.end === 'source' || f.end === 'both') add(e.source, e.target);
  }
  return new Map([...out.entries()].sort(([a], [b]) => byId(a, b)).map(([d, s]) => [d, [...s].sort(byId)]));
}

/** The whole dataset for a sample and options: deterministic for a seed. */
export function generateTwoLayer(sample: Sample, options: Partial<TwoLayerOptions> = {}): TwoLayerDataset {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  const rand = rng(opts.seed);
  const pick: Pick = (xs) => xs[Math.floor(rand() * xs.length)];

  // Facts by predicate and subject, in file order.
  const facts = new Map<string, Map<string, SampleEdge[]>>();
  for (const abbr of Object.keys(PREDICATES)) facts.set(abbr, new Map());
  for (const e of sample.edges) {
    const m = facts.get(e.metaedge);
    if (!m) continue;
    let l = m.get(e.source);
    if (!l) m.set(e.source, (l = []));
    l.push(e);
  }
  const hops = new Map(FAMILIES.map((f) => [f.name, curatedHop(sample, f)]));

  // 1. The literature entities per predicate: a share of those a curated hop reaches, and background.
  const literature = new Map<string, Set<string>>();
  for (const [abbr, bySubject] of facts) {
    const reached = new Set<string>();
    for (const f of FAMILIES) if (f.literature === abbr) for (const xs of hops.get(f.name)!.values()) for (const x of xs) reached.add(x);
    const withFacts = [...bySubject.keys()].sort(byId);
    const chosen = new Set(withFacts.filter((x) => reached.has(x) && rand() < opts.share));
    const others = shuffle(
      withFacts.filter((x) => !reached.has(x)),
      rand,
    ).slice(0, opts.background);
    for (const x of others) chosen.add(x);
    literature.set(abbr, chosen);
  }

  // 2. Held-out facts and their passages: per literature entity and predicate, up to maxFacts
  //    (a share of its edges, at least one), one passage.
  const heldOut: SampleEdge[] = [];
  const documents: LiteratureDocument[] = [];
  const passageOf = new Map<string, LiteratureDocument>();
  for (const [abbr, chosen] of literature) {
    const pred = PREDICATES[abbr];
    for (const subject of [...chosen].sort(byId)) {
      const all = facts.get(abbr)!.get(subject)!;
      const n = Math.min(opts.maxFacts, Math.max(1, Math.ceil(all.length * 0.5)));
      const out = shuffle([...all], rand).slice(0, n);
      heldOut.push(...out);
      const { title, text } = factPassage(
        sample,
        subject,
        pred,
        out.map((e) => e.target),
        pick,
        rand,
      );
      const doc: LiteratureDocument = { id: '', title, text, source: 'literature', kind: 'facts', subject, metaedge: abbr, facts: out };
      documents.push(doc);
      passageOf.set(`${abbr}\t${subject}`, doc);
    }
  }

  // 3. Questions: diseases whose curated hop reaches 1..maxGold literature passages of the family's
  //    predicate, none of which names the disease.
  const questions: Omit<TwoLayerQuestion, 'id' | 'supporting_ids'>[] = [];
  const goldDocs: LiteratureDocument[][] = [];
  const anchors = new Set<string>();
  for (const f of FAMILIES) {
    const candidates = shuffle([...hops.get(f.name)!.entries()], rand);
    let asked = 0;
    for (const [disease, reached] of candidates) {
      if (asked >= opts.perTemplate) break;
      const gold = reached.map((x) => passageOf.get(`${f.literature}\t${x}`)).filter((d): d is LiteratureDocument => !!d);
      if (gold.length === 0 || gold.length > opts.maxGold) continue;
      const dname = sample.nodes.get(disease)!.name;
      if (gold.some((d) => names(`${d.title}\n${d.text}`, dname))) continue;
      const wording = asked % f.wordings.length;
      questions.push({
        template: f.name,
        wording,
        question: f.wordings[wording](dname),
        anchor: disease,
        anchorName: dname,
        via: gold.map((d) => d.subject),
        answers: [...new Set(gold.flatMap((d) => d.facts!.map((e) => e.target)))].sort(byId),
      });
      goldDocs.push(gold);
      anchors.add(disease);
      asked++;
    }
  }

  // 4. Distractors: passages naming each question's disease that answer nothing.
  for (const disease of [...anchors].sort(byId)) {
    const d = sample.nodes.get(disease)!.name;
    const D = initialForm(d);
    const num = () => 1 + Math.floor(rand() * 30);
    for (let k = 0; k < opts.distractors; k++) {
      const sentences = shuffle([...DISTRACTORS], rand)
        .slice(0, 2)
        .map((t) => t(d, D, num));
      documents.push({
        id: '',
        title: capitalise(pick(DISTRACTOR_TITLES)(d, D)),
        text: sentences.join(' '),
        source: 'literature',
        kind: 'distractor',
        subject: disease,
      });
    }
  }

  // 5. Ids in a shuffled order, so an id says nothing about what a passage is.
  const order = shuffle(
    documents.map((_, i) => i),
    rand,
  );
  const width = String(documents.length).length;
  order.forEach((docIndex, k) => {
    documents[docIndex].id = `twolayer-${String(k + 1).padStart(width, '0')}`;
  });
  documents.sort((a, b) => byId(a.id, b.id));
  return {
    options: opts,
    heldOut,
    documents,
    questions: questions.map((q, i) => ({ id: `q${String(i + 1).padStart(3, '0')}`, ...q, supporting_ids: goldDocs[i].map((d) => d.id).sort(byId) })),
  };
}
