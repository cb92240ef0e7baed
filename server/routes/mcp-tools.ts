/**
 * The MCP tools: retrieve, answer, compare and explain, each the REST endpoint's own work
 * (runRetrieve, runAnswer, runCompare) with the REST body's own zod schema as its input schema,
 * so the two cannot drift. A result comes back twice: as structuredContent (the REST response
 * body) and as readable text. Every failure is a tool error (isError) carrying the REST error's
 * code, message, field, HTTP status and Retry-After: never a protocol error or a crash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../config.js';
import { classifyDbError, transientCondition } from '../db/driver.js';
import { AppError, dbError } from '../errors.js';
import { admitted, type Gate } from '../http/admission.js';
import { STATUS } from '../http/errors.js';
import { prototypeKey } from '../http/handlers.js';
import type { TimedResult } from '../retrieval/results.js';
import type { Services } from '../services.js';
import { AnswerBody, runAnswer } from './answer.js';
import { CompareBody, runCompare } from './compare.js';
import { RetrieveBody, runRetrieve } from './retrieve.js';

/** The explain tool's input: a retrieval's, without the flag (it always explains). */
const ExplainBody = RetrieveBody.omit({ explain: true });

export interface ToolContext {
  svc: Services;
  /** The retrieval gate of admission control: a tool call waits in the same queue as POST /v1/retrieve. */
  gate: Gate;
  /** The JSON-RPC message's raw `params.arguments` (zod's records drop a `__proto__` key silently). */
  rawArguments: (name: string) => unknown;
  /** Aborts when the HTTP client goes away. */
  signal: AbortSignal;
}

type ToolError = { code: string; message: string; field?: string; status: number; retryAfterSeconds?: number };

/** A thrown error as the REST API would answer it (the same tables: STATUS, DB_CONDITIONS). */
export function toolError(e: unknown, log: Services['logger']): CallToolResult {
  let err: AppError;
  if (e instanceof AppError) err = e;
  else {
    const condition = transientCondition(classifyDbError(e));
    if (condition) err = dbError(condition);
    else {
      log.error({ err: e }, 'mcp tool failed');
      const error: ToolError = { code: 'internal', message: 'internal error', status: 500 };
      return { isError: true, content: [{ type: 'text', text: 'internal: internal error' }], structuredContent: { error } };
    }
  }
  const error: ToolError = {
    code: err.code,
    message: err.message,
    status: STATUS[err.code],
    ...(err.field ? { field: err.field } : {}),
    ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
  };
  const retry = error.retryAfterSeconds !== undefined ? ` (retry after ${error.retryAfterSeconds} s)` : '';
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}${retry}` }], structuredContent: { error } };
}

const clipText = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n)}...`);

function passagesText(r: Pick<TimedResult, 'passages'>): string {
  return r.passages.map((p) => `${p.rank}. [${p.id}] ${p.title ?? ''} (score ${p.score.toFixed(3)})\n   ${clipText(p.text, 300)}`).join('\n');
}

function retrievalText(r: TimedResult): string {
  const entities = r.entities.map((e) => e.name).join(', ');
  const facts = r.facts.map((f) => `- ${f.text}`).join('\n');
  return [`${r.mode}: ${r.passages.length} passages`, passagesText(r), `entities: ${entities || '(none)'}`, facts && `facts:\n${facts}`]
    .filter(Boolean)
    .join('\n\n');
}

const ok = (text: string, structured: object): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured as Record<string, unknown>,
});

/** One tool's work: the raw arguments' prototype keys refused as REST refuses them, admitted through the retrieval gate. */
async function run(ctx: ToolContext, name: string, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    const proto = prototypeKey(ctx.rawArguments(name));
    if (proto) throw new AppError('invalid_request', `${proto}: unknown field`, proto);
    const release = await admitted(ctx.gate, ctx.signal);
    try {
      return await work();
    } finally {
      release();
    }
  } catch (e) {
    return toolError(e, ctx.svc.logger);
  }
}

/** A new McpServer with the four tools (one per HTTP request: the transport is stateless). */
export function createMcpServer(ctx: ToolContext): McpServer {
  const { svc, signal } = ctx;
  const server = new McpServer({ name: 'graph-recall', version: '0.1.0' }, { capabilities: { tools: {} } });

  server.registerTool(
    'retrieve',
    {
      title: 'Retrieve passages, entities, evidence paths and facts',
      description:
        'One question through one retrieval mode (gated spreading activation, ppr, vector, hybrid): the top passages, ' +
        'the entities, the evidence paths, the facts and an assembled context. The body of POST /v1/retrieve.',
      inputSchema: RetrieveBody,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(ctx, 'retrieve', async () => {
        const r = await runRetrieve(svc, args, signal);
        return ok(retrievalText(r), r);
      }),
  );

  server.registerTool(
    'answer',
    {
      title: 'Answer a question from the retrieved passages',
      description: 'One retrieval, then an answer with citations (extractive offline, Claude with ANTHROPIC_API_KEY). The body of POST /v1/answer.',
      inputSchema: AnswerBody,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(ctx, 'answer', async () => {
        const a = await runAnswer(svc, args, signal);
        const cites = a.citations.map((c) => `[${c}]`).join(' ');
        return ok(`${a.answer}\n\n${cites ? `citations: ${cites}\n\n` : ''}passages:\n${passagesText(a)}`, a);
      }),
  );

  server.registerTool(
    'compare',
    {
      title: 'Compare retrieval modes on one question',
      description:
        'The same question through several modes, one embedding, with overlap metrics (Jaccard@5, rank correlation@10). The body of POST /v1/compare.',
      inputSchema: CompareBody,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(ctx, 'compare', async () => {
        const c = await runCompare(svc, args, signal);
        const byMode = Object.entries(c.results).map(([m, r]) => `${m} (${r.timings.totalMs} ms): ${r.passages.map((p) => p.id).join(', ')}`);
        const overlap = c.overlap.map((o) => `${o.modes.join(' vs ')}: jaccard@5 ${o.jaccardAt5.toFixed(2)}, rank correlation@10 ${o.rankCorrelationAt10}`);
        return ok([...byMode, '', ...overlap].join('\n'), c);
      }),
  );

  server.registerTool(
    'explain',
    {
      title: 'The Cypher statement and :param block a DBA would run',
      description:
        "The retrieval's statement (the cypher/ file the server runs, unchanged) and its complete :param block (the question's " +
        'embedding included): paste the block into Neo4j Browser or cypher-shell, then run the statement. Also returns the passages it found.',
      inputSchema: ExplainBody,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(ctx, 'explain', async () => {
        const r = await runRetrieve(svc, { ...args, explain: true }, signal);
        const { file, params } = r.explain!;
        const statement = fs.readFileSync(path.join(ROOT, file), 'utf8');
        const howTo = `Paste the :param lines into Neo4j Browser or cypher-shell, then run ${file} unchanged.`;
        const text = `// ${howTo}\n${params}\n\n// ${file}\n${statement}`;
        return ok(text, {
          mode: r.mode,
          file,
          params,
          statement,
          howTo,
          passages: r.passages.map((p) => ({ rank: p.rank, id: p.id, title: p.title, score: p.score })),
        });
      }),
  );
  return server;
}
