// news: the local server over stdio and the hosted one over Streamable HTTP (2025-11-25 with the SDK's own
// handshake, and 2026-07-28), driven by the TypeScript SDK's Client. The expectations are the error contract in
// examples/news/README.md: JSON-RPC errors for unroutable calls, JSON tool errors for calls
// that ran and could not answer, HTTP statuses only for 401 and 429, structuredContent equal to the text parsed once.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bin, startHTTP } from '../lib/servers.mjs';
import { stdioClient, httpClient, statelessClient, statelessRequest, raw, onlyText, requestOptions, clientInfo } from '../lib/mcp.mjs';

// Keys for this run (the -keys file): one plan per failure, and a generous one for everything else.
const plan = (over) => ({
  plan: 'interop', monthly_credits: 1000000, stops_at_allocation: false, messages_per_minute: 100000,
  credits_per_minute: 1000000, watch_cap: 25, suspended: false, ...over,
});
const KEYS = [
  { key: 'interop-pro', ...plan({}) },
  { key: 'interop-empty', ...plan({ monthly_credits: 0, stops_at_allocation: true }) },
  { key: 'interop-slow', ...plan({ credits_per_minute: 1 }) }, // one get_article a minute
  { key: 'interop-suspended', ...plan({ suspended: true }) },
  { key: 'interop-chatty', ...plan({ messages_per_minute: 3 }) },
  { key: 'interop-nowatch', ...plan({ watch_cap: 0 }) },
];
const keysFile = join(mkdtempSync(join(tmpdir(), 'mcperr-interop-news-')), 'keys.json');
writeFileSync(keysFile, JSON.stringify(KEYS));
const auth = (k) => ({ Authorization: `Bearer ${k}` });

const ARTICLE = 'a-00042';
const TOOLS = ['create_watch', 'delete_watch', 'find_related', 'get_article', 'get_story', 'get_watch', 'search_stories', 'watch_events'];

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
/** A tool error: isError, one text block holding the JSON object {"error","code","detail",...}. */
function toolError(result, code) {
  assert.equal(result.isError, true, `expected isError, got ${JSON.stringify(result).slice(0, 400)}`);
  const obj = JSON.parse(onlyText(result));
  assert.deepEqual(Object.keys(obj).slice(0, 3), ['error', 'code', 'detail'], JSON.stringify(obj));
  assert.equal(obj.code, code, JSON.stringify(obj));
  assert.equal(typeof obj.error, 'string');
  assert.equal(typeof obj.detail, 'string');
  return obj;
}
/** A success: structuredContent present and equal to the one text block parsed once. */
function success(result) {
  assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 400));
  const parsed = JSON.parse(onlyText(result));
  assert.equal(typeof parsed, 'object', 'the text holds the JSON object, encoded once (not a JSON string)');
  assert.ok(result.structuredContent !== undefined, 'success carries structuredContent');
  assert.deepEqual(result.structuredContent, parsed);
  return parsed;
}

/** The checks both surfaces share: c() returns a connected Client. */
function shared(c, { hosted }) {
  const call = (name, args) => c().callTool({ name, arguments: args }, undefined, requestOptions);

  test('tools/list: the eight tools, strict input schemas, an outputSchema each', async () => {
    const { tools } = await c().listTools(undefined, requestOptions);
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const t of tools) {
      assert.equal(t.inputSchema.additionalProperties, false, t.name);
      assert.equal(typeof t.outputSchema, 'object', `${t.name} declares an outputSchema`);
    }
  });

  test('unknown tool: McpError -32601', async () => {
    const err = await rpcError(call('search_storys', { query: 'wind' }));
    assert.equal(err.code, -32601);
  });

  test('undeclared argument: McpError -32602, data.code unknown_parameter, the did-you-mean hint', async () => {
    const err = await rpcError(call('search_stories', { query: 'wind', langauge: 'en' }));
    assert.equal(err.code, -32602);
    assert.equal(err.message, "MCP error -32602: Unknown parameter 'langauge'. Did you mean 'language'?");
    assert.deepEqual(err.data, { code: 'unknown_parameter' });
  });

  test('undeclared argument with no close name: no hint', async () => {
    const err = await rpcError(call('search_stories', { query: 'wind', xyz: true }));
    assert.equal(err.message, "MCP error -32602: Unknown parameter 'xyz'.");
    assert.deepEqual(err.data, { code: 'unknown_parameter' });
  });

  test('unknown signal: McpError -32602 unknown_signal', async () => {
    const err = await rpcError(call('search_stories', { query: 'wind', signals: ['sentimnt'] }));
    assert.equal(err.code, -32602);
    assert.deepEqual(err.data, { code: 'unknown_signal' });
    assert.match(err.message, /sentimnt/);
  });

  test('value outside its range or enum: McpError -32602 invalid_parameter naming the argument', async () => {
    for (const args of [{ query: 'wind', limit: 51 }, { query: 'wind', limit: 0 }, { query: 'wind', from: 'last tuesday' }, { query: 'wind', estimate: 'yes' }]) {
      const err = await rpcError(call('search_stories', args));
      assert.equal(err.code, -32602, JSON.stringify(args));
      assert.deepEqual(err.data, { code: 'invalid_parameter' }, JSON.stringify(args));
      const name = Object.keys(args)[1];
      assert.ok(err.message.includes(`'${name}'`), `${err.message} names ${name}`);
    }
  });

  test('not_found: a tool error, for an article and a story', async () => {
    toolError(await call('get_article', { id: 'a-00000' }), 'not_found');
    toolError(await call('get_story', { id: 's-9999' }), 'not_found');
    toolError(await call('find_related', { id: 'a-00000' }), 'not_found');
  });

  test('credit_budget_exceeded: over max_credits, refused before it runs', async () => {
    const obj = toolError(await call('search_stories', { query: 'wind', limit: 50, max_credits: 1 }), 'credit_budget_exceeded');
    assert.equal(obj.max_credits, 1);
  });

  test('success: structuredContent is the text parsed once, with credits_charged and the completeness fields', async () => {
    const s = success(await call('search_stories', { query: 'offshore wind', limit: 2 }));
    for (const f of ['partial', 'coverage', 'from_clamped', 'credits_charged']) assert.ok(f in s, `${f} in ${Object.keys(s)}`);
    const a = success(await call('get_article', { id: ARTICLE }));
    assert.ok('credits_charged' in a);
    const e = success(await call('search_stories', { query: 'wind', estimate: true }));
    assert.equal(e.credits_charged, 0);
  });

  test('from earlier than the index holds: from_clamped', async () => {
    const s = success(await call('search_stories', { query: 'harvest', limit: 1, from: '2000-01-01T00:00:00Z' }));
    assert.equal(s.from_clamped, true);
  });

  if (!hosted) {
    test('watch tools on the local server: the unsupported tool error', async () => {
      toolError(await call('create_watch', { query: 'wind' }), 'unsupported');
      toolError(await call('get_watch', { id: 'w-1' }), 'unsupported');
      toolError(await call('delete_watch', { id: 'w-1' }), 'unsupported');
      toolError(await call('watch_events', { id: 'w-1' }), 'unsupported');
    });
  }
}

describe('local news server (stdio)', () => {
  let client;
  before(async () => { client = await stdioClient(await bin('news')); });
  after(async () => { await client?.close(); });
  test('initialize', () => {
    assert.equal(client.getServerVersion()?.name, 'news');
  });
  shared(() => client, { hosted: false });
});

describe('hosted news server (Streamable HTTP, 2025-11-25)', () => {
  let srv, client;
  before(async () => {
    srv = await startHTTP('news', ['-http', '127.0.0.1:PORT', '-keys', keysFile]);
    client = await httpClient(srv.url, { headers: auth('interop-pro') });
  });
  after(async () => { await client?.close(); await srv?.stop(); });

  shared(() => client, { hosted: true });

  test('HTTP 401: no key, and a key the server does not know (not echoed)', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } };
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await raw(srv.url, { headers: h, body: init });
    assert.equal(none.status, 401, none.text);
    assert.equal(none.json?.code, 'unauthorized', none.text);
    const bad = await raw(srv.url, { headers: { ...h, authorization: 'Bearer sk-not-a-key-123' }, body: init });
    assert.equal(bad.status, 401, bad.text);
    assert.ok(!bad.text.includes('sk-not-a-key-123'), 'the key is not echoed');
  });

  test('HTTP 401 reaches the SDK Client as StreamableHTTPError(401) at connect', async () => {
    try {
      const c = await httpClient(srv.url);
      await c.close();
      assert.fail('connect without a key must fail');
    } catch (err) {
      assert.ok(err instanceof StreamableHTTPError, `${err?.constructor?.name}: ${err?.message}`);
      assert.equal(err.code, 401);
    }
  });

  test('HTTP 429 message_rate_limited with Retry-After, the handshake counted', async () => {
    // interop-chatty may send 3 messages a minute: initialize, notifications/initialized, tools/list; the 4th is refused.
    const c = await httpClient(srv.url, { headers: auth('interop-chatty') });
    try {
      await c.listTools(undefined, requestOptions);
      const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer interop-chatty', 'mcp-protocol-version': '2025-11-25' };
      const res = await raw(srv.url, { headers: h, body: { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} } });
      assert.equal(res.status, 429, res.text);
      assert.ok(Number(res.headers['retry-after']) >= 1, `Retry-After: ${res.headers['retry-after']}`);
      assert.equal(res.json?.code, 'message_rate_limited', res.text);
    } finally {
      await c.close();
    }
  });

  test('suspended: a tool error', async () => {
    const c = await httpClient(srv.url, { headers: auth('interop-suspended') });
    try {
      toolError(await c.callTool({ name: 'get_article', arguments: { id: ARTICLE } }, undefined, requestOptions), 'suspended');
    } finally { await c.close(); }
  });

  test('insufficient_credits: the price and the credits left', async () => {
    const c = await httpClient(srv.url, { headers: auth('interop-empty') });
    try {
      const obj = toolError(await c.callTool({ name: 'get_article', arguments: { id: ARTICLE } }, undefined, requestOptions), 'insufficient_credits');
      assert.ok(Number.isInteger(obj.retry_after_secs) && obj.retry_after_secs > 0, JSON.stringify(obj));
      assert.deepEqual(obj.credits, { min: 1, max: 1 });
      assert.equal(obj.credits_limit, 0);
      assert.equal(obj.credits_remaining, 0);
      assert.ok('credits_used' in obj);
    } finally { await c.close(); }
  });

  test('credit_rate_limited: this minute\'s credits spent, retry_after_secs', async () => {
    const c = await httpClient(srv.url, { headers: auth('interop-slow') });
    try {
      let r;
      for (let i = 0; i < 3; i++) {
        r = await c.callTool({ name: 'get_article', arguments: { id: ARTICLE } }, undefined, requestOptions); // 1 credit
        if (r.isError) break;
      }
      const obj = toolError(r, 'credit_rate_limited');
      assert.ok(Number.isInteger(obj.retry_after_secs) && obj.retry_after_secs >= 1, JSON.stringify(obj));
    } finally { await c.close(); }
  });

  test('watch_limit: create_watch over the plan\'s cap', async () => {
    const c = await httpClient(srv.url, { headers: auth('interop-nowatch') });
    try {
      toolError(await c.callTool({ name: 'create_watch', arguments: { query: 'wind' } }, undefined, requestOptions), 'watch_limit');
    } finally { await c.close(); }
  });

  test('one code vocabulary: REST answers the same codes and hint as MCP (seed 004, "The same codes on REST")', async () => {
    const h = { authorization: 'Bearer interop-pro' };
    const unknown = await raw(`${srv.origin}/v1/search?query=wind&langauge=en`, { method: 'GET', headers: h });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.json?.code, 'unknown_parameter');
    assert.equal(unknown.json?.detail, "Unknown parameter 'langauge'. Did you mean 'language'?");
    const missing = await raw(`${srv.origin}/v1/articles/a-00000`, { method: 'GET', headers: h });
    assert.equal(missing.status, 404, missing.text);
    const viaMCP = toolError(await client.callTool({ name: 'get_article', arguments: { id: 'a-00000' } }, undefined, requestOptions), 'not_found');
    assert.deepEqual(missing.json, viaMCP);
  });

  test('watches: create, get, events, delete; then not_found', async () => {
    const w = success(await client.callTool({ name: 'create_watch', arguments: { query: 'wind' } }, undefined, requestOptions));
    const id = w.watch.id;
    success(await client.callTool({ name: 'get_watch', arguments: { id } }, undefined, requestOptions));
    success(await client.callTool({ name: 'watch_events', arguments: { id } }, undefined, requestOptions));
    success(await client.callTool({ name: 'delete_watch', arguments: { id } }, undefined, requestOptions));
    toolError(await client.callTool({ name: 'get_watch', arguments: { id } }, undefined, requestOptions), 'not_found');
  });
});

describe('hosted news server with failing shards', () => {
  test('some shards down: partial: true and coverage, not an error', async () => {
    const s = await startHTTP('news', ['-http', '127.0.0.1:PORT', '-keys', keysFile, '-fail-shards', '2']);
    const c = await httpClient(s.url, { headers: auth('interop-pro') });
    try {
      const r = success(await c.callTool({ name: 'search_stories', arguments: { query: 'harvest', limit: 1 } }, undefined, requestOptions));
      assert.equal(r.partial, true);
      assert.match(r.coverage, /^partial/);
      const u = toolError(await c.callTool({ name: 'search_stories', arguments: { query: 'harvest', from: '2026-10-20T00:00:00Z' } }, undefined, requestOptions), 'upstream_unavailable');
      assert.ok(Number.isInteger(u.retry_after_secs), JSON.stringify(u));
    } finally {
      await c.close();
      await s.stop();
    }
  });
});

describe('hosted news server (Streamable HTTP, 2026-07-28)', () => {
  let srv, client;
  before(async () => {
    srv = await startHTTP('news', ['-http', '127.0.0.1:PORT', '-keys', keysFile]);
    client = await statelessClient(srv.url, { headers: auth('interop-pro') });
  });
  after(async () => { await client?.close(); await srv?.stop(); });

  shared(() => client, { hosted: true });

  test('Mcp-Name with whitespace around it is the same name (what the suite\'s whitespace check means to test)', async () => {
    const { headers, body } = statelessRequest('tools/call', { name: 'search_stories', arguments: { query: 'wind', limit: 1 } });
    const res = await raw(srv.url, { headers: { ...headers, 'mcp-name': '  search_stories  ', authorization: 'Bearer interop-pro' }, body });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.json?.result, res.text);
  });

  // Seed 004 gives no HTTP status for its JSON-RPC errors (only 401 and 429 are "reported as an HTTP status"); on
  // 2026-07-28 the server sends them with 404 / 400. Recorded here (README, "Interop results"), not asserted.
  test('unknown tool and undeclared argument on 2026-07-28: the HTTP status they travel with (recorded)', async (t) => {
    await rpcError(client.callTool({ name: 'nope', arguments: {} }, undefined, requestOptions));
    t.diagnostic(`unknown tool: HTTP ${client.lastStatus()}`);
    await rpcError(client.callTool({ name: 'search_stories', arguments: { query: 'wind', langauge: 'en' } }, undefined, requestOptions));
    t.diagnostic(`unknown_parameter: HTTP ${client.lastStatus()}`);
  });
});
