// Derived corner cases for schemaerr: more zod shapes on @modelcontextprotocol/sdk 1.32.2 + zod 4.6.7,
// served over stdio like server.mjs. MAX_ELEMENTS sets the server's maxToolInputElements option.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const options = process.env.MAX_ELEMENTS ? { maxToolInputElements: Number(process.env.MAX_ELEMENTS) } : undefined;
const server = new McpServer({ name: 'zod-derived', version: '0.0.1' }, options);
const echo = async (args) => ({ content: [{ type: 'text', text: 'OK ' + JSON.stringify(args ?? null) }] });

server.registerTool('d_lengths', {
  description: 'length checks on the wrong type',
  inputSchema: {
    name: z.string().min(3).max(5).optional(),
    list: z.array(z.string().min(2)).min(3).max(4).optional(),
    exact: z.string().length(4).optional(),
  },
}, echo);

server.registerTool('d_numbers', {
  description: 'number bounds and printing',
  inputSchema: {
    n: z.number().optional(),
    i: z.number().int().optional(),
    pos: z.number().int().positive().optional(),
    open: z.number().gt(0).lt(10).optional(),
    step: z.number().multipleOf(5).optional(),
    big: z.number().max(1e21).optional(),
    tiny: z.number().min(0.000001).optional(),
    tinier: z.number().min(1e-7).optional(),
    neg: z.number().min(-2.5).optional(),
  },
}, echo);

server.registerTool('d_values', {
  description: 'literals, enums, nullable, unions, booleans',
  inputSchema: {
    flag: z.boolean().optional(),
    word: z.literal('x').optional(),
    one: z.enum(['only']).optional(),
    nums: z.literal([1, 2]).optional(),
    maybe: z.string().nullable().optional(),
    either: z.union([z.string(), z.number()]).optional(),
    def: z.number().default(5),
  },
}, echo);

server.registerTool('d_formats', {
  description: 'string formats and patterns',
  inputSchema: {
    email: z.email().optional(),
    id: z.uuid().optional(),
    when: z.iso.datetime().optional(),
    slash: z.string().regex(/^a\/b$/).optional(),
    digits: z.string().regex(/^\d{3}$/).optional(),
  },
}, echo);

server.registerTool('d_formats2', {
  description: 'formats with lookaround patterns or none',
  inputSchema: {
    link: z.url().optional(),
    token: z.jwt().optional(),
    span: z.iso.duration().optional(),
    pre: z.string().startsWith('a.b').optional(),
    post: z.string().endsWith('z').optional(),
    has: z.string().includes('q').optional(),
    up: z.string().uppercase().optional(),
    low: z.string().lowercase().optional(),
  },
}, echo);

server.registerTool('d_discriminated', {
  description: 'discriminated union',
  inputSchema: {
    target: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('trace'), id: z.string().min(3) }),
      z.object({ kind: z.literal('span'), id: z.string(), parent: z.number() }),
    ]),
  },
}, echo);

server.registerTool('d_nested', {
  description: 'nested objects, arrays of strict objects, records, tuples',
  inputSchema: {
    w: z.object({ h: z.number() }),
    rows: z.array(z.object({ a: z.string() }).strict()).optional(),
    counts: z.record(z.string(), z.number()).optional(),
    pair: z.tuple([z.string(), z.number()]).optional(),
  },
}, echo);

server.registerTool('d_union_min', {
  description: 'union whose named branch has min(1)',
  inputSchema: {
    environment: z.union([
      z.object({ named: z.array(z.string()).min(1) }).strict(),
      z.object({ unset: z.literal(true) }).strict(),
    ]),
  },
}, echo);

server.registerTool('d_strict', {
  description: 'strict object with several properties',
  inputSchema: z.object({ name: z.string(), limit: z.number().max(10).optional() }).strict(),
}, echo);

// issue 14: what the differential test found, each from the SDK itself
server.registerTool('d_records', {
  description: 'records worded as records; enum keys in enum order; refused keys skip their value',
  inputSchema: {
    counts: z.record(z.string(), z.number()).optional(),
    limits: z.record(z.enum(['low', 'mid', 'high']), z.number()).optional(),
    anyrec: z.record(z.enum(['low', 'mid']), z.any()).optional(),
    keyed: z.record(z.string().regex(/^[a-z]+$/), z.number()).optional(),
    partial: z.partialRecord(z.enum(['a', 'b']), z.number()).optional(),
  },
}, echo);

server.registerTool('d_record_required', {
  description: 'a required record',
  inputSchema: { counts: z.record(z.string(), z.number()) },
}, echo);

server.registerTool('d_patterns', {
  description: 'startsWith/endsWith/includes beside another pattern, zod formats among patterns, the u flag, UTF-16 without it',
  inputSchema: {
    key: z.string().startsWith('sk-').regex(/^[a-z-]+$/).optional(),
    file: z.string().regex(/^[a-z]/).endsWith('.json').optional(),
    at: z.string().includes('@').endsWith('.com').optional(),
    mail: z.string().email().startsWith('a').optional(),
    site: z.string().regex(/^https/).url().optional(),
    upper: z.string().regex(/^\p{Lu}/u).optional(),
    one: z.string().regex(/^.$/).optional(),
    pair: z.string().regex(/^[^a]{2}$/).optional(),
  },
}, echo);

server.registerTool('d_odd_names', {
  description: 'property names with a space, a non-ASCII letter, [, % and "',
  inputSchema: {
    'first name': z.email(),
    'prénom': z.url().optional(),
    'a[0]': z.string().min(2).startsWith('x').optional(),
    '100%': z.number().max(5).optional(),
    'say "hi"': z.string().regex(/^a/).optional(),
  },
}, echo);

server.registerTool('d_multiple', {
  description: "multipleOf with zod's tolerance",
  inputSchema: {
    m3: z.number().multipleOf(3).optional(),
    m7: z.number().multipleOf(7).optional(),
    tenth: z.number().multipleOf(0.1).optional(),
  },
}, echo);

server.registerTool('d_int_arrays', {
  description: "a non-integer for an int aborts explicitly: the arrays holding it skip their length checks",
  inputSchema: {
    ints: z.array(z.number().int()).min(2).optional(),
    mixed: z.array(z.union([z.number().int(), z.boolean()])).min(2).optional(),
    nested: z.array(z.object({ n: z.number().int() })).min(2).optional(),
    strs: z.array(z.string()).min(2).optional(),
  },
}, echo);

server.registerTool('d_tuples', {
  description: 'a tuple refuses a short array alone and checks the items of a long one',
  inputSchema: {
    pair: z.tuple([z.string().max(1), z.number()]).optional(),
    opt: z.tuple([z.string(), z.number().optional()]).optional(),
  },
}, echo);

await server.connect(new StdioServerTransport());
