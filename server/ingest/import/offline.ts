/**
 * Offline import: validated rows written as neo4j-admin CSV files, then `neo4j-admin database
 * import full` builds a new database from them in one pass (the database must be stopped; it is
 * replaced). Vectors are stored as float[] (float32), as db.create.setNodeVectorProperty stores
 * them. The schema (constraints, vector and full-text indexes) is not part of the files: the
 * migrations create it when the server (or `graph-recall migrate`) next connects, and the
 * indexes are built then, timed apart.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { childEnv } from '../../config.js';
import { curatedTypesOf } from './online.js';
import type { ImportSource, ImportStats } from './types.js';
import { emptyStats } from './types.js';

/** A CSV field: quoted, inner quotes doubled (neo4j-admin's default quoting). */
const q = (s: string | null) => (s === null ? '' : `"${s.replace(/"/g, '""')}"`);
/** A line break in a quoted field (text); the unquoted ones, vectors and numbers, never hold one. */
const spansLines = (field: string) => field.charCodeAt(0) === 34 && /[\r\n]/.test(field);
/**
 * Five decimals keep a unit vector's cosines to 1e-5 and the files a third of full precision;
 * written from the integer (formatting floats is most of the CSV's time).
 */
function fixed5(x: number): string {
  const n = Math.round(x * 1e5);
  const a = n < 0 ? -n : n;
  const s = a < 100000 ? `0.${String(a).padStart(5, '0')}` : `${Math.floor(a / 100000)}.${String(a % 100000).padStart(5, '0')}`;
  return n < 0 ? `-${s}` : s;
}
/** ";x.xxxxx" for every five-decimal value in [-1, 1] (unit vectors), built on first use: a lookup is 3x faster than formatting. */
const TABLE_LIMIT = 100000;
let table: string[] | null = null;
const vec = (v: number[] | null) => {
  if (v === null) return '';
  table ??= Array.from({ length: 2 * TABLE_LIMIT + 1 }, (_, i) => `;${fixed5((i - TABLE_LIMIT) / 1e5)}`);
  let s = '';
  for (let i = 0; i < v.length; i++) {
    const n = Math.round(v[i] * 1e5);
    s += n >= -TABLE_LIMIT && n <= TABLE_LIMIT ? table[n + TABLE_LIMIT] : `;${fixed5(v[i])}`;
  }
  return s.slice(1);
};
const num = (x: number | null) => (x === null ? '' : String(x));

class CsvFile {
  private readonly out: fs.WriteStream;
  private buffer: string[] = [];
  rows = 0;
  /** Whether a field holds a line break: neo4j-admin then parses the file in one thread (--multiline-fields). */
  multiline = false;
  constructor(
    readonly file: string,
    header: string,
  ) {
    this.out = fs.createWriteStream(file);
    this.buffer.push(header);
  }
  async add(fields: string[]): Promise<void> {
    if (!this.multiline && fields.some(spansLines)) this.multiline = true;
    this.buffer.push(fields.join(','));
    this.rows++;
    if (this.buffer.length >= 2000) await this.flush();
  }
  private async flush(): Promise<void> {
    if (!this.buffer.length) return;
    const ok = this.out.write(`${this.buffer.join('\n')}\n`);
    this.buffer = [];
    if (!ok) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
}

export interface CsvSet {
  dir: string;
  nodes: string[];
  relationships: string[];
  stats: ImportStats;
  bytes: number;
  seconds: number;
  /** Whether any field holds a line break (then every file is parsed as multiline, one thread per file). */
  multiline: boolean;
}

/** Writes the rows as neo4j-admin CSV files into `dir` (emptied first). */
export async function writeImportCsv(source: ImportSource, dir: string): Promise<CsvSet> {
  const t0 = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const f = (name: string) => path.join(dir, name);
  const stats = emptyStats();
  const entities = new CsvFile(f('entities.csv'), 'id:ID(Entity),name,type,description,embedding:float[],descriptionEmbedding:float[],:LABEL');
  for await (const e of source.entities()) {
    await entities.add([
      q(e.id),
      q(e.name),
      q(e.type),
      q(e.description),
      vec(e.embedding),
      vec(e.descriptionEmbedding),
      e.curated ? 'Entity;Curated' : 'Entity',
    ]);
  }
  await entities.close();
  const passages = new CsvFile(f('passages.csv'), 'id:ID(Passage),documentId,title,text,embedding:float[],:LABEL');
  const partOf = new CsvFile(f('part_of.csv'), ':START_ID(Passage),:END_ID(Document),:TYPE');
  const documents = new CsvFile(f('documents.csv'), 'id:ID(Document),title,source,:LABEL');
  const seenDocs = new Set<string>();
  for await (const p of source.passages()) {
    await passages.add([q(p.id), q(p.documentId), q(p.title), q(p.text), vec(p.embedding), 'Passage']);
    await partOf.add([q(p.id), q(p.documentId), 'PART_OF']);
    if (!seenDocs.has(p.documentId)) {
      seenDocs.add(p.documentId);
      await documents.add([q(p.documentId), q(p.title), q(p.source), 'Document']);
    }
  }
  await Promise.all([passages.close(), partOf.close(), documents.close()]);
  const mentions = new CsvFile(f('mentions.csv'), ':START_ID(Passage),:END_ID(Entity),weight:float,confidence:float,method,:TYPE');
  for await (const m of source.mentions()) await mentions.add([q(m.passage), q(m.entity), num(m.weight), num(m.confidence), q(m.method), 'MENTIONS']);
  await mentions.close();
  const rels = new CsvFile(f('relationships.csv'), ':START_ID(Entity),:END_ID(Entity),predicate,passageId,weight:float,embedding:float[],:TYPE');
  const types = new Set<string>();
  for await (const r of source.relationships()) {
    types.add(r.type);
    await rels.add([q(r.from), q(r.to), q(r.predicate), q(r.passageId), num(r.weight), vec(r.embedding), r.type]);
  }
  await rels.close();
  // The graph's meta node: the curated types the server walks and fact-indexes on its next start.
  const meta = new CsvFile(f('meta.csv'), 'key,curatedTypes:string[],:LABEL');
  await meta.add([q('graph'), curatedTypesOf(types).join(';'), 'GraphRecallMeta']);
  await meta.close();
  Object.assign(stats, {
    entities: entities.rows,
    passages: passages.rows,
    documents: documents.rows,
    mentions: mentions.rows,
    relationships: rels.rows,
    curatedTypes: curatedTypesOf(types),
  });
  const nodes = [entities.file, passages.file, documents.file, meta.file];
  const relationships = [partOf.file, mentions.file, rels.file];
  const bytes = [...nodes, ...relationships].reduce((n, x) => n + fs.statSync(x).size, 0);
  const multiline = [entities, passages, documents, meta, partOf, mentions, rels].some((x) => x.multiline);
  return { dir, nodes, relationships, stats, bytes, seconds: (performance.now() - t0) / 1000, multiline };
}

/** How neo4j-admin is run: an installed Neo4j's bin/neo4j-admin, or the embedded launcher's JVM home. */
export interface AdminTool {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** neo4j-admin of an installed Neo4j (NEO4J_HOME/bin/neo4j-admin, its own conf). */
export function installedAdmin(neo4jHome: string): AdminTool {
  const bin = path.join(neo4jHome, 'bin', 'neo4j-admin');
  if (!fs.existsSync(bin)) throw new Error(`${bin} not found: --neo4j-home must be a Neo4j installation`);
  return { command: bin, args: [], env: childEnv({ NEO4J_HOME: neo4jHome }) };
}

/** neo4j-admin of the embedded launcher (docker/neo4j.mjs): its JVM home and a data folder's conf. */
export function embeddedAdmin(root: string, dataDir: string, heap = '2g'): AdminTool {
  const home = path.join(root, 'docker', 'jvm', 'target', 'neo4j-home');
  const conf = path.join(path.resolve(root, dataDir), 'conf');
  if (!fs.existsSync(path.join(home, 'lib'))) throw new Error(`${home} not found: start the embedded Neo4j once (node docker/neo4j.mjs start)`);
  if (!fs.existsSync(path.join(conf, 'neo4j.conf'))) {
    throw new Error(`${conf}/neo4j.conf not found: start and stop the database of ${dataDir} once (node docker/neo4j.mjs start, then stop)`);
  }
  return {
    command: 'java',
    args: [`-Xmx${heap}`, '-cp', `${home}/lib/*`, 'org.neo4j.cli.AdminTool'],
    env: childEnv({ NEO4J_HOME: home, NEO4J_CONF: conf }),
  };
}

/**
 * neo4j-admin of the embedded launcher's JVM home on a folder of its own, `dir`, given a conf that names only its
 * data and logs: a store no server runs on (the bulk benchmark's and the tests' target).
 */
export function scratchAdmin(root: string, dir: string, heap?: string): AdminTool {
  fs.mkdirSync(path.join(dir, 'conf'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'conf', 'neo4j.conf'), `server.directories.data=${dir}/data\nserver.directories.logs=${dir}/logs\n`);
  return embeddedAdmin(root, dir, heap);
}

/** Runs neo4j-admin database import full over the CSV files, replacing `database`; returns its seconds and output. */
export function runAdminImport(admin: AdminTool, csv: CsvSet, database = 'neo4j'): { seconds: number; output: string } {
  const t0 = performance.now();
  const args = [
    ...admin.args,
    'database',
    'import',
    'full',
    database,
    '--overwrite-destination=true',
    // Multiline parsing reads each file in one thread; only a field with a line break needs it. (Neo4j 5.26's
    // per-file form, --multiline-fields-format=v2, failed on real passages with quotes: "found CR outside a text cell".)
    `--multiline-fields=${csv.multiline}`,
    '--skip-duplicate-nodes=false',
    '--bad-tolerance=0',
    // Its report of bad rows goes beside the CSV files, not into the working directory.
    `--report-file=${path.join(csv.dir, 'import.report')}`,
    ...csv.nodes.map((f) => `--nodes=${f}`),
    ...csv.relationships.map((f) => `--relationships=${f}`),
  ];
  const r = spawnSync(admin.command, args, { env: admin.env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`neo4j-admin database import failed (exit ${r.status}):\n${output.split('\n').slice(-30).join('\n')}`);
  return { seconds: (performance.now() - t0) / 1000, output };
}
