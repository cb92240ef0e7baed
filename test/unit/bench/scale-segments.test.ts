// Subject: bench/scale/model.ts vectorSegments, the Lucene segment counts bench:scale reports per vector index.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vectorSegments } from '../../../bench/scale/model.js';

describe('vectorSegments', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-segments-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const index = path.join(dataDir, 'data', 'databases', 'neo4j', 'schema', 'index');
  /** An index folder as Neo4j lays it out: <provider>/<id>/1/, one .si (and .cfs, .cfe) per segment. */
  const segments = (provider: string, id: string, n: number) => {
    const dir = path.join(index, provider, id, '1');
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < n; i++) for (const ext of ['si', 'cfs', 'cfe']) fs.writeFileSync(path.join(dir, `_${i}.${ext}`), 'x');
    fs.writeFileSync(path.join(dir, 'write.lock'), '');
  };

  test("counts each vector index's .si files by name, largest first, and skips other indexes", () => {
    segments('vector-2.0', '9', 175);
    segments('vector-2.0', '10', 21);
    segments('vector-2.0', '17', 525);
    segments('vector-2.0', '24', 3);
    segments('vector-2.0', '99', 1000); // not a vector index SHOW VECTOR INDEXES listed
    segments('fulltext-1.0', '5', 40); // a full-text index with the same id space
    const ids = { '9': 'entity_embedding', '10': 'passage_embedding', '17': 'fact_RELATED', '24': 'fact_TREATS_CtD', '5': 'passage_text' };
    const counts = vectorSegments(dataDir, ids);
    expect(counts).toEqual({ fact_RELATED: 525, entity_embedding: 175, passage_embedding: 21, fact_TREATS_CtD: 3 });
    expect(Object.keys(counts)).toEqual(['fact_RELATED', 'entity_embedding', 'passage_embedding', 'fact_TREATS_CtD']);
  });

  test('a data folder without indexes gives none', () => {
    expect(vectorSegments(path.join(dataDir, 'nothing-here'), { '9': 'entity_embedding' })).toEqual({});
  });
});
