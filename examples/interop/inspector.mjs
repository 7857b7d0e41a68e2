// Smoke run of the MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0, `mcp-inspector --cli`): one failing
// tool call on each server, checked for the shape the seeds give it. Prints one line per call and a closing
// "N passed, N failed" line; exits non-zero when a call did not come back as expected.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, startHTTP } from './lib/servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const inspector = join(here, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const scratch = mkdtempSync(join(tmpdir(), 'mcperr-interop-inspector-'));

/** Runs `mcp-inspector --cli ...args` in its own process group, killed whole after timeoutMs. */
function inspect(args, timeoutMs = 60_000) {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [inspector, '--cli', ...args], {
      detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MCP_CATALOG_PATH: join(scratch, 'mcp.json'), NO_COLOR: '1' },
    });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    const kill = () => { try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ } };
    const t = setTimeout(kill, timeoutMs);
    p.on('exit', (code, signal) => { clearTimeout(t); kill(); ok({ code, signal, stdout, stderr }); });
  });
}

const json = (s) => { try { return JSON.parse(s); } catch { return undefined; } };
const toolText = (r) => json(r.stdout)?.content?.[0]?.text ?? '';

const cases = [
  {
    name: 'vexlo (stdio): vexlo_get_trace on a missing trace -> isError, seed 000 not_found object',
    args: async () => [await bin('vexlo'), '-demo', '--method', 'tools/call', '--tool-name', 'vexlo_get_trace', '--tool-arg', 'traceId=deadbeefdeadbeefdeadbeefdeadbeef'],
    check: (r) => r.code === 5 && json(r.stdout)?.isError === true &&
      json(toolText(r))?.kind === 'not_found' && json(toolText(r))?.code === 'trace_not_found',
  },
  {
    name: 'vexlo (stdio): vexlo_search_traces limit=101 -> isError, the SDK-dialect rejection text',
    args: async () => [await bin('vexlo'), '-demo', '--method', 'tools/call', '--tool-name', 'vexlo_search_traces', '--tool-arg', 'limit=101'],
    check: (r) => r.code === 5 && toolText(r) === 'MCP error -32602: Input validation error: Invalid arguments for tool vexlo_search_traces: Too big: expected number to be <=100 at limit',
  },
  {
    name: 'news (stdio): get_article on a missing id -> isError, seed 004 not_found object',
    args: async () => [await bin('news'), '--method', 'tools/call', '--tool-name', 'get_article', '--tool-arg', 'id=a-00000'],
    check: (r) => r.code === 5 && json(toolText(r))?.code === 'not_found',
  },
  {
    name: 'news (hosted, 2025-11-25): search_stories langauge=en -> JSON-RPC -32602 with the did-you-mean hint',
    server: 'news',
    args: async (url) => [url, '--header', 'Authorization: Bearer interop-pro', '--method', 'tools/call', '--tool-name', 'search_stories', '--tool-arg', 'query=wind', '--tool-arg', 'langauge=en'],
    check: (r) => r.code !== 0 && r.code !== 5 && (r.stdout + r.stderr).includes("Unknown parameter 'langauge'. Did you mean 'language'?"),
  },
  {
    name: 'news (hosted, 2026-07-28): get_story on a missing id -> isError, not_found',
    server: 'news',
    args: async (url) => [url, '--protocol-era', 'modern', '--header', 'Authorization: Bearer interop-pro', '--method', 'tools/call', '--tool-name', 'get_story', '--tool-arg', 'id=s-9999'],
    check: (r) => r.code === 5 && json(toolText(r))?.code === 'not_found',
  },
  {
    name: 'vulnetix (2026-07-28): vulnetix_vuln on an unindexed alias -> isError, "Not found in the Vulnetix VDB: ", _meta',
    server: 'vulnetix',
    args: async (url) => [url, '--protocol-era', 'modern', '--header', 'Authorization: Bearer vdb-demo-community', '--method', 'tools/call', '--tool-name', 'vulnetix_vuln', '--tool-arg', 'id=CVE-2024-35195'],
    check: (r) => r.code === 5 && toolText(r).startsWith('Not found in the Vulnetix VDB: ') &&
      json(r.stdout)?._meta?.['vulnetix/plan'] === 'community',
  },
];

const keys = join(scratch, 'keys.json');
writeFileSync(keys, JSON.stringify([{
  key: 'interop-pro', plan: 'interop', monthly_credits: 1000000, stops_at_allocation: false,
  messages_per_minute: 100000, credits_per_minute: 1000000, watch_cap: 25, suspended: false,
}]));
const servers = {};
let passed = 0, failed = 0;
try {
  for (const c of cases) {
    let r;
    try {
      let url;
      if (c.server === 'news') {
        servers.news ??= await startHTTP('news', ['-http', '127.0.0.1:PORT', '-keys', keys]);
        url = servers.news.url.replace('127.0.0.1', 'localhost');
      } else if (c.server === 'vulnetix') {
        servers.vulnetix ??= await startHTTP('vulnetix', ['-demo', '-addr', '127.0.0.1:PORT']);
        url = servers.vulnetix.url.replace('127.0.0.1', 'localhost');
      }
      r = await inspect(await c.args(url));
    } catch (err) {
      r = { code: null, stdout: '', stderr: String(err.message) };
    }
    if (c.check(r)) {
      passed++;
      console.log(`ok   inspector ${c.name}`);
    } else {
      failed++;
      console.log(`FAIL inspector ${c.name}\n       exit ${r.code ?? r.signal}; stdout: ${r.stdout.trim().slice(0, 800)}\n       stderr: ${r.stderr.trim().slice(0, 800)}`);
    }
  }
} finally {
  for (const s of Object.values(servers)) await s.stop();
}
console.log(`inspector: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
