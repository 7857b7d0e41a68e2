// A plain MCP server on the TypeScript SDK (no mcperr), as the reading test drives it: a tool whose arguments zod
// checks (search: query, a string of 3 characters at least), one whose handler says its upstream refused it
// (quota), and one that answers after 5 seconds unless cancelled (slow).
//
//   node tsserver.mjs 1 <node_modules with @modelcontextprotocol/sdk 1.x and zod> stdio|http
//   node tsserver.mjs 2 <node_modules with @modelcontextprotocol/server 2.x and zod> stdio|http
//
// Over http it listens on 127.0.0.1 (a port of the system's choosing, stateless, JSON responses) and writes its URL
// as the first line of stdout.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , major, dir, mode] = process.argv;
const load = (path) => import(pathToFileURL(join(dir, path)).href);
const { z } = await import(pathToFileURL(createRequire(join(dir, 'x.js')).resolve('zod')).href);
let McpServer, Stdio, HTTP;
if (major === '1') {
  ({ McpServer } = await load('@modelcontextprotocol/sdk/dist/esm/server/mcp.js'));
  ({ StdioServerTransport: Stdio } = await load('@modelcontextprotocol/sdk/dist/esm/server/stdio.js'));
  ({ StreamableHTTPServerTransport: HTTP } = await load('@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js'));
} else {
  ({ McpServer, WebStandardStreamableHTTPServerTransport: HTTP } = await load('@modelcontextprotocol/server/dist/index.mjs'));
  ({ StdioServerTransport: Stdio } = await load('@modelcontextprotocol/server/dist/stdio.mjs'));
}

const upstream429 = 'upstream returned 429: {"error":"rate limited","retry_after":7}';
function server() {
  const s = new McpServer({ name: 'plain-ts', version: '1' });
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  s.registerTool('search', { inputSchema: { query: z.string().min(3) } }, async () => text('found'));
  s.registerTool('quota', { inputSchema: {} }, async () => {
    throw new Error(upstream429);
  });
  s.registerTool('slow', { inputSchema: {} }, async (_args, extra) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 5000);
      extra?.signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); });
    });
    return text('done');
  });
  return s;
}

if (mode === 'stdio') {
  await server().connect(new Stdio());
} else {
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString('utf8');
    const s = server();
    if (major === '1') {
      const t = new HTTP({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await s.connect(t);
      await t.handleRequest(req, res, body ? JSON.parse(body) : undefined);
      return;
    }
    const t = new HTTP({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await s.connect(t);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const answer = await t.handleRequest(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: body || undefined }));
    // Headers first, then the body as it comes: a GET's event stream never ends.
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) {
      req.on('close', () => answer.body.cancel().catch(() => {}));
      try {
        for await (const chunk of answer.body) res.write(chunk);
      } catch {}
    }
    res.end();
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
}
