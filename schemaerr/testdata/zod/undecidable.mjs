// Evidence for what a JSON Schema cannot express: for each category, two zod schemas that publish
// the same JSON Schema through @modelcontextprotocol/sdk 1.32.2 (zod 4.6.7) and answer the same
// arguments with different texts. No validator reading only the published schema can match both,
// so the differential test leaves cases using these features out of its agreement rate.
//
//   node undecidable.mjs > undecidable.json
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';

const twice = /^a$/;

// category -> [schema A, schema B, arguments]
const pairs = {
  'refine': [{ v: z.string() }, { v: z.string().refine((s) => s !== 'hello') }, { v: 'hello' }],
  'custom message': [{ v: z.string().min(3) }, { v: z.string().min(3, { message: 'too short!' }) }, { v: 'a' }],
  'check order': [{ v: z.string().min(30).email() }, { v: z.email().min(30) }, { v: 'bad' }],
  'coerce': [{ v: z.number() }, { v: z.coerce.number() }, { v: '5' }],
  'trim': [{ v: z.string().min(3) }, { v: z.string().trim().min(3) }, { v: ' a ' }],
  'min equal max': [{ v: z.string().length(3) }, { v: z.string().min(3).max(3) }, { v: 'abcd' }],
  'regex flags': [{ v: z.string().regex(/^[a-z]+$/) }, { v: z.string().regex(/^[a-z]+$/i) }, { v: 'ABC' }],
  'format overwritten': [{ v: z.string().startsWith('https://') }, { v: z.string().url().startsWith('https://') }, { v: 'https://a b' }],
  'union of equal branches': [{ v: z.boolean() }, { v: z.union([z.boolean(), z.boolean()]) }, { v: 0 }],
  // one RegExp object chained twice: zod's set of patterns keeps it once
  'repeated check': [{ v: z.string().regex(/^a$/) }, { v: z.string().regex(twice).regex(twice) }, { v: 'b' }],
  'toLowerCase': [{ v: z.string().regex(/^[a-z]+$/) }, { v: z.string().toLowerCase().regex(/^[a-z]+$/) }, { v: 'ABC' }],
};

const server = new McpServer({ name: 'undecidable', version: '0.0.1' });
const ok = async () => ({ content: [{ type: 'text', text: 'OK' }] });
for (const [cat, [a, b]] of Object.entries(pairs)) {
  server.registerTool(`${cat.replace(/ /g, '_')}_a`, { inputSchema: a }, ok);
  server.registerTool(`${cat.replace(/ /g, '_')}_b`, { inputSchema: b }, ok);
}
const client = new Client({ name: 'undecidable-client', version: '0.0.1' });
const [ct, st] = InMemoryTransport.createLinkedPair();
await server.connect(st);
await client.connect(ct);
const schemas = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
const out = {};
for (const [cat, [, , args]] of Object.entries(pairs)) {
  const entry = { arguments: args };
  for (const side of ['a', 'b']) {
    const name = `${cat.replace(/ /g, '_')}_${side}`;
    const res = await client.callTool({ name, arguments: args });
    entry[side] = { tool: name, inputSchema: schemas.get(name), result: res.isError ? 'isError' : 'ok', text: res.isError ? res.content[0].text : '' };
  }
  out[cat] = entry;
}
await client.close();
await server.close();
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
