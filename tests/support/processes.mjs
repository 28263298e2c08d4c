// Running quarry many times from a test script that holds DuckDB.
//
//   import { runProcess } from '../../support/processes.mjs';
//   const r = await runProcess(quarry, ['query', q, '--format', 'json'], { env, timeoutMs });
//   // r: { stdout, stderr (strings), stdoutBytes (a Buffer), status, signal } or { error }
//
// The server keeps the script alive only while a process runs: a script that
// ends while it is idle exits, and the server with it (its stdin closes).
//
// node forks its whole address space for each child, and a script holding DuckDB,
// chDB and thousands of answers has a large one: each spawn cost it tens of
// milliseconds of page-table copying, most of a corpus query's time. The children
// are therefore started by process_server.py, a small Python process started once
// (python3 is one of tools/install-deps.sh's packages); without python3 they are
// spawned directly, which is slower and otherwise the same.

import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverScript = join(dirname(fileURLToPath(import.meta.url)), 'process_server.py');

let server = null;  // { child, pending: Map<id, resolve>, nextId, buffered }

function startServer() {
  if (spawnSync('python3', ['-c', ''], { stdio: 'ignore' }).status !== 0) return null;
  const child = spawn('python3', [serverScript], { stdio: ['pipe', 'pipe', 'inherit'] });
  const state = { child, pending: new Map(), nextId: 1, buffered: [] };
  // Referenced (keeping the script alive) exactly while an answer is awaited.
  const streams = [child, child.stdin, child.stdout];
  state.hold = () => { if (state.pending.size === 1) for (const s of streams) s.ref(); };
  state.release = () => { if (state.pending.size === 0) for (const s of streams) s.unref(); };
  state.release();
  child.stdout.on('data', (chunk) => {
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, from);
      if (newline < 0) break;
      state.buffered.push(chunk.subarray(from, newline));
      const reply = JSON.parse(Buffer.concat(state.buffered).toString('utf8'));
      state.buffered = [];
      from = newline + 1;
      const resolveReply = state.pending.get(reply.id);
      state.pending.delete(reply.id);
      state.release();
      const stdoutBytes = reply.error !== undefined ? null : Buffer.from(reply.stdout, 'base64');
      resolveReply?.(reply.error !== undefined ? { error: new Error(reply.error) } : {
        stdout: stdoutBytes.toString('utf8'),
        stdoutBytes,
        stderr: Buffer.from(reply.stderr, 'base64').toString('utf8'),
        status: reply.status,
        signal: reply.signal,
      });
    }
    if (from < chunk.length) state.buffered.push(Buffer.from(chunk.subarray(from)));
  });
  child.on('close', () => {
    for (const resolveReply of state.pending.values()) {
      resolveReply({ error: new Error('the process server (tests/support/process_server.py) exited') });
    }
    state.pending.clear();
  });
  return state;
}

/// Spawns `command` directly (no python3): the same answer, slower.
export function runProcessDirectly(command, args, { env = process.env, timeoutMs = 60_000 } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ error });
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolvePromise({ stdout: stdoutBytes.toString('utf8'), stdoutBytes,
                       stderr: Buffer.concat(err).toString('utf8'), status, signal });
    });
  });
}

/// Whether runProcess goes through process_server.py (python3 found).
export function usesProcessServer() {
  if (server === null) server = startServer() ?? false;
  return Boolean(server);
}

/// Runs `command args` with stdin empty, to its end or to `timeoutMs` (then
/// SIGKILL); resolves to { stdout, stderr, stdoutBytes, status, signal } or { error }.
export function runProcess(command, args, { env = process.env, timeoutMs = 60_000 } = {}) {
  if (server === null) server = startServer() ?? false;
  if (!server) return runProcessDirectly(command, args, { env, timeoutMs });
  const id = server.nextId++;
  return new Promise((resolvePromise) => {
    server.pending.set(id, resolvePromise);
    server.hold();
    server.child.stdin.write(`${JSON.stringify({ id, argv: [command, ...args], env, timeout_ms: timeoutMs })}\n`);
  });
}
