// What the load-test servers share: stdio or stateless Streamable HTTP hosting on the TypeScript SDK 1.32.2, and an
// upstream GET. These servers are the TypeScript side of examples/interop/load (the Go load driver): the same tools as
// the Go example servers, written the way the SDK's own examples write them (McpServer + zod, or the low-level Server
// where a tool must answer a JSON-RPC error), so that both sides do the same work per call.
import http from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Serves build() on stdio (no arguments) or, with --http HOST:PORT, stateless Streamable HTTP at /mcp. */
export async function serve(build) {
  const i = process.argv.indexOf('--http');
  if (i < 0) {
    await build().connect(new StdioServerTransport());
    return;
  }
  const [host, port] = process.argv[i + 1].split(':');
  // The SDK's stateless pattern: a new server and transport per request (no session, JSON responses).
  const srv = http.createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') {
      res.writeHead(404).end();
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
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  srv.keepAliveTimeout = 60_000;
  srv.listen(Number(port), host, () => console.error(`listening on http://${host}:${port}/mcp`));
}

/** GET base+path with a JSON Accept (and a bearer key when given): the status, headers and body text. */
export async function get(base, path, key) {
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(base + path, { headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
