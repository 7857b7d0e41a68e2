// The news index tools (examples/news) on the TypeScript SDK 1.32.2 and zod, for examples/interop/load. get_article
// looks an article up in NEWS_ARTICLES (a JSON file {id: payload} the load driver writes from the Go server's own
// answers, so both sides return the same bytes); an argument the tool does not take is the JSON-RPC error -32602
// {"code":"unknown_parameter"} of the news error contract, so this uses the SDK's low-level Server (McpServer turns
// every thrown McpError into a tool result). The other tools are listed with their schemas and answer the tool error
// unsupported: the load rows call get_article only. Stdio by default; --http HOST:PORT serves stateless Streamable
// HTTP and requires "Authorization: Bearer <NEWS_KEY>" (default "bench").
import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serve } from './common.mjs';

const articles = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.NEWS_ARTICLES, 'utf8'))));
const key = process.env.NEWS_KEY || 'bench';
const http = process.argv.includes('--http');

const id = z.string().min(1).max(64);
const tools = {
  search_stories: z.object({ query: z.string().min(1).max(500), language: z.string().optional(), signals: z.array(z.string()).optional(), from: z.string().optional(), to: z.string().optional(), limit: z.number().int().min(1).max(50).optional(), max_credits: z.number().int().min(0).optional(), estimate: z.boolean().optional() }).strict(),
  get_article: z.object({ id }).strict(),
  get_story: z.object({ id }).strict(),
  find_related: z.object({ id, limit: z.number().int().min(1).max(50).optional(), max_credits: z.number().int().min(0).optional() }).strict(),
  create_watch: z.object({ query: z.string().min(1).max(500), signals: z.array(z.string()).optional() }).strict(),
  get_watch: z.object({ id }).strict(),
  delete_watch: z.object({ id }).strict(),
  watch_events: z.object({ id, since: z.string().optional() }).strict(),
};
const listed = Object.entries(tools).map(([name, schema]) => ({ name, description: name, inputSchema: z.toJSONSchema(schema) }));

const invalid = (message, code) => new McpError(ErrorCode.InvalidParams, message, { code });
const toolError = (v) => ({ content: [{ type: 'text', text: JSON.stringify(v) }], isError: true });

function build() {
  const server = new Server({ name: 'news-ts', title: 'News index', version: '0.1.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const { name, arguments: args = {} } = req.params;
    const schema = tools[name];
    if (!schema) throw new McpError(ErrorCode.MethodNotFound, `Unknown tool '${name}'. The tools are: ${Object.keys(tools).join(', ')}.`);
    if (http && extra?.requestInfo?.headers?.authorization !== `Bearer ${key}`) {
      return toolError({ error: `${name} needs an API key on this endpoint`, code: 'unsupported' });
    }
    const parsed = schema.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue.code === 'unrecognized_keys') throw invalid(`Unknown parameter '${issue.keys[0]}'.`, 'unknown_parameter');
      throw invalid(`Invalid parameter '${issue.path.join('.')}': ${issue.message}.`, 'invalid_parameter');
    }
    if (name !== 'get_article') return toolError({ error: `${name} is not served by this load-test server`, code: 'unsupported' });
    const art = articles.get(parsed.data.id);
    if (!art) return toolError({ error: `the index holds no article with id '${parsed.data.id}'`, code: 'not_found' });
    return { content: [{ type: 'text', text: JSON.stringify(art) }], structuredContent: art };
  });
  return server;
}

await serve(build);
