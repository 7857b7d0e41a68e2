// The Vulnetix tools (examples/vulnetix) on the TypeScript SDK 1.32.2 and zod, for examples/interop/load: stateless
// Streamable HTTP (--http HOST:PORT) against VULNETIX_API_URL, forwarding the caller's "Authorization: Bearer" key.
// vulnetix_vuln, vulnetix_purl and vulnetix_request do their GET and answer the record with _meta vulnetix/plan and
// vulnetix/upstream as the Go server does; the login tools answer that they cannot run (no MCP_AEAD_KEY), as the Go
// server does without one.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { get, serve } from './common.mjs';

const base = (process.env.VULNETIX_API_URL ?? '').replace(/\/+$/, '');
const idPattern = /^(CVE-[0-9]{4}-[0-9]{4,}|GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})$/;

const textError = (text, meta) => ({ content: [{ type: 'text', text }], isError: true, _meta: meta });

async function fetchJSON(path, extra) {
  const auth = extra?.requestInfo?.headers?.authorization ?? '';
  const key = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
  const up = { calls: 1, ms: 0, bytes: 0, cached: false };
  const meta = { 'vulnetix/plan': 'unknown', 'vulnetix/upstream': up };
  if (!key) return { err: textError('No Vulnetix API key: send Authorization: Bearer <key>.', meta) };
  const start = Date.now();
  let r;
  try {
    r = await get(base, path, key);
  } catch (e) {
    return { err: textError(`Network failure reaching vdb-api: ${e?.message ?? e}`, meta) };
  } finally {
    up.ms = Date.now() - start;
  }
  const plan = r.headers.get('x-vulnetix-plan');
  if (plan && /^[a-z][a-z0-9_-]{0,31}$/.test(plan)) meta['vulnetix/plan'] = plan;
  if (r.status === 404) return { err: textError(`Not found in the Vulnetix VDB: ${path}`, meta) };
  if (r.status >= 300) return { err: textError(`vdb-api answered HTTP ${r.status}.`, meta) };
  let body;
  try { body = JSON.parse(r.text); } catch { return { err: textError('vdb-api answered something that is not JSON.', meta) }; }
  up.bytes = Buffer.byteLength(r.text);
  return { body, meta };
}

const answer = ({ err, body, meta }) => err ?? { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, _meta: meta };

const tools = {
  vulnetix_vuln: [z.object({ id: z.string().regex(idPattern), raw: z.boolean().optional() }).strict(),
    (a) => `/v1/vulns/${encodeURIComponent(a.id)}${a.raw ? '/raw' : ''}`],
  vulnetix_purl: [z.object({ purl: z.string().min(1) }).strict(), (a) => `/v1/purl?purl=${encodeURIComponent(a.purl)}`],
  vulnetix_request: [z.object({ path: z.string().min(1) }).strict(), (a) => a.path],
  vulnetix_overview: [z.object({ id: z.string().regex(idPattern) }).strict(), (a) => `/v1/vulns/${encodeURIComponent(a.id)}`],
};

function build() {
  const server = new McpServer({ name: 'vulnetix-ts', title: 'Vulnetix VDB', version: '0.1.0' });
  for (const [name, [inputSchema, path]] of Object.entries(tools)) {
    server.registerTool(name, { description: name, inputSchema, annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true } },
      async (args, extra) => answer(await fetchJSON(path(args), extra)));
  }
  for (const name of ['vulnetix_auth_start', 'vulnetix_auth_poll']) {
    server.registerTool(name, { description: name, inputSchema: z.object({ handle: z.string().min(1).optional() }).strict() },
      () => textError('Login is not available: this server has no MCP_AEAD_KEY.', { 'vulnetix/plan': 'unknown' }));
  }
  return server;
}

await serve(build);
