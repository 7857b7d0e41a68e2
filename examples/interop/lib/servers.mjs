// Building and running the example servers for the interop tests: go build once, spawn the binaries, wait for
// their ports, and kill every process started here when the test process ends, however it ends.
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
/** The examples module (the Go module that holds the servers). */
export const examplesDir = resolve(here, '..', '..');
/** The three servers, by the directory name under examples/. */
export const serverNames = ['vexlo', 'vulnetix', 'news'];

const live = new Set();
function killAll() {
  for (const p of live) {
    try { p.kill('SIGKILL'); } catch { /* already gone */ }
  }
  live.clear();
}
process.on('exit', killAll);
for (const [sig, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.once(sig, () => { killAll(); process.exit(128 + n); });
}

let binDir;
/**
 * The directory holding the server binaries. run.sh builds them once and passes INTEROP_BIN; a test file run on
 * its own builds them into a temporary directory (once per process).
 */
export async function bins() {
  if (binDir) return binDir;
  if (process.env.INTEROP_BIN) {
    binDir = process.env.INTEROP_BIN;
    return binDir;
  }
  binDir = mkdtempSync(join(tmpdir(), 'mcperr-interop-bin-'));
  await buildAll(binDir);
  return binDir;
}

/** go build every server into dir; returns {name: error message} for those that failed. */
export async function buildAll(dir) {
  mkdirSync(dir, { recursive: true });
  const failed = {};
  for (const name of serverNames) {
    try {
      await promisify(execFile)('go', ['build', '-o', join(dir, name), `./${name}`], {
        cwd: examplesDir, timeout: 300_000, maxBuffer: 4 << 20,
      });
    } catch (err) {
      failed[name] = String(err.stderr || err.message).trim();
    }
  }
  return failed;
}

/** The path of a server's binary; throws a plain message when it was not built. */
export async function bin(name) {
  const p = join(await bins(), name);
  if (!existsSync(p)) throw new Error(`${name}: no binary at ${p} (go build ./${name} failed or the server is not there yet)`);
  return p;
}

/** A free loopback TCP port. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.unref();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

function canConnect(port) {
  return new Promise((ok) => {
    const c = net.connect({ port, host: '127.0.0.1' });
    const done = (v) => { c.destroy(); ok(v); };
    c.setTimeout(500, () => done(false));
    c.once('connect', () => done(true));
    c.once('error', () => done(false));
  });
}

/**
 * Spawns a server binary that listens on HTTP and waits until its port accepts connections.
 * args may contain the token PORT, replaced by the chosen port. Returns {url, origin, port, proc, output(), stop()}.
 * A port taken by someone else between choosing and binding it is retried with another one.
 */
export async function startHTTP(name, args = [], opts = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(name, args, opts);
    } catch (err) {
      if (attempt >= 3 || !/address already in use/.test(err.message)) throw err;
    }
  }
}

async function startOnce(name, args, { env = {}, path = '/mcp', timeoutMs = 20_000 }) {
  const file = await bin(name);
  const port = await freePort();
  const argv = args.map((a) => a.replaceAll('PORT', String(port)));
  const proc = spawn(file, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let out = '';
  const keep = (d) => { out = (out + d).slice(-20_000); };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  let exited = null;
  proc.once('exit', (code, sig) => { exited = { code, sig }; live.delete(proc); });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${name} ${argv.join(' ')} exited (${exited.code ?? exited.sig}) before listening:\n${out}`);
    if (await canConnect(port)) {
      // Make sure the listener is ours: a server that failed to bind exits at once.
      await new Promise((r) => setTimeout(r, 100));
      if (!exited) break;
      continue;
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`${name} ${argv.join(' ')} did not listen on ${port} within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    port, origin, url: origin + path, proc,
    output: () => out,
    stop: () => stop(proc),
  };
}

/** Terminates a process started here: SIGTERM, then SIGKILL after two seconds. */
export function stop(proc) {
  return new Promise((ok) => {
    if (proc.exitCode !== null || proc.signalCode !== null) { live.delete(proc); ok(); return; }
    const t = setTimeout(() => proc.kill('SIGKILL'), 2000);
    proc.once('exit', () => { clearTimeout(t); live.delete(proc); ok(); });
    proc.kill('SIGTERM');
  });
}

/**
 * Runs a binary to completion (bounded by timeoutMs) and returns {code, signal, stdout, stderr}.
 */
export async function runToExit(file, args, { env = {}, timeoutMs = 15_000, input } = {}) {
  return new Promise((ok) => {
    const proc = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(proc);
    let stdout = '', stderr = '';
    proc.stdout.on('data', (d) => { stdout += d; });
    proc.stderr.on('data', (d) => { stderr += d; });
    const t = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.once('exit', (code, signal) => { clearTimeout(t); live.delete(proc); ok({ code, signal, stdout, stderr }); });
    if (input !== undefined) proc.stdin.end(input); else proc.stdin.end();
  });
}

/** Spawns a long-running process tracked for cleanup (for example a -demo-addr API); returns it with output(). */
export function spawnTracked(file, args, { env = {} } = {}) {
  const proc = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; });
  proc.once('exit', () => live.delete(proc));
  proc.output = () => out;
  return proc;
}

/** Waits until output() matches re (or the deadline passes); returns the match. */
export async function waitFor(output, re, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = output().match(re);
    if (m) return m;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${re}; output so far:\n${output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
