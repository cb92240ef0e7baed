// Subject: server/ingest/resolution.ts + synonyms.ts: which names merge as one entity.
import { resolveEntities } from '../../../server/ingest/resolution.js';
import { numeralsAgree } from '../../../server/ingest/synonyms.js';

test('names with different numbers or regnal numerals are never synonyms', () => {
  expect(numeralsAgree('Hugh I of Cyprus', 'Hugh III of Cyprus')).toBe(false);
  expect(numeralsAgree('Apollo 11', 'Apollo 13')).toBe(false);
  expect(numeralsAgree('Lothair II', 'Lothair II, King of Lotharingia')).toBe(true);
  expect(numeralsAgree('Graeme Ferguson', 'Ivan Graeme Ferguson')).toBe(true);
  expect(numeralsAgree('Louis XIV', 'Louis XIV of France')).toBe(true);
  expect(numeralsAgree('CYP3A4', 'CYP3A5')).toBe(false);
  expect(numeralsAgree('HMGCR', 'HMG-CoA reductase')).toBe(true);
});

test('resolution merges on normalised names and keeps the commonest display form and type', () => {
  const passage = (id: string) => ({ id, documentId: id, title: id, text: '' });
  const r = resolveEntities([
    {
      passage: passage('p1'),
      extraction: {
        entities: [
          { name: 'The Beatles', type: 'Organization', description: 'a band' },
          { name: 'Liverpool', type: 'Place', description: 'a city' },
        ],
        relations: [{ subject: 'The Beatles', predicate: 'formed in', object: 'Liverpool' }],
      },
    },
    {
      passage: passage('p2'),
      extraction: {
        entities: [
          { name: "Beatles'", type: 'Organization', description: 'a band from Liverpool' },
          { name: 'The Beatles', type: 'Work', description: 'a band' },
        ],
        relations: [{ subject: 'The Beatles', predicate: 'alias', object: "Beatles'" }],
      },
    },
  ]);
  const beatles = r.entities.find((e) => e.id === 'e:beatles')!;
  expect(beatles.name).toBe('The Beatles');
  expect(beatles.type).toBe('Organization');
  expect(beatles.description).toBe('a band a band from Liverpool');
  expect(r.mentions).toEqual([
    { p: 'p1', e: 'e:beatles' },
    { p: 'p1', e: 'e:liverpool' },
    { p: 'p2', e: 'e:beatles' },
  ]);
  expect(r.relations).toEqual([{ a: 'e:beatles', b: 'e:liverpool', predicate: 'formed in', passageId: 'p1' }]);
  expect(r.aliases).toEqual([]); // both names normalise to the same entity
});
