// Subject: a queued job survives a server restart.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Driver } from 'neo4j-driver';
import { ROOT } from '../../../server/config.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { type Job, waitForJob } from '../../support/jobs.js';
import { spawnServe } from '../../support/cli.js';

/**
 * Issue 30: a job survives a server restart. `graph-recall serve` (a child process) takes a
 * 100-document job; it is killed (SIGKILL: no shutdown, the job left running under its lease)
 * once its first batch is committed and before the rest is; a new `serve` takes the expired lease over and finishes it. The graph
 * it leaves (documents, passages, entities, relationships) equals that of an uninterrupted run.
 */
const KEY = 'restart-test-key';
let driver: Driver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await driver?.close();
});

/** `graph-recall serve` on a free port; resolves with its URL once it says it is ready. */
function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnServe({
    DEMO_CORPUS: 'none',
    EMBEDDER: 'hash',
    EXTRACTOR: 'offline',
    GENERATOR: 'offline',
    API_KEY: KEY,
    JOB_LEASE_MS: '2000',
    LOG_LEVEL: 'info',
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /"url":"(http:[^"]+)".*graph-recall ready/.exec(buf);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (c: Buffer) => (buf += c.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${buf.slice(-2000)}`)));
  });
}

const documents = fs
  .readFileSync(path.join(ROOT, 'bench/data/musique-demo/corpus.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 100)
  .map((l) => {
    const d = JSON.parse(l) as { id: string; title: string; text: string };
    return { id: `restart-${d.id}`, title: d.title, text: d.text };
  });

async function submit(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, prefer: 'respond-async' },
    body: JSON.stringify({ documents }),
  });
  expect(res.status).toBe(202);
  return res.headers.get('location')!;
}

/** The graph, as sorted rows of what identifies each node and relationship. */
async function snapshot(): Promise<Record<string, string[]>> {
  const q = async (cypher: string) => (await driver.executeQuery(cypher)).records.map((r) => JSON.stringify(r.get('row'))).sort();
  return {
    documents: await q('MATCH (d:Document) RETURN [d.id, d.title, d.source, d.hash] AS row'),
    passages: await q('MATCH (p:Passage)-[:PART_OF]->(d:Document) RETURN [p.id, d.id, p.text] AS row'),
    entities: await q('MATCH (e:Entity) RETURN [e.id, e.name, e.type] AS row'),
    // SAME_AS is symmetric (walked both ways): its direction is which of the two the synonym search met first, so as a pair.
    relationships: await q(
      `MATCH (a)-[r]->(b) WHERE NOT a:Job AND NOT a:JobQueue
       WITH type(r) AS t, CASE WHEN type(r) = 'SAME_AS' AND b.id < a.id THEN [b.id, a.id] ELSE [a.id, b.id] END AS ends, r
       RETURN [t, ends[0], ends[1], coalesce(r.predicate, ''), coalesce(r.passageId, '')] AS row`,
    ),
  };
}

test('killed mid-job, the restarted server finishes the job; the graph equals an uninterrupted run', async () => {
  const first = await serve();
  const location = await submit(first.url);
  // Mid-job: running, its first batch of 64 documents committed (one transaction), the rest not.
  let seen: Job | undefined;
  let committed = 0;
  for (;;) {
    seen = (await (await fetch(`${first.url}${location}`)).json()).job as Job;
    committed = (await driver.executeQuery("MATCH (d:Document) WHERE d.id STARTS WITH 'restart-' RETURN count(d) AS n")).records[0].get('n');
    expect(seen.status).not.toBe('done');
    if (seen.status === 'running' && committed > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  console.log(`killed at progress ${seen.progress.done}/${seen.progress.total}, ${committed} documents committed`);
  expect(committed).toBeLessThan(100);
  const left = await driver.executeQuery('MATCH (j:Job {id: $id}) RETURN j.status AS status', { id: seen.id });
  expect(left.records[0].get('status')).toBe('running');

  const second = await serve();
  const job = await waitForJob(second.url, location);
  expect(job).toMatchObject({ status: 'done', error: null });
  const resumed = await driver.executeQuery('MATCH (j:Job {id: $id}) RETURN j.interrupted AS n', { id: job.id });
  expect(resumed.records[0].get('n')).toBe(1);
  const afterRestart = await snapshot();
  expect(afterRestart.documents).toHaveLength(100);

  // The same job, uninterrupted, on an empty graph.
  await resetGraph(driver);
  const clean = await waitForJob(second.url, await submit(second.url));
  expect(clean.status).toBe('done');
  const uninterrupted = await snapshot();
  for (const k of ['documents', 'passages', 'entities', 'relationships']) {
    console.log(`${k}: ${afterRestart[k].length} after the restart, ${uninterrupted[k].length} uninterrupted`);
  }
  expect(afterRestart).toEqual(uninterrupted);
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
}, 900_000);
