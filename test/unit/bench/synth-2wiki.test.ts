// Subject: bench/synth-2wiki.ts: the synthetic 2Wiki questions, written from the corpus alone.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../server/config.js';
import { runScript } from '../../support/cli.js';

const dataset = path.join(ROOT, 'bench', 'data', '2wikimultihopqa');
const readJsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

interface Question {
  id: string;
  question: string;
  type: string;
  supporting_titles: string[];
  supporting_ids: string[];
}

describe('bench/synth-2wiki.ts', () => {
  it('writes the committed synth.jsonl again, byte for byte (the questions are the same on every machine)', async () => {
    const r = await runScript(path.join(ROOT, 'bench', 'synth-2wiki.ts'), []);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(fs.readFileSync(path.join(dataset, 'synth.jsonl'), 'utf8'));
    expect(r.stderr).toContain('189 questions');
  }, 60_000);

  it('cites no page a dev question cites, and titles each question with its gold pages written as 2Wiki writes them', () => {
    const synth = readJsonl<Question>(path.join(dataset, 'synth.jsonl'));
    const devGold = new Set(readJsonl<Question>(path.join(dataset, 'dev.jsonl')).flatMap((q) => q.supporting_ids));
    const titles = new Map(readJsonl<{ id: string; title: string }>(path.join(dataset, 'corpus.jsonl')).map((p) => [p.id, p.title]));
    for (const q of synth) {
      expect(q.supporting_ids.filter((id) => devGold.has(id))).toEqual([]);
      expect(new Set(q.supporting_ids).size).toBe(q.supporting_ids.length);
      expect(q.supporting_ids.map((id) => titles.get(id))).toEqual(q.supporting_titles);
    }
    // Python's str.title(), as 2Wiki's questions write a title: "Pinocchio's Revenge" -> "Pinocchio'S Revenge"
    const apostrophes = synth.filter((q) => q.supporting_titles.some((t) => /\p{L}'s\b/u.test(t)));
    expect(apostrophes.length).toBeGreaterThan(0);
    for (const q of apostrophes) expect(q.question).toMatch(/\p{L}'S\b/u);
    expect(new Set(synth.map((q) => q.type))).toEqual(new Set(['compositional', 'inference', 'bridge_comparison', 'comparison']));
  });
});
