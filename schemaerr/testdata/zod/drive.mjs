// Drives server.mjs over stdio with raw JSON-RPC lines; writes transcript.jsonl (raw lines, in order)
// and cases.json (case -> request, raw response line, text).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const child = spawn(process.execPath, [join(here, 'server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
const rl = createInterface({ input: child.stdout });
const transcript = [];
const waiters = new Map();
rl.on('line', (line) => {
  transcript.push(line);
  let msg; try { msg = JSON.parse(line); } catch { return; }
  if (msg.id !== undefined && waiters.has(msg.id)) { waiters.get(msg.id)(line); waiters.delete(msg.id); }
});
let nextId = 1;
function sendRaw(line) { transcript.push(line); child.stdin.write(line + '\n'); }
function request(method, params) {
  const id = nextId++;
  const obj = { jsonrpc: '2.0', id, method };
  if (params !== undefined) obj.params = params;
  const line = JSON.stringify(obj);
  const p = new Promise((res, rej) => { waiters.set(id, res); setTimeout(() => rej(new Error('timeout ' + line)), 30000); });
  sendRaw(line);
  return p.then((resp) => ({ request: line, response: resp }));
}

const cases = [
  // [caseName, toolName, argumentsValue (undefined => omit key)]
  ['ok_baseline', 'vexlo_get_values', { path: ['a', 'b'], limit: 5 }],
  ['number_max (limit=101)', 'vexlo_get_values', { path: ['a'], limit: 101 }],
  ['number_min (limit=0)', 'vexlo_get_values', { path: ['a'], limit: 0 }],
  ['number_min negative (limit=-5)', 'vexlo_get_values', { path: ['a'], limit: -5 }],
  ['integer given 1.5 (limit=1.5)', 'vexlo_get_values', { path: ['a'], limit: 1.5 }],
  ['integer given 100.5 (limit=100.5, int+max)', 'vexlo_get_values', { path: ['a'], limit: 100.5 }],
  ['wrong type string for number (limit="5")', 'vexlo_get_values', { path: ['a'], limit: '5' }],
  ['wrong type null for number (limit=null)', 'vexlo_get_values', { path: ['a'], limit: null }],
  ['wrong type bool for number (limit=true)', 'vexlo_get_values', { path: ['a'], limit: true }],
  ['array max items (path 9 items)', 'vexlo_get_values', { path: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] }],
  ['array element wrong type (path[2]=3)', 'vexlo_get_values', { path: ['a', 'b', 3] }],
  ['array given string (path="a")', 'vexlo_get_values', { path: 'a' }],
  ['array max 100 (traceIds 101 items)', 'vexlo_get_traces', { traceIds: Array.from({ length: 101 }, (_, i) => 't' + i) }],
  ['missing required field (path)', 'vexlo_get_values', { limit: 5 }],
  ['no arguments object (vexlo_get_values)', 'vexlo_get_values', undefined],
  ['empty arguments object (vexlo_get_values)', 'vexlo_get_values', {}],
  ['unknown key on raw-shape tool (extra=1)', 'vexlo_get_values', { path: ['a'], extra: 1 }],
  ['multiple errors (path 9 items + limit 101)', 'vexlo_get_values', { path: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], limit: 101 }],
  ['multiple errors, input key order reversed (limit first)', 'vexlo_get_values', { limit: 101, path: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] }],
  ['multiple errors incl missing (limit=0, no path)', 'vexlo_get_values', { limit: 0 }],
  ['search ok baseline', 'vexlo_search', { query: 'hello', service: 'api-1', order: 'asc', environment: { named: ['prod'] }, filter: { window: { hours: 24 } }, limit: 10 }],
  ['string too short (query="ab", min 3)', 'vexlo_search', { query: 'ab' }],
  ['string too long (query 21 chars, max 20)', 'vexlo_search', { query: 'x'.repeat(21) }],
  ['string empty (query="")', 'vexlo_search', { query: '' }],
  ['string regex mismatch (service="Bad_Svc")', 'vexlo_search', { query: 'hello', service: 'Bad_Svc' }],
  ['enum invalid (order="up")', 'vexlo_search', { query: 'hello', order: 'up' }],
  ['enum wrong type (order=1)', 'vexlo_search', { query: 'hello', order: 1 }],
  ['union both keys (environment {named,unset})', 'vexlo_search', { query: 'hello', environment: { named: ['a'], unset: true } }],
  ['union unset=false', 'vexlo_search', { query: 'hello', environment: { unset: false } }],
  ['union empty object', 'vexlo_search', { query: 'hello', environment: {} }],
  ['union given string', 'vexlo_search', { query: 'hello', environment: 'prod' }],
  ['union named wrong element type', 'vexlo_search', { query: 'hello', environment: { named: [1] } }],
  ['union ok unset', 'vexlo_search', { query: 'hello', environment: { unset: true } }],
  ['nested field error (filter.window.hours=200)', 'vexlo_search', { query: 'hello', filter: { window: { hours: 200 } } }],
  ['nested missing (filter.window={})', 'vexlo_search', { query: 'hello', filter: { window: {} } }],
  ['nested wrong type (filter.window.hours="x")', 'vexlo_search', { query: 'hello', filter: { window: { hours: 'x' } } }],
  ['multiple errors search (query too short + limit 1.5 + order bad)', 'vexlo_search', { query: 'ab', order: 'up', limit: 1.5 }],
  ['multiple errors search (nested + string long)', 'vexlo_search', { query: 'x'.repeat(21), filter: { window: { hours: 169 } } }],
  ['union named + unknown key foo (one non-aborted branch)', 'vexlo_search', { query: 'hello', environment: { named: ['a'], foo: 1 } }],
  ['union unset + unknown key foo (one non-aborted branch)', 'vexlo_search', { query: 'hello', environment: { unset: true, foo: 1 } }],
  ['union named + unset=false', 'vexlo_search', { query: 'hello', environment: { named: ['a'], unset: false } }],
  ['union missing required environment', 'vexlo_union_max', {}],
  ['union named 3 items, max 2 (oversize array aborts, so both branches aborted)', 'vexlo_union_max', { environment: { named: ['a', 'b', 'c'] } }],
  ['union named 3 items + unset (only the unset-branch is non-aborted)', 'vexlo_union_max', { environment: { named: ['a', 'b', 'c'], unset: true } }],
  ['literal mismatch (exact=false)', 'vexlo_search', { query: 'hello', exact: false }],
  ['float bounds max (ratio=3)', 'vexlo_search', { query: 'hello', ratio: 3 }],
  ['float bounds min (ratio=0.25)', 'vexlo_search', { query: 'hello', ratio: 0.25 }],
  ['array min items (tags=[])', 'vexlo_search', { query: 'hello', tags: [] }],
  ['array element string too short (tags[1]="x")', 'vexlo_search', { query: 'hello', tags: ['ok', 'x'] }],
  ['array element errors x2 (tags[0]="a", tags[2]=5)', 'vexlo_search', { query: 'hello', tags: ['a', 'ok', 5] }],
  ['code points: query = 2 emoji (4 UTF-16 units) min 3', 'vexlo_search', { query: '\u{1F600}\u{1F600}' }],
  ['code points: query = 11 emoji (22 UTF-16 units) max 20', 'vexlo_search', { query: '\u{1F600}'.repeat(11) }],
  ['code points: query = 21 emoji max 20', 'vexlo_search', { query: '\u{1F600}'.repeat(21) }],
  ['code points: query = "héllo" precomposed', 'vexlo_search', { query: 'h\u00e9llo' }],
  ['unsafe integer (limit=1e300)', 'vexlo_get_values', { path: ['a'], limit: 1e300 }],
  ['unsafe integer negative (limit=-1e300)', 'vexlo_get_values', { path: ['a'], limit: -1e300 }],
  ['array over max AND bad element (path 9 items, path[0]=1)', 'vexlo_get_values', { path: [1, '2', '3', '4', '5', '6', '7', '8', '9'] }],
  ['string over max AND regex mismatch (slug="ABCDEFG")', 'vexlo_search', { query: 'hello', slug: 'ABCDEFG' }],
  ['strict ok', 'vexlo_strict', { name: 'n' }],
  ['strict unknown key (foo)', 'vexlo_strict', { name: 'n', foo: 1 }],
  ['strict two unknown keys (foo, bar)', 'vexlo_strict', { name: 'n', foo: 1, bar: 2 }],
  ['strict unknown key + missing name', 'vexlo_strict', { foo: 1 }],
  ['strict union both keys (environment)', 'vexlo_strict', { name: 'n', environment: { named: ['a'], unset: true } }],
  ['strict no arguments object', 'vexlo_strict', undefined],
  ['plain z.object unknown key (foo)', 'vexlo_plain_object', { name: 'n', foo: 1 }],
  ['looseObject unknown key (foo)', 'vexlo_loose_object', { name: 'n', foo: 1 }],
  ['no-schema tool with args', 'vexlo_no_schema', { a: 1 }],
  ['no-schema tool without args', 'vexlo_no_schema', undefined],
  ['unknown tool name', 'vexlo_does_not_exist', {}],
  ['arguments is an array (protocol-level)', 'vexlo_get_values', ['a']],
  ['arguments is a string (protocol-level)', 'vexlo_get_values', 'x'],
  ['arguments is null (protocol-level)', 'vexlo_get_values', null],
];

const out = [];
const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'reference-driver', version: '0' } });
out.push({ case: 'initialize', ...init });
sendRaw(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
const list = await request('tools/list', {});
out.push({ case: 'tools/list', ...list });
for (const [name, tool, args] of cases) {
  const params = { name: tool };
  if (args !== undefined) params.arguments = args;
  const r = await request('tools/call', params);
  const resp = JSON.parse(r.response);
  let kind, text;
  if (resp.error) { kind = `JSON-RPC error ${resp.error.code}`; text = resp.error.message; }
  else { kind = resp.result.isError ? 'result isError:true' : 'result ok'; text = resp.result.content?.map((c) => c.text).join('\n'); }
  out.push({ case: name, kind, text, ...r });
}
// tools/call with no params at all
const r = await request('tools/call', undefined);
out.push({ case: 'tools/call without params', ...r });
child.stdin.end();
writeFileSync(join(here, 'transcript.jsonl'), transcript.join('\n') + '\n');
writeFileSync(join(here, 'cases.json'), JSON.stringify(out, null, 2) + '\n');
for (const o of out) if (o.kind) console.log(`### ${o.case}\n[${o.kind}]\n${o.text}\n`);
process.exit(0);
