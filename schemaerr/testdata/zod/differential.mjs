// Differential generator for schemaerr: random zod tool schemas of the kinds MCP authors write,
// registered in the real @modelcontextprotocol/sdk (1.32.2, zod 4.6.7), called with random
// near-valid arguments. Writes one JSON document: the tools' published input schemas and, per call,
// the arguments and the SDK's answer. A case whose answer depends on a zod feature a JSON Schema
// cannot express (see undecidable.mjs) carries that feature's name in "undecidable": the tool is
// built a second time as its twin, with the feature replaced by the reading schemaerr takes, and
// the case is undecidable when the twin publishes another schema or the SDK answers it otherwise.
//
//   node differential.mjs SEED TOOLS CALLS_PER_TOOL > out.json
//
// The same seed always writes the same document.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';

const seed = Number(process.argv[2] ?? 1);
const ntools = Number(process.argv[3] ?? 50);
const ncalls = Number(process.argv[4] ?? 10);

// mulberry32: a small seeded PRNG, so a run is reproducible from its seed; its state can be
// rewound to build a tool's twin from the same draws
let rstate = seed * 7919 + 17;
const R = () => {
  rstate |= 0; rstate = (rstate + 0x6d2b79f5) | 0;
  let t = Math.imul(rstate ^ (rstate >>> 15), 1 | rstate);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const chance = (p) => R() < p;
const int = (lo, hi) => lo + Math.floor(R() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(R() * xs.length)];
const shuffle = (xs) => { const a = [...xs]; for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(R() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; };

const plainNames = ['name', 'limit', 'query', 'tags', 'id', 'mode', 'count', 'filter', 'page', 'options', 'env', 'target', 'level', 'email', 'url', 'since', 'kind', 'value', 'items', 'labels'];
const oddNames = ['first name', 'prénom', 'a[0]', '100%', 'say "hi"', '名前', 'x.y', 'key/path', 'tilde~', 'emoji😀', '%20', 'a b[c]'];
const words = ['', 'a', 'ab', 'abc', 'hello', 'Hello', 'HELLO', 'sk-abc', 'sk-', 'abc.json', 'x.json', 'foo-bar', 'foo_bar', '123', '12345', 'a1b2', 'user@example.com', 'bad@', 'https://example.com/x', 'http://a b', 'ftp://x', 'mailto:x', 'not a url', '550e8400-e29b-41d4-a716-446655440000', '550e8400-e29b-41d4-a716-44665544000Z', 'Émile', 'émile', 'ÿ', '😀', '😀😀', 'a😀', '日本語', 'tab\there', 'line\nbreak', ' padded ', 'ZZZ', 'prod', 'dev', 'staging', 'low', 'mid', 'high', 'true', 'null'];
const enumPools = [['asc', 'desc'], ['low', 'high'], ['low', 'mid', 'high'], ['prod', 'dev', 'staging'], ['a', 'b', 'c', 'd'], ['json', 'text'], ['GET', 'POST', 'PUT'], ['say "hi"', 'back\\slash', 'é'], ['1', '2', '10']];
// patterns MCP authors write, as [regex, strings near it]
const patterns = [
  [/^[a-z]+$/, ['abc', 'ABC', 'a1', '']],
  [/^\d{3}$/, ['123', '12', '1234', 'abc']],
  [/^[A-Z]{2,3}-\d+$/, ['AB-1', 'ABC-22', 'A-1', 'ab-1']],
  [/^sk-[A-Za-z0-9]+$/, ['sk-abc', 'sk-', 'pk-abc']],
  [/^\p{Lu}/u, ['Émile', 'émile', 'Abc', 'abc', '😀']],
  [/^\p{L}+$/u, ['prénom', '名前', 'a1', '😀']],
  [/^.$/, ['a', '😀', 'ab', '']],
  [/^.{2}$/, ['ab', '😀', 'a😀', 'abc']],
  [/^.$/u, ['a', '😀', 'ab']],
  [/^[\w.-]+$/, ['foo-bar', 'foo bar', 'a.b']],
  [/\.json$/, ['x.json', 'x.yaml', 'json']],
  [/^v\d+\.\d+\.\d+$/, ['v1.2.3', '1.2.3', 'v1.2']],
  [/^[^\s]+$/, ['abc', 'a b', 'a\tb']],
  [/^\S+@\S+$/, ['a@b', 'ab', 'a @b']],
  [/^[a-f0-9]{8}$/i, ['deadbeef', 'DEADBEEF', 'xyz']],
  [/^(?=.*[A-Z])(?=.*\d).{8,}$/, ['Password1', 'password1', 'PASSWORD', 'Pa1']],
  [/^(?!test)[a-z]+$/, ['prod', 'testing', 'Prod']],
  [/^(\w)\1$/, ['aa', 'ab', 'a']],
  [/(?<=\$)\d+/, ['$12', '12', '€12']],
];
const prefixes = ['sk-', 'https://', 'a.b', 'x[', '$'];

// A tool that uses a zod feature no JSON Schema can express is built twice from the same draws:
// as written, and as its twin, where each such feature is replaced by the reading schemaerr
// takes (no refinement, no custom message, the canonical check order, ...). A case is
// undecidable when the two publish the same schema and the SDK answers them differently; a
// feature without a twin (twinless) makes every case of its tool undecidable.
let undecidable = null; // the first such feature of the current tool
let twinless = false;
let twin = false; // building the twin
const undec = (name, hasTwin = true) => { if (!undecidable) undecidable = name; if (!hasTwin) twinless = true; };

// A generated schema: zod, a valid value (or undefined when none), and near-valid values.
function genString() {
  let s = z.string();
  const checks = [];
  const near = [...words];
  let min, max;
  if (chance(0.35)) { min = int(1, 5); }
  if (chance(0.35)) { max = int((min ?? 1) + 1, (min ?? 1) + 6); }
  if (chance(0.08)) { min = max = int(1, 6); s = s.length(min); }
  else {
    if (min !== undefined) s = s.min(min);
    if (max !== undefined) s = s.max(max);
    if (min !== undefined && min === max) { undec('min equal max'); if (twin) s = z.string().length(min); }
  }
  const fmt = chance(0.25) ? pick(['email', 'url', 'uuid']) : null;
  if (fmt) {
    if (chance(0.03) && (min !== undefined || max !== undefined) && !twin) {
      // the format before the lengths: zod reports in check order, the schema cannot say it
      s = fmt === 'email' ? z.email() : fmt === 'url' ? z.url() : z.uuid();
      if (min !== undefined) s = s.min(min);
      if (max !== undefined) s = s.max(max);
      undec('check order');
    } else {
      s = fmt === 'email' ? s.email() : fmt === 'url' ? s.url() : s.uuid();
    }
    near.push('user@example.com', 'https://example.com/x', '550e8400-e29b-41d4-a716-446655440000', 'u@x.io', 'http://x');
  }
  const nchecks = chance(0.5) && !(fmt === 'url' && chance(0.9)) ? int(1, 2) : 0;
  let valid = fmt === 'email' ? 'user@example.com' : fmt === 'url' ? 'https://example.com/x' : fmt === 'uuid' ? '550e8400-e29b-41d4-a716-446655440000' : 'hello';
  for (let i = 0; i < nchecks; i++) {
    switch (int(0, 3)) {
      case 0: {
        const [re, xs] = pick(patterns);
        const repeated = checks.includes(re);
        const flagged = re.flags.includes('i') || (re.flags.includes('u') && !/\\[pPu]\{/.test(re.source));
        if (repeated) undec('repeated check');
        if (flagged) undec('regex flags');
        if (!(twin && repeated)) s = s.regex(twin && flagged ? new RegExp(re.source) : re);
        near.push(...xs); checks.push(re);
        if (fmt === 'url') undec('format overwritten', false);
        break;
      }
      case 1: { if (fmt === 'url') undec('format overwritten', false); const p = pick(prefixes); s = s.startsWith(p); near.push(p + 'x', 'x' + p, p); valid = p + valid; break; }
      case 2: { if (fmt === 'url') undec('format overwritten', false); const p = pick(['.json', 'ed', ']', '%']); s = s.endsWith(p); near.push('x' + p, p + 'x'); valid = valid + p; break; }
      case 3: { if (fmt === 'url') undec('format overwritten', false); const p = pick(['@', 'abc', ' ', '-']); s = s.includes(p); near.push('x' + p + 'y', 'xy'); break; }
    }
  }
  if (chance(0.004)) { if (!twin) s = s.trim(); undec('trim'); near.push(' x ', ' hello '); }
  if (chance(0.004)) { if (!twin) s = s.toLowerCase(); undec('toLowerCase'); }
  if (chance(0.004)) { if (!twin) s = s.refine((v) => v !== 'hello', { message: 'no hello' }); undec('refine'); }
  if (chance(0.004)) { s = twin ? z.string().min(min ?? 2) : z.string().min(min ?? 2, { message: 'too short!' }); undec('custom message'); }
  if (min !== undefined) near.push('x'.repeat(Math.max(0, min - 1)), 'x'.repeat(min), '😀'.repeat(min), 'é'.repeat(Math.max(0, min - 1)));
  if (max !== undefined) near.push('x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), 'é'.repeat(max + 1));
  near.push(5, null, true, ['a'], {});
  return { zod: s, valid: () => valid, near: () => pick(near) };
}

function genNumber() {
  let n = z.number();
  const near = [0, 1, -1, 1.5, 2, 3, 5, 10, 100, 1e9, 1000000000, 1e21, 1e300, -1e300, 0.1, 0.3, 9007199254740991, 9007199254740993, '5', null, true, [], {}];
  const isInt = chance(0.5);
  if (isInt) n = chance(0.8) ? n.int() : z.int();
  let lo = 0;
  if (chance(0.4)) { lo = pick([0, 1, -10, 0.5]); n = chance(0.7) ? n.min(lo) : n.gt(lo); near.push(lo, lo - 1, lo - 0.5, lo + 1); }
  if (chance(0.4)) { const hi = pick([10, 100, 168, 1000, 2.5]); n = chance(0.7) ? n.max(hi) : n.lt(hi); near.push(hi, hi + 1, hi + 0.5, hi - 1); }
  if (chance(0.15)) { const m = pick([3, 5, 0.5, 0.25, 0.1, 0.01, 7]); n = n.multipleOf(m); near.push(m * 3, m * 3 + 1, 1e9, 1e15 + 1, m * 1e8, 0.3, 0.7); }
  if (chance(0.004)) { n = twin ? z.number() : z.coerce.number(); undec('coerce'); }
  if (chance(0.004)) { if (!twin) n = n.refine((v) => v !== 3); undec('refine'); }
  const valid = isInt ? Math.max(lo, 0) + 1 : Math.max(lo, 0) + 1;
  return { zod: n, valid: () => valid, near: () => pick(near), numeric: true };
}

// zod's other string formats, each with strings near it
const formats = [
  [() => z.iso.datetime(), 'datetime', ['2024-01-01T00:00:00Z', '2024-01-01', '2024-13-01T00:00:00Z', 'x']],
  [() => z.iso.date(), 'date', ['2024-01-01', '2024-02-30', '01/02/2024']],
  [() => z.ipv4(), 'ipv4', ['127.0.0.1', '256.0.0.1', '::1']],
  [() => z.ipv6(), 'ipv6', ['::1', '127.0.0.1', '2001:db8::1']],
  [() => z.base64(), 'base64', ['aGVsbG8=', 'aGVsbG8', '!!']],
  [() => z.cuid(), 'cuid', ['cjld2cjxh0000qzrmn831i7rn', 'x']],
  [() => z.ulid(), 'ulid', ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x']],
  [() => z.nanoid(), 'nanoid', ['V1StGXR8_Z5jdHi6B-myT', 'short']],
  [() => z.e164(), 'e164', ['+14155552671', '4155552671']],
  [() => z.guid(), 'guid', ['550e8400-e29b-41d4-a716-446655440000', 'x']],
];

function genFormat() {
  const [mk, method, near] = pick(formats);
  let s = mk();
  // the format schema is its own first check; the twin chains the length first, as schemaerr reads it
  if (chance(0.08)) { const max = int(5, 30); s = twin ? z.string().max(max)[method]() : s.max(max); undec('check order'); }
  return { zod: s, valid: () => near[0], near: () => pick([...near, '', 5, null]) };
}

function genLeaf(depth) {
  if (chance(0.06)) return genFormat();
  if (chance(0.04)) { const vs = pick([['a', 'b'], [1, 2, 3], ['x', 1, true]]); return { zod: z.literal(vs), valid: () => vs[0], near: () => pick([...vs, 'c', 4, false, null]) }; }
  if (chance(0.04)) { const n = pick([z.number().positive(), z.number().nonnegative(), z.number().negative(), z.int().positive(), z.number().int().min(-5).max(5)]); return { zod: n, valid: () => 1, near: () => pick([0, -1, 1, 1.5, -0.5, 6, -6, '1', null]) }; }
  if (chance(0.03)) { const s = z.string().nonempty(); return { zod: s, valid: () => 'x', near: () => pick(['', 'x', 1]) }; }
  if (chance(0.03)) { const a = pick([z.any(), z.unknown()]); return { zod: a, valid: () => 1, near: () => pick([null, 'x', [], undefined]) }; }
  if (chance(0.03)) { const vs = pick([['a', 'b'], ['on', 'off', 'auto']]); return { zod: z.union(vs.map((v) => z.literal(v))), valid: () => vs[0], near: () => pick([...vs, 'x', 1, null]) }; }
  if (chance(0.03)) { const el = genString(); return { zod: z.array(el.zod).nonempty(), valid: () => [el.valid()], near: () => pick([[], [el.near()], 'x']) }; }
  switch (int(0, 9)) {
    case 0: case 1: case 2: return genString();
    case 3: case 4: return genNumber();
    case 5: return { zod: z.boolean(), valid: () => true, near: () => pick([true, false, 'true', 0, null]) };
    case 6: { const vs = pick(enumPools); return { zod: z.enum(vs), valid: () => vs[0], near: () => pick([...vs, 'x', vs[0].toUpperCase(), 1, null]) }; }
    case 7: { const v = pick(['on', 'v1', 42, true, 0, 'a"b', -1.5, false]); return { zod: z.literal(v), valid: () => v, near: () => pick([v, 'off', 43, false, null, String(v)]) }; }
    default: return depth > 0 ? genComposite(depth - 1) : genString();
  }
}

function genComposite(depth) {
  if (chance(0.12)) {
    // a union of objects, strict or not: zod's union reports the one branch that failed without aborting
    const a = genObject(depth), b = genObject(depth);
    return { zod: z.union([a.zod, b.zod]), valid: () => a.valid(), near: () => (chance(0.5) ? a : b).near() };
  }
  if (chance(0.06)) {
    const xs = [genLeaf(depth), genLeaf(depth)];
    return { zod: z.tuple(xs.map((x) => x.zod)), valid: () => { const v = xs.map((x) => x.valid()); return v.includes(undefined) ? undefined : v; }, near: () => pick([xs.map((x) => x.near()), [xs[0].valid()], [], [xs[0].valid(), xs[1].valid(), 1], 'x']) };
  }
  if (chance(0.05)) {
    const v = genLeaf(depth);
    const zr = z.record(z.string().min(2), v.zod);
    return { zod: zr, valid: () => (v.valid() === undefined ? undefined : { ab: v.valid() }), near: () => { const o = {}; for (const k of shuffle(['a', 'ab', 'abc', '']).slice(0, int(0, 3))) o[k] = chance(0.6) ? v.valid() : v.near(); return o; } };
  }
  switch (int(0, 6)) {
    case 0: {
      const el = genLeaf(depth);
      let a = z.array(el.zod);
      const min = chance(0.4) ? int(0, 2) : undefined, max = chance(0.4) ? (chance(0.1) ? min ?? 1 : int((min ?? 0) + 1, (min ?? 0) + 3)) : undefined;
      if (min !== undefined) a = a.min(min);
      if (max !== undefined) a = a.max(max);
      if (min !== undefined && min === max) { undec('min equal max'); if (twin) a = z.array(el.zod).length(min); }
      const n = Math.max(min ?? 1, 1);
      return {
        zod: a,
        valid: () => el.valid() === undefined ? undefined : Array.from({ length: n }, () => el.valid()),
        near: () => { const len = int(0, (max ?? 3) + 1); return Array.from({ length: len }, () => chance(0.6) ? el.valid() : el.near()); },
      };
    }
    case 1: {
      // records: string keys, enum keys, keys with a pattern
      const v = genLeaf(depth);
      const kind = int(0, 2);
      let key = z.string(); let keys = ['a', 'b', 'low', 'mid'];
      if (kind === 1) { keys = pick(enumPools); key = z.enum(keys); }
      if (kind === 2) { key = z.string().regex(/^[a-z]+$/); keys = ['abc', 'ABC', 'x1']; }
      const val = chance(0.15) ? { zod: z.any(), valid: () => 1, near: () => pick([null, 1, 'x']) } : v;
      const zr = z.record(key, val.zod);
      return {
        zod: zr,
        valid: () => { if (val.valid() === undefined) return undefined; const o = {}; for (const k of (kind === 1 ? keys : ['a'])) o[k] = val.valid(); return o; },
        near: () => {
          const o = {};
          const ks = shuffle([...keys, 'zz', 'mid', 'high']).slice(0, int(0, 4));
          for (const k of ks) o[k] = chance(0.6) ? val.valid() : val.near();
          return chance(0.9) ? o : pick(['x', [], null]);
        },
      };
    }
    case 2: {
      const a = genLeaf(depth), b = genLeaf(depth);
      // zod publishes a union of two equal branches as one; its text is still the union's
      let equal = false;
      try { equal = JSON.stringify(z.toJSONSchema(a.zod)) === JSON.stringify(z.toJSONSchema(b.zod)); } catch { }
      if (equal) undec('union of equal branches');
      return { zod: equal && twin ? a.zod : z.union([a.zod, b.zod]), valid: () => a.valid(), near: () => chance(0.5) ? a.near() : b.near() };
    }
    case 3: {
      const tags = shuffle(chance(0.8) ? ['a', 'b', 'c', 'email', 'sms'] : ['a"b', 1, 2, true]).slice(0, int(2, 3));
      const branches = tags.map((t) => genObject(depth, { kind: z.literal(t) }, { kind: t }));
      return {
        zod: z.discriminatedUnion('kind', branches.map((b) => b.zod)),
        valid: () => branches[0].valid(),
        near: () => { const b = pick(branches); const v = chance(0.5) ? b.valid() : b.near(); if (chance(0.2) && v && typeof v === 'object') v.kind = pick(['x', 'email', undefined]); return v; },
      };
    }
    default:
      return genObject(depth);
  }
}

function genProp(depth) {
  const g = chance(0.3) && depth > 0 ? genComposite(depth - 1) : genLeaf(depth);
  const mod = R();
  if (mod < 0.3) return { ...g, zod: g.zod.optional(), optional: true };
  if (mod < 0.38 && g.valid() !== undefined) { const d = g.valid(); return { ...g, zod: g.zod.default(d), optional: true }; }
  if (mod < 0.45) return { ...g, zod: g.zod.nullable(), near: () => chance(0.2) ? null : g.near() };
  return g;
}

function genObject(depth, fixed = {}, fixedValid = {}) {
  const n = int(1, 5);
  const shape = { ...fixed };
  const gens = {};
  for (let i = 0; i < n; i++) {
    const name = chance(0.12) ? pick(oddNames) : pick(plainNames);
    if (name in shape) continue;
    gens[name] = genProp(depth);
    shape[name] = gens[name].zod;
  }
  let o = z.object(shape);
  const mode = R();
  if (mode < 0.3) o = o.strict();
  else if (mode < 0.38) o = o.passthrough();
  return {
    zod: o,
    valid: () => { const v = { ...fixedValid }; for (const [k, g] of Object.entries(gens)) { const x = g.valid(); if (x === undefined) return undefined; v[k] = x; } return v; },
    near: () => {
      const v = { ...fixedValid };
      for (const [k, g] of Object.entries(gens)) {
        const r = R();
        if (r < 0.5) v[k] = g.valid();
        else if (r < 0.85) v[k] = g.near();
        else if (r < 0.93) { /* missing */ } else v[k] = pick(['x', 1, null, [], {}]);
        if (v[k] === undefined) delete v[k];
      }
      if (chance(0.1)) v[pick(['extra', 'zz', 'Name'])] = 1;
      return v;
    },
  };
}

function genTool(i) {
  const start = rstate;
  twin = false;
  const t = genToolOnce(i);
  if (t.undecidable && !t.twinless) {
    const end = rstate;
    rstate = start;
    twin = true;
    t.twin = genToolOnce(i).input;
    twin = false;
    rstate = end;
  }
  return t;
}

function genToolOnce(i) {
  undecidable = null;
  twinless = false;
  const n = int(1, 6);
  const shape = {};
  const gens = {};
  for (let k = 0; k < n; k++) {
    const name = chance(0.12) ? pick(oddNames) : pick(plainNames);
    if (name in shape) continue;
    gens[name] = genProp(2);
    shape[name] = gens[name].zod;
  }
  const strict = chance(0.2);
  const input = strict ? z.object(shape).strict() : shape;
  const args = [];
  for (let c = 0; c < ncalls; c++) {
    const v = {};
    for (const [k, g] of Object.entries(gens)) {
      const r = R();
      if (r < 0.55) v[k] = g.valid();
      else if (r < 0.85) v[k] = g.near();
      else if (r < 0.93) { /* missing */ } else v[k] = pick(['x', 1, null, [], {}, 1.5]);
      if (v[k] === undefined) delete v[k];
    }
    if (chance(0.08)) v[pick(['extra', 'zz', 'q"uote', 'new\nline'])] = 1;
    if (chance(0.03)) { v['10'] = 1; v['2'] = 1; }
    args.push(v);
  }
  return { name: `t${seed}_${i}`, input, args, undecidable, twinless };
}

const tools = [];
for (let i = 0; i < ntools; i++) tools.push(genTool(i));

const out = { seed, tools: {}, cases: [] };
const batch = 100;
for (let b = 0; b < tools.length; b += batch) {
  const server = new McpServer({ name: 'differential', version: '0.0.1' });
  const part = tools.slice(b, b + batch);
  for (const t of part) {
    try {
      server.registerTool(t.name, { inputSchema: t.input }, async () => ({ content: [{ type: 'text', text: 'OK' }] }));
      if (t.twin) server.registerTool(t.name + '_twin', { inputSchema: t.twin }, async () => ({ content: [{ type: 'text', text: 'OK' }] }));
    } catch (e) {
      t.skip = String(e);
    }
  }
  const client = new Client({ name: 'differential-client', version: '0.0.1' });
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  await client.connect(ct);
  let listed;
  try {
    listed = await client.listTools();
  } catch (e) {
    // a schema the SDK cannot publish: list the tools one by one
    process.stderr.write('listTools: ' + e + '\n');
    await client.close();
    continue;
  }
  const published = new Map(listed.tools.map((t) => [t.name, t.inputSchema]));
  for (const t of part) {
    if (!published.has(t.name)) continue;
    out.tools[t.name] = published.get(t.name);
    // the twin settles each case only if it publishes the very same schema
    const twinName = t.name + '_twin';
    const twinSame = t.twin && published.has(twinName) && JSON.stringify(published.get(twinName)) === JSON.stringify(published.get(t.name));
    const seen = new Set();
    for (const a of t.args) {
      const key = JSON.stringify(a);
      if (seen.has(key)) continue;
      seen.add(key);
      const res = await client.callTool({ name: t.name, arguments: JSON.parse(JSON.stringify(a)) });
      const text = res.content?.[0]?.text ?? '';
      const c = { tool: t.name, arguments: a, result: res.isError ? 'isError' : 'ok' };
      if (res.isError) c.text = text;
      if (t.undecidable && !twinSame) c.undecidable = t.undecidable;
      if (twinSame) {
        const tw = await client.callTool({ name: twinName, arguments: JSON.parse(JSON.stringify(a)) });
        const twText = tw.content?.[0]?.text ?? '';
        if (!!tw.isError !== !!res.isError || twText.split(twinName).join(t.name) !== text) c.undecidable = t.undecidable;
      }
      out.cases.push(c);
    }
  }
  await client.close();
  await server.close();
}
process.stdout.write(JSON.stringify(out));
