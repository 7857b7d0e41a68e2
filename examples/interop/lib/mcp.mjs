// MCP clients for the interop tests, all on @modelcontextprotocol/sdk 1.32.2: stdio, Streamable HTTP (2025-11-25,
// with the SDK's own initialize handshake) and Streamable HTTP for protocol revision 2026-07-28, which the 1.32 SDK
// predates (see statelessClient). Plus raw HTTP for the protocol-error rows, where the status and body are the point.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const clientInfo = { name: 'mcperr-interop', version: '0.0.0' };
/** Bounds every SDK request: no test waits on a silent server for long. */
export const requestOptions = { timeout: 15_000 };

/** A Client connected over stdio to file args (the SDK spawns it; close() ends it). */
export async function stdioClient(file, args = [], env = {}) {
  const transport = new StdioClientTransport({
    command: file, args, env: { ...getDefaultEnvironment(), ...env }, stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-20_000); });
  const client = new Client(clientInfo, { capabilities: {} });
  await client.connect(transport, requestOptions);
  client.stderr = () => stderr;
  return client;
}

/** A Client connected over Streamable HTTP with the SDK's own handshake (initialize, protocol 2025-11-25). */
export async function httpClient(url, { headers = {} } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client(clientInfo, { capabilities: {} });
  await client.connect(transport, requestOptions);
  return client;
}

export const STATELESS = '2026-07-28';

/** The method's Mcp-Name value, as the 2026-07-28 revision (SEP-2243) defines it. */
export function mcpName(method, params) {
  if (method === 'tools/call' || method === 'prompts/get') return params?.name;
  if (method === 'resources/read') return params?.uri;
  return undefined;
}

/** params with the per-request _meta keys of protocol revision 2026-07-28. */
export function withMeta(params, { version = STATELESS, capabilities = {}, info = clientInfo } = {}) {
  return {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': info,
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      ...params?._meta,
    },
  };
}

/**
 * A Client on the SDK's StreamableHTTPClientTransport speaking protocol revision 2026-07-28 (stateless).
 *
 * SDK 1.32.2 knows revisions up to 2025-11-25: its Client.connect always sends initialize, and nothing adds the
 * per-request _meta keys or the Mcp-Method / Mcp-Name headers. So this connects the Client without the handshake
 * (the Protocol base class's connect), and a fetch wrapper adds, to every JSON-RPC message the SDK sends, what
 * 2026-07-28 requires: _meta io.modelcontextprotocol/{protocolVersion,clientInfo,clientCapabilities} and the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers. On 2026-07-28 a JSON-RPC error travels with its HTTP
 * status (400 for -32602, 404 for -32601, ...), which a 1.32 transport reports as a StreamableHTTPError carrying
 * only the status; so, unless unwrap is false, a non-2xx answer whose body is the JSON-RPC error response to the
 * request sent is handed to the SDK as that response, and the status is kept in client.httpStatuses (one entry per
 * POST, in order; client.lastStatus() is the latest). Everything else (request ids, result parsing, McpError with
 * code and data, outputSchema checks) is the SDK's own.
 */
export async function statelessClient(url, { headers = {}, version = STATELESS, capabilities = {}, unwrap = true } = {}) {
  const httpStatuses = [];
  const fetch2026 = async (input, init = {}) => {
    let id;
    if (init.method === 'POST' && typeof init.body === 'string') {
      const msg = JSON.parse(init.body);
      id = msg?.id;
      if (msg && typeof msg.method === 'string') {
        msg.params = withMeta(msg.params, { version, capabilities });
        const h = new Headers(init.headers);
        h.set('mcp-protocol-version', version);
        h.set('mcp-method', msg.method);
        const name = mcpName(msg.method, msg.params);
        if (typeof name === 'string') h.set('mcp-name', name);
        init = { ...init, headers: h, body: JSON.stringify(msg) };
      }
    }
    const res = await fetch(input, init);
    if (init.method === 'POST') httpStatuses.push(res.status);
    if (res.ok || !unwrap || id === undefined || !/^application\/json/.test(res.headers.get('content-type') ?? '')) return res;
    const text = await res.text();
    let body;
    try { body = JSON.parse(text); } catch { /* not JSON: the status is the answer */ }
    const isErrorResponse = body?.jsonrpc === '2.0' && body.id === id && typeof body.error?.code === 'number';
    return new Response(text, { status: isErrorResponse ? 200 : res.status, statusText: res.statusText, headers: res.headers });
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: fetch2026 });
  const client = new Client(clientInfo, { capabilities });
  // Protocol.prototype.connect: wires the transport and starts it, without Client's initialize handshake.
  await Object.getPrototypeOf(Client.prototype).connect.call(client, transport);
  client.httpStatuses = httpStatuses;
  client.lastStatus = () => httpStatuses.at(-1);
  return client;
}

/**
 * One raw HTTP request (node:http, so Host and every other header are exactly as given). body may be a string or
 * a value to JSON-encode. Returns {status, headers, text, json} (json undefined when the body is not JSON).
 */
export function raw(url, { method = 'POST', headers = {}, body, timeoutMs = 10_000 } = {}) {
  const u = new URL(url);
  const payload = body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((ok, fail) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname + u.search, method,
      headers: { ...(payload !== undefined ? { 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
      timeout: timeoutMs,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let json;
        const ct = res.headers['content-type'] || '';
        if (ct.includes('text/event-stream')) {
          const data = text.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean);
          try { json = JSON.parse(data.at(-1)); } catch { /* not JSON */ }
        } else {
          try { json = JSON.parse(text); } catch { /* not JSON */ }
        }
        ok({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', fail);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Headers and body for a raw 2026-07-28 request (callers override pieces to break them). */
export function statelessRequest(method, params, { id = 1, version = STATELESS } = {}) {
  const p = withMeta(params, { version });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': method,
  };
  const name = mcpName(method, p);
  if (typeof name === 'string') headers['mcp-name'] = name;
  return { headers, body: { jsonrpc: '2.0', id, method, params: p } };
}

/** The one text block of a tool result (asserting there is exactly one). */
export function onlyText(result) {
  const blocks = result?.content ?? [];
  if (blocks.length !== 1 || blocks[0].type !== 'text') {
    throw new Error(`expected one text block, got ${JSON.stringify(result)}`);
  }
  return blocks[0].text;
}
