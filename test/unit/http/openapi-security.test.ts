// Subject: server/routes/openapi.ts against server/http/endpoints.ts: every endpoint READ_API_KEY guards is described
// as keyed (security and a 401) in the OpenAPI document, and no other GET is.
import { ENDPOINTS, openapiPath } from '../../../server/http/endpoints.js';
import { openapiDocument } from '../../../server/routes/openapi.js';

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };
const doc = openapiDocument(384) as { paths: Record<string, Record<string, Operation>> };
const operation = (ep: (typeof ENDPOINTS)[keyof typeof ENDPOINTS]) => doc.paths[openapiPath(ep)]?.[ep.method];

test('every endpoint is in the document', () => {
  for (const [name, ep] of Object.entries(ENDPOINTS)) expect([name, operation(ep) !== undefined]).toEqual([name, true]);
});

test('every read endpoint takes the read key (or none) and answers 401 to a wrong one', () => {
  const reads = Object.entries(ENDPOINTS).filter(([, ep]) => 'read' in ep && ep.read);
  expect(reads.map(([n]) => n)).toEqual(expect.arrayContaining(['retrieve', 'sources', 'jobs', 'job', 'mcp']));
  for (const [name, ep] of reads) {
    const op = operation(ep)!;
    // {} first: without READ_API_KEY set, no key is needed.
    expect([name, op.security]).toEqual([name, [{}, { ApiKey: [] }, { Bearer: [] }]]);
    expect([name, Object.keys(op.responses)]).toEqual([name, expect.arrayContaining(['401'])]);
  }
});

test('the open endpoints need no key', () => {
  for (const name of ['health', 'openapi', 'metrics'] as const) expect([name, operation(ENDPOINTS[name])!.security]).toEqual([name, undefined]);
});
