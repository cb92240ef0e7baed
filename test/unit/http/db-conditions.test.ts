// Subject: server/errors.ts + server/http/errors.ts: one message, code and Retry-After per database condition.
import { Neo4jError } from 'neo4j-driver';
import { type AppError, DB_CONDITIONS, databaseUnreachable } from '../../../server/errors.js';
import { fromDbError } from '../../../server/retrieval/db-errors.js';
import { toolError } from '../../../server/routes/mcp-tools.js';
import { errorAnswer } from '../../support/error-answer.js';

/** One condition, one answer: the same code, message and Retry-After from retrieval, the HTTP fallback and MCP. */
const err = (code: string, message: string) => new Neo4jError(message, code, '50N42', 'error');
const UNREACHABLE = err('ServiceUnavailable', 'Failed to connect to server');
const POOL_FULL = err(
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
  'The allocation of an extra 2.0 MiB would use more than the limit 1.0 GiB. Currently using 1.0 GiB. dbms.memory.transaction.total.max threshold reached',
);
const silent = { error: () => undefined } as never;

/** What the HTTP error handler answers for a raw error (an ingestion's driver error reaches it unmapped). */
const http = errorAnswer;

test.each([
  ['unreachable', UNREACHABLE],
  ['busy', POOL_FULL],
] as const)('%s: retrieval, the HTTP handler and an MCP tool give the table row', (condition, raw) => {
  const row = DB_CONDITIONS[condition];
  const retrieval = fromDbError(raw, 30_000);
  expect(retrieval).toMatchObject({ code: row.code, message: row.message(), retryAfterSeconds: row.retryAfterSeconds });

  const viaHttp = http(raw);
  expect(viaHttp.status).toBe(503);
  expect(viaHttp.headers['retry-after']).toBe(String(row.retryAfterSeconds));
  expect(viaHttp.body?.error).toEqual({ code: row.code, message: row.message() });
  // The mapped AppError answers the same through the handler.
  expect(http(retrieval)).toEqual(viaHttp);

  for (const e of [raw, retrieval]) {
    const tool = toolError(e, silent);
    expect(tool.isError).toBe(true);
    expect(tool.structuredContent).toEqual({ error: { code: row.code, message: row.message(), status: 503, retryAfterSeconds: row.retryAfterSeconds } });
  }
});

test('"the database is unreachable" has one Retry-After wherever it is detected', () => {
  const waits = [databaseUnreachable().retryAfterSeconds, fromDbError(UNREACHABLE, 1000), Number(http(UNREACHABLE).headers['retry-after'])].map((w) =>
    typeof w === 'number' ? w : (w as AppError).retryAfterSeconds,
  );
  expect(waits).toEqual([1, 1, 1]);
});

test('an unknown error is an internal tool error, not a throw', () => {
  const tool = toolError(new TypeError('boom'), silent);
  expect(tool).toMatchObject({ isError: true, structuredContent: { error: { code: 'internal', status: 500 } } });
});
