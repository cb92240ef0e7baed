// The measurement of bench/reports/server/refresh-cut-off-2026-12-07: run from the repository root on the test database,
//   npx tsx bench/reports/server/refresh-cut-off-2026-12-07/cut-off.ts [ms before the cut-off, default 1500]
import neo4j from 'neo4j-driver';
import { GraphStore } from '../../../../server/db/store.js';
import { Retriever } from '../../../../server/retrieval/retriever.js';
const driver = neo4j.driver('bolt://127.0.0.1:17687', neo4j.auth.basic('neo4j', 'graph-recall-test'), { disableLosslessIntegers: true });
const store = new GraphStore(driver, 'neo4j');
const r = new Retriever(store, { timeoutMs: 30000, allowedRelTypes: ['RELATED'], pprGraphName: 'graph_recall_ppr', cosineFloor: 0 });
const emb = (await driver.executeQuery('MATCH (p:Passage) WHERE p.embedding IS NOT NULL RETURN p.embedding AS e LIMIT 1')).records[0].get('e');
const t = async (label: string, work: () => Promise<unknown>) => {
  const t0 = performance.now();
  try {
    await work();
    console.log(label, Math.round(performance.now() - t0));
  } catch (e) {
    console.log(label, 'ERR', String((e as Error).message).slice(0, 60), Math.round(performance.now() - t0));
  }
};
const ask = () => r.retrieve({ mode: 'gated', question: 'Who worked with the bridge engineer 3?', questionEmbedding: emb as number[] });
await driver.executeQuery('CALL db.clearQueryCaches()');
await t('request (plans)', ask);
await t('request', ask);
await t('grow', () =>
  driver.executeQuery(`MATCH (x:Entity) WITH count(x) AS n UNWIND range(1, 4 * n + 5000) AS i CREATE (:Entity:ReplanProbe {id: "probe-" + i})`),
);
await new Promise((res) => setTimeout(res, 11000));
await t('request after growth', ask);
const refresh = t('refreshPlans', () => r.refreshPlans());
await new Promise((res) => setTimeout(res, Number(process.argv[2] ?? 1500)));
const x = await driver.executeQuery(
  `SHOW TRANSACTIONS YIELD transactionId, currentQuery, currentQueryStatus, elapsedTime WHERE currentQuery STARTS WITH 'EXPLAIN' RETURN transactionId, currentQueryStatus, elapsedTime.milliseconds AS ms`,
);
for (const y of x.records) {
  console.log('terminating', y.get('currentQueryStatus'), y.get('ms'));
  await driver.executeQuery('TERMINATE TRANSACTION $id', { id: y.get('transactionId') });
}
await refresh;
await t('request after the cut-off refresh', ask);
await t('request again', ask);
await t('cleanup', () => driver.executeQuery('MATCH (n:ReplanProbe) DETACH DELETE n'));
await driver.close();
