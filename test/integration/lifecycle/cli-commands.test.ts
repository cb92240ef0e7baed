// Subject: the success paths of migrate, ingest, reembed and projection.
/**
 * The CLI's success paths against a real Neo4j: `migrate` applies every migration and a second
 * run has nothing left to do; `ingest` loads a JSONL corpus (with the local neural embedder, the
 * CLI's default path) and a second run changes nothing; `reembed` gives every passage and entity
 * the configured embedder's vectors again (here after a vector was overwritten behind its back).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { readMigrations } from '../../../server/db/migrate.js';
import { cli } from '../../support/cli.js';
import { resetGraph, testDriver } from '../../support/db.js';

let driver: Driver;
let dir: string;
const env = () => ({ NEO4J_URI: process.env.NEO4J_URI!, NEO4J_PASSWORD: process.env.NEO4J_PASSWORD!, EMBEDDER: 'local', EXTRACTOR: 'offline' });
const count = async (q: string) => Number((await driver.executeQuery(q)).records[0].get(0));
const counts = async () => ({
  documents: await count('MATCH (d:Document) RETURN count(d)'),
  passages: await count('MATCH (p:Passage) RETURN count(p)'),
  entities: await count('MATCH (e:Entity) RETURN count(e)'),
  relationships: await count('MATCH ()-[r]->() RETURN count(r)'),
});

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gr-cli-'));
  fs.writeFileSync(
    path.join(dir, 'people.jsonl'),
    [
      { id: 'cli-1', title: 'Ada Lovelace', text: 'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.' },
      { id: 'cli-2', title: 'Charles Babbage', text: 'Charles Babbage designed the Difference Engine and was born in London.' },
      { id: 'cli-3', title: 'London', text: 'London is the capital of England, on the River Thames.' },
    ]
      .map((d) => JSON.stringify(d))
      .join('\n'),
  );
}, 60_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await driver?.close();
});

test('migrate applies every migration, and a second run has nothing to apply', async () => {
  const first = await cli(['migrate'], env());
  expect(first.code).toBe(0);
  const applied = (await driver.executeQuery('MATCH (m:GraphRecallMigration) RETURN collect(m.name) AS names')).records[0].get('names') as string[];
  expect([...applied].sort()).toEqual(
    readMigrations()
      .map((m) => m.name)
      .sort(),
  );
  const again = await cli(['migrate'], env());
  expect(again.code).toBe(0);
  expect(await count('MATCH (m:GraphRecallMigration) RETURN count(m)')).toBe(applied.length);
}, 120_000);

test('ingest loads a JSONL corpus with its source, and a second run changes nothing', async () => {
  const r = await cli(['ingest', path.join(dir, 'people.jsonl')], env());
  expect(r.code).toBe(0);
  const after = await counts();
  expect(after.documents).toBe(3);
  expect(after.passages).toBe(3);
  expect(after.entities).toBeGreaterThan(3);
  // The source defaults to the input's name without its extension.
  expect(await count("MATCH (d:Document {source: 'people'}) RETURN count(d)")).toBe(3);
  // Every passage and entity carries a 384-dimension vector of the local model.
  expect(await count('MATCH (p:Passage) WHERE size(p.embedding) = 384 RETURN count(p)')).toBe(3);
  const again = await cli(['ingest', path.join(dir, 'people.jsonl')], env());
  expect(again.code).toBe(0);
  expect(await counts()).toEqual(after);
}, 300_000);

test('reembed restores the embedder vector of a passage whose vector was overwritten', async () => {
  const original = (await driver.executeQuery("MATCH (p:Passage {documentId: 'cli-3'}) RETURN p.embedding AS e")).records[0].get('e') as number[];
  const wrong = original.map((_, i) => (i === 0 ? 1 : 0));
  await driver.executeQuery("MATCH (p:Passage {documentId: 'cli-3'}) SET p.embedding = $wrong", { wrong });
  const r = await cli(['reembed'], env());
  expect(r.code).toBe(0);
  const restored = (await driver.executeQuery("MATCH (p:Passage {documentId: 'cli-3'}) RETURN p.embedding AS e")).records[0].get('e') as number[];
  expect(restored).toHaveLength(original.length);
  const cos = restored.reduce((s, x, i) => s + x * original[i], 0);
  expect(cos).toBeGreaterThan(0.999);
  expect(await count('MATCH (n) WHERE (n:Passage OR n:Entity) AND n.embedding IS NULL RETURN count(n)')).toBe(0);
}, 300_000);
