// Drives derived-server.mjs like drive.mjs drives server.mjs and writes derived-cases.json in the
// same format. The last cases run against a second server started with MAX_ELEMENTS=5.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

function start(env) {
  const child = spawn(process.execPath, [join(here, 'derived-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const rl = createInterface({ input: child.stdout });
  const waiters = new Map();
  rl.on('line', (line) => {
    let msg; try { msg = JSON.parse(line); } catch { return; }
    if (msg.id !== undefined && waiters.has(msg.id)) { waiters.get(msg.id)(line); waiters.delete(msg.id); }
  });
  let nextId = 1;
  const sendRaw = (line) => child.stdin.write(line + '\n');
  const request = (method, params) => {
    const id = nextId++;
    const obj = { jsonrpc: '2.0', id, method };
    if (params !== undefined) obj.params = params;
    const line = JSON.stringify(obj);
    const p = new Promise((res, rej) => { waiters.set(id, res); setTimeout(() => rej(new Error('timeout ' + line)), 30000); });
    sendRaw(line);
    return p.then((resp) => ({ request: line, response: resp }));
  };
  return { child, sendRaw, request };
}

const cases = [
  ['string min/max given a short array', 'd_lengths', { name: ['a'] }],
  ['string min/max given a long array', 'd_lengths', { name: ['a', 'b', 'c', 'd', 'e', 'f'] }],
  ['string min/max given a number', 'd_lengths', { name: 7 }],
  ['array min/max given a short string', 'd_lengths', { list: 'ab' }],
  ['array min/max given a long string', 'd_lengths', { list: 'abcdef' }],
  ['array min with bad elements', 'd_lengths', { list: ['a', 5] }],
  ['array over max with bad elements', 'd_lengths', { list: ['a', 5, 'c', 'd', 'e'] }],
  ['string length(4) too short', 'd_lengths', { exact: 'abc' }],
  ['string length(4) too long', 'd_lengths', { exact: 'abcde' }],
  ['string too long, emoji', 'd_lengths', { name: '\u{1F600}'.repeat(6) }],
  ['number ok', 'd_numbers', { n: 1.5, i: 3, pos: 1, open: 5, step: 10 }],
  ['int given 2.5', 'd_numbers', { i: 2.5 }],
  ['int given 1e300', 'd_numbers', { i: 1e300 }],
  ['positive int given 0', 'd_numbers', { pos: 0 }],
  ['positive int given 1e300', 'd_numbers', { pos: 1e300 }],
  ['positive int given -1e300', 'd_numbers', { pos: -1e300 }],
  ['gt 0 given 0', 'd_numbers', { open: 0 }],
  ['lt 10 given 10', 'd_numbers', { open: 10 }],
  ['multipleOf 5 given 7', 'd_numbers', { step: 7 }],
  ['max 1e21 given 1e22', 'd_numbers', { big: 1e22 }],
  ['min 0.000001 given 0', 'd_numbers', { tiny: 0 }],
  ['min 1e-7 given 0', 'd_numbers', { tinier: 0 }],
  ['min -2.5 given -3', 'd_numbers', { neg: -3 }],
  ['number given a string', 'd_numbers', { n: 'x' }],
  ['number given an object', 'd_numbers', { n: {} }],
  ['number given an array', 'd_numbers', { n: [] }],
  ['several number issues in order', 'd_numbers', { neg: -3, n: 'x', open: 0, i: 2.5 }],
  ['values ok', 'd_values', { flag: true, word: 'x', one: 'only', nums: 2, maybe: null, either: 3, def: 1 }],
  ['default filled when absent', 'd_values', {}],
  ['boolean given a string', 'd_values', { flag: 'true' }],
  ['literal "x" given "y"', 'd_values', { word: 'y' }],
  ['enum of one given "other"', 'd_values', { one: 'other' }],
  ['literal [1,2] given 3', 'd_values', { nums: 3 }],
  ['literal [1,2] given "1"', 'd_values', { nums: '1' }],
  ['nullable string given 5', 'd_values', { maybe: 5 }],
  ['nullable string given null', 'd_values', { maybe: null }],
  ['union string|number given true', 'd_values', { either: true }],
  ['default given a string', 'd_values', { def: 'x' }],
  ['email given "x"', 'd_formats', { email: 'x' }],
  ['email ok', 'd_formats', { email: 'a@example.com' }],
  ['uuid given "x"', 'd_formats', { id: 'x' }],
  ['datetime given "x"', 'd_formats', { when: 'x' }],
  ['regex with a slash given "ab"', 'd_formats', { slash: 'ab' }],
  ['regex with \\d given "12"', 'd_formats', { digits: '12' }],
  ['regex with \\d given "123"', 'd_formats', { digits: '123' }],
  ['url given "x"', 'd_formats2', { link: 'x' }],
  ['url given "http:x"', 'd_formats2', { link: 'http:x' }],
  ['url given "https://"', 'd_formats2', { link: 'https://' }],
  ['url given "mailto:a"', 'd_formats2', { link: 'mailto:a' }],
  ['url given " https://a.b "', 'd_formats2', { link: ' https://a.b ' }],
  ['url given "http://a b/"', 'd_formats2', { link: 'http://a b/' }],
  ['jwt given "a.b.c"', 'd_formats2', { token: 'a.b.c' }],
  ['jwt given a real token', 'd_formats2', { token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.sig' }],
  ['jwt given a token with typ "x"', 'd_formats2', { token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IngifQ.e30.sig' }],
  ['duration given "P1D"', 'd_formats2', { span: 'P1D' }],
  ['duration given "P"', 'd_formats2', { span: 'P' }],
  ['duration given "PT"', 'd_formats2', { span: 'PT' }],
  ['duration given "P1W1D"', 'd_formats2', { span: 'P1W1D' }],
  ['duration given "P1DT"', 'd_formats2', { span: 'P1DT' }],
  ['duration given "PT1,5S"', 'd_formats2', { span: 'PT1,5S' }],
  ['startsWith given "ab"', 'd_formats2', { pre: 'ab' }],
  ['endsWith given "a"', 'd_formats2', { post: 'a' }],
  ['includes given "a"', 'd_formats2', { has: 'a' }],
  ['uppercase given "a"', 'd_formats2', { up: 'a' }],
  ['lowercase given "A"', 'd_formats2', { low: 'A' }],
  ['discriminated ok', 'd_discriminated', { target: { kind: 'span', id: 'x', parent: 1 } }],
  ['discriminated unknown kind', 'd_discriminated', { target: { kind: 'log', id: 'x' } }],
  ['discriminated missing kind', 'd_discriminated', { target: { id: 'x' } }],
  ['discriminated branch with a wrong type', 'd_discriminated', { target: { kind: 'span', id: 'x', parent: 'p' } }],
  ['discriminated branch with a short id', 'd_discriminated', { target: { kind: 'trace', id: 'x' } }],
  ['discriminated given a string', 'd_discriminated', { target: 'trace' }],
  ['nested object missing', 'd_nested', {}],
  ['nested object given null', 'd_nested', { w: null }],
  ['nested missing h', 'd_nested', { w: {} }],
  ['array of strict objects', 'd_nested', { w: { h: 1 }, rows: [{ a: 'x' }, { a: 1, b: 2, c: 3 }] }],
  ['record value wrong', 'd_nested', { w: { h: 1 }, counts: { a: 1, b: 'x' } }],
  ['tuple too short', 'd_nested', { w: { h: 1 }, pair: ['a'] }],
  ['tuple too long', 'd_nested', { w: { h: 1 }, pair: ['a', 1, 2] }],
  ['tuple wrong element', 'd_nested', { w: { h: 1 }, pair: ['a', 'b'] }],
  ['union named empty (one non-aborted branch with too_small)', 'd_union_min', { environment: { named: [] } }],
  ['union named empty + unset (two aborted)', 'd_union_min', { environment: { named: [], unset: true } }],
  ['union named with bad element', 'd_union_min', { environment: { named: [1] } }],
  ['strict unknown keys around known ones', 'd_strict', { foo: 1, name: 'n', bar: 2 }],
  ['strict unknown key and bad limit', 'd_strict', { zed: 1, limit: 11, name: 'n' }],
  ['strict unknown key that looks like an index', 'd_strict', { name: 'n', '0': 1 }],
];

const out = [];
async function run(env, list) {
  const s = start(env);
  const init = await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'derived-driver', version: '0' } });
  if (!env.MAX_ELEMENTS) out.push({ case: 'initialize', ...init });
  s.sendRaw(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const list0 = await s.request('tools/list', {});
  if (!env.MAX_ELEMENTS) out.push({ case: 'tools/list', ...list0 });
  for (const [name, tool, args, raw] of list) {
    let r;
    if (raw) {
      // a request line written by hand, for arguments JSON.stringify cannot produce
      r = await new Promise((res, rej) => {
        const id = 1000 + out.length;
        const line = raw.replace('"ID"', String(id));
        const timer = setTimeout(() => rej(new Error('timeout ' + line)), 30000);
        const rl = createInterface({ input: s.child.stdout });
        rl.on('line', (l) => { try { if (JSON.parse(l).id === id) { clearTimeout(timer); rl.close(); res({ request: line, response: l }); } } catch {} });
        s.sendRaw(line);
      });
    } else {
      const params = { name: tool };
      if (args !== undefined) params.arguments = args;
      r = await s.request('tools/call', params);
    }
    const resp = JSON.parse(r.response);
    let kind, text;
    if (resp.error) { kind = `JSON-RPC error ${resp.error.code}`; text = resp.error.message; }
    else { kind = resp.result.isError ? 'result isError:true' : 'result ok'; text = resp.result.content?.map((c) => c.text).join('\n'); }
    out.push({ case: name, kind, text, ...r });
  }
  s.child.stdin.end();
}

cases.push(
  ['record with a wrong value', 'd_records', { counts: { a: 1, b: 'x' } }],
  ['record given a string', 'd_records', { counts: 'x' }],
  ['record given an array', 'd_records', { counts: [] }],
  ['required record missing', 'd_record_required', {}],
  ['required record given null', 'd_record_required', { counts: null }],
  ['enum record missing keys, in enum order', 'd_records', { limits: { high: 1 } }],
  ['enum record: wrong values in enum order, then the unknown key', 'd_records', { limits: { high: 'x', mid: 1, zz: 2, low: 'y' } }],
  ['enum record: keys outside the enum', 'd_records', { limits: { low: 1, mid: 2, high: 3, zz: 1, yy: 2 } }],
  ['enum record of any: missing keys and null are fine', 'd_records', { anyrec: { low: null } }],
  ['enum record of any: empty', 'd_records', { anyrec: {} }],
  ['record key refused: its value is not checked', 'd_records', { keyed: { ABC: 'x', abc: 'y' } }],
  ['partial enum record: unknown key and wrong value', 'd_records', { partial: { a: 'x', c: 1 } }],
  ['startsWith then a regex', 'd_patterns', { key: 'pk-ABC' }],
  ['a regex then endsWith', 'd_patterns', { file: 'Abc.yaml' }],
  ['includes then endsWith', 'd_patterns', { at: 'abc' }],
  ['email then startsWith', 'd_patterns', { mail: 'bob' }],
  ['a regex then url: url still checked', 'd_patterns', { site: 'https://a b' }],
  ['a regex then url: both fail', 'd_patterns', { site: 'ftp:/' }],
  ['a pattern that needs the u flag', 'd_patterns', { upper: 'émile' }],
  ['one character without u: an emoji is two', 'd_patterns', { one: '\u{1F600}' }],
  ['one character without u: a letter', 'd_patterns', { one: 'é' }],
  ['two non-a characters without u: an emoji is two', 'd_patterns', { pair: '\u{1F600}' }],
  ['odd property names', 'd_odd_names', { 'first name': 'bad', 'prénom': 'not a url', 'a[0]': 'y', '100%': 6, 'say "hi"': 'b' }],
  ['odd property names, required one missing', 'd_odd_names', { '100%': 'x' }],
  ['odd property names, valid', 'd_odd_names', { 'first name': 'a@example.com', 'prénom': 'https://example.com', 'a[0]': 'xy', '100%': 5, 'say "hi"': 'ab' }],
  ['multipleOf 3 given 1000000000', 'd_multiple', { m3: 1000000000 }],
  ['multipleOf 7 given 1e15+1', 'd_multiple', { m7: 1e15 + 1 }],
  ['multipleOf 0.1 given 0.3', 'd_multiple', { tenth: 0.3 }],
  ['multipleOf 0.1 given 0.35', 'd_multiple', { tenth: 0.35 }],
  ['int array too short with a fraction', 'd_int_arrays', { ints: [1.5] }],
  ['int array too short with a string', 'd_int_arrays', { ints: ['x'] }],
  ['union array too short with a fraction', 'd_int_arrays', { mixed: [1.5] }],
  ['object array too short with a fraction inside', 'd_int_arrays', { nested: [{ n: 1.5 }] }],
  ['string array too short with a number', 'd_int_arrays', { strs: [1] }],
  ['tuple given a string', 'd_tuples', { pair: 'x' }],
  ['tuple too short: that alone', 'd_tuples', { pair: ['ab'] }],
  ['tuple too long: that, then its items', 'd_tuples', { pair: ['ab', 'x', 2] }],
  ['tuple with an optional item left out', 'd_tuples', { opt: ['a'] }],
  ['tuple with an optional item, empty', 'd_tuples', { opt: [] }],
);


const infinity = '{"jsonrpc":"2.0","id":"ID","method":"tools/call","params":{"name":"d_numbers","arguments":{"n":1e400}}}';
const intInfinity = '{"jsonrpc":"2.0","id":"ID","method":"tools/call","params":{"name":"d_numbers","arguments":{"i":-1e400}}}';
const dupKeys = '{"jsonrpc":"2.0","id":"ID","method":"tools/call","params":{"name":"d_strict","arguments":{"a":1,"name":"n","a":2,"b":3}}}';
cases.push(['number given 1e400 (Infinity)', null, null, infinity]);
cases.push(['int given -1e400 (-Infinity)', null, null, intInfinity]);
cases.push(['strict with a repeated unknown key', null, null, dupKeys]);
const indexKeys = '{"jsonrpc":"2.0","id":"ID","method":"tools/call","params":{"name":"d_strict","arguments":{"name":"n","zz":1,"10":1,"2":1}}}';
const indexRecord = '{"jsonrpc":"2.0","id":"ID","method":"tools/call","params":{"name":"d_records","arguments":{"counts":{"b":"x","7":"y"}}}}';
cases.push(['strict: unknown keys that are array indices come first, ascending', null, null, indexKeys]);
cases.push(['record: keys that are array indices come first', null, null, indexRecord]);

await run({}, cases);
await run({ MAX_ELEMENTS: '5' }, [
  ['maxToolInputElements 5, six elements', 'd_lengths', { list: ['a', 'b', 'c', 'd', 'e'] }],
  ['maxToolInputElements 5, five elements', 'd_lengths', { list: ['aa', 'bb', 'cc', 'dd'] }],
]);
writeFileSync(join(here, 'derived-cases.json'), JSON.stringify(out, null, 2) + '\n');
for (const o of out) if (o.kind) console.log(`### ${o.case}\n[${o.kind}]\n${o.text}\n`);
process.exit(0);
