// The server of the gosdk package doc (gosdk/internal/traces) on the TypeScript SDK 1.32.2 and zod, written the way
// the SDK's own examples write a tool: get_trace with the same input and output schemas, a GET of
// TRACES_API/v1/traces/{id}, the body as structuredContent and text, an upstream error as the kind object; and
// trace_link, the hosted bench's tool with no upstream call (examples/interop/bench/hosted): the same input, answered
// at once with where the trace is; and get_trace_local, get_trace without the GET. Stdio by default; --http
// HOST:PORT serves stateless Streamable HTTP, and with --stateful a session per initialize. For examples/interop/load.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { get, serve } from './common.mjs';

const api = (process.env.TRACES_API ?? 'https://vexlo.example').replace(/\/+$/, '');

function build() {
  const server = new McpServer({ name: 'traces', version: '1.0.0' });
  server.registerTool('get_trace', {
    inputSchema: { id: z.string().describe('the trace id') },
    outputSchema: { id: z.string(), spans: z.number().int() },
  }, async ({ id }) => {
    const r = await get(api, `/v1/traces/${encodeURIComponent(id)}`);
    const body = JSON.parse(r.text);
    if (r.status >= 300) {
      const kind = r.status === 404 ? 'not_found' : 'server_error';
      return { content: [{ type: 'text', text: JSON.stringify({ kind, code: body?.error?.code, message: body?.error?.message }) }], isError: true };
    }
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  });
  server.registerTool('trace_link', {
    inputSchema: { id: z.string().describe('the trace id') },
    outputSchema: { id: z.string(), url: z.string() },
  }, async ({ id }) => {
    const body = { id, url: `${api}/traces/${encodeURIComponent(id)}` };
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  });
  // get_trace without its upstream: a valid call whose handler returns at once.
  server.registerTool('get_trace_local', {
    inputSchema: { id: z.string().describe('the trace id') },
    outputSchema: { id: z.string(), spans: z.number().int() },
  }, async ({ id }) => {
    const body = { id, spans: 3 };
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  });
  return server;
}

await serve(build);
