/**
 * Questions in 2WikiMultihopQA's templates, written from the 2Wiki corpus alone, over pages that no dev
 * question cites: a check of whether what was tuned on the 200 dev questions carries to questions
 * nobody tuned on. It reads no held-out question; it writes its own from the corpus text.
 *
 *   npx tsx bench/synth-2wiki.ts [--per-type 60] [--seed 7] > bench/data/2wikimultihopqa/synth.jsonl
 *   npm run eval -- --dataset bench/data/2wikimultihopqa --questions bench/data/2wikimultihopqa/synth.jsonl --out DIR
 *
 * A hop is read off the text with patterns that the extractor does not share ("directed by NAME",
 * "son of NAME and NAME") and kept only when NAME is a page's title (exactly, or without the title's
 * parenthesis, or without a leading honorific). So the set leans to hops written the way a page is
 * titled: easier than 2Wiki's, whose hops come from Wikidata. Types, as in 2Wiki:
 *
 * - compositional: the director of a film (gold: the film, the director), a person's father or mother
 *   (gold: the person, the parent);
 * - inference: a paternal grandfather, named on the father's page (gold: the person, the father);
 * - bridge_comparison: two films' directors compared (gold: both films, both directors);
 * - comparison: two people's births compared (gold: both).
 *
 * Titles are written as 2Wiki writes them (Python's str.title(): "Pinocchio'S Revenge").
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bench/data/2wikimultihopqa' },
    'per-type': { type: 'string', default: '60' },
    seed: { type: 'string', default: '7' },
  },
});
const perType = Number(values['per-type']);

interface Page {
  id: string;
  title: string;
  text: string;
}
const readJsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const corpus = readJsonl<Page>(`${values.dataset}/corpus.jsonl`);
const devGold = new Set(readJsonl<{ supporting_ids: string[] }>(`${values.dataset}/dev.jsonl`).flatMap((q) => q.supporting_ids));
const pages = corpus.filter((p) => !devGold.has(p.id));

// A deterministic shuffle (mulberry32), so the file is the same on every machine.
let state = Number(values.seed) >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function shuffle<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

/** Python's str.title(), as 2Wiki's questions write titles. */
const pyTitle = (s: string) => s.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());

const HONORIFIC = /^(?:King|Queen|Prince|Princess|Duke|Duchess|Count|Countess|Emperor|Empress|Sultan|Lord|Lady|Sir|Saint|Pope|Archduke|Grand Duke) /;
const byName = new Map<string, Page[]>();
for (const p of pages) {
  for (const key of new Set([p.title, p.title.replace(/ \([^)]*\)$/, '')])) {
    if (!byName.has(key)) byName.set(key, []);
    byName.get(key)!.push(p);
  }
}
/** The one page a name written in a text titles, or undefined (none, or several). */
function pageOf(written: string): Page | undefined {
  // The pattern runs over sentence ends ("Frank Lloyd. It"): cut there, keeping initials ("P. A. Backer").
  const name = written.split(/\. (?=[A-Z][\p{L}]{2,})/u)[0].replace(/\.$/, '');
  for (const key of [name, name.replace(HONORIFIC, '')]) {
    const hit = byName.get(key.trim());
    if (hit?.length === 1) return hit[0];
    if (hit && hit.length > 1) return undefined;
  }
  return undefined;
}

const isFilm = (p: Page) =>
  /^[^.]*\b(?:is|was) an? (?:\d{4} )?[\w -]*\bfilm\b(?! ?(?:director|maker|producer|editor|critic|actor|actress|composer|historian|scholar|studio|company|score))/.test(
    p.text.slice(0, 300),
  );
const isPerson = (p: Page) => !isFilm(p) && /\(\s*(?:born|c\. |\d{1,2} \w+ \d{3,4}|\w+ \d{1,2}, \d{3,4}|\d{3,4})/.test(p.text.slice(0, 200));
const NAME = String.raw`([A-Z][\p{L}.'’-]*(?: (?:[A-Z][\p{L}.'’-]*|of|de|von|van|the|da|di|bin|ibn|[IVX]+))*)`;

/** A person's gender from the pronouns of their page; undefined when it does not say. */
function gender(p: Page): 'm' | 'f' | undefined {
  const he = (p.text.match(/\b(?:he|his|him)\b/gi) ?? []).length;
  const she = (p.text.match(/\b(?:she|her|hers)\b/gi) ?? []).length;
  if (he >= 2 && she === 0) return 'm';
  if (she >= 2 && he === 0) return 'f';
  return undefined;
}

/** film -> its director's page */
const directors: { film: Page; director: Page }[] = [];
for (const film of pages.filter(isFilm)) {
  const m = new RegExp(String.raw`\bdirected by ${NAME}`, 'u').exec(film.text);
  const director = m && pageOf(m[1]);
  if (director && director.id !== film.id && isPerson(director)) directors.push({ film, director });
}

/** person -> parent pages ("son of A and B": A the father, B the mother; a lone parent by the parent's pronouns) */
const parents: { child: Page; parent: Page; role: 'father' | 'mother' }[] = [];
for (const child of pages.filter(isPerson)) {
  const m = new RegExp(String.raw`\b(?:son|daughter|child) of ${NAME}(?: and (?:his wife |her husband )?${NAME})?`, 'u').exec(child.text);
  if (!m) continue;
  const a = pageOf(m[1]);
  const b = m[2] ? pageOf(m[2]) : undefined;
  if (m[2]) {
    if (a && isPerson(a) && gender(a) !== 'f') parents.push({ child, parent: a, role: 'father' });
    if (b && isPerson(b) && gender(b) !== 'm') parents.push({ child, parent: b, role: 'mother' });
  } else if (a && isPerson(a)) {
    const g = gender(a);
    if (g) parents.push({ child, parent: a, role: g === 'm' ? 'father' : 'mother' });
  }
}

interface Question {
  id: string;
  question: string;
  answers: string[];
  type: string;
  supporting_titles: string[];
  supporting_ids: string[];
}
const out: Question[] = [];
const add = (type: string, question: string, answers: string[], gold: Page[]) =>
  out.push({
    id: `synth-${String(out.length + 1).padStart(4, '0')}`,
    question,
    answers,
    type,
    supporting_titles: gold.map((p) => p.title),
    supporting_ids: gold.map((p) => p.id),
  });

const DIRECTOR_ASKS = [
  (f: string) => `Where was the director of film ${f} born?`,
  (f: string) => `What is the place of birth of the director of film ${f}?`,
  (f: string) => `What nationality is the director of film ${f}?`,
  (f: string) => `When did the director of film ${f} die?`,
  (f: string) => `What is the date of birth of the director of film ${f}?`,
  (f: string) => `Where was the place of death of the director of film ${f}?`,
];
const PARENT_ASKS = [
  (p: string, r: string) => `What is the place of birth of ${p}'s ${r}?`,
  (p: string, r: string) => `What nationality is ${p}'s ${r}?`,
  (p: string, r: string) => `When did ${p}'s ${r} die?`,
  (p: string, r: string) => `Where was the place of death of ${p}'s ${r}?`,
  (p: string, r: string) => `What is the date of birth of ${p}'s ${r}?`,
];
const COMPARE_ASKS = [
  (a: string, b: string) => `Which film has the director born first, ${a} or ${b}?`,
  (a: string, b: string) => `Which film has the director who died later, ${a} or ${b}?`,
  (a: string, b: string) => `Do both films ${a} and ${b} have the directors that share the same nationality?`,
  (a: string, b: string) => `Which film whose director is younger, ${a} or ${b}?`,
];

const half = Math.ceil(perType / 2);
for (const { film, director } of shuffle(directors).slice(0, half)) add('compositional', pick(DIRECTOR_ASKS)(pyTitle(film.title)), [], [film, director]);
for (const { child, parent, role } of shuffle(parents).slice(0, perType - half))
  add('compositional', pick(PARENT_ASKS)(pyTitle(child.title), role), [], [child, parent]);
// The grandfather is named on the father's page ("son of NAME"); he need not have a page of his own.
const sonOf = (p: Page) => new RegExp(String.raw`\bson of ${NAME}`, 'u').exec(p.text)?.[1].split(/\. (?=[A-Z])/u)[0];
const withGrandfather = parents.filter((r) => r.role === 'father' && sonOf(r.parent));
for (const { child, parent } of shuffle(withGrandfather).slice(0, perType)) {
  const ask = pick([(p: string) => `Who is the paternal grandfather of ${p}?`, (p: string) => `Who is ${p}'s paternal grandfather?`]);
  add('inference', ask(pyTitle(child.title)), [sonOf(parent)!], [child, parent]);
}
const films = shuffle(directors);
for (let i = 0; i + 1 < films.length && out.filter((q) => q.type === 'bridge_comparison').length < perType; i += 2) {
  const [x, y] = [films[i], films[i + 1]];
  if (x.director.id === y.director.id) continue;
  add('bridge_comparison', pick(COMPARE_ASKS)(pyTitle(x.film.title), pyTitle(y.film.title)), [], [x.film, y.film, x.director, y.director]);
}
const people = shuffle(pages.filter(isPerson));
for (let i = 0; i + 1 < people.length && out.filter((q) => q.type === 'comparison').length < perType; i += 2) {
  const ask = pick([(a: string, b: string) => `Who was born first, ${a} or ${b}?`, (a: string, b: string) => `Are ${a} and ${b} from the same country?`]);
  add('comparison', ask(pyTitle(people[i].title), pyTitle(people[i + 1].title)), [], [people[i], people[i + 1]]);
}

for (const q of out) process.stdout.write(`${JSON.stringify(q)}\n`);
const count = (t: string) => out.filter((q) => q.type === t).length;
console.error(
  `${out.length} questions (${['compositional', 'inference', 'bridge_comparison', 'comparison'].map((t) => `${t} ${count(t)}`).join(', ')}); ` +
    `from ${directors.length} film-director and ${parents.length} parent hops over ${pages.length} pages no dev question cites`,
);
