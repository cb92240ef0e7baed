// Subject: server/embedders/voyage.ts: the Voyage client against a local server speaking its API.
import { createVoyageEmbedder } from '../../../server/embedders/voyage.js';
import { mockVoyageEmbedding, startMockVoyage, type MockVoyage } from '../../support/mock-voyage.js';

const API_KEY = 'pa-TEST-voyage-0123456789abcdef';
const MODEL = 'voyage-3.5-lite';

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));

describe('voyage embedder (against a local embeddings API server)', () => {
  let mock: MockVoyage;

  beforeAll(async () => {
    mock = await startMockVoyage({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('batches, sends bearer auth, model, input_type and output_dimension, and returns unit vectors in order', async () => {
    const embedder = createVoyageEmbedder({ apiKey: API_KEY, model: MODEL, dimension: 256, baseUrl: mock.url, batchSize: 2 });
    expect(embedder.id).toBe(`voyage:${MODEL}:256`);
    expect(embedder.dimension).toBe(256);
    const texts = [
      'Neo4j is a graph database.',
      'Cypher is its query language.',
      'Bolt is the wire protocol.',
      'APOC adds procedures.',
      'GDS runs graph algorithms.',
    ];
    const before = mock.embeddingRequests.length;
    const vecs = await embedder.embed(texts, 'document');

    const reqs = mock.embeddingRequests.slice(before);
    expect(reqs).toHaveLength(3);
    expect(reqs.map((r) => r.path)).toEqual(['/v1/embeddings', '/v1/embeddings', '/v1/embeddings']);
    expect(reqs.map((r) => r.body.input)).toEqual([texts.slice(0, 2), texts.slice(2, 4), texts.slice(4)]);
    for (const r of reqs) {
      expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(r.body.model).toBe(MODEL);
      expect(r.body.input_type).toBe('document');
      expect(r.body.output_dimension).toBe(256);
    }

    expect(vecs).toHaveLength(5);
    vecs.forEach((v, i) => {
      expect(v).toHaveLength(256);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-9);
      // in order: vector i is the server's embedding of text i
      const expected = mockVoyageEmbedding(texts[i]!, 'document', 256);
      for (const [j, x] of v.entries()) expect(x).toBeCloseTo(expected[j]!, 12);
    });
    // distinct texts, distinct vectors
    expect(dot(vecs[0]!, vecs[1]!)).toBeLessThan(0.99);
  });

  it('sends input_type query for queries; query and document vectors of the same text differ but stay close', async () => {
    const embedder = createVoyageEmbedder({ apiKey: API_KEY, model: MODEL, dimension: 512, baseUrl: mock.url });
    const before = mock.embeddingRequests.length;
    const [q] = await embedder.embed(['Who founded Lewistown?'], 'query');
    const [d] = await embedder.embed(['Who founded Lewistown?'], 'document');
    const reqs = mock.embeddingRequests.slice(before);
    expect(reqs.map((r) => r.body.input_type)).toEqual(['query', 'document']);
    expect(q).not.toEqual(d);
    const cos = dot(q!, d!);
    expect(cos).toBeGreaterThan(0.3);
    expect(cos).toBeLessThan(0.999);
  });

  it('maps empty texts to a space (the API rejects empty strings) and embeds an empty list without a request', async () => {
    const embedder = createVoyageEmbedder({ apiKey: API_KEY, model: MODEL, dimension: 256, baseUrl: mock.url });
    const before = mock.embeddingRequests.length;
    expect(await embedder.embed([], 'document')).toEqual([]);
    expect(mock.embeddingRequests.length).toBe(before);
    const vecs = await embedder.embed(['', 'x'], 'document');
    expect(vecs).toHaveLength(2);
    expect(mock.embeddingRequests.at(-1)!.body.input).toEqual([' ', 'x']);
  });

  it('retries a 429 and succeeds', async () => {
    const embedder = createVoyageEmbedder({ apiKey: API_KEY, model: MODEL, dimension: 256, baseUrl: mock.url, maxRetries: 3 });
    mock.enqueueFailure(429);
    const before = mock.embeddingRequests.length;
    const vecs = await embedder.embed(['rate limited once'], 'document');
    expect(mock.embeddingRequests.length - before).toBe(2);
    expect(vecs).toHaveLength(1);
    expect(vecs[0]).toHaveLength(256);
  }, 30_000);

  it('throws when the server returns vectors of another dimension', async () => {
    const fixed = await startMockVoyage({ apiKey: API_KEY, fixedDimension: 512 });
    try {
      const embedder = createVoyageEmbedder({ apiKey: API_KEY, model: MODEL, dimension: 256, baseUrl: fixed.url });
      await expect(embedder.embed(['a', 'b'], 'document')).rejects.toThrow(/512-d embedding, expected 256/);
      expect(fixed.embeddingRequests).toHaveLength(1);
    } finally {
      await fixed.close();
    }
  });

  it('surfaces an auth failure (401) without retrying', async () => {
    const embedder = createVoyageEmbedder({ apiKey: 'pa-wrong', model: MODEL, dimension: 256, baseUrl: mock.url });
    const before = mock.embeddingRequests.length;
    await expect(embedder.embed(['x'], 'query')).rejects.toMatchObject({ statusCode: 401 });
    expect(mock.embeddingRequests.length - before).toBe(1);
  });

  it('serves the path without /v1 too (base URL given as the bare origin)', async () => {
    const embedder = createVoyageEmbedder({ apiKey: API_KEY, model: MODEL, dimension: 256, baseUrl: mock.origin });
    const [v] = await embedder.embed(['bare origin'], 'query');
    expect(v).toHaveLength(256);
    expect(mock.embeddingRequests.at(-1)!.path).toBe('/embeddings');
  });
});
