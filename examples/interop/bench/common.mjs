// What the load-test servers share: stdio or stateless Streamable HTTP hosting on the TypeScript SDK 1.32.2, and an
// upstream GET. These servers are the TypeScript side of examples/interop/load (the Go load driver): the same tools as
// the Go example servers, written the way the SDK's own examples write them (McpServer + zod, or the low-level Server
// where a tool must answer a JSON-RPC error), so that both sides do the same work per call.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * Serves build() on stdio (no arguments) or, with --http HOST:PORT, stateless Streamable HTTP at /mcp; with
 * --stateful too, a session per initialize, as the SDK's simpleStreamableHttp example keeps them.
 */
export async function serve(build) {
  const i = process.argv.indexOf('--http');
  if (i < 0) {
    await build().connect(new StdioServerTransport());
    return;
  }
  const [host, port] = process.argv[i + 1].split(':');
  const stateful = process.argv.includes('--stateful') ? statefulHandler(build) : null;
  // The SDK's stateless pattern: a new server and transport per request (no session, JSON responses).
  const srv = http.createServer(async (req, res) => {
    if (req.url !== '/mcp' || (req.method !== 'POST' && !stateful)) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      await stateful(req, res);
      return;
    }
    const chunks = [];
    let size = 0;
    for await (const c of req) {
      size += c.length;
      if (size > 4 << 20) { res.writeHead(413).end(); return; }
      chunks.push(c);
    }
    let body;
    try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    if (stateful) {
      await stateful(req, res, body);
      return;
    }
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  srv.keepAliveTimeout = 60_000;
  srv.listen(Number(port), host, () => console.error(`listening on http://${host}:${port}/mcp`));
}

/**
 * The SDK's stateful pattern (its simpleStreamableHttp example, without express): an initialize without a session
 * builds a server and a transport whose session lives in a map until the client's DELETE closes it; every other
 * request names its session. The SDK's defaults: each POST is answered on an SSE stream.
 */
function statefulHandler(build) {
  const transports = new Map();
  return async (req, res, body) => {
    const sid = req.headers['mcp-session-id'];
    let transport = sid && transports.get(sid);
    if (!transport) {
      if (sid || req.method !== 'POST' || !isInitializeRequest(body)) {
        res.writeHead(400, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transports.delete(transport.sessionId);
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  };
}

/** GET base+path with a JSON Accept (and a bearer key when given): the status, headers and body text. */
export async function get(base, path, key) {
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(base + path, { headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
