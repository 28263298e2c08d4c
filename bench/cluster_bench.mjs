// Times whole `quarry query` runs over the lineitem files in process and through
// 1, 2 and 3 local data nodes (`quarry serve` on 127.0.0.1, started here and
// stopped at the end), and prints the medians: the coordinator's overhead is the
// 1-node figure against the in-process one, scaling the 2- and 3-node figures
// against the 1-node one. Every answer, timed runs included, is compared with the
// first in-process one (doubles to 1e-9 relative). On one machine the nodes share
// its cores, so the figures measure overhead more than scaling.
//
// Cache states, each measured with nodes of its own: "uncached" (the headline):
// every process runs with QUARRY_CACHE_DIR=off and reads every footer; "cached":
// they run with a metadata cache directory in a scratch folder, filled by the
// untimed warm-up round. Only `quarry query` (the in-process runs and the
// coordinator) uses that cache; `quarry serve` keeps none, so a data node reads
// the footers of the files it is sent in both states. The OS page cache is warm
// in both.
//
// Usage: node bench/cluster_bench.mjs --quarry BIN [--runs N] [--threads T] [--nodes K] FILE...
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { median, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
import { lineitemQueries } from './lineitem_queries.mjs';

function parseArgs(argv) {
  const args = { quarry: null, runs: 7, threads: 2, nodes: 3, files: [] };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--quarry') args.quarry = argv[++i];
    else if (argv[i] === '--runs') args.runs = Number(argv[++i]);
    else if (argv[i] === '--threads') args.threads = Number(argv[++i]);
    else if (argv[i] === '--nodes') args.nodes = Number(argv[++i]);
    else args.files.push(argv[i]);
  }
  if (!args.quarry || args.files.length === 0) {
    console.error('usage: node bench/cluster_bench.mjs --quarry BIN [--runs N] [--threads T] [--nodes K] FILE...');
    process.exit(2);
  }
  return args;
}

/// Starts a data node with environment `env`; resolves to { address, child }.
function startNode(quarry, tokenFile, root, env) {
  const child = spawn(quarry, ['serve', '--listen', '127.0.0.1:0', '--token-file', tokenFile, '--allow-root', root],
                      { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let text = '';
    child.on('exit', (code) => reject(new Error(`cluster_bench: a data node exited with ${code}`)));
    child.stdout.on('data', (d) => {
      text += d;
      const m = /^quarry serve: listening on (\S+)\n/.exec(text);
      if (m) resolve({ address: m[1], child });
    });
  });
}

const csvRows = (text) => text.trim().split('\n').slice(1).map((line) => line.split(','));
function sameRows(a, b) {
  if (a.length !== b.length) return false;
  return a.every((row, r) => row.length === b[r].length && row.every((x, c) => {
    const y = b[r][c];
    if (x === y) return true;
    const u = Number(x), v = Number(y);
    return Number.isFinite(u) && Number.isFinite(v) && Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v));
  }));
}

const args = parseArgs(process.argv.slice(2));
const scratch = mkdtempSync(join(os.tmpdir(), 'quarry-cluster-bench-'));
const tokenFile = join(scratch, 'token');
writeFileSync(tokenFile, randomBytes(24).toString('hex') + '\n', { mode: 0o600 });
const root = dirname(args.files[0]);
let nodes = [];
const stopNodes = () => {
  for (const n of nodes) n.child.kill('SIGTERM');
  nodes = [];
};
process.on('exit', () => {
  stopNodes();
  rmSync(scratch, { recursive: true, force: true });
});

const cases = lineitemQueries(args.files);
const kStates = [['uncached', 'off'], ['cached', join(scratch, 'metadata-cache')]];
const expected = new Map();  // query name -> the first in-process answer's rows
const samples = new Map();   // `${state}/${query}/${setup}` -> wall ms per round
let mismatches = 0;
let setups = [];
for (const [state, cacheDir] of kStates) {
  const env = { ...process.env, QUARRY_CACHE_DIR: cacheDir };
  for (let i = 0; i < args.nodes; ++i) nodes.push(await startNode(args.quarry, tokenFile, root, env));
  setups = [{ name: 'in process', extra: [] }];
  for (let k = 1; k <= args.nodes; ++k) {
    setups.push({ name: `${k} node${k > 1 ? 's' : ''}`,
                  extra: ['--nodes', nodes.slice(0, k).map((n) => n.address).join(','), '--token-file', tokenFile] });
  }
  for (let round = -1; round < args.runs; ++round) {  // round -1 warms up (and fills the cached state's cache)
    for (const [name, query] of cases) {
      for (const setup of setups) {
        const start = nowMs();
        const r = spawnSync(args.quarry, ['query', ...setup.extra, '--threads', String(args.threads), '--format', 'csv',
                                          query], { encoding: 'utf8', maxBuffer: 16 << 20, env });
        const ms = nowMs() - start;
        if (process.env.QUARRY_BENCH_VERBOSE) console.error(`${name} (${setup.name}, ${state}): ${fmtMs(ms)} ms`);
        if (r.status !== 0) {
          console.error(`cluster_bench: ${name} (${setup.name}, ${state}): quarry exited with ${r.status ?? r.signal}: ${r.stderr}`);
          process.exit(1);
        }
        const rows = csvRows(r.stdout);
        if (!expected.has(name)) expected.set(name, rows);
        else if (!sameRows(rows, expected.get(name))) {
          ++mismatches;
          console.error(`MISMATCH ${name} (${setup.name}, ${state}, round ${round}):\n  ${JSON.stringify(rows)}\n` +
                        `  in process ${JSON.stringify(expected.get(name))}`);
        }
        if (round === -1) continue;
        const key = `${state}/${name}/${setup.name}`;
        if (!samples.has(key)) samples.set(key, []);
        samples.get(key).push(ms);
      }
    }
  }
  stopNodes();
}

console.log(`cluster_bench: ${args.files.length} files, ${args.threads} threads per process (each node's asked by the coordinator), median of ${args.runs} ` +
            `rounds, ${cpuModel()} (${os.cpus().length} CPUs), nodes on 127.0.0.1; OS page cache warm`);
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
for (const [state] of kStates) {
  console.log(`\n${state}: ${state === 'uncached' ? 'QUARRY_CACHE_DIR=off everywhere' : 'a shared metadata cache, warm'}`);
  console.log(`${'query'.padEnd(20)}${setups.map((s) => s.name.padStart(12)).join('')}   1 node / in process (median of per-round ratios)`);
  const ratios = [];
  for (const [name] of cases) {
    const per = (setup) => samples.get(`${state}/${name}/${setup}`);
    const m = setups.map((s) => median(per(s.name)));
    const ratio = median(per('1 node').map((ms, r) => ms / per('in process')[r]));
    ratios.push(ratio);
    console.log(`${name.padEnd(20)}${m.map((v) => fmtMs(v).padStart(12)).join('')}${ratio.toFixed(2).padStart(12)}`);
  }
  console.log(`${'geomean / worst'.padEnd(20)}${''.padStart(12 * setups.length)}${
    `${geomean(ratios).toFixed(2)} / ${Math.max(...ratios).toFixed(2)}`.padStart(12)}`);
}
if (mismatches > 0) console.error(`cluster_bench: ${mismatches} answer(s) differ from the in-process ones`);
else console.log('\nResults: every run, timed ones included, gave the in-process answer.');
// The nodes' pipes keep the event loop alive: stop them and leave.
process.exit(mismatches > 0 ? 1 : 0);
