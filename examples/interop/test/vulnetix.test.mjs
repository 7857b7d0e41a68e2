// vulnetix over Streamable HTTP (protocol revision 2026-07-28, stateless), driven by the TypeScript SDK's Client
// (see statelessClient in lib/mcp.mjs) and, for the protocol-error rows whose HTTP status is the point, by raw
// HTTP. The expectations are the error contract in examples/vulnetix/README.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHTTP, freePort } from '../lib/servers.mjs';
import { statelessClient, raw, statelessRequest, onlyText, requestOptions, clientInfo } from '../lib/mcp.mjs';

const KEYS = {
  community: 'vdb-demo-community', pro: 'vdb-demo-pro', quota: 'vdb-demo-quota',
  inactive: 'vdb-demo-inactive', maintenance: 'vdb-demo-maintenance', bad: 'vdb-demo-no-such-key',
};
const bearer = (k) => ({ Authorization: `Bearer ${k}` });

let srv;
const clients = [];
before(async () => { srv = await startHTTP('vulnetix', ['-demo', '-addr', '127.0.0.1:PORT'], { env: { MCP_AEAD_KEY: '' } }); });
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await srv?.stop();
});

async function client(key, opts = {}) {
  const c = await statelessClient(opts.url ?? srv.url, { headers: key === undefined ? {} : bearer(key), ...opts });
  clients.push(c);
  return c;
}
const call = (c, name, args) => c.callTool({ name, arguments: args }, undefined, requestOptions);

/** A tool error: isError, one text block starting with prefix, and the _meta every result carries. */
function toolError(result, prefix) {
  assert.equal(result.isError, true, `expected isError, got ${JSON.stringify(result).slice(0, 400)}`);
  const text = onlyText(result);
  assert.ok(text.startsWith(prefix), `text should start with ${JSON.stringify(prefix)}; got ${JSON.stringify(text)}`);
  upstreamMeta(result);
  return text;
}
function upstreamMeta(result) {
  const meta = result._meta ?? {};
  assert.equal(typeof meta['vulnetix/plan'], 'string', `_meta["vulnetix/plan"] in ${JSON.stringify(meta)}`);
  const up = meta['vulnetix/upstream'];
  assert.deepEqual(Object.keys(up ?? {}).sort(), ['bytes', 'cached', 'calls', 'ms'], `_meta["vulnetix/upstream"] in ${JSON.stringify(meta)}`);
  return up;
}
async function rpcError(promise) {
  try {
    const r = await promise;
    assert.fail(`expected a JSON-RPC error, got the result ${JSON.stringify(r).slice(0, 300)}`);
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err;
    assert.ok(err instanceof McpError, `expected McpError, got ${err?.constructor?.name}: ${err?.message}`);
    return err;
  }
}

// ---- The SDK's Client ----------------------------------------------------------------------------------------

test('tools/list through the SDK: the six tools, strict schemas', async () => {
  const { tools } = await (await client(KEYS.community)).listTools(undefined, requestOptions);
  assert.deepEqual(tools.map((t) => t.name).sort(),
    ['vdb_request', 'vulnetix_auth_poll', 'vulnetix_auth_start', 'vulnetix_overview', 'vulnetix_purl', 'vulnetix_vuln']);
  for (const t of tools) assert.equal(t.inputSchema.additionalProperties, false, t.name);
});

test('success: structuredContent, when sent, is the text parsed once; _meta plan and upstream', async () => {
  const r = await call(await client(KEYS.community), 'vulnetix_vuln', { id: 'CVE-2022-22965' });
  assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 400));
  const body = JSON.parse(onlyText(r));
  assert.equal(typeof body, 'object');
  if (r.structuredContent !== undefined) assert.deepEqual(r.structuredContent, body);
  assert.equal(r._meta['vulnetix/plan'], 'community');
  const up = upstreamMeta(r);
  assert.equal(up.calls, 1);
});

test('tool error: no Authorization header', async () => {
  toolError(await call(await client(undefined), 'vulnetix_vuln', { id: 'CVE-2022-22965' }),
    'Vulnetix request failed: No Vulnetix credential was supplied.');
});

test('tool error: an Authorization header that does not parse', async () => {
  const c = await statelessClient(srv.url, { headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
  clients.push(c);
  toolError(await call(c, 'vulnetix_vuln', { id: 'CVE-2022-22965' }), 'Vulnetix request failed: No Vulnetix credential was supplied.');
});

test('tool error: vdb-api 401', async () => {
  const text = toolError(await call(await client(KEYS.bad), 'vulnetix_vuln', { id: 'CVE-2022-22965' }),
    'Vulnetix rejected the credential (HTTP 401).');
  assert.ok(!text.includes(KEYS.bad), 'the key never appears in a message');
});

test('tool error: vdb-api 403, organisation inactive', async () => {
  const text = toolError(await call(await client(KEYS.inactive), 'vulnetix_vuln', { id: 'CVE-2022-22965' }),
    'Vulnetix denied access (HTTP 403): ');
  assert.ok(text.includes('The organisation may be inactive.'), text);
});

test('tool error: vdb-api 404, with the seed\'s _meta', async () => {
  const r = await call(await client(KEYS.community), 'vulnetix_vuln', { id: 'CVE-2024-35195' });
  toolError(r, 'Not found in the Vulnetix VDB: ');
  assert.equal(r._meta['vulnetix/plan'], 'community');
  assert.equal(r._meta['vulnetix/upstream'].calls, 1);
  assert.equal(r._meta['vulnetix/upstream'].bytes, 0);
  assert.equal(r._meta['vulnetix/upstream'].cached, false);
});

test('tool error: daily quota exhausted is a tool result (never HTTP 429)', async () => {
  const c = await client(KEYS.quota);
  let r;
  for (let i = 0; i < 6; i++) {
    r = await call(c, 'vulnetix_vuln', { id: 'CVE-2022-22965' }); // an HTTP 429 here would throw StreamableHTTPError
    if (r.isError) break;
  }
  const text = toolError(r, 'Vulnetix daily rate limit exhausted for this organisation. The quota resets at ');
  const m = text.match(/The quota resets at (\S+)\. Do NOT retry this call\./);
  assert.ok(m, text);
  assert.ok(!Number.isNaN(Date.parse(m[1])), `an ISO time: ${m[1]}`);
});

test('tool error: vdb-api 503 with X-Maintenance-Mode', async () => {
  toolError(await call(await client(KEYS.maintenance), 'vulnetix_vuln', { id: 'CVE-2022-22965' }),
    'Vulnetix is in maintenance mode and is refusing writes right now.');
});

test('tool error: any other upstream status, after the one GET retry', async () => {
  const r = await call(await client(KEYS.community), 'vdb_request', { path: '/v1/vendors/tukaani/trends' });
  toolError(r, 'Vulnetix returned HTTP 500: ');
  assert.equal(r._meta['vulnetix/upstream'].calls, 2, 'a GET is re-sent once on a 5xx');
});

test('the GET retry hides one 502', async () => {
  const r = await call(await client(KEYS.community), 'vulnetix_vuln', { id: 'CVE-2023-44487' });
  assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 400));
  assert.equal(r._meta['vulnetix/upstream'].calls, 2);
});

test('tool error: vulnetix_vuln raw over 524,288 bytes', async () => {
  const text = toolError(await call(await client(KEYS.community), 'vulnetix_vuln', { id: 'CVE-2021-44228', raw: true }),
    'The raw record for CVE-2021-44228 is ');
  const n = Number(text.match(/ is (\d+) bytes/)?.[1]);
  assert.ok(n > 524288, text);
});

test('tool error: vulnetix_purl with a string that is not a Package URL', async () => {
  toolError(await call(await client(KEYS.community), 'vulnetix_purl', { purl: 'not-a-purl' }), 'Not a Package URL: ');
});

test('tool error: vdb_request path not on the allowlist', async () => {
  toolError(await call(await client(KEYS.community), 'vdb_request', { path: '/v1/admin/keys' }),
    "Path '/v1/admin/keys' is not on the allowlist for this tool.");
});

test('tool error: the login tools without MCP_AEAD_KEY', async () => {
  const c = await client(KEYS.community);
  toolError(await call(c, 'vulnetix_auth_start', {}),
    'This Vulnetix MCP server cannot run a login because MCP_AEAD_KEY is not configured.');
  toolError(await call(c, 'vulnetix_auth_poll', { handle: 'anything' }),
    'This Vulnetix MCP server cannot run a login because MCP_AEAD_KEY is not configured.');
});

test('schema rejection: a tool result naming the field, not a JSON-RPC error', async () => {
  const r = await call(await client(KEYS.community), 'vulnetix_vuln', {});
  assert.equal(r.isError, true, JSON.stringify(r));
  assert.match(onlyText(r), /\bid\b/);
});

test('degraded: a failed section is {"error": ...} and named in _meta, isError absent', async () => {
  const r = await call(await client(KEYS.community), 'vulnetix_overview', { id: 'CVE-2024-3094' });
  assert.equal(r.isError, undefined, JSON.stringify(r).slice(0, 400));
  assert.deepEqual(r._meta['vulnetix/degraded'], ['vendor-trends']);
  const body = JSON.parse(onlyText(r));
  if (r.structuredContent !== undefined) assert.deepEqual(r.structuredContent, body);
  const failed = body['vendor-trends'] ?? body.vendor_trends ?? body.vendorTrends;
  assert.equal(typeof failed?.error, 'string', `the failed section in ${JSON.stringify(body).slice(0, 400)}`);
  assert.deepEqual(Object.keys(failed), ['error']);
});

test('degraded: every section failed is a normal error result', async () => {
  const r = await call(await client(KEYS.bad), 'vulnetix_overview', { id: 'CVE-2024-3094' });
  toolError(r, 'Vulnetix rejected the credential (HTTP 401).');
});

test('tool error: network failure', async () => {
  const port = await freePort();
  const s = await startHTTP('vulnetix', ['-addr', '127.0.0.1:PORT'], { env: { VULNETIX_API_URL: `http://127.0.0.1:${port}` } });
  try {
    const c = await statelessClient(s.url, { headers: bearer(KEYS.community) });
    try {
      toolError(await call(c, 'vulnetix_vuln', { id: 'CVE-2022-22965' }), 'Vulnetix request failed: ');
    } finally { await c.close(); }
  } finally { await s.stop(); }
});

test('resources/read: record not in the VDB is McpError -32602', async () => {
  const err = await rpcError((await client(KEYS.community)).readResource({ uri: 'vulnetix://vuln/CVE-2024-35195' }, requestOptions));
  assert.equal(err.code, -32602);
  assert.ok(err.message.includes('Not found in the Vulnetix VDB: '), err.message);
});

test('resources/read: unknown skill:// file is McpError -32602', async () => {
  const err = await rpcError((await client(KEYS.community)).readResource({ uri: 'skill://vulnetix/nope.md' }, requestOptions));
  assert.equal(err.code, -32602);
});

test('resources/read: missing or badly percent-encoded URI variable is McpError -32602', async () => {
  const c = await client(KEYS.community);
  for (const uri of ['vulnetix://vuln/', 'vulnetix://vuln/CVE-2021-%ZZ']) {
    const err = await rpcError(c.readResource({ uri }, requestOptions));
    assert.equal(err.code, -32602, uri);
  }
});

test('resources/read: any other upstream failure is McpError -32603 with the tool error\'s text', async () => {
  const err = await rpcError((await client(KEYS.bad)).readResource({ uri: 'vulnetix://vuln/CVE-2022-22965' }, requestOptions));
  assert.equal(err.code, -32603);
  assert.ok(err.message.includes('Vulnetix rejected the credential (HTTP 401).'), err.message);
});

test('resources/read: a record and a skill file', async () => {
  const c = await client(KEYS.community);
  const rec = await c.readResource({ uri: 'vulnetix://vuln/CVE-2022-22965' }, requestOptions);
  assert.ok(rec.contents.length > 0);
  const skill = await c.readResource({ uri: 'skill://vulnetix/SKILL.md' }, requestOptions);
  assert.ok(skill.contents[0].text.length > 0);
});

test('a protocol error through the SDK: McpError with code and data, and its HTTP status', async () => {
  const c = await client(KEYS.community, { version: '1900-01-01' });
  const err = await rpcError(c.listTools(undefined, requestOptions));
  assert.equal(err.code, -32022);
  assert.deepEqual(err.data, { supported: ['2026-07-28'], requested: '1900-01-01' });
  assert.equal(c.lastStatus(), 400);
});

test('without the 2026-07-28 adapter, SDK 1.32 reports that error as StreamableHTTPError(400)', async () => {
  const c = await client(KEYS.community, { version: '1900-01-01', unwrap: false });
  try {
    await c.listTools(undefined, requestOptions);
    assert.fail('expected an error');
  } catch (err) {
    assert.ok(err instanceof StreamableHTTPError, `${err?.constructor?.name}: ${err?.message}`);
    assert.equal(err.code, 400);
    assert.match(err.message, /-32022/);
  }
});

test('the SDK\'s own 2025-11-25 handshake is refused with HTTP 400 and a JSON-RPC error body', async () => {
  const c = new Client(clientInfo, { capabilities: {} });
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL(srv.url)), requestOptions);
    assert.fail('a 2026-07-28-only server cannot accept initialize');
  } catch (err) {
    assert.ok(err instanceof StreamableHTTPError, `${err?.constructor?.name}: ${err?.message}`);
    assert.equal(err.code, 400);
  } finally {
    await c.close().catch(() => {});
  }
});

// ---- Protocol errors: raw HTTP, status and body exactly ----------------------------------------------------------

function rpc(res, status, code) {
  assert.equal(res.status, status, `status; body ${res.text}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(res.json?.jsonrpc, '2.0', res.text);
  assert.equal(res.json?.error?.code, code, res.text);
  return res.json;
}
const ok = (method = 'tools/list', params = {}) => statelessRequest(method, params);

test('403: Host not on the allowlist (no JSON-RPC code)', async () => {
  const { headers, body } = ok();
  const res = await raw(srv.url, { headers: { ...headers, host: 'evil.example' }, body });
  assert.equal(res.status, 403, res.text);
  assert.equal(res.json?.error?.code, undefined, res.text);
});

test('403: Origin not on the allowlist', async () => {
  const { headers, body } = ok();
  const res = await raw(srv.url, { headers: { ...headers, origin: 'http://evil.example' }, body });
  assert.equal(res.status, 403, res.text);
});

test('allowlist: localhost, 127.0.0.1 and [::1] with any port are served', async () => {
  for (const host of [`localhost:${srv.port}`, `127.0.0.1:${srv.port}`, `[::1]:${srv.port}`, 'localhost']) {
    const { headers, body } = ok();
    const res = await raw(srv.url, { headers: { ...headers, host }, body });
    assert.equal(res.status, 200, `${host}: ${res.text}`);
  }
});

test('404 -32601: a path that is not /mcp', async () => {
  const { headers, body } = ok();
  rpc(await raw(srv.origin + '/other', { headers, body }), 404, -32601);
});

test('404 -32601: an unknown JSON-RPC method', async () => {
  const { headers, body } = ok('nope/nope');
  const j = rpc(await raw(srv.url, { headers, body }), 404, -32601);
  assert.equal(j.id, 1);
});

test('405 -32600: GET on /mcp, with Allow: POST', async () => {
  const res = await raw(srv.url, { method: 'GET', headers: { accept: 'application/json, text/event-stream' } });
  rpc(res, 405, -32600);
  assert.equal(res.headers.allow, 'POST');
});

test('415 -32600: Content-Type not application/json', async () => {
  const { headers, body } = ok();
  rpc(await raw(srv.url, { headers: { ...headers, 'content-type': 'text/plain' }, body }), 415, -32600);
});

test('400 -32700: a body that is not JSON', async () => {
  const { headers } = ok();
  rpc(await raw(srv.url, { headers, body: '{"jsonrpc":' }), 400, -32700);
});

test('400 -32602: _meta missing a required io.modelcontextprotocol/* key', async () => {
  const { headers, body } = ok();
  delete body.params._meta['io.modelcontextprotocol/clientCapabilities'];
  rpc(await raw(srv.url, { headers, body }), 400, -32602);
  const bare = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
  rpc(await raw(srv.url, { headers, body: bare }), 400, -32602);
});

test('400 -32020: Mcp-Method or Mcp-Name disagrees with the body', async () => {
  {
    const { headers, body } = ok();
    rpc(await raw(srv.url, { headers: { ...headers, 'mcp-method': 'prompts/list' }, body }), 400, -32020);
  }
  {
    const { headers, body } = ok('tools/call', { name: 'vulnetix_vuln', arguments: { id: 'CVE-2022-22965' } });
    rpc(await raw(srv.url, { headers: { ...headers, 'mcp-name': 'vdb_request' }, body }), 400, -32020);
  }
});

test('Mcp-Name with whitespace around it is the same name (RFC 9110 field values)', async () => {
  const { headers, body } = ok('tools/call', { name: 'vulnetix_vuln', arguments: { id: 'CVE-2022-22965' } });
  const res = await raw(srv.url, { headers: { ...headers, 'mcp-name': '  vulnetix_vuln  ', authorization: `Bearer ${KEYS.community}` }, body });
  assert.equal(res.status, 200, res.text);
  assert.ok(res.json?.result, res.text);
});

test('400 -32022: the seed\'s unsupported-version body, exactly', async () => {
  const { headers, body } = statelessRequest('tools/list', {}, { version: '1900-01-01' });
  const j = rpc(await raw(srv.url, { headers, body }), 400, -32022);
  assert.deepEqual(j, {
    jsonrpc: '2.0', id: 1,
    error: { code: -32022, message: 'Unsupported protocol version: 1900-01-01', data: { supported: ['2026-07-28'], requested: '1900-01-01' } },
  });
});

test('400 -32602 wins over -32022 when both are wrong', async () => {
  const { headers, body } = statelessRequest('tools/list', {}, { version: '1900-01-01' });
  delete body.params._meta['io.modelcontextprotocol/clientCapabilities'];
  rpc(await raw(srv.url, { headers, body }), 400, -32602);
});

test('429 -32000: the edge flood guard, exactly the seed\'s body; /healthz is not behind it', async () => {
  const s = await startHTTP('vulnetix', ['-demo', '-addr', '127.0.0.1:PORT', '-edge-limit', '3', '-edge-window', '10s', '-edge-block', '10s']);
  try {
    const statuses = [];
    let last;
    for (let i = 0; i < 4; i++) {
      const { headers, body } = ok();
      last = await raw(s.url, { headers, body });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.match(last.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(last.json, {
      jsonrpc: '2.0', id: null,
      error: { code: -32000, message: 'Rate limited at the edge. Slow down and retry after a few seconds.' },
    });
    const health = await raw(s.origin + '/healthz', { method: 'GET' });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, { status: 'ok' });
  } finally { await s.stop(); }
});
