// Subject: server/ingest/sources/: reading documents (JSONL, text, folders) into ingest rows.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chunkText, deriveDocumentId, readFolder, readHetionet, readJsonl, toPassages } from '../../../server/ingest/sources/index.js';
import type { ReadItem, SourceDocument, SourceProblem } from '../../../server/ingest/types.js';
import { ROOT } from '../../../server/config.js';
import { readAll } from '../../../server/ingest/documents.js';

/** The development datasets, committed with the repository. */
const BENCH_DATA = path.join(ROOT, 'bench', 'data');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sources-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = path.join(tmp, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

async function collect(gen: AsyncGenerator<ReadItem>): Promise<{ docs: SourceDocument[]; problems: SourceProblem[] }> {
  const { documents, problems } = await readAll(gen);
  return { docs: documents, problems };
}

/** Deterministic prose: sentences of short words, no two sentences alike. */
function prose(sentences: number, seed = 1): string {
  const words = ['alpha', 'river', 'stone', 'quiet', 'ember', 'lumen', 'orbit', 'cedar', 'north', 'violet', 'maple', 'tundra'];
  let x = seed;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const n = 6 + Math.floor(rnd() * 10);
    const ws = Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]);
    ws[0] = ws[0][0].toUpperCase() + ws[0].slice(1);
    out.push(`${ws.join(' ')} s${s}.`);
  }
  return out.join(' ');
}

/** Finds each chunk in the text in order; returns their [start, end) spans. */
function spans(text: string, chunks: string[]): [number, number][] {
  const out: [number, number][] = [];
  let from = 0;
  for (const c of chunks) {
    const at = text.indexOf(c, from);
    expect(at).toBeGreaterThanOrEqual(0);
    out.push([at, at + c.length]);
    from = at + 1;
  }
  return out;
}

function expectCovers(text: string, chunks: string[]): [number, number][] {
  const sp = spans(text, chunks);
  const covered = new Uint8Array(text.length);
  for (const [a, b] of sp) covered.fill(1, a, b);
  for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i]) && !covered[i]) throw new Error(`char ${i} not covered`);
  for (let i = 1; i < sp.length; i++) expect(sp[i][0]).toBeGreaterThan(sp[i - 1][0]);
  return sp;
}

describe('readJsonl', () => {
  test('a malformed line 3 is reported with its line while lines 1-2 and 4 come through', async () => {
    const file = write(
      'bad3.jsonl',
      [
        '{"id": "a", "title": "A", "text": "first"}',
        '{"id": 2, "title": "B", "text": "second", "metadata": {"k": 1}}',
        '{"id": "c", "title": "C", "text": "third"',
        '{"id": "d", "title": "D", "text": "fourth"}',
      ].join('\n') + '\n',
    );
    const { docs, problems } = await collect(readJsonl(file));
    expect(docs.map((d) => d.id)).toEqual(['a', '2', 'd']);
    expect(docs[1]).toEqual({ id: '2', title: 'B', text: 'second', source: 'bad3', metadata: { k: 1 } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file, line: 3 });
    expect(problems[0].reason).toMatch(/^invalid JSON: \S/);
  });

  test('each kind of bad line gets a precise reason and its line; blank lines keep the numbering', async () => {
    const file = write(
      'reasons.jsonl',
      [
        '[1, 2]', // 1
        '', // 2 blank
        '{"text": "no title"}', // 3
        '{"title": "T", "text": "   "}', // 4
        '{"id": true, "title": "T", "text": "x"}', // 5
        '{"id": "", "title": "T", "text": "x"}', // 6
        '{"id": "m", "title": "T", "text": "x", "metadata": [1]}', // 7
        '{"id": "ok", "title": 5, "text": "x"}', // 8
        '{"id": "ok", "title": "T", "text": "x"}', // 9
        '   ', // 10 blank
        '{"id": "ok", "title": "T2", "text": "y"}', // 11
        'null', // 12
      ].join('\r\n'),
    );
    const { docs, problems } = await collect(readJsonl(file));
    expect(docs.map((d) => d.id)).toEqual(['ok']);
    expect(problems.map((p) => [p.line, p.reason])).toEqual([
      [1, 'not a JSON object (got array)'],
      [3, 'missing "title"'],
      [4, 'empty "text"'],
      [5, '"id" must be a non-empty string or number (got boolean)'],
      [6, 'empty "id"'],
      [7, '"metadata" must be an object (got array)'],
      [8, '"title" must be a string (got number)'],
      [11, 'duplicate id ok (first seen on line 9)'],
      [12, 'not a JSON object (got null)'],
    ]);
  });

  test("a document's source: the line's own, else the one given, else the file's name; metadata must be flat", async () => {
    const file = write(
      'pubmed-2024.jsonl',
      [
        '{"id": "a", "title": "A", "text": "x"}',
        '{"id": "b", "title": "B", "text": "x", "source": "upload", "metadata": {"year": 2020, "open": true, "kind": "note"}}',
        '{"id": "c", "title": "C", "text": "x", "source": 7}',
        '{"id": "d", "title": "D", "text": "x", "source": " "}',
        '{"id": "e", "title": "E", "text": "x", "metadata": {"tags": ["a"]}}',
        '{"id": "f", "title": "F", "text": "x", "metadata": {"where": {"city": "Kampala"}}}',
        '{"id": "g", "title": "G", "text": "x", "metadata": {"none": null}}',
      ].join('\n'),
    );
    const { docs, problems } = await collect(readJsonl(file));
    expect(docs.map((d) => [d.id, d.source])).toEqual([
      ['a', 'pubmed-2024'],
      ['b', 'upload'],
    ]);
    expect(docs[1].metadata).toEqual({ year: 2020, open: true, kind: 'note' });
    expect(problems.map((p) => [p.line, p.reason])).toEqual([
      [3, '"source" must be a non-empty string (got number)'],
      [4, '"source" must be a non-empty string (got an empty string)'],
      [5, '"metadata.tags" must be a string, a number or a boolean (got array)'],
      [6, '"metadata.where" must be a string, a number or a boolean (got object)'],
      [7, '"metadata.none" must be a string, a number or a boolean (got null)'],
    ]);
    const given = await collect(readJsonl(file, 'PubMed'));
    expect(given.docs.map((d) => d.source)).toEqual(['PubMed', 'upload']);
  });

  test('a missing id is derived from the content, the same each time', async () => {
    const line = '{"title": "Same", "text": "Same text"}';
    const f1 = write('noid1.jsonl', `${line}\n{"title": "Other", "text": "Same text"}\n`);
    const f2 = write('noid2.jsonl', `${line}\n${line}\n`);
    const a = await collect(readJsonl(f1));
    const b = await collect(readJsonl(f2));
    const expected = 'doc-' + createHash('sha256').update('Same\nSame text').digest('hex').slice(0, 16);
    expect(a.docs[0].id).toBe(expected);
    expect(deriveDocumentId('Same', 'Same text')).toBe(expected);
    expect(a.docs[1].id).toMatch(/^doc-[0-9a-f]{16}$/);
    expect(a.docs[1].id).not.toBe(expected);
    expect(b.docs.map((d) => d.id)).toEqual([expected]);
    expect(b.problems).toEqual([{ file: f2, line: 2, reason: `duplicate id ${expected} (first seen on line 1)` }]);
  });

  test('a binary file gives one problem and nothing else', async () => {
    const bin = Buffer.alloc(4096);
    for (let i = 0; i < bin.length; i++) bin[i] = (i * 37) % 256;
    bin.write('{"title": "x", "text": "y"}\n', 0);
    const file = write('binary.jsonl', bin);
    expect(await collect(readJsonl(file))).toEqual({ docs: [], problems: [{ file, reason: 'binary file, not JSONL' }] });

    // No NUL byte, but mostly invalid UTF-8.
    const latin = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? 0xe9 : 0x61)));
    const file2 = write('latin1.jsonl', latin);
    expect((await collect(readJsonl(file2))).problems).toEqual([{ file: file2, reason: 'binary file, not JSONL' }]);
  });

  test('an empty (or blank) file gives a single "empty file" problem', async () => {
    for (const [name, content] of [
      ['empty.jsonl', ''],
      ['blank.jsonl', '\n  \n\n'],
    ]) {
      const file = write(name, content);
      expect(await collect(readJsonl(file))).toEqual({ docs: [], problems: [{ file, reason: 'empty file' }] });
    }
  });

  test('a missing file is a problem, not an exception', async () => {
    const { problems } = await collect(readJsonl(path.join(tmp, 'nope.jsonl')));
    expect(problems).toHaveLength(1);
    expect(problems[0].reason).toMatch(/cannot read file \(ENOENT/);
  });

  test('the 2wikimultihopqa corpus reads cleanly', async () => {
    const file = path.join(BENCH_DATA, '2wikimultihopqa', 'corpus.jsonl');
    const t0 = performance.now();
    const { docs, problems } = await collect(readJsonl(file));
    const ms = performance.now() - t0;
    console.log(`readJsonl 2wikimultihopqa: ${docs.length} documents, ${problems.length} problems in ${ms.toFixed(0)} ms`);
    expect(problems).toEqual([]);
    expect(docs).toHaveLength(6119);
    expect(new Set(docs.map((d) => d.id)).size).toBe(6119);
  });
});

describe('chunkText', () => {
  test('validates size and overlap', () => {
    expect(() => chunkText('x', 100, 100)).toThrow(RangeError);
    expect(() => chunkText('x', 100, -1)).toThrow(RangeError);
    expect(() => chunkText('x', 0, 0)).toThrow(RangeError);
    expect(() => chunkText('x', 10.5, 2)).toThrow(RangeError);
    expect(chunkText('x', 1, 0)).toEqual(['x']);
  });

  test('short texts give one trimmed chunk; blank text gives none', () => {
    expect(chunkText('  hello world \n')).toEqual(['hello world']);
    expect(chunkText('a'.repeat(1200))).toEqual(['a'.repeat(1200)]);
    expect(chunkText(' \n\t ')).toEqual([]);
  });

  test('respects size and overlap, cuts at sentence ends, and covers the whole text in order', () => {
    const text = prose(120);
    // sentences: whether every window has a sentence end past max(size/2, overlap); sentences
    // here are at most ~110 characters, and [200, 150] leaves only a 49-character band.
    const cases: [number, number, boolean][] = [
      [1200, 200, true],
      [300, 50, true],
      [500, 0, true],
      [200, 150, false],
    ];
    for (const [size, overlap, sentences] of cases) {
      const chunks = chunkText(text, size, overlap);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) {
        expect(c.length).toBeLessThanOrEqual(size);
        expect(c).toBe(c.trim());
      }
      if (sentences) for (const c of chunks.slice(0, -1)) expect(c).toMatch(/\.$/);
      const sp = expectCovers(text, chunks);
      for (let i = 1; i < sp.length; i++) {
        const shared = sp[i - 1][1] - sp[i][0];
        expect(shared).toBeLessThanOrEqual(overlap);
        // Moved forward to a word start, so at most one word (<= 7 chars + space) is lost.
        expect(shared).toBeGreaterThanOrEqual(overlap - 8);
        // Starts at a word start.
        expect(sp[i][0] === 0 || /\s/.test(text[sp[i][0] - 1])).toBe(true);
      }
    }
  });

  test('prefers a paragraph break to a later sentence end', () => {
    const p1 = prose(8, 3);
    const p2 = prose(30, 4);
    const text = `${p1}\n\n${p2}`;
    const size = p1.length + 60; // the window holds p1 and most of p2's first sentence
    expect(p1.length).toBeGreaterThan(size / 2);
    const chunks = chunkText(text, size, 100);
    expect(chunks[0]).toBe(p1);
    expectCovers(text, chunks);
  });

  test('falls back to whitespace, and cuts inside a word only when it exceeds the size', () => {
    // Distinct words (so chunks can be located), no sentence ends.
    const words = Array.from({ length: 100 }, (_, i) => `word${String(i).padStart(5, '0')}`).join(' ') + ' ';
    const chunks = chunkText(words, 105, 20);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(105);
      expect(c.split(' ').every((w) => /^word\d{5}$/.test(w))).toBe(true);
    }
    expectCovers(words, chunks);

    // One 2,500-character word that never repeats a 100-character stretch.
    let long = '';
    for (let i = 0; long.length < 2500; i++) long += i.toString(36);
    long = long.slice(0, 2500);
    const text = `start ${long} end`;
    const hard = chunkText(text, 1000, 100);
    for (const c of hard) expect(c.length).toBeLessThanOrEqual(1000);
    expect(hard[0]).toBe('start');
    expect(hard[1]).toBe(long.slice(0, 1000));
    expect(hard[2]).toBe(long.slice(900, 1900));
    const sp = expectCovers(text, hard);
    for (let i = 2; i < sp.length; i++) expect(sp[i - 1][1] - sp[i][0]).toBe(100);
  });
});

describe('toPassages', () => {
  const doc = (text: string): SourceDocument => ({ id: 'd1', title: 'Title', text, source: 's' });

  test('one chunk keeps the document id; several get #i suffixes', () => {
    expect(toPassages(doc('Short text.'))).toEqual([{ id: 'd1', documentId: 'd1', title: 'Title', text: 'Short text.' }]);
    const many = toPassages(doc(prose(60)), 400, 50);
    expect(many.length).toBeGreaterThan(2);
    expect(many.map((p) => p.id)).toEqual(many.map((_, i) => `d1#${i}`));
    for (const p of many) expect(p).toMatchObject({ documentId: 'd1', title: 'Title' });
  });
});

describe('readFolder', () => {
  test('reads .md and .txt recursively in path order, with headings, front matter and problems', async () => {
    const dir = path.join(tmp, 'folder');
    write('folder/b/notes.md', '---\ntitle: ignored\ntags: [x]\n---\nIntro line.\n\n```\n# not a heading\n```\n# Real Heading\n\nBody text.\n');
    write('folder/a.txt', 'Plain text file.\n# not a title in a .txt\n');
    write('folder/c/plain.md', 'No heading here.\n');
    write('folder/c/empty.txt', '');
    write('folder/c/fm-only.md', '---\na: 1\n---\n');
    write('folder/d.md', Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
    write('folder/image.png', 'not read');
    write('folder/.hidden/secret.md', '# Hidden\n');
    const { docs, problems } = await collect(readFolder(dir));
    expect(docs.map((d) => [d.id, d.title])).toEqual([
      ['file:a.txt', 'a'],
      ['file:b/notes.md', 'Real Heading'],
      ['file:c/plain.md', 'plain'],
    ]);
    const notes = docs[1];
    expect(notes.text.startsWith('Intro line.')).toBe(true);
    expect(notes.text).not.toContain('tags:');
    expect(notes.text).toContain('# Real Heading');
    expect(notes.source).toBe(path.basename(dir));
    expect((await collect(readFolder(dir, 'papers'))).docs.map((d) => d.source)).toEqual(['papers', 'papers', 'papers']);
    expect(problems.map((p) => [path.relative(dir, p.file), p.reason])).toEqual([
      [path.join('c', 'empty.txt'), 'empty file'],
      [path.join('c', 'fm-only.md'), 'empty file (nothing after front matter)'],
      ['d.md', 'binary file, not text'],
    ]);
  });
});

describe('readHetionet', () => {
  test('a small graph: types, predicates, descriptions, problems with lines, gzip, maxEdges', async () => {
    const dir = path.join(tmp, 'het');
    write('het/nodes.tsv', 'id\tname\tkind\nCompound::1\tAspirin\tCompound\nGene::2\tPTGS2\tGene\nDisease::3\tpain\tDisease\nAnatomy::4\tliver\tAnatomy\n');
    write(
      'het/metaedges.tsv',
      'metaedge\tabbreviation\tedges\nCompound - binds - Gene\tCbG\t1\nCompound - treats - Disease\tCtD\t1\nGene > regulates > Gene\tGr>G\t1\nAnatomy - expresses - Gene\tAeG\t1\n',
    );
    const sif = [
      'source\tmetaedge\ttarget',
      'Compound::1\tCbG\tGene::2',
      'Compound::1\tCtD\tDisease::3',
      'Compound::1\tXyZ\tGene::2',
      'Compound::1\tCbG\tGene::99',
      'Gene::2\tGr>G\tGene::2',
      'Anatomy::4\tAeG\tGene::2',
    ].join('\n');
    write('het/edges.sif.gz', zlib.gzipSync(sif));
    const g = await readHetionet(dir);
    const sifFile = path.join(dir, 'edges.sif.gz');
    expect(g.problems).toEqual([
      { file: sifFile, line: 4, reason: 'unknown metaedge abbreviation XyZ' },
      { file: sifFile, line: 5, reason: 'unknown node Gene::99' },
    ]);
    expect(g.edges).toEqual([
      { from: 'hetionet:Compound::1', to: 'hetionet:Gene::2', type: 'BINDS_CbG', predicate: 'binds' },
      { from: 'hetionet:Compound::1', to: 'hetionet:Disease::3', type: 'TREATS_CtD', predicate: 'treats' },
      { from: 'hetionet:Gene::2', to: 'hetionet:Gene::2', type: 'REGULATES_Gr_G', predicate: 'regulates' },
      { from: 'hetionet:Anatomy::4', to: 'hetionet:Gene::2', type: 'EXPRESSES_AeG', predicate: 'expresses' },
    ]);
    const byName = Object.fromEntries(g.entities.map((e) => [e.name, e]));
    expect(byName.Aspirin).toEqual({
      id: 'hetionet:Compound::1',
      name: 'Aspirin',
      type: 'Compound',
      description: 'Aspirin: a compound in Hetionet; binds PTGS2; treats pain',
    });
    expect(byName.PTGS2.description).toBe('PTGS2: a gene in Hetionet; regulates PTGS2; bound by Aspirin; regulated by PTGS2');
    expect(byName.liver.description).toBe('liver: an anatomy in Hetionet; expresses PTGS2');

    const capped = await readHetionet(dir, { maxEdges: 1 });
    expect(capped.edges).toHaveLength(1);
    expect(capped.entities).toHaveLength(4);
  });

  test('a corrupt gzip edge list is a problem, not a crash', async () => {
    const dir = path.join(tmp, 'het-bad');
    const ids = Array.from({ length: 3000 }, (_, i) => `A::${i}`);
    write('het-bad/nodes.tsv', 'id\tname\tkind\n' + ids.map((id) => `${id}\tn${id}\tA\n`).join(''));
    write('het-bad/metaedges.tsv', 'metaedge\tabbreviation\nA - links - A\tAlA\n');
    const gz = zlib.gzipSync('source\tmetaedge\ttarget\n' + ids.map((id, i) => `${id}\tAlA\tA::${(i * 7) % 3000}\n`).join(''));
    write('het-bad/edges.sif.gz', gz.subarray(0, Math.floor(gz.length / 2)));
    const g = await readHetionet(dir);
    expect(g.problems).toHaveLength(1);
    expect(g.problems[0].reason).toMatch(/read error/);
    expect(g.edges.length).toBeLessThan(3000);
    expect(g.problems[0].line).toBe(g.edges.length + 2);
  });

  test('the Hetionet sample loads', async () => {
    const dir = path.join(BENCH_DATA, 'hetionet');
    const t0 = performance.now();
    const g = await readHetionet(dir);
    const ms = performance.now() - t0;
    console.log(`readHetionet sample: ${g.entities.length} entities, ${g.edges.length} edges, ${g.problems.length} problems in ${ms.toFixed(0)} ms`);
    expect(g.entities).toHaveLength(47031);
    expect(g.edges.length).toBeLessThanOrEqual(99676 - g.problems.length);
    expect(g.edges.length).toBeGreaterThan(90000);
    const types = new Set(g.edges.map((e) => e.type));
    expect(types.has('BINDS_CbG')).toBe(true);
    expect(types.has('DOWNREGULATES_AdG')).toBe(true);
    expect(types.size).toBe(24);
    for (const t of types) expect(t).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    const ids = new Set(g.entities.map((e) => e.id));
    for (const e of g.edges.slice(0, 1000)) {
      expect(ids.has(e.from)).toBe(true);
      expect(ids.has(e.to)).toBe(true);
    }
    const bupropion = g.entities.find((e) => e.name === 'Bupropion');
    expect(bupropion?.description).toMatch(/^Bupropion: a compound in Hetionet; /);
  });
});
