// The MCP TypeScript SDK's Client as a reading test drives it: connects over Streamable HTTP to the URL, then reads
// one tools/call a line on stdin ({"tool":...,"arguments":...}) and writes, a line each, what the Client got:
// {"isError":...,"text":...} for a result (its text blocks joined by "\n"), {"rpc":true,"code":...,"message":...,
// "data":...} for the JSON-RPC error it throws, {"isError":true,"text":...} for any other error (the transport's).
//
//   node tsclient.mjs 1 <node_modules with @modelcontextprotocol/sdk 1.x> <url>
//   node tsclient.mjs 2 <node_modules with @modelcontextprotocol/client 2.x> <url>
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , major, dir, url] = process.argv;
const load = (path) => import(pathToFileURL(join(dir, path)).href);
let Client, Transport, isRPC;
if (major === '1') {
  ({ Client } = await load('@modelcontextprotocol/sdk/dist/esm/client/index.js'));
  ({ StreamableHTTPClientTransport: Transport } = await load('@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js'));
  const { McpError } = await load('@modelcontextprotocol/sdk/dist/esm/types.js');
  isRPC = (e) => e instanceof McpError;
} else {
  const m = await load('@modelcontextprotocol/client/dist/index.mjs');
  ({ Client, StreamableHTTPClientTransport: Transport } = m);
  isRPC = (e) => m.ProtocolError.isInstance(e);
}
const client = new Client({ name: 'reader', version: '1' });
await client.connect(new Transport(new URL(url)));
for await (const line of createInterface({ input: process.stdin })) {
  const { tool, arguments: args } = JSON.parse(line);
  let out;
  try {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 15_000 });
    out = { isError: !!r.isError, text: (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n') };
  } catch (e) {
    out = isRPC(e) ? { rpc: true, code: e.code, message: e.message, data: e.data } : { isError: true, text: String(e?.message ?? e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
await client.close();
