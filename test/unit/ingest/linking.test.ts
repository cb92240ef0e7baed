// Subject: server/ingest/linking.ts: mentions of curated names found and resolved.
/**
 * The entity linker (server/ingest/linking.ts) on the hand-checked fixture (test/fixtures/linking/),
 * with the real Hetionet sample and the real local embedder, as bench/linking-eval.ts runs it.
 */
import { evaluate, type LinkingEval, type Prepared, prepare, readFixture } from '../../../bench/linking-eval.js';
import { createLocalEmbedder } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { buildDictionary, findMentions, resolveMentions } from '../../../server/ingest/linking.js';
import { ensureModel } from '../../../scripts/setup-model.mjs';

const H = 'hetionet:';

describe('findMentions (no model)', () => {
  const dict = buildDictionary(
    [
      { id: 'g:SET', name: 'SET', type: 'Gene' },
      { id: 'g:ACHE', name: 'ACHE', type: 'Gene' },
      { id: 'se:ache', name: 'Ache', type: 'Side Effect' },
      { id: 's:halls', name: 'Hallucinations', type: 'Symptom' },
      { id: 'se:hall', name: 'Hallucination', type: 'Side Effect' },
      { id: 'd:copd', name: 'chronic obstructive pulmonary disease', type: 'Disease' },
      { id: 'd:ad', name: "Alzheimer's disease", type: 'Disease' },
    ],
    new Set(['set']),
  );
  const ids = (text: string) => findMentions(dict, text).map((m) => [m.surface, m.candidates.map((c) => c.id).sort()]);

  it('matches symbols only as written, and a mixed-case symbol as its symbol', () => {
    expect(ids('We set aside SET.')).toEqual([['SET', ['g:SET']]]);
    expect(ids('AChE and an ache')).toEqual([
      ['AChE', ['g:ACHE']],
      ['ache', ['se:ache']],
    ]);
  });

  it("gives a plural that is a name its singular's entities too", () => {
    expect(ids('hallucinations')).toEqual([['hallucinations', ['s:halls', 'se:hall']]]);
  });

  it('links an abbreviation the passage defines, and possessive-less spellings', () => {
    expect(ids('Chronic obstructive pulmonary disease (COPD) is common; COPD patients and Alzheimer disease')).toEqual([
      ['Chronic obstructive pulmonary disease', ['d:copd']],
      ['COPD', ['d:copd']],
      ['COPD', ['d:copd']],
      ['Alzheimer disease', ['d:ad']],
    ]);
  });

  it('does not link a weak name in a passage that names nothing by a strong one', () => {
    const weak = buildDictionary([{ id: 'c:iron', name: 'Iron', type: 'Compound' }], new Set(['iron']));
    const mentions = findMentions(weak, 'The Iron Age town traded iron.');
    const v = [1, 0];
    expect(resolveMentions(mentions, v, new Map([['c:iron', v]]))).toEqual([]);
  });
});

describe('linking the fixture (Hetionet sample, local embedder)', () => {
  let embedder: Embedder;
  let prepared: Prepared;
  let r: LinkingEval;
  const linked = (abstract: string) => r.predictions.filter((p) => p.abstract === abstract);
  const at = (abstract: string, surface: string, nth = 0) => {
    const a = prepared.fixture.find((x) => x.id === abstract)!;
    const full = `${a.title}\n${a.text}`;
    let start = -1;
    for (let n = 0; n <= nth; n++) start = full.indexOf(surface, start + 1);
    expect(start).toBeGreaterThanOrEqual(0);
    return linked(abstract).filter((p) => p.start < start + surface.length && start < p.end);
  };

  beforeAll(async () => {
    await ensureModel({ log: () => {} });
    embedder = await createLocalEmbedder({ batchSize: 32 });
    prepared = await prepare({ fixture: readFixture(), embedder });
    r = evaluate(prepared);
  }, 300_000);

  afterAll(async () => {
    await embedder?.close?.();
  });

  it('links a sentence-initial drug name', () => {
    const a01 = prepared.fixture.find((x) => x.id === 'a01')!;
    expect(a01.text.startsWith('Memantine is')).toBe(true);
    const start = a01.title.length + 1;
    expect(linked('a01').find((p) => p.start === start)?.entityId).toBe(`${H}Compound::DB01043`);
  });

  it('does not link "set aside" to the gene SET, but links SET written as the symbol', () => {
    expect(at('a09', 'set')).toEqual([]);
    expect(linked('a09').some((p) => p.entityId === `${H}Gene::6418`)).toBe(false);
    expect(at('a22', 'SET').map((p) => p.entityId)).toEqual([`${H}Gene::6418`]);
  });

  it('links "IL-6" to IL6 and "Alzheimer disease" to Alzheimer\'s disease', () => {
    expect(at('a20', 'IL-6').map((p) => p.entityId)).toEqual([`${H}Gene::3569`]);
    expect(at('a02', 'Alzheimer disease').map((p) => p.entityId)).toEqual([`${H}Disease::DOID:10652`]);
  });

  it('tells shared names apart', () => {
    // By context: rivastigmine's nausea is the side effect; nicotine in a smoking trial the compound.
    expect(at('a02', 'nausea').map((p) => p.entityId)).toEqual([`${H}Side Effect::C0027497`]);
    expect(at('a27', 'nicotine receptor').map((p) => p.entityId)).toEqual([`${H}Compound::DB00184`]);
    // By kind: a Disease's name is the Disease, not the side effect of the same name.
    expect(at('a24', 'asthma').map((p) => [p.entityId, p.method])).toEqual([[`${H}Disease::DOID:2841`, 'exact+kind']]);
  });

  it('links an abbreviation the abstract defines, and nothing in off-topic text', () => {
    expect(at('a32', 'COPD', 1).map((p) => p.entityId)).toEqual([`${H}Disease::DOID:3083`]);
    expect(linked('h01')).toEqual([]);
    expect(linked('h02')).toEqual([]);
  });

  it('reaches precision and recall >= 0.9 at mention and entity level', () => {
    expect(r.gold).toBeGreaterThanOrEqual(100);
    expect(r.traps).toBeGreaterThanOrEqual(30);
    expect(r.mention.precision).toBeGreaterThanOrEqual(0.9);
    expect(r.mention.recall).toBeGreaterThanOrEqual(0.9);
    expect(r.entity.precision).toBeGreaterThanOrEqual(0.9);
    expect(r.entity.recall).toBeGreaterThanOrEqual(0.9);
  });
});
