// Subject: server/db/driver.ts + server/http/errors.ts: how a driver error is classified and answered.
import { Neo4jError } from 'neo4j-driver';
import { classifyDbError } from '../../../server/db/driver.js';
import { AppError } from '../../../server/errors.js';
import { fromDbError } from '../../../server/retrieval/db-errors.js';
import { errorAnswer } from '../../support/error-answer.js';

/** Issue 11, item 4: what Neo4j and the driver say during an outage, start-up or shutdown classify as unavailable (503). */
const err = (code: string, message: string) => new Neo4jError(message, code, '50N42', 'error: general processing exception');

test.each([
  // The driver: nothing listens, or the connection dropped.
  ['ServiceUnavailable', 'Could not perform discovery. No routing servers available.'],
  ['ServiceUnavailable', 'Failed to connect to server. Please ensure that your database is listening on the correct host and port'],
  ['SessionExpired', 'Session expired'],
  // The server, while the database starts or stops (Neo4j 5.26 status codes).
  [
    'Neo.TransientError.General.DatabaseUnavailable',
    'The database is not currently available to serve your request, refer to the database logs for more details. Retrying your request at a later time may succeed.',
  ],
  ['Neo.TransientError.General.DatabaseUnavailable', 'Database `neo4j` is unavailable.'],
  ['Neo.TransientError.Database.DatabaseUnavailable', 'Database is unavailable'],
  ['Neo.TransientError.Transaction.Terminated', 'The transaction has been terminated: the database is shutting down.'],
])('%s (%s) is unavailable', (code, message) => {
  expect(classifyDbError(err(code, message))).toBe('unavailable');
});

test('a plain socket error is unavailable', () => {
  expect(classifyDbError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:7687'), { code: 'ECONNREFUSED' }))).toBe('unavailable');
});

test.each([
  [
    'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
    'The transaction has been terminated. Retry your operation in a new transaction, and you should see a successful result. The transaction has not completed within the timeout specified at its start by the client.',
    'timeout',
  ],
  ['Neo.ClientError.Statement.SyntaxError', 'Invalid input', 'client'],
  ['Neo.ClientError.Procedure.ProcedureCallFailed', 'Failed to invoke procedure `apoc.util.validate`: GDS projection x does not exist', 'client'],
  ['Neo.DatabaseError.General.UnknownError', 'something broke', 'other'],
  ['Neo.TransientError.Transaction.DeadlockDetected', 'ForsetiClient can not acquire ExclusiveLock', 'other'],
])('%s is not unavailable', (code, message, expected) => {
  expect(classifyDbError(err(code, message))).toBe(expected);
});

// Neo4j 5.26's messages, as the MuSiQue eval database gave them to a gated request with every parameter at its
// extreme (frontier 10000, threshold 0, decay 1, gate off): once under the pool's limit alone, once under the
// per-transaction limit docker/neo4j.mjs sets.
const POOL_FULL =
  'The allocation of an extra 16.4 MiB would use more than the limit 1.4 GiB. Currently using 1.4 GiB. dbms.memory.transaction.total.max threshold reached';
const QUERY_TOO_BIG =
  'The allocation of an extra 2.0 MiB would use more than the limit 1.0 GiB. Currently using 1023.6 MiB. db.memory.transaction.max threshold reached';

test('a query over the per-transaction memory limit is a 400 naming params (the same every time); a full pool is a 503 retry', () => {
  const memory = (message: string) => err('Neo.TransientError.General.MemoryPoolOutOfMemoryError', message);
  expect(classifyDbError(memory(QUERY_TOO_BIG))).toBe('query_memory');
  expect(classifyDbError(memory(POOL_FULL))).toBe('busy');
  expect(fromDbError(memory(QUERY_TOO_BIG), 30_000)).toMatchObject({
    code: 'invalid_param',
    field: 'params',
    message: expect.stringMatching(/^params: .*frontier/),
  });
  expect(fromDbError(memory(POOL_FULL), 30_000)).toMatchObject({ code: 'overloaded', retryAfterSeconds: 2 });
});

test('outside retrieval (a document write), the per-transaction limit is a 413 and a full pool a 503 with Retry-After, never a 500', () => {
  const answer = errorAnswer;
  const memory = (message: string) => err('Neo.TransientError.General.MemoryPoolOutOfMemoryError', message);
  expect(answer(memory(QUERY_TOO_BIG))).toMatchObject({ status: 413, body: { error: { code: 'too_large', field: '(body)' } } });
  const full = answer(memory(POOL_FULL));
  expect(full).toMatchObject({ status: 503, body: { error: { code: 'overloaded' } } });
  expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
});

test('errors are real Neo4jErrors', () => {
  expect(err('Neo.TransientError.General.DatabaseUnavailable', 'x')).toBeInstanceOf(Neo4jError);
});

test('an index dropped and recreated by a bulk load (compact-indexes.ts) is a 503 retry, naming the index', () => {
  const e = new Neo4jError(
    'Failed to invoke procedure `db.index.vector.queryNodes`: Caused by: java.lang.IllegalArgumentException: There is no such vector schema index: entity_embedding',
    'Neo.ClientError.Procedure.ProcedureCallFailed',
    '50N42',
    'error',
  );
  const mapped = fromDbError(e, 30_000);
  expect(mapped).toBeInstanceOf(AppError);
  expect(mapped).toMatchObject({ code: 'database_unavailable', message: 'the index entity_embedding is being built; retry shortly', retryAfterSeconds: 1 });
  expect(fromDbError(new Neo4jError('Unknown function foo', 'Neo.ClientError.Statement.SyntaxError', '42N01', 'error'), 30_000)).toBeInstanceOf(Neo4jError);
});

test("GDS's TerminatedException is the timeout when the timeout has passed, else a 503 retry", () => {
  const e = new Neo4jError(
    'Failed to invoke procedure `gds.pageRank.stream`: Caused by: org.neo4j.gds.termination.TerminatedException: The execution has been terminated.',
    'Neo.ClientError.Procedure.ProcedureCallFailed',
    '50N42',
    'error',
  );
  expect(fromDbError(e, 1000, 1500)).toMatchObject({ code: 'query_timeout', message: 'retrieval exceeded the 1000 ms timeout' });
  expect(fromDbError(e, 1000, 10)).toMatchObject({ code: 'database_unavailable', retryAfterSeconds: 1 });
});

test('a vector index still populating (a bulk-imported graph) is a 503 retry, not a 500', () => {
  // What Neo4j 5.26 answered a query on fact_RELATED while it populated on the 100 k scale graph.
  const e = new Neo4jError(
    'Failed to invoke procedure `db.index.vector.queryRelationships`: Caused by: java.lang.IllegalStateException: Expected index to come online within a reasonable time.',
    'Neo.ClientError.Procedure.ProcedureCallFailed',
    '50N42',
    'error',
  );
  const mapped = fromDbError(e, 30_000);
  expect(mapped).toMatchObject({ code: 'database_unavailable', retryAfterSeconds: 5 });
  expect(mapped.message).toMatch(/still being populated/);
});
