/**
 * The real embeddings the scale graphs are perturbed from: 2Wiki passage texts, 2Wiki titles
 * (entity names) and the dev questions of every QA set, embedded once with the configured
 * (offline) embedder and cached in .data/scale/base-<embedder>.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, loadConfig } from '../../server/config.js';
import { createEmbedder } from '../../server/embedders/index.js';
import { devQuestions } from '../database.js';

export interface BaseVectors {
  embedder: string;
  dimension: number;
  passages: { text: string; v: number[] }[];
  names: { name: string; v: number[] }[];
  questions: { text: string; v: number[] }[];
}

const DATA = path.join(ROOT, 'bench', 'data');
const PASSAGES = 3000;
const QA_SETS = ['2wikimultihopqa', 'musique', 'hotpotqa'];

const readCorpus = () =>
  fs
    .readFileSync(path.join(DATA, '2wikimultihopqa', 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { title: string; text: string });

/** Rounds to 5 decimals: the cache stays small and the vectors keep their neighbourhoods. */
const r5 = (v: number[]) => v.map((x) => Math.round(x * 1e5) / 1e5);

export async function loadBaseVectors(): Promise<BaseVectors> {
  const cfg = loadConfig();
  const embedder = await createEmbedder(cfg);
  const file = path.join(ROOT, '.data', 'scale', `base-${embedder.id.replace(/[^\w.-]+/g, '_')}.json`);
  if (fs.existsSync(file)) {
    await embedder.close?.();
    return JSON.parse(fs.readFileSync(file, 'utf8')) as BaseVectors;
  }
  console.log(`embedding the base vectors with ${embedder.id} (once; cached in ${path.relative(ROOT, file)})...`);
  const corpus = readCorpus();
  const texts = corpus.slice(0, PASSAGES).map((p) => p.text);
  const names = [...new Set(corpus.map((p) => p.title))];
  const questions = QA_SETS.flatMap((d) => devQuestions(path.join(DATA, d, 'dev.jsonl')));
  const embedAll = async (xs: string[], kind: 'query' | 'document') => {
    const out: number[][] = [];
    for (let i = 0; i < xs.length; i += 256) {
      out.push(...(await embedder.embed(xs.slice(i, i + 256), kind)).map(r5));
      process.stderr.write(`\r${kind} ${out.length}/${xs.length}   `);
    }
    return out;
  };
  const pv = await embedAll(texts, 'document');
  const nv = await embedAll(names, 'document');
  const qv = await embedAll(questions, 'query');
  await embedder.close?.();
  const base: BaseVectors = {
    embedder: embedder.id,
    dimension: embedder.dimension,
    passages: texts.map((text, i) => ({ text, v: pv[i] })),
    names: names.map((name, i) => ({ name, v: nv[i] })),
    questions: questions.map((text, i) => ({ text, v: qv[i] })),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(base));
  process.stderr.write('\n');
  return base;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const b = await loadBaseVectors();
  console.log(`${b.passages.length} passages, ${b.names.length} names, ${b.questions.length} questions (${b.embedder}, ${b.dimension}-d)`);
}
