/** The Hetionet curated graph: nodes.tsv, metaedges.tsv and *.sif / *.sif.gz edge lists. */
import fs from 'node:fs';
import path from 'node:path';
import { isIdentifier } from '../../graph/facts.js';
import type { CuratedEdge, CuratedEntity, CuratedGraph, SourceProblem } from '../types.js';
import { brief, errMessage, fileLines } from './common.js';

/** Outgoing and incoming wording of Hetionet predicates, for entity descriptions. */
const PHRASES: Record<string, [string, string]> = {
  associates: ['associated with', 'associated with'],
  binds: ['binds', 'bound by'],
  causes: ['causes', 'caused by'],
  covaries: ['covaries with', 'covaries with'],
  downregulates: ['downregulates', 'downregulated by'],
  expresses: ['expresses', 'expressed in'],
  includes: ['includes', 'included in'],
  interacts: ['interacts with', 'interacts with'],
  localizes: ['localizes to', 'site of'],
  palliates: ['palliates', 'palliated by'],
  participates: ['participates in', 'involves'],
  presents: ['presents', 'presented in'],
  regulates: ['regulates', 'regulated by'],
  resembles: ['resembles', 'resembles'],
  treats: ['treats', 'treated by'],
  upregulates: ['upregulates', 'upregulated by'],
};
/**
 * Plain words for a predicate that is a term of art in Hetionet's sources, read into each fact's
 * sentence ("Haloperidol palliates (relieves the symptoms of) Alzheimer's disease"), so that a
 * question in everyday words finds the relation. Hetionet takes `palliates` from PharmacotherapyDB,
 * whose symptomatic indications it is (disease-modifying ones are `treats`). The other predicates
 * are the words a question uses (docs/linking.md#glosses).
 */
const GLOSSES: Record<string, string> = {
  palliates: 'relieves the symptoms of',
};
const MAX_NEIGHBOURS_IN_DESCRIPTION = 3;

interface Metaedge {
  type: string;
  predicate: string;
}

/** Column positions by header name; undefined entries are missing columns. */
function columns(header: string, names: string[]): Record<string, number | undefined> {
  const cols = header
    .replace(/^\uFEFF/, '')
    .split('\t')
    .map((c) => c.trim().toLowerCase());
  const out: Record<string, number | undefined> = {};
  for (const name of names) {
    const i = cols.indexOf(name);
    out[name] = i >= 0 ? i : undefined;
  }
  return out;
}

async function readMetaedges(file: string, problems: SourceProblem[]): Promise<Map<string, Metaedge>> {
  const byAbbr = new Map<string, Metaedge>();
  const typeOwner = new Map<string, string>();
  let lineNo = 0;
  let col: Record<string, number | undefined> = {};
  for await (const line of fileLines(file)) {
    lineNo++;
    if (lineNo === 1) {
      col = columns(line, ['metaedge', 'abbreviation']);
      if (col.metaedge === undefined || col.abbreviation === undefined) {
        throw new Error(`${file}: header must name columns metaedge and abbreviation (got "${brief(line)}")`);
      }
      continue;
    }
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const metaedge = cells[col.metaedge!]?.trim() ?? '';
    const abbr = cells[col.abbreviation!]?.trim() ?? '';
    const m = /^(.+?)\s+([-<>])\s+(.+?)\s+\2\s+(.+)$/.exec(metaedge);
    if (!abbr || !m) {
      problems.push({ file, line: lineNo, reason: `cannot parse metaedge "${brief(metaedge)}" / abbreviation "${abbr}"` });
      continue;
    }
    const predicate = m[3].trim();
    const verb = predicate
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
    const type = `${verb}_${abbr.replace(/[^A-Za-z0-9_]/g, '_')}`;
    if (!isIdentifier(type)) {
      problems.push({ file, line: lineNo, reason: `relationship type "${type}" for ${abbr} is not Cypher-safe` });
      continue;
    }
    const owner = typeOwner.get(type);
    if (owner !== undefined && owner !== abbr) {
      problems.push({ file, line: lineNo, reason: `relationship type ${type} of ${abbr} collides with ${owner}` });
      continue;
    }
    if (byAbbr.has(abbr)) {
      problems.push({ file, line: lineNo, reason: `duplicate abbreviation ${abbr}` });
      continue;
    }
    typeOwner.set(type, abbr);
    byAbbr.set(abbr, { type, predicate });
  }
  return byAbbr;
}

/**
 * A Hetionet-format graph from dir: nodes.tsv (id, name, kind), metaedges.tsv (metaedge,
 * abbreviation, ...) and edge lists *.sif / *.sif.gz (source, metaedge, target).
 * Missing files or headers throw; bad lines become problems.
 */
export async function readHetionet(dir: string, opts: { maxEdges?: number } = {}): Promise<CuratedGraph> {
  const maxEdges = opts.maxEdges ?? Infinity;
  if (!(maxEdges === Infinity || (Number.isInteger(maxEdges) && maxEdges >= 0))) {
    throw new RangeError(`readHetionet: maxEdges must be a non-negative integer (got ${opts.maxEdges})`);
  }
  const names = await fs.promises.readdir(dir);
  const edgeFiles = names.filter((n) => /\.sif(\.gz)?$/i.test(n)).sort();
  for (const required of ['nodes.tsv', 'metaedges.tsv']) {
    if (!names.includes(required)) throw new Error(`readHetionet: ${path.join(dir, required)} not found`);
  }
  if (edgeFiles.length === 0) throw new Error(`readHetionet: no *.sif or *.sif.gz edge list in ${dir}`);

  const problems: SourceProblem[] = [];
  const metaedges = await readMetaedges(path.join(dir, 'metaedges.tsv'), problems);

  // Nodes
  const nodesFile = path.join(dir, 'nodes.tsv');
  const nodes = new Map<string, { name: string; kind: string; line: number }>();
  let lineNo = 0;
  let col: Record<string, number | undefined> = {};
  for await (const line of fileLines(nodesFile)) {
    lineNo++;
    if (lineNo === 1) {
      col = columns(line, ['id', 'name', 'kind']);
      if (col.id === undefined || col.name === undefined || col.kind === undefined) {
        throw new Error(`${nodesFile}: header must name columns id, name and kind (got "${brief(line)}")`);
      }
      continue;
    }
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const id = cells[col.id!]?.trim() ?? '';
    const name = cells[col.name!]?.trim() ?? '';
    const kind = cells[col.kind!]?.trim() ?? '';
    if (!id || !name || !kind) {
      problems.push({ file: nodesFile, line: lineNo, reason: `expected non-empty id, name and kind (got ${cells.length} columns)` });
      continue;
    }
    const prev = nodes.get(id);
    if (prev) {
      problems.push({ file: nodesFile, line: lineNo, reason: `duplicate node id ${id} (first seen on line ${prev.line})` });
      continue;
    }
    nodes.set(id, { name, kind, line: lineNo });
  }

  // Edges; for descriptions keep a few neighbours per node, at most 3 per (direction, metaedge).
  const edges: CuratedEdge[] = [];
  const seenEdges = new Set<string>();
  const neighbours = new Map<string, { out: boolean; abbr: string; other: string }[]>();
  const remember = (node: string, out: boolean, abbr: string, other: string): void => {
    let list = neighbours.get(node);
    if (!list) neighbours.set(node, (list = []));
    if (list.length >= 24) return;
    let same = 0;
    for (const n of list) if (n.out === out && n.abbr === abbr) same++;
    if (same < MAX_NEIGHBOURS_IN_DESCRIPTION) list.push({ out, abbr, other });
  };

  edgeLoop: for (const name of edgeFiles) {
    const file = path.join(dir, name);
    let c: Record<string, number | undefined> = { source: 0, metaedge: 1, target: 2 };
    lineNo = 0;
    try {
      for await (const line of fileLines(file)) {
        lineNo++;
        if (lineNo === 1) {
          const h = columns(line, ['source', 'metaedge', 'target']);
          if (h.source !== undefined && h.metaedge !== undefined && h.target !== undefined) {
            c = h;
            continue;
          }
          problems.push({ file, line: 1, reason: 'no "source metaedge target" header; reading columns by position' });
        }
        if (edges.length >= maxEdges) break edgeLoop;
        if (line.trim() === '') continue;
        const cells = line.split('\t');
        const src = cells[c.source!]?.trim() ?? '';
        const abbr = cells[c.metaedge!]?.trim() ?? '';
        const dst = cells[c.target!]?.trim() ?? '';
        if (!src || !abbr || !dst) {
          problems.push({ file, line: lineNo, reason: `expected source, metaedge and target (got ${cells.length} columns)` });
          continue;
        }
        const meta = metaedges.get(abbr);
        const missing = [src, dst].filter((id) => !nodes.has(id));
        if (!meta || missing.length > 0) {
          const why = [...(meta ? [] : [`unknown metaedge abbreviation ${abbr}`]), ...missing.map((id) => `unknown node ${id}`)];
          problems.push({ file, line: lineNo, reason: why.join('; ') });
          continue;
        }
        const key = `${src}\t${meta.type}\t${dst}`;
        if (seenEdges.has(key)) {
          problems.push({ file, line: lineNo, reason: `duplicate edge ${src} ${abbr} ${dst}` });
          continue;
        }
        seenEdges.add(key);
        const gloss = GLOSSES[meta.predicate];
        edges.push({ from: `hetionet:${src}`, to: `hetionet:${dst}`, type: meta.type, predicate: meta.predicate, ...(gloss ? { gloss } : {}) });
        remember(src, true, abbr, dst);
        remember(dst, false, abbr, src);
      }
    } catch (e) {
      problems.push({ file, line: lineNo + 1, reason: `read error (${errMessage(e)})` });
    }
  }

  const entities: CuratedEntity[] = [];
  for (const [id, node] of nodes) {
    const kind = node.kind.toLowerCase();
    let description = `${node.name}: ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} in Hetionet`;
    const list = neighbours.get(id);
    if (list) {
      // Round-robin over (direction, metaedge) groups, outgoing first, so the words are varied.
      const groups = new Map<string, string[]>();
      for (const n of [...list.filter((x) => x.out), ...list.filter((x) => !x.out)]) {
        const predicate = metaedges.get(n.abbr)!.predicate;
        const [fwd, rev] = PHRASES[predicate] ?? [predicate, `${predicate} by`];
        const key = `${n.out}:${n.abbr}`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)!.push(`${n.out ? fwd : rev} ${nodes.get(n.other)!.name}`);
      }
      const picked: string[] = [];
      for (let round = 0; picked.length < MAX_NEIGHBOURS_IN_DESCRIPTION && round < MAX_NEIGHBOURS_IN_DESCRIPTION; round++) {
        for (const phrases of groups.values()) {
          if (picked.length >= MAX_NEIGHBOURS_IN_DESCRIPTION) break;
          if (phrases[round] !== undefined) picked.push(phrases[round]);
        }
      }
      if (picked.length > 0) description += `; ${picked.join('; ')}`;
    }
    entities.push({ id: `hetionet:${id}`, name: node.name, type: node.kind, description });
  }
  return { entities, edges, problems };
}
