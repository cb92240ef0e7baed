// Subject: server/retrieval/retriever.ts's withoutCallerData: what the Retriever keeps of a request's parameters to
// refresh its cached plan later has the request's types and sizes and none of its values.
import neo4j from 'neo4j-driver';
import { parameterTypes, toDriverParams, withoutCallerData } from '../../../server/retrieval/retriever.js';

const request = toDriverParams({
  question: 'Who is the current opposition leader in the country where Buyende is located?',
  questionEmbedding: [0.125, -0.5, 0.75],
  topK: 10,
  decay: 0.85,
  useNameSeeds: true,
  seedIds: ['e:buyende', 'e:uganda'],
  filter: { sources: ['secret-source'], metadata: { year: 2024, lang: 'en' } },
  graphName: null,
});

test('the kept parameters have the same types, so the same cached plan', () => {
  expect(parameterTypes(withoutCallerData(request))).toBe(parameterTypes(request));
  expect(neo4j.isInt(withoutCallerData(request).topK)).toBe(true);
});

test("strings and lists keep their lengths (Neo4j may key a plan by them), maps their shape, and nothing of the caller's", () => {
  const kept = withoutCallerData(request);
  expect((kept.question as string).length).toBe((request.question as string).length);
  expect((kept.questionEmbedding as number[]).length).toBe(3);
  expect((kept.seedIds as string[]).map((s) => s.length)).toEqual((request.seedIds as string[]).map((s) => s.length));
  expect(kept.filter).toEqual({ k0: ['xxxxxxxxxxxxx'], k1: { k0: 0.5, k1: 'xx' } });
  const text = JSON.stringify(kept);
  for (const secret of ['Buyende', 'buyende', 'uganda', 'secret-source', 'sources', 'metadata', 'lang', '0.125', '0.85'])
    expect([secret, text.includes(secret)]).toEqual([secret, false]);
});
