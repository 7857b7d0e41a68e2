// Long calls against the TypeScript SDK 1.x Client's timeout: spawns the Go server named by the arguments (a
// longserver of gosdk or mcpgo testdata, serving one tool "slow" through Handle with a Long) over stdio, makes the
// calls below and prints one JSON line per call: {name, rpc, code, message, data, isError, text, progress, ms}.
// TestLongNode (gosdk, mcpgo; MCPERR_NODE=1) runs it and checks the lines. Packages: ./setup.sh.
//
//   node long.mjs <server binary> [server flags...]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node long.mjs <server binary> [server flags...]');
  process.exit(2);
}

/** The calls: how long the tool sleeps, the client's timeout, and whether it asks for progress and resets on it. */
const calls = [
  { name: 'progress resets the timeout', millis: 1500, timeout: 1000, progress: true, reset: true },
  { name: 'progress without reset times out', millis: 1500, timeout: 1000, progress: true, reset: false },
  { name: 'the deadline answers before the timeout', millis: 60000, timeout: 4000, progress: false, reset: false },
  { name: 'the deadline ends a call kept alive by progress', millis: 60000, timeout: 1000, progress: true, reset: true },
];

const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'long', version: '1' });
await client.connect(transport);
for (const c of calls) {
  let progress = 0;
  const options = { timeout: c.timeout, resetTimeoutOnProgress: c.reset };
  if (c.progress) options.onprogress = () => { progress++; };
  const start = Date.now();
  const line = { name: c.name };
  try {
    const r = await client.callTool({ name: 'slow', arguments: { millis: c.millis } }, undefined, options);
    Object.assign(line, { rpc: false, isError: r.isError ?? false, text: r.content.map((b) => b.text).join('\n') });
  } catch (e) {
    if (typeof e?.code !== 'number') throw e;
    Object.assign(line, { rpc: true, code: e.code, message: e.message, data: e.data ?? null });
  }
  line.progress = progress;
  line.ms = Date.now() - start;
  console.log(JSON.stringify(line));
}
await client.close();
