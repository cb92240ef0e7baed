// A poller beside a test run: every 2 s, the transactions older than 3 s (node txmon.mjs > txmon.log).
import neo4j from 'neo4j-driver';
const d = neo4j.driver('bolt://127.0.0.1:17687', neo4j.auth.basic('neo4j', 'graph-recall-test'));
for (;;) {
  try {
    const r = await d.executeQuery(`SHOW TRANSACTIONS YIELD transactionId, currentQuery, currentQueryStatus, status, elapsedTime, cpuTime, waitTime, statusDetails, activeLockCount
      WHERE elapsedTime.milliseconds > 3000 RETURN transactionId, left(currentQuery, 60) AS q, currentQueryStatus AS qs, status, elapsedTime.seconds AS el, cpuTime.milliseconds AS cpu, waitTime.milliseconds AS wait, statusDetails, activeLockCount`);
    const t = new Date().toISOString().slice(11, 19);
    for (const x of r.records) console.log(t, JSON.stringify(x.toObject(), (k, v) => (typeof v === 'object' && v && 'low' in v ? Number(v) : v)).replace(/\\n/g, ' '));
  } catch (e) { console.log('err', e.message); }
  await new Promise((r) => setTimeout(r, 2000));
}
