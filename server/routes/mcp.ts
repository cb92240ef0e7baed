/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (docs/mcp.md). Each POST
 * gets a new McpServer and transport that live as long as the request: no session id, nothing
 * kept between requests, so any instance behind a load balancer answers any request. Replies are
 * plain JSON (enableJsonResponse), not an SSE stream. GET and DELETE (a session's event stream
 * and its end) have nothing to serve without sessions: 405. The body goes through the same JSON
 * parser as the REST API (media type, size, shape: 4xx before any walk), and READ_API_KEY guards
 * the path (server/http/read-access.ts).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type Request, type Response, Router } from 'express';
import type { Gate } from '../http/admission.js';
import { clientGone, jsonBody } from '../http/handlers.js';
import type { Services } from '../services.js';
import { createMcpServer } from './mcp-tools.js';
import { ENDPOINTS } from '../http/endpoints.js';

/** The raw `arguments` of the tools/call message(s) for the tool `name` in a parsed JSON-RPC body. */
function rawArguments(body: unknown, name: string): unknown {
  const messages = Array.isArray(body) ? body : [body];
  const call = messages.find((m) => m?.method === 'tools/call' && m?.params?.name === name);
  return call?.params?.arguments;
}

const notAllowed = (_req: Request, res: Response) => {
  res.setHeader('Allow', 'POST');
  res.status(405).json({ error: { code: 'method_not_allowed', message: 'this MCP endpoint is stateless: no session stream to GET or DELETE; POST /mcp' } });
};

export function mcpRouter(svc: Services, gate: Gate): Router {
  const router = Router();
  router.post(ENDPOINTS.mcp.path, jsonBody, async (req, res) => {
    const signal = clientGone(req, res);
    const server = createMcpServer({ svc, gate, signal, rawArguments: (name) => rawArguments(req.body, name) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // An empty body (no content-length) is no message: the transport answers it as a JSON-RPC parse error.
    await transport.handleRequest(req, res, req.body ?? null);
  });
  router.get(ENDPOINTS.mcp.path, notAllowed);
  router.delete(ENDPOINTS.mcp.path, notAllowed);
  return router;
}
