// Subject: bench/lib/twolayer-generate.ts: the two-layer benchmark generated from the Hetionet sample.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { generateTwoLayer, midForm, names, readSample, textForm, writeFilteredSample, type Sample } from '../../../bench/lib/twolayer-generate.js';

const sample: Sample = readSample(path.join(process.cwd(), 'bench', 'data', 'hetionet'));
const ds = generateTwoLayer(sample, { seed: 1 });
const docs = new Map(ds.documents.map((d) => [d.id, d]));

describe('two-layer generator', () => {
  it('asks questions of every family, each with 1 to 5 gold passages', () => {
    expect(ds.questions.length).toBeGreaterThanOrEqual(50);
    expect(new Set(ds.questions.map((q) => q.template)).size).toBeGreaterThanOrEqual(4);
    for (const q of ds.questions) {
      expect(q.supporting_ids.length).toBeGreaterThanOrEqual(1);
      expect(q.supporting_ids.length).toBeLessThanOrEqual(5);
    }
  });

  it("never names the question's disease in a gold passage", () => {
    for (const q of ds.questions) {
      for (const g of q.supporting_ids) {
        const d = docs.get(g)!;
        expect(d.kind).toBe('facts');
        expect(names(`${d.title}\n${d.text}`, q.anchorName)).toBe(false);
      }
      expect(q.question).toContain(q.anchorName);
    }
  });

  it('states held-out facts of the curated hop in each gold passage, and holds them out of the curated graph', () => {
    const held = new Set(ds.heldOut.map((e) => `${e.source}\t${e.metaedge}\t${e.target}`));
    for (const q of ds.questions) {
      for (const g of q.supporting_ids) {
        const d = docs.get(g)!;
        expect(q.via).toContain(d.subject);
        expect(d.facts!.length).toBeGreaterThanOrEqual(1);
        for (const e of d.facts!) {
          expect(held.has(`${e.source}\t${e.metaedge}\t${e.target}`)).toBe(true);
          expect(d.text.toLowerCase()).toContain(sample.nodes.get(e.target)!.name.toLowerCase());
        }
      }
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twolayer-'));
    try {
      writeFilteredSample(sample, ds.heldOut, dir);
      const kept = zlib
        .gunzipSync(fs.readFileSync(path.join(dir, 'edges-twolayer.sif.gz')))
        .toString('utf8')
        .split('\n')
        .slice(1)
        .filter(Boolean);
      expect(kept.length).toBe(sample.edges.length - ds.heldOut.length);
      expect(kept.some((l) => held.has(l))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds distractors that name a question disease and state no held-out fact', () => {
    const distractors = ds.documents.filter((d) => d.kind === 'distractor');
    expect(distractors.length).toBeGreaterThan(0);
    for (const d of distractors) expect(names(`${d.title}\n${d.text}`, sample.nodes.get(d.subject)!.name)).toBe(true);
    const gold = new Set(ds.questions.flatMap((q) => q.supporting_ids));
    for (const d of distractors) expect(gold.has(d.id)).toBe(false);
  });

  it('is deterministic for a seed, and another seed gives another set', () => {
    const again = generateTwoLayer(sample, { seed: 1 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(ds));
    const other = generateTwoLayer(sample, { seed: 2 });
    expect(JSON.stringify(other.questions)).not.toBe(JSON.stringify(ds.questions));
  });

  it('writes names as running text does', () => {
    expect(midForm('Memantine')).toBe('memantine');
    expect(midForm('Arsenic trioxide')).toBe('arsenic trioxide');
    expect(midForm('GRIN1')).toBe('GRIN1');
    expect(midForm('L-Ornithine')).toBe('L-Ornithine');
    expect(textForm({ name: "Parkinson's disease", kind: 'Disease' })).toBe("Parkinson's disease");
    expect(names("Alzheimer's disease's burden", "Alzheimer's disease")).toBe(true);
    expect(names('throughout', 'gout')).toBe(false);
  });
});
