/**
 * vector and hybrid on a question naming a hub: the statements of a given commit against the working tree's, interleaved
 * on one database, the same questions and embeddings; prints the medians per question and whether the answers agree.
 *
 *   NEO4J_URI=bolt://... NEO4J_PASSWORD=... npx tsx bench/reports/statements/hub-facts-once-2026-12-05/measure.ts <commit> [rounds]
 */
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../../../../server/config.js';
import { GraphStore } from '../../../../server/db/store.js';
import { createEmbedder } from '../../../../server/embedders/index.js';
import { Retriever } from '../../../../server/retrieval/retriever.js';
import { embedQuestion } from '../../../../server/retrieval/service.js';
import type { Mode } from '../../../../server/retrieval/params.js';

const [base, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 7);
const cfg = loadConfig();
const embedder = await createEmbedder(cfg);
const store = GraphStore.connect(cfg.neo4j);
const types = (await store.read('CALL db.relationshipTypes() YIELD relationshipType RETURN collect(relationshipType) AS t')).records[0].get('t') as string[];
const relTypes = types.filter((t) => !['MENTIONS', 'PART_OF'].includes(t));
const opts = { timeoutMs: 60000, allowedRelTypes: relTypes, pprGraphName: cfg.pprGraphName, cosineFloor: embedder.cosineFloor };
const now = new Retriever(store, opts);
const before = new Retriever(store, opts);
const files = (before as unknown as { statements: Map<string, string> }).statements;
for (const file of ['retrieve_vector.cypher', 'retrieve_hybrid.cypher'])
  files.set(file, execFileSync('git', ['show', `${base}:cypher/${file}`], { encoding: 'utf8' }));

// Diseases with 450-629 facts in the curated layer: hubs at hubFacts 300 (the default, 1000, makes none here).
const names = ['breast cancer', 'hematologic cancer', 'rheumatoid arthritis', 'melanoma', "Parkinson's disease", 'schizophrenia'];
const questions = names.flatMap((n) => [`Which compounds treat ${n}?`, `Which genes are associated with ${n}?`]);
const params = { relTypes, hubFacts: 300 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`| mode | ${base} median ms | working tree median ms | ratio | same result |`);
console.log('|---|---|---|---|---|');
for (const mode of ['vector', 'hybrid'] as Mode[]) {
  const t: Record<string, number[]> = { before: [], now: [] };
  let same = 0;
  for (const question of questions) {
    const emb = await embedQuestion(embedder, { question });
    const run = async (r: Retriever) => {
      const t0 = performance.now();
      const res = await r.retrieve({ mode, question, questionEmbedding: emb.embedding, params });
      return { ms: performance.now() - t0, res };
    };
    await run(before);
    await run(now);
    const bs: number[] = [];
    const ns: number[] = [];
    let a: unknown;
    let b: unknown;
    for (let i = 0; i < rounds; i++) {
      const x = i % 2 ? await run(now) : await run(before);
      const y = i % 2 ? await run(before) : await run(now);
      const [rb, rn] = i % 2 ? [y, x] : [x, y];
      bs.push(rb.ms);
      ns.push(rn.ms);
      a = { seeds: rb.res.seeds, facts: rb.res.facts, passages: rb.res.passages.map((p) => p.id) };
      b = { seeds: rn.res.seeds, facts: rn.res.facts, passages: rn.res.passages.map((p) => p.id) };
    }
    if (JSON.stringify(a) === JSON.stringify(b)) same++;
    t.before.push(median(bs));
    t.now.push(median(ns));
  }
  const mb = median(t.before);
  const mn = median(t.now);
  console.log(`| ${mode} | ${mb.toFixed(1)} | ${mn.toFixed(1)} | ${(mn / mb).toFixed(2)} | ${same} of ${questions.length} questions |`);
}
await store.driver.close();
await embedder.close?.();
