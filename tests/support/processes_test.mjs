#!/usr/bin/env node
// runProcess (tests/support/processes.mjs), through process_server.py and through
// the direct spawn it falls back to: exit status, output of either stream, the
// environment given, a signal, a timeout (SIGKILL), a command that does not
// exist (an error, not an exit status), and many processes at once, each answer
// matched to its request.
//
//   node tests/support/processes_test.mjs

import assert from 'node:assert/strict';

import { runProcess, runProcessDirectly, usesProcessServer } from './processes.mjs';

let checks = 0;

async function check(name, launcher) {
  const sh = (script, options) => launcher('/bin/sh', ['-c', script], options);

  const r = await sh('printf "out\\303\\251"; printf err >&2; exit 3');
  assert.equal(r.status, 3, `${name}: exit status`);
  assert.equal(r.signal, null, `${name}: no signal`);
  assert.equal(r.stdout, 'out\u00e9', `${name}: stdout, UTF-8 decoded`);
  assert.equal(r.stderr, 'err', `${name}: stderr`);

  const env = await sh('printf "%s" "$QUARRY_PROCESSES_TEST"',
                       { env: { PATH: process.env.PATH, QUARRY_PROCESSES_TEST: 'given' } });
  assert.equal(env.stdout, 'given', `${name}: the environment given`);

  const killed = await sh('kill -TERM $$');
  assert.equal(killed.status, null, `${name}: no status when signalled`);
  assert.equal(killed.signal, 'SIGTERM', `${name}: the signal`);

  const started = Date.now();
  const slow = await sh('printf before; exec sleep 30', { timeoutMs: 300 });
  assert.equal(slow.signal, 'SIGKILL', `${name}: killed at its timeout`);
  assert.ok(Date.now() - started < 10_000, `${name}: the timeout is kept`);

  const missing = await launcher('/nonexistent/quarry-processes-test', []);
  assert.ok(missing.error instanceof Error, `${name}: a missing command is an error`);
  assert.match(missing.error.message, /nonexistent|ENOENT|No such file/, `${name}: says why`);

  const many = await Promise.all(Array.from({ length: 40 }, (_, i) => sh(`printf ${i}; exit ${i % 7}`)));
  many.forEach((answer, i) => {
    assert.equal(answer.stdout, String(i), `${name}: answer ${i} matched to its request`);
    assert.equal(answer.status, i % 7, `${name}: status ${i}`);
  });

  const big = await sh('head -c 3000000 /dev/zero | tr "\\0" x');
  assert.equal(big.stdout.length, 3_000_000, `${name}: a large output whole`);
  checks += 1;
  console.log(`ok  ${name}`);
}

// python3 is one of tools/install-deps.sh's packages: without it the server
// would silently not be tested.
assert.ok(usesProcessServer(), 'python3 runs tests/support/process_server.py');
await check('process server', runProcess);
await check('direct spawn', runProcessDirectly);
assert.equal(checks, 2);
console.log('processes: all checks passed');
