// The MCP TypeScript SDK's Client as a reading test drives it: connects over Streamable HTTP to the URL (or, for a
// target "stdio:{"command":...,"args":[...],"env":[...]}", over stdio to that command), then reads one tools/call a
// line on stdin ({"tool":...,"arguments":...,"timeout":<ms, 0 for the default>}) and writes, a line each, what the
// Client got:
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
let Client, Transport, Stdio, isRPC;
if (major === '1') {
  ({ Client } = await load('@modelcontextprotocol/sdk/dist/esm/client/index.js'));
  ({ StreamableHTTPClientTransport: Transport } = await load('@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js'));
  ({ StdioClientTransport: Stdio } = await load('@modelcontextprotocol/sdk/dist/esm/client/stdio.js'));
  const { McpError } = await load('@modelcontextprotocol/sdk/dist/esm/types.js');
  isRPC = (e) => e instanceof McpError;
} else {
  const m = await load('@modelcontextprotocol/client/dist/index.mjs');
  ({ Client, StreamableHTTPClientTransport: Transport } = m);
  ({ StdioClientTransport: Stdio } = await load('@modelcontextprotocol/client/dist/stdio.mjs'));
  isRPC = (e) => m.ProtocolError.isInstance(e);
}
const client = new Client({ name: 'reader', version: '1' });
if (url.startsWith('stdio:')) {
  const { command, args, env } = JSON.parse(url.slice('stdio:'.length));
  // The command's own environment, or this process's when it names none.
  const vars = env ? Object.fromEntries(env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])) : process.env;
  await client.connect(new Stdio({ command, args, env: vars }));
} else {
  await client.connect(new Transport(new URL(url)));
}
for await (const line of createInterface({ input: process.stdin })) {
  const { tool, arguments: args, timeout } = JSON.parse(line);
  const options = { timeout: timeout || 15_000 };
  let out;
  try {
    const r = major === '1' ? await client.callTool({ name: tool, arguments: args }, undefined, options) : await client.callTool({ name: tool, arguments: args }, options);
    out = { isError: !!r.isError, text: (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n') };
  } catch (e) {
    out = isRPC(e) ? { rpc: true, code: e.code, message: e.message, data: e.data } : { isError: true, text: String(e?.message ?? e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
await client.close();
