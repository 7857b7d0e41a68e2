// Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, shimmed for Node 20 by
// setup.sh) against vulnetix and the hosted news server, one scenario at a time, and judges each check:
//
//   SUCCESS, WARNING (a SHOULD), SKIPPED, INFO   pass
//   FAILURE listed in NOT_APPLICABLE below        "n/a": the check needs one of the suite's own diagnostic tools
//                                                 (test_error_handling, test_missing_capability, ...) that a real
//                                                 server does not carry; the suite reports that as FAILURE
//   any other FAILURE                             fail
//
// Usage: node conformance.mjs [outDir]. Prints one line per scenario and a closing "N passed, N failed" line; exits
// non-zero when a scenario failed. Needs the server binaries (INTEROP_BIN, or it builds them).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHTTP, freePort } from './lib/servers.mjs';
import { raw, statelessRequest } from './lib/mcp.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const outDir = resolve(process.argv[2] ?? join(here, 'out', 'conformance'));

// Checks that cannot pass against a real server, by check id, with the evidence pattern their errorMessage must
// match to be excused. Anything else that fails is a failure.
const NOT_APPLICABLE = {
  'tools-call-error': [/test_error_handling/, 'needs the suite\'s fixture tool test_error_handling ("Implement tool `test_error_handling`", scenario description)'],
  'sep-2575-server-rejects-undeclared-capability': [/^Not testable: server does not list the diagnostic tool 'test_missing_capability'/, 'needs the diagnostic tool test_missing_capability'],
  'sep-2575-missing-capability-http-400': [/^Not testable: server does not list the diagnostic tool 'test_missing_capability'/, 'needs the diagnostic tool test_missing_capability'],
  'sep-2575-http-server-no-independent-requests-on-stream': [/^Not testable: server does not list the diagnostic tool 'test_streaming_elicitation'/, 'needs the diagnostic tool test_streaming_elicitation'],
  'sep-2575-server-no-log-without-loglevel': [/^Not testable: server does not list the diagnostic tool 'test_logging_tool'/, 'needs the diagnostic tool test_logging_tool'],
};

// The scenarios that apply, per server and revision. Scenarios that need fixture tools or resources
// (tools-call-simple-text, resources-templates-read, prompts-*, json-schema-2020-12, ...) do not apply to these servers;
// tools-call-error is run once (news, 2025-11-25) to show what it needs.
const NEWS_KEY = 'interop-conformance';
const TARGETS = [
  {
    name: 'vulnetix', version: '2026-07-28',
    scenarios: ['server-stateless', 'http-header-validation', 'dns-rebinding-protection', 'tools-list', 'resources-list', 'sep-2164-resource-not-found', 'caching'],
    start: () => startHTTP('vulnetix', ['-demo', '-addr', '127.0.0.1:PORT']),
  },
  {
    name: 'news', version: '2026-07-28',
    scenarios: ['server-stateless', 'http-header-validation', 'dns-rebinding-protection', 'tools-list', 'caching'],
    start: startNews,
  },
  {
    name: 'news', version: '2025-11-25',
    scenarios: ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'tools-call-error'],
    start: startNews,
  },
];

// The hosted news server refuses any request without an API key (HTTP 401, seed 004), and the suite sends none; so
// the suite talks to it through a pass-through proxy on loopback that adds "Authorization: Bearer <key>" and
// changes nothing else (Host and Origin are forwarded as sent, so dns-rebinding-protection still tests the server).
async function startNews() {
  const keys = join(mkdtempSync(join(tmpdir(), 'mcperr-interop-conf-')), 'keys.json');
  writeFileSync(keys, JSON.stringify([{
    key: NEWS_KEY, plan: 'conformance', monthly_credits: 1000000, stops_at_allocation: false,
    messages_per_minute: 100000, credits_per_minute: 1000000, watch_cap: 25, suspended: false,
  }]));
  const srv = await startHTTP('news', ['-http', '127.0.0.1:PORT', '-keys', keys]);
  const port = await freePort();
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers };
    if (!headers.authorization) headers.authorization = `Bearer ${NEWS_KEY}`;
    const up = http.request({ host: '127.0.0.1', port: srv.port, method: req.method, path: req.url, headers }, (ur) => {
      res.writeHead(ur.statusCode, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => { if (!res.headersSent) res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  await new Promise((ok) => proxy.listen(port, '127.0.0.1', ok));
  return {
    url: `http://localhost:${port}/mcp`,
    stop: async () => {
      proxy.closeAllConnections?.();
      await new Promise((ok) => proxy.close(ok));
      await srv.stop();
    },
  };
}

function runScenario(url, scenario, version, dir) {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [cli, 'server', '--url', url, '--scenario', scenario, '--spec-version', version, '-o', dir, '--timeout', '60000'], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { out += d; });
    const t = setTimeout(() => p.kill('SIGKILL'), 120_000);
    p.on('exit', (code, sig) => { clearTimeout(t); ok({ code, sig, out }); });
  });
}

// The suite's own bugs, each recorded with its evidence in README.md ("Conformance: the suite's bugs"): the check
// id, the pattern its errorMessage must match to be excused, the reason, and (when given) a condition on the
// server's declared capabilities. A check that fails any other way is still a failure.
//
// caching asks every server for prompts/list, resources/list and resources/templates/list and counts -32601 as a
// failure, while server-stateless requires exactly -32601 from a server that does not declare the feature
// (sep-2575-server-declares-prompts-in-discover). Excused only when server/discover declares no such capability.
const undeclared = (feature) => (caps) => caps !== undefined && !caps[feature];
const SUITE_BUGS = {
  'sep-2549-prompts-list-caching-hints': [
    /^prompts\/list returned JSON-RPC error -32601:/,
    'the suite asks for prompts/list caching hints from a server that declares no prompts; -32601 is the answer server-stateless requires',
    undeclared('prompts'),
  ],
  'sep-2549-resources-list-caching-hints': [
    /^resources\/list returned JSON-RPC error -32601:/,
    'the suite asks for resources/list caching hints from a server that declares no resources; -32601 is the answer for an undeclared feature',
    undeclared('resources'),
  ],
  'sep-2549-resources-templates-list-caching-hints': [
    /^resources\/templates\/list returned JSON-RPC error -32601:/,
    'the suite asks for resources/templates/list caching hints from a server that declares no resources; -32601 is the answer for an undeclared feature',
    undeclared('resources'),
  ],
  // http-header-validation calls the server's first tool with arguments {} and a whitespace-padded Mcp-Name, and
  // takes any JSON-RPC error as "header rejected". A tool with a required argument answers {} with its own argument
  // error (-32602), not a header error (-32020): the header was accepted. test/news.test.mjs checks the padded
  // header with valid arguments instead.
  'sep-2243-server-accepts-whitespace-header-value': [
    /body contains JSON-RPC error \{"code":-32602,/,
    'the suite calls the first tool with arguments {}; the -32602 is that tool\'s argument error, not a header rejection (-32020)',
  ],
};

function judge(checks, caps) {
  const failed = [], na = [], suite = [];
  for (const c of checks) {
    if (c.status !== 'FAILURE') continue;
    const msg = c.errorMessage ?? '';
    const rule = NOT_APPLICABLE[c.id];
    const bug = SUITE_BUGS[c.id];
    if (rule && rule[0].test(msg)) na.push(`${c.id} (${rule[1]})`);
    else if (bug && bug[0].test(msg) && (!bug[2] || bug[2](caps))) suite.push(`${c.id} (${bug[1]}): ${msg}`);
    else failed.push(`${c.id}: ${msg || JSON.stringify(c.details ?? {})}`);
  }
  return { failed, na, suite };
}

/** The capabilities server/discover declares (2026-07-28), or undefined when it does not answer. */
async function discoverCaps(target, mcpURL) {
  if (target.version !== '2026-07-28') return undefined;
  const { headers, body } = statelessRequest('server/discover', {});
  try {
    const res = await raw(mcpURL, { headers, body });
    return res.json?.result?.capabilities;
  } catch {
    return undefined;
  }
}

const url = (s) => s.url.replace('127.0.0.1', 'localhost'); // dns-rebinding-protection wants a localhost URL
let passed = 0, failedCount = 0;
rmSync(outDir, { recursive: true, force: true });

/** Runs one target's scenarios against its own server; returns its report lines (printed whole, in order). */
async function runTarget(target) {
  const lines = [];
  const log = (s) => lines.push(s);
  let srv;
  try {
    srv = await target.start();
  } catch (err) {
    for (const s of target.scenarios) { log(`FAIL ${target.name} ${target.version} ${s}: server did not start: ${err.message.split('\n')[0]}`); failedCount++; }
    return lines;
  }
  try {
    const caps = await discoverCaps(target, srv.url);
    for (const scenario of target.scenarios) {
      const dir = join(outDir, `${target.name}-${target.version}`, scenario);
      const t0 = Date.now();
      const r = await runScenario(url(srv), scenario, target.version, dir);
      const secs = `${((Date.now() - t0) / 1000).toFixed(1)}s`;
      let checks;
      try {
        const sub = readdirSync(dir).find((d) => d.startsWith(`server-${scenario}-`));
        checks = JSON.parse(readFileSync(join(dir, sub, 'checks.json'), 'utf8'));
      } catch {
        log(`FAIL ${target.name} ${target.version} ${scenario}: no checks.json (exit ${r.code ?? r.sig})\n${r.out.slice(-2000)}`);
        failedCount++;
        continue;
      }
      const { failed, na, suite } = judge(checks, caps);
      const counts = {};
      for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
      const summary = Object.entries(counts).map(([k, v]) => `${v} ${k.toLowerCase()}`).join(', ');
      if (failed.length === 0) {
        passed++;
        const notes = [na.length && `${na.length} n/a`, suite.length && `${suite.length} suite bug`].filter(Boolean).join(', ');
        log(`ok   ${target.name} ${target.version} ${scenario} (${summary}${notes ? `; ${notes}` : ''}; ${secs})`);
      } else {
        failedCount++;
        log(`FAIL ${target.name} ${target.version} ${scenario} (${summary}; ${secs})`);
      }
      for (const f of failed) log(`       failure: ${f}`);
      for (const n of na) log(`       n/a: ${n}`);
      for (const b of suite) log(`       suite bug: ${b}`);
      for (const w of checks.filter((c) => c.status === 'WARNING')) log(`       warning: ${w.id}: ${w.errorMessage ?? ''}`);
    }
  } finally {
    await srv.stop();
  }
  return lines;
}

// Two targets at a time (each its own server and port); reports print in TARGETS order.
const reports = new Array(TARGETS.length);
let next = 0;
await Promise.all([0, 1].map(async () => {
  while (next < TARGETS.length) {
    const i = next++;
    reports[i] = await runTarget(TARGETS[i]);
  }
}));
for (const lines of reports) for (const l of lines) console.log(l);
console.log(`conformance: ${passed} passed, ${failedCount} failed`);
process.exit(failedCount ? 1 : 0);
