/**
 * What the misses are (issue 32): for each mode of an eval run, every gold document that is not in
 * its top 5, by question type, in one of three classes:
 *
 * - ranked low: in the mode's own ranking, 6th to 100th (a candidate that lost the fusion);
 * - not in the first 100: never a candidate (no seed or walk reached it, and neither index search
 *   found it), or a candidate below 100;
 * - and, across both, how many of them lost a top-5 slot to a passage with the same title (a
 *   duplicate: another document about a namesake).
 *
 * The ranking past 5 comes from a variant `<mode>-100` of the same run, the mode with topK 100
 * (topK changes only how many of the fused candidates are returned, not the candidates):
 *
 *   npm run eval -- --dataset bench/data/<set> --out DIR --variants '[{"name":"gated-100","mode":"gated","params":{"topK":100}},
 *       {"name":"ppr-100","mode":"ppr","params":{"topK":100}}, ...]'     (the modes themselves come from --modes)
 *   npx tsx bench/misses.ts --results DIR/results.json --corpus bench/data/<set>/corpus.jsonl [--modes vector,hybrid,gated,ppr]
 *
 * Prints a Markdown table. Question types: the dataset's `type` field (2Wiki's four, HotpotQA's
 * two); for MuSiQue the hop count is read off the question id (2hop__, 3hop1__, 4hop2__...).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    results: { type: 'string' },
    corpus: { type: 'string' },
    modes: { type: 'string', default: 'vector,hybrid,gated,ppr' },
  },
});
if (!values.results || !values.corpus) {
  console.error('usage: npx tsx bench/misses.ts --results DIR/results.json --corpus <set>/corpus.jsonl [--modes vector,hybrid,gated,ppr]');
  process.exit(2);
}

interface QuestionRow {
  id: string;
  type?: string;
  supporting_ids: string[];
  modes: Record<string, { passages: string[] }>;
}

const titleOf = new Map<string, string>();
for (const line of fs.readFileSync(values.corpus, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const doc = JSON.parse(line) as { id: string; title?: string };
  titleOf.set(doc.id, (doc.title ?? '').trim().toLowerCase());
}

const questions = (JSON.parse(fs.readFileSync(values.results, 'utf8')) as { questions: QuestionRow[] }).questions;

/** The question's type: its own field, else MuSiQue's hop count from the id. */
function questionType(q: { id: string; type?: string }): string {
  const hops = /^(\d)hop/.exec(q.id);
  if (hops) return `${hops[1]}-hop`;
  return q.type ?? 'all';
}

const uniq = (ids: string[]) => [...new Set(ids)];

interface Tally {
  gold: number;
  missed: number;
  low: number;
  absent: number;
  sameTitle: number;
}
const empty = (): Tally => ({ gold: 0, missed: 0, low: 0, absent: 0, sameTitle: 0 });

const rows: string[] = [];
rows.push('| mode | type | questions | gold | missed @5 | ranked 6-100 | not in the first 100 | lost to a same-title passage |');
rows.push('|---|---|---|---|---|---|---|---|');
for (const mode of values.modes!.split(',')) {
  const byType = new Map<string, Tally & { questions: number }>();
  for (const q of questions) {
    const top = q.modes[mode];
    const wide = q.modes[`${mode}-100`];
    if (!top || !wide) continue;
    const type = questionType(q);
    const t = byType.get(type) ?? { ...empty(), questions: 0 };
    t.questions++;
    const top5 = uniq(top.passages).slice(0, 5);
    const ranking = uniq(wide.passages);
    for (const gold of uniq(q.supporting_ids)) {
      t.gold++;
      if (top5.includes(gold)) continue;
      t.missed++;
      if (ranking.includes(gold)) t.low++;
      else t.absent++;
      const title = titleOf.get(gold);
      if (title && top5.some((id) => id !== gold && !q.supporting_ids.includes(id) && titleOf.get(id) === title)) t.sameTitle++;
    }
    byType.set(type, t);
  }
  const all = { ...empty(), questions: 0 };
  for (const [type, t] of [...byType.entries()].sort()) {
    rows.push(`| ${mode} | ${type} | ${t.questions} | ${t.gold} | ${t.missed} | ${t.low} | ${t.absent} | ${t.sameTitle} |`);
    for (const k of Object.keys(all) as (keyof typeof all)[]) all[k] += t[k];
  }
  rows.push(`| ${mode} | **all** | ${all.questions} | ${all.gold} | ${all.missed} | ${all.low} | ${all.absent} | ${all.sameTitle} |`);
}
console.log(rows.join('\n'));
