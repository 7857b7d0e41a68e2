// The two SDK adapters, driven by the TypeScript SDK's Client over Streamable HTTP: the same small server built on
// the go-sdk with package gosdk (gosdk/internal/demo) and on mcp-go with package mcpgo (mcpgo/internal/demo), same
// tools, schemas and upstream, must give the same rejection text, kind objects and JSON-RPC errors.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { bins, examplesDir, startHTTP } from '../lib/servers.mjs';
import { httpClient, requestOptions } from '../lib/mcp.mjs';

/** The demo binaries, by adapter module; run.sh builds them beside the example servers. */
const demos = { gosdk: 'gosdk-demo', mcpgo: 'mcpgo-demo' };

async function built() {
  const dir = await bins();
  for (const [mod, name] of Object.entries(demos)) {
    if (existsSync(join(dir, name))) continue;
    await promisify(execFile)('go', ['build', '-o', join(dir, name), './internal/demo'], {
      cwd: resolve(examplesDir, '..', mod), timeout: 300_000, maxBuffer: 4 << 20,
    });
  }
}

/** What a client sees of a call: the result, or the JSON-RPC error's code, message and data. */
async function outcome(client, name, args) {
  try {
    const r = await client.callTool({ name, arguments: args }, undefined, requestOptions);
    return { result: { content: r.content, structuredContent: r.structuredContent, isError: r.isError ?? false } };
  } catch (e) {
    if (typeof e?.code !== 'number') throw e;
    return { error: { code: e.code, message: e.message, data: e.data } };
  }
}

const text = (t, isError = true) => ({ result: { content: [{ type: 'text', text: t }], structuredContent: undefined, isError } });
const kind = (obj) => text(JSON.stringify(obj));
const reject = (tool, issues) => text(`MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: ${issues}`);
const hint = (code, message) => ({ error: { code: -32602, message: `MCP error -32602: ${message}`, data: { code } } });

/** Starts both demos with args and connects a Client to each (the SDK's own initialize handshake). */
function pair(args) {
  const clients = {};
  const servers = [];
  before(async () => {
    await built();
    for (const [mod, name] of Object.entries(demos)) {
      const s = await startHTTP(name, ['-addr', '127.0.0.1:PORT', ...args]);
      servers.push(s);
      clients[mod] = await httpClient(s.url);
    }
  });
  after(async () => {
    for (const c of Object.values(clients)) await c.close();
    for (const s of servers) await s.stop();
  });
  return clients;
}

/** Runs each case on both servers: the same outcome on both, and the one expected. */
function cases(clients, rows) {
  for (const [label, name, args, want] of rows) {
    test(label, async () => {
      const got = {};
      for (const mod of Object.keys(demos)) got[mod] = await outcome(clients[mod], name, args);
      assert.deepEqual(got.mcpgo, got.gosdk, 'mcpgo and gosdk answer alike');
      assert.deepEqual(got.gosdk, want);
    });
  }
}

const nine = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];

describe('adapters, TypeScript dialect', () => {
  const clients = pair([]);
  test('tools/list: the same tools and schemas', async () => {
    const lists = {};
    for (const mod of Object.keys(demos)) {
      const { tools } = await clients[mod].listTools(undefined, requestOptions);
      lists[mod] = tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })).sort((a, b) => a.name.localeCompare(b.name));
    }
    assert.deepEqual(lists.mcpgo, lists.gosdk);
    assert.deepEqual(lists.gosdk.map((t) => t.name), ['get_trace', 'get_values', 'search']);
  });
  cases(clients, [
    ['success: structuredContent and the same JSON as text', 'get_trace', { id: 'abc' },
      { result: { content: [{ type: 'text', text: '{"id":"abc","spans":3}' }], structuredContent: { id: 'abc', spans: 3 }, isError: false } }],
    ['upstream 404: not_found', 'get_trace', { id: 'zzz' }, kind({ kind: 'not_found', code: 'trace_not_found', message: 'no trace zzz' })],
    ['upstream 429: rate_limited with the wait', 'get_trace', { id: 'slow' }, kind({ kind: 'rate_limited', retryAfterSeconds: 30 })],
    ['upstream 500: server_error', 'get_trace', { id: 'boom' },
      kind({ kind: 'server_error', code: 'internal_error', httpStatus: 500, message: 'shard 3 is down' })],
    ['upstream body of neither shape: malformed_response', 'get_trace', { id: 'odd' },
      kind({ kind: 'malformed_response', httpStatus: 200, message: 'response body matched neither the error envelope nor the expected shape (status 200)' })],
    ['wrong type, on a typed tool', 'get_trace', { id: 7 }, reject('get_trace', 'Invalid input: expected string, received number at id')],
    ['missing', 'get_trace', {}, reject('get_trace', 'Invalid input: expected string, received undefined at id')],
    ['unknown key', 'get_trace', { id: 'abc', x: 1 }, reject('get_trace', 'Unrecognized key: "x"')],
    ['two issues, in schema order', 'get_values', { limit: 101, path: nine },
      reject('get_values', 'Too big: expected array to have <=8 items at path\nToo big: expected number to be <=100 at limit')],
    ['unknown keys, in input order', 'search', { query: 'hello', foo: 1, bar: 2 }, reject('search', 'Unrecognized keys: "foo", "bar"')],
    ['enum', 'search', { query: 'hello', order: 'up' }, reject('search', 'Invalid option: expected one of "asc"|"desc" at order')],
    ['unknown tool', 'get_trac', {}, text('MCP error -32602: Tool get_trac not found')],
    ['valid arguments reach the tool', 'search', { query: 'hello', order: 'asc' },
      { result: { content: [{ type: 'text', text: '{"arguments":{"order":"asc","query":"hello"}}' }], structuredContent: { arguments: { order: 'asc', query: 'hello' } }, isError: false } }],
  ]);
});

describe('adapters, hint dialect', () => {
  const clients = pair(['-hint']);
  cases(clients, [
    ['misspelt parameter: unknown_parameter and a did-you-mean', 'search', { query: 'hello', langauge: 'en' },
      hint('unknown_parameter', "Unknown parameter 'langauge'. Did you mean 'language'?")],
    ['out of range: invalid_parameter', 'get_values', { path: ['a'], limit: 0 },
      hint('invalid_parameter', "Invalid value for 'limit': must be between 1 and 100.")],
    ['missing: invalid_parameter', 'search', {}, hint('invalid_parameter', "Missing required parameter 'query'.")],
    ['unknown tool: unknown_tool and a did-you-mean', 'serch', {}, hint('unknown_tool', "Unknown tool 'serch'. Did you mean 'search'?")],
    ['tool errors stay kind objects', 'get_trace', { id: 'zzz' }, kind({ kind: 'not_found', code: 'trace_not_found', message: 'no trace zzz' })],
  ]);
});

describe('adapters, a limit of one tool call', () => {
  const clients = pair(['-calls', '1']);
  cases(clients, [
    ['the first call runs (the handshake was free)', 'get_trace', { id: 'zzz' },
      kind({ kind: 'not_found', code: 'trace_not_found', message: 'no trace zzz' })],
    ['the second is rate_limited, with the wait', 'get_trace', { id: 'abc' },
      kind({ kind: 'rate_limited', retryAfterSeconds: 30, limit: 1, remaining: 0, resetSeconds: 30 })],
  ]);
});
