// vexlo over stdio, driven by the TypeScript SDK's Client: every failure shape of its error contract
// (examples/vexlo/README.md) as a real client receives it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bin, freePort, runToExit, spawnTracked, waitFor } from '../lib/servers.mjs';
import { stdioClient, onlyText, requestOptions } from '../lib/mcp.mjs';

const SEED_TRACE = '0f1a2b3c4d5e6f708192a3b4c5d6e7f8'; // seed 000's transcript
const BROKEN_TRACE = '00000000000000000000000000000500'; // the demo's trace on a failed shard (500)
const HIDDEN_TRACE = '9a8b7c6d5e4f30211203f4e5d6c7b8a9'; // the demo's trace of a team the demo token cannot see
const MISSING_TRACE = 'deadbeefdeadbeefdeadbeefdeadbeef';
const REJECT = (tool) => `MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: `;

let client;
before(async () => { client = await stdioClient(await bin('vexlo'), ['-demo']); });
after(async () => { await client?.close(); });

const call = (name, args) => client.callTool({ name, arguments: args }, undefined, requestOptions);

/** A failed call's JSON kind object: isError, one text block starting with {, fields in the seed's order. */
function kindObject(result) {
  assert.equal(result.isError, true, `expected isError, got ${JSON.stringify(result)}`);
  const text = onlyText(result);
  assert.ok(text.startsWith('{'), `a server error is a JSON object; got ${JSON.stringify(text)}`);
  const obj = JSON.parse(text);
  assert.equal(Object.keys(obj)[0], 'kind', 'kind comes first');
  return obj;
}

test('initialize: serverInfo and listChanged', () => {
  assert.deepEqual(client.getServerVersion(), { name: 'vexlo-mcp', version: '0.1.0' });
  assert.equal(client.getServerCapabilities()?.tools?.listChanged, true);
});

test('tools/list: the eleven tools, each schema a strict object', async () => {
  const { tools } = await client.listTools(undefined, requestOptions);
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'vexlo_check_coverage', 'vexlo_check_health', 'vexlo_check_trace_status', 'vexlo_find_related_traces',
    'vexlo_get_function', 'vexlo_get_function_examples', 'vexlo_get_trace', 'vexlo_get_values',
    'vexlo_list_services', 'vexlo_list_tags', 'vexlo_search_traces',
  ]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(t.inputSchema.additionalProperties, false, `${t.name}: additionalProperties false`);
  }
});

// Seed 000, "Rejected arguments": the transcript and every row of the endings table.
const ids101 = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(32, '0'));
const rejections = [
  ['vexlo_get_values', { traceId: SEED_TRACE, path: ['', 'AA', 'AB', 'AC', 'AD', 'AE', 'AF', 'AG', 'AH'] },
    'Too big: expected array to have <=8 items at path'],
  ['vexlo_search_traces', { limit: 101 }, 'Too big: expected number to be <=100 at limit'],
  ['vexlo_check_trace_status', { traceIds: ids101 }, 'Too big: expected array to have <=100 items at traceIds'],
  ['vexlo_find_related_traces', { traceId: SEED_TRACE, windowHours: 169 }, 'Too big: expected number to be <=168 at windowHours'],
  ['vexlo_get_function_examples', { service: 'checkout', name: 'charge', limit: 6 }, 'Too big: expected number to be <=5 at limit'],
  ['vexlo_search_traces', { teams: ['ops'] }, 'Unrecognized key: "teams"'],
  ['vexlo_check_trace_status', { traceIds: [SEED_TRACE], team: 'ops' }, 'Unrecognized key: "team"'],
  ['vexlo_get_function', { service: 'checkout', name: 'charge', environment: 'prod' }, 'Invalid input at environment'],
  ['vexlo_get_function', { service: 'checkout', name: 'charge', environment: { named: ['prod'], unset: true } }, 'Invalid input at environment'],
];
for (const [tool, args, ending] of rejections) {
  test(`rejected arguments: ${tool} ${JSON.stringify(args).slice(0, 60)} -> "${ending}"`, async () => {
    const result = await call(tool, args); // a result, not an McpError: the call would throw otherwise
    assert.deepEqual(result, { content: [{ type: 'text', text: REJECT(tool) + ending }], isError: true });
  });
}

test('unknown tool: "MCP error -32602: Tool <name> not found" as an isError result', async () => {
  const result = await call('vexlo_nope', {});
  assert.deepEqual(result, { content: [{ type: 'text', text: 'MCP error -32602: Tool vexlo_nope not found' }], isError: true });
});

test('invalid_arguments: a trace id the API cannot parse (seed: "got 14")', async () => {
  const obj = kindObject(await call('vexlo_get_trace', { traceId: 'not-a-trace-id' }));
  assert.deepEqual(obj, { kind: 'invalid_arguments', code: 'invalid_request', message: 'trace_id must be 32 lowercase hex characters, got 14' });
});

test('invalid_arguments: a path that does not decode', async () => {
  const obj = kindObject(await call('vexlo_get_values', { traceId: SEED_TRACE, path: ['!!not-base32!!'] }));
  assert.deepEqual(obj, { kind: 'invalid_arguments', code: 'invalid_request', message: 'path: "!!not-base32!!" does not decode' });
});

test('not_found: the seed\'s opening example, fields kind, code, message, details', async () => {
  const obj = kindObject(await call('vexlo_get_trace', { traceId: MISSING_TRACE }));
  assert.deepEqual(obj, {
    kind: 'not_found', code: 'trace_not_found', message: `no trace with id ${MISSING_TRACE}`, details: { trace_id: MISSING_TRACE },
  });
  assert.deepEqual(Object.keys(obj), ['kind', 'code', 'message', 'details']);
});

test('not_found: a trace of a team the token cannot see answers exactly like a missing one', async () => {
  const obj = kindObject(await call('vexlo_get_trace', { traceId: HIDDEN_TRACE }));
  assert.deepEqual(obj, {
    kind: 'not_found', code: 'trace_not_found', message: `no trace with id ${HIDDEN_TRACE}`, details: { trace_id: HIDDEN_TRACE },
  });
});

test('server_error: code, httpStatus, message in that order', async () => {
  const obj = kindObject(await call('vexlo_get_trace', { traceId: BROKEN_TRACE }));
  assert.deepEqual(Object.keys(obj), ['kind', 'code', 'httpStatus', 'message']);
  assert.equal(obj.kind, 'server_error');
  assert.equal(obj.code, 'internal_error');
  assert.equal(obj.httpStatus, 500);
  assert.equal(typeof obj.message, 'string');
});

test('success: structuredContent, when sent, is the text block parsed once', async () => {
  for (const [tool, args] of [['vexlo_list_services', {}], ['vexlo_get_trace', { traceId: SEED_TRACE }], ['vexlo_check_coverage', {}]]) {
    const result = await call(tool, args);
    assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result).slice(0, 300)}`);
    const parsed = JSON.parse(onlyText(result));
    assert.equal(typeof parsed, 'object', `${tool}: the text is the JSON body, encoded once`);
    if (result.structuredContent !== undefined) assert.deepEqual(result.structuredContent, parsed, tool);
  }
});

test('rate_limited: a burst of 120 vexlo_list_tags calls; each 429 surfaces in the seed\'s shape', async () => {
  const results = await Promise.all(Array.from({ length: 120 }, () => call('vexlo_list_tags', {})));
  const errors = results.filter((r) => r.isError);
  const oks = results.length - errors.length;
  assert.ok(oks >= 20, `at least one bucket's worth succeeds (got ${oks})`);
  assert.ok(errors.length > 0, 'a burst of 120 against 20 per second must surface rate_limited');
  for (const r of errors) {
    const obj = kindObject(r);
    assert.deepEqual(Object.keys(obj), ['kind', 'retryAfterSeconds', 'limit', 'remaining', 'resetSeconds'], JSON.stringify(obj));
    assert.equal(obj.kind, 'rate_limited');
    assert.ok(Number.isInteger(obj.retryAfterSeconds) && obj.retryAfterSeconds >= 1 && obj.retryAfterSeconds <= 2, JSON.stringify(obj));
    assert.equal(obj.limit, 20);
    assert.equal(obj.remaining, 0);
    assert.ok(Number.isInteger(obj.resetSeconds), JSON.stringify(obj));
  }
});

// The runs below need a demo API of their own (-demo-addr), to revoke a token or switch disk pressure.
async function demoAPI() {
  const port = await freePort();
  const api = spawnTracked(await bin('vexlo'), ['-demo-addr', `127.0.0.1:${port}`]);
  const m = await waitFor(api.output, /VEXLO_URL=(\S+)\nVEXLO_TOKEN=(\S+)\nVEXLO_DEMO_ADMIN_KEY=(\S+)\n/);
  const [, url, token, admin] = m;
  const adminPost = async (path) => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'X-Demo-Admin': admin }, signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text}`);
    return JSON.parse(text);
  };
  return { api, url, token, adminPost };
}

test('authentication_failed: a token revoked mid-session', async () => {
  const { api, url, token, adminPost } = await demoAPI();
  const c = await stdioClient(await bin('vexlo'), [], { VEXLO_URL: url, VEXLO_TOKEN: token });
  try {
    const first = await c.callTool({ name: 'vexlo_list_services', arguments: {} }, undefined, requestOptions);
    assert.notEqual(first.isError, true, JSON.stringify(first));
    assert.deepEqual(await adminPost(`/_demo/revoke?id=${encodeURIComponent(token)}`), { revoked: true });
    const obj = kindObject(await c.callTool({ name: 'vexlo_list_services', arguments: {} }, undefined, requestOptions));
    assert.deepEqual(obj, { kind: 'authentication_failed', message: 'token revoked' });
  } finally {
    await c.close();
    api.kill('SIGKILL');
  }
});

test('vexlo_check_health: the degraded 503 body is an answer, not an error', async () => {
  const { api, url, token, adminPost } = await demoAPI();
  const c = await stdioClient(await bin('vexlo'), [], { VEXLO_URL: url, VEXLO_TOKEN: token });
  try {
    await adminPost('/_demo/disk?pressure=on');
    const result = await c.callTool({ name: 'vexlo_check_health', arguments: {} }, undefined, requestOptions);
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const body = JSON.parse(onlyText(result));
    assert.equal(body.status, 'degraded');
    assert.equal(body.mode, 'shape_only');
    if (result.structuredContent !== undefined) assert.deepEqual(result.structuredContent, body);
  } finally {
    await c.close();
    api.kill('SIGKILL');
  }
});

test('startup: a write token makes the process exit non-zero with one line on stderr', async () => {
  const { api, url, adminPost } = await demoAPI();
  try {
    const { token } = await adminPost('/_demo/tokens?role=write');
    const r = await runToExit(await bin('vexlo'), [], { env: { VEXLO_URL: url, VEXLO_TOKEN: token } });
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr, 'vexlo-mcp: token role "write" is not allowed; use a read token\n');
    assert.ok(!r.stderr.includes(token), 'the token never appears in a message');
  } finally {
    api.kill('SIGKILL');
  }
});

test('network_error: no-auth mode against an API that is not there', async () => {
  const port = await freePort(); // nothing listens on it
  const c = await stdioClient(await bin('vexlo'), [], { VEXLO_URL: `http://127.0.0.1:${port}`, VEXLO_TOKEN: '', VEXLO_TIMEOUT: '3s' });
  try {
    const obj = kindObject(await c.callTool({ name: 'vexlo_list_services', arguments: {} }, undefined, requestOptions));
    assert.deepEqual(Object.keys(obj), ['kind', 'message']);
    assert.equal(obj.kind, 'network_error');
  } finally {
    await c.close();
  }
});
