// Subject: server/ingest/import/validate.ts: import folders validated row by row, with line numbers.
import { ImportValidationError, validateFolder } from '../../../server/ingest/import/validate.js';
import { axis, importFolder } from '../../support/import-folder.js';

const DIM = 8;
const v = (k: number) => axis(k, DIM);
const good = () => ({
  passages: [
    { id: 'p1', documentId: 'd1', title: 'Aspirin', text: 'Aspirin treats headache.', embedding: v(0) },
    { id: 'p2', title: 'Ibuprofen', text: 'Ibuprofen treats fever.', embedding: v(1) },
  ],
  entities: [
    { id: 'e1', name: 'Aspirin', type: 'Compound', embedding: v(2) },
    { id: 'e2', name: 'Headache', curated: true, embedding: v(3), descriptionEmbedding: v(4) },
  ],
  mentions: [
    { passage: 'p1', entity: 'e1' },
    { passage: 'p1', entity: 'e2', confidence: 0.9, method: 'exact' },
  ],
  relationships: [
    { from: 'e1', to: 'e2', predicate: 'treats', passageId: 'p1', embedding: v(5) },
    { from: 'e1', to: 'e2', type: 'TREATS_CtD' },
  ],
});

async function problemsOf(dir: string, known?: Parameters<typeof validateFolder>[1]['known']): Promise<string[]> {
  try {
    await validateFolder(dir, { dimension: DIM, known });
  } catch (e) {
    if (e instanceof ImportValidationError) return e.problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
    throw e;
  }
  return [];
}

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

describe('import folder validation', () => {
  it('accepts a good folder, fills the defaults and streams the rows again', async () => {
    const v0 = await validateFolder(importFolder(good()), { dimension: DIM });
    expect(v0.counts).toEqual({ passages: 2, entities: 2, mentions: 2, relationships: 2 });
    const passages = await collect(v0.source.passages());
    expect(passages[1]).toMatchObject({ id: 'p2', documentId: 'p2', source: 'import' });
    const entities = await collect(v0.source.entities());
    expect(entities[0]).toMatchObject({ type: 'Compound', curated: false, description: '' });
    expect(entities[1]).toMatchObject({ type: 'Thing', curated: true });
    expect(entities[0].descriptionEmbedding).toEqual(entities[0].embedding);
    const rels = await collect(v0.source.relationships());
    expect(rels.map((r) => [r.type, r.predicate, r.passageId, r.embedding === null])).toEqual([
      ['RELATED', 'treats', 'p1', false],
      ['TREATS_CtD', 'treats ctd', null, true],
    ]);
    const mentions = await collect(v0.source.mentions());
    expect(mentions.map((m) => [m.weight, m.confidence, m.method])).toEqual([
      [1, null, null],
      [1, 0.9, 'exact'],
    ]);
  });

  it('names every bad row by file and line, and nothing else', async () => {
    const f = good();
    const dir = importFolder({
      passages: [
        f.passages[0],
        '',
        '{"id": "p2", "text": "no vector"',
        { id: 'p3', text: 'short vector', embedding: [1, 2] },
        { id: 'p1', text: 'same id again', embedding: v(0) },
      ],
      entities: [...f.entities, { id: 'e3', name: 'Zero', embedding: Array(DIM).fill(0) }, { id: 'e4', name: 'NaN', embedding: [...v(1).slice(1), 'x'] }],
      mentions: [...f.mentions, { passage: 'p9', entity: 'e1' }, { passage: 'p1', entity: 'e1', confidence: 0.5 }],
      relationships: [...f.relationships, { from: 'e1', to: 'e2', type: 'TREATS CtD' }, { from: 'e1', to: 'e7', extra: 1 }],
    });
    const problems = await problemsOf(dir);
    expect(problems).toEqual([
      expect.stringMatching(/^entities\.jsonl:3: embedding: must not be all zeros/),
      expect.stringMatching(/^entities\.jsonl:4: embedding\.7: /),
      expect.stringMatching(/^mentions\.jsonl:3: passage: no passage "p9" in passages\.jsonl$/),
      expect.stringMatching(/^mentions\.jsonl:4: confidence and method go together/),
      expect.stringMatching(/^passages\.jsonl:3: not JSON/),
      expect.stringMatching(/^passages\.jsonl:4: embedding: must hold 8 numbers/),
      expect.stringMatching(/^passages\.jsonl:5: id "p1" appears twice/),
      expect.stringMatching(/^relationships\.jsonl:3: type: must be an identifier/),
      expect.stringMatching(/^relationships\.jsonl:4: Unrecognized key\(s\) in object: 'extra'/),
    ]);
  });

  it('looks references outside the folder up in the database (online load), and reports those it cannot find', async () => {
    const dir = importFolder({
      mentions: [
        { passage: 'old-p', entity: 'old-e' },
        { passage: 'old-p', entity: 'gone' },
      ],
    });
    const asked: string[][] = [];
    const known = async (kind: 'passage' | 'entity', ids: string[]) => {
      asked.push([kind, ...ids]);
      return new Set(ids.filter((x) => x.startsWith('old-')));
    };
    expect(await problemsOf(dir, known)).toEqual(['mentions.jsonl:2: entity: no entity "gone" in entities.jsonl or the database']);
    expect(asked).toEqual([
      ['passage', 'old-p'],
      ['entity', 'old-e', 'gone'],
    ]);
    expect(await problemsOf(dir)).toHaveLength(4);
  });

  it('refuses a folder with none of the files', async () => {
    await expect(validateFolder(importFolder({}), { dimension: DIM })).rejects.toThrow(/holds none of passages\.jsonl/);
  });
});
