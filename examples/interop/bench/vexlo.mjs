// The Vexlo tools (examples/vexlo) on the TypeScript SDK 1.32.2 and zod: the eleven vexlo_* tools with the same
// input schemas and the same upstream routes, against VEXLO_URL (with VEXLO_TOKEN when set). Stdio by default;
// --http HOST:PORT serves stateless Streamable HTTP. For examples/interop/load.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { get, serve } from './common.mjs';

const base = (process.env.VEXLO_URL ?? '').replace(/\/+$/, '');
const token = process.env.VEXLO_TOKEN || '';
if (!base) { console.error('vexlo-ts: VEXLO_URL is not set'); process.exit(2); }

const traceId = z.string().describe('A trace id: 32 lowercase hex characters.');
const limit = (max, d) => z.number().int().min(1).max(max).describe(d);
const environment = z.union([
  z.object({ named: z.array(z.string()).min(1) }).strict(),
  z.object({ unset: z.literal(true) }).strict(),
]).describe('Which environments to include: {"named": ["prod", ...]} or {"unset": true} for calls that carried none.');
const env = (q, e) => {
  if (!e) return;
  for (const n of e.named ?? []) q.append('environment', n);
  if (e.unset) q.set('environment_unset', 'true');
};
const set = (q, k, v) => { if (v !== undefined && v !== '') q.set(k, String(v)); };
const seg = encodeURIComponent;

// name, title, description, zod input schema, route(args) -> [path, URLSearchParams], members a success must have.
const tools = [
  ['vexlo_search_traces', 'Search traces', 'Search recorded traces, newest first, by service, function, tag, status and start time.',
    z.object({
      service: z.string().optional(), function: z.string().optional(), tag: z.string().optional(),
      status: z.enum(['ok', 'error']).optional(), since: z.string().optional(),
      limit: limit(100, 'At most this many traces (default 20).').optional(), cursor: z.string().optional(),
    }).strict(),
    (a) => { const q = new URLSearchParams(); for (const k of ['service', 'function', 'tag', 'status', 'since', 'limit', 'cursor']) set(q, k, a[k]); return ['/v1/traces', q]; },
    [['traces', '[']]],
  ['vexlo_get_trace', 'Get a trace', 'Get one trace with its steps.', z.object({ traceId }).strict(),
    (a) => [`/v1/traces/${seg(a.traceId)}`, null], [['trace_id', '"'], ['steps', '[']]],
  ['vexlo_check_trace_status', 'Check trace statuses', 'Check the status of up to 100 traces at once.',
    z.object({ traceIds: z.array(z.string()).min(1).max(100) }).strict(),
    (a) => { const q = new URLSearchParams(); for (const id of a.traceIds) q.append('id', id); return ['/v1/traces/status', q]; },
    [['statuses', '['], ['unknown_ids', '[']]],
  ['vexlo_find_related_traces', 'Find related traces', 'Find traces of the same service started within windowHours of the given trace.',
    z.object({ traceId, windowHours: z.number().int().min(1).max(168).optional(), limit: limit(100, 'At most this many traces.').optional() }).strict(),
    (a) => { const q = new URLSearchParams(); set(q, 'window_hours', a.windowHours); set(q, 'limit', a.limit); return [`/v1/traces/${seg(a.traceId)}/related`, q]; },
    [['traces', '[']]],
  ['vexlo_get_values', 'Get step values', 'Get the values captured at up to 8 steps of a trace, by their base32 paths.',
    z.object({ traceId, path: z.array(z.string()).min(1).max(8) }).strict(),
    (a) => { const q = new URLSearchParams(); for (const p of a.path) q.append('path', p); return [`/v1/traces/${seg(a.traceId)}/values`, q]; },
    [['values', '{'], ['unknown_paths', '[']]],
  ['vexlo_get_function', 'Get a function', "Get a function's record.",
    z.object({ service: z.string(), name: z.string(), environment: environment.optional() }).strict(),
    (a) => { const q = new URLSearchParams(); env(q, a.environment); return [`/v1/functions/${seg(a.service)}/${seg(a.name)}`, q]; },
    [['service', '"'], ['name', '"']]],
  ['vexlo_get_function_examples', 'Get function examples', 'Get up to 5 recorded calls of a function.',
    z.object({ service: z.string(), name: z.string(), environment: environment.optional(), limit: limit(5, 'At most this many examples.').optional() }).strict(),
    (a) => { const q = new URLSearchParams(); env(q, a.environment); set(q, 'limit', a.limit); return [`/v1/functions/${seg(a.service)}/${seg(a.name)}/examples`, q]; },
    [['examples', '[']]],
  ['vexlo_list_tags', 'List tags', 'List the tags on visible traces, of one service or of all.',
    z.object({ service: z.string().optional() }).strict(),
    (a) => { const q = new URLSearchParams(); set(q, 'service', a.service); return ['/v1/tags', q]; }, [['tags', '[']]],
  ['vexlo_list_services', 'List services', "List the services the token's team-set covers.", z.object({}).strict(),
    () => ['/v1/services', null], [['services', '[']]],
  ['vexlo_check_health', 'Check health', "Check the Vexlo server's health.", z.object({}).strict(),
    () => ['/v1/health', null], [['status', '"']]],
  ['vexlo_check_coverage', 'Check coverage', "List which teams this token's team-set covers.", z.object({}).strict(),
    () => ['/v1/coverage', null], [['teams', '[']]],
];

const toolError = (kind, message, extra = {}) => ({
  content: [{ type: 'text', text: JSON.stringify({ kind, message, ...extra }) }], isError: true,
});

const kinds = { 400: 'invalid_arguments', 401: 'authentication_failed', 403: 'permission_denied', 404: 'not_found', 409: 'conflict', 429: 'rate_limited' };

async function call(route, want, args) {
  const [path, q] = route(args);
  let r;
  try {
    r = await get(base, q && [...q].length ? `${path}?${q}` : path, token);
  } catch (e) {
    return toolError('network_error', String(e?.message ?? e));
  }
  let body;
  try { body = JSON.parse(r.text); } catch { return toolError('malformed_response', 'the body is not JSON', { httpStatus: r.status }); }
  if (body && typeof body === 'object' && body.error) {
    const kind = kinds[r.status] ?? (r.status >= 500 ? 'server_error' : 'server_error');
    return toolError(kind, String(body.error.message ?? body.error), { code: body.error.code, httpStatus: r.status });
  }
  if (r.status >= 300) return toolError(r.status >= 500 ? 'server_error' : 'invalid_arguments', `HTTP ${r.status}`, { httpStatus: r.status });
  for (const [k, start] of want) {
    const v = body?.[k];
    const ok = start === '[' ? Array.isArray(v) : start === '{' ? v && typeof v === 'object' && !Array.isArray(v) : typeof v === 'string';
    if (!ok) return toolError('malformed_response', `the body has no "${k}" of the expected type`);
  }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

function build() {
  const server = new McpServer({ name: 'vexlo-mcp-ts', version: '0.1.0' }, { capabilities: { tools: { listChanged: true } } });
  for (const [name, title, description, inputSchema, route, want] of tools) {
    server.registerTool(name, { title, description, inputSchema, annotations: { readOnlyHint: true, openWorldHint: true } },
      (args) => call(route, want, args));
  }
  return server;
}

await serve(build);
