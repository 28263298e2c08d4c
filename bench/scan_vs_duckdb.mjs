// Times quarry's column scans and DuckDB's on the same Parquet files in one run, at
// 1 and 2 threads, checks that both compute the same results, and prints the
// figures with their ratios. bench/run.sh builds scan_benchmark and the files
// (bench/make-lineitem.mjs), then calls this.
//
// Usage: node bench/scan_vs_duckdb.mjs --bench BIN [--runs N] [--threads 1,2]
//          [--json OUT] FILE...
//   --bench    the scan_benchmark binary (quarry, in-process times)
//   --runs     rounds; each runs every measurement once, each figure is a median
//              over the rounds (default 15)
//   --threads  thread counts to compare (default 1,2)
//   --json     also writes every figure to OUT
//
// The four queries: sum of l_orderkey (INT64), sum of l_extendedprice (DOUBLE),
// total byte length of l_comment (strlen: quarry counts bytes), and every column
// (count of each of the 16, byte lengths of the 5 VARCHARs). quarry runs each as
// one scan_benchmark process (one untimed warm-up, then one timed run, both in
// process: start-up and the heap another query left behind are excluded);
// DuckDB on one persistent connection, `SET threads = N` before the query, the
// result fetched (runAndReadAll) and only converted to JS values after the
// clock stops, to check it. Measurements run in rounds, quarry's and DuckDB's in
// turn, after one untimed warm-up round; a ratio is the median of the per-round
// ratios.
//
// Cache states: the OS page cache is warm on both sides (the warm-up round reads
// every file). "uncached" (the headline): quarry reads and decodes every footer in
// the timed run, DuckDB runs with parquet_metadata_cache off (its default).
// "cached": quarry's timed run opens the files with the footers its warm-up run
// decoded (scan_benchmark --metadata cached), DuckDB runs on a second instance with
// parquet_metadata_cache on, warmed by the warm-up round. Every timed run's result
// is checked against DuckDB's of the same round.
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseFileArgs, median, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
import { loadDuckDB } from './load_duckdb.mjs';

const kColumns = ['l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice',
  'l_discount', 'l_tax', 'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate',
  'l_shipinstruct', 'l_shipmode', 'l_comment'];
const kStringColumns = ['l_returnflag', 'l_linestatus', 'l_shipinstruct', 'l_shipmode', 'l_comment'];

// key: [label, scan_benchmark --query, DuckDB select list]
const kQueries = [
  ['orderkey', 'sum(l_orderkey)', 'sum(l_orderkey)'],
  ['extendedprice', 'sum(l_extendedprice)', 'sum(l_extendedprice)'],
  ['comment', 'sum(strlen(l_comment))', 'sum(strlen(l_comment))'],
  ['all', 'all 16 columns', [...kColumns.map((c) => `count(${c})`),
                             ...kStringColumns.map((c) => `sum(strlen(${c}))`)].join(', ')],
];

// glibc settings that keep freed memory in the process (no heap trimming, no mmap
// for large blocks), as the footer benchmark's "warm heap" rows: what the scan
// costs once the kernel no longer hands out and zeroes fresh pages for every
// row group's buffers. DuckDB allocates through jemalloc and keeps its buffers.
const kWarmHeapTunables = 'glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432';

/// Runs one quarry query in a process of its own; returns { wall, cpu, result }.
function runQuarry(args, query, threads, { warmHeap = false, chunkThreads = 1, cached = false } = {}) {
  const env = { ...process.env };
  if (warmHeap) env.GLIBC_TUNABLES = kWarmHeapTunables;
  const r = spawnSync(args.bench, ['--query', query, '--threads', String(threads),
                                   '--chunk-threads', String(chunkThreads), '--runs', '1', '--warmup', '1',
                                   '--metadata', cached ? 'cached' : 'uncached', ...args.files],
                      { encoding: 'utf8', env, maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    console.error(`scan_vs_duckdb: ${args.bench} --query ${query} exited with ${r.status ?? r.signal}: ${r.stderr}`);
    process.exit(1);
  }
  const out = JSON.parse(r.stdout);
  return { wall: out.runs[0].wallMs, cpu: out.runs[0].cpuMs, result: out.result };
}

/// Returns the quarry result of `query` in the form DuckDB's row converts to.
function quarryValues(query, result) {
  switch (query) {
    case 'orderkey': return [result.sum];
    case 'extendedprice': return [Number(result.sum)];
    case 'comment': return [result.bytes];
    default: return [...result.counts, ...kStringColumns.map((c) => result.stringBytes[kColumns.indexOf(c)])];
  }
}

function sameValues(a, b) {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    if (typeof x === 'number' || typeof b[i] === 'number') {
      // Sums of doubles differ in the last bits with the order of additions.
      const u = Number(x), v = Number(b[i]);
      return Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v));
    }
    return String(x) === String(b[i]);
  });
}

/// Opens DuckDB on `files`, with its parquet_metadata_cache on or off.
async function openDuckDB(files, { metadataCache }) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET parquet_metadata_cache = ${metadataCache}`);
  const scalar = async (sql) => (await connection.runAndReadAll(sql)).getRows()[0][0];
  const list = `[${files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ')}]`;
  const info = {
    version: await scalar('SELECT version()'),
    rows: Number(await scalar(`SELECT count(*) FROM read_parquet(${list})`)),
  };
  const run = async (select, threads) => {
    await connection.run(`SET threads = ${threads}`);
    // The previous result's garbage is collected now rather than inside a timing
    // (bench/run.sh runs node with --expose-gc).
    globalThis.gc?.();
    const cpuStart = process.cpuUsage();
    const start = nowMs();
    const reader = await connection.runAndReadAll(`SELECT ${select} FROM read_parquet(${list})`);
    const wall = nowMs() - start;
    const cpu = process.cpuUsage(cpuStart);
    // Converted after the clock stopped, for the check only.
    const values = reader.getRows()[0].map((v) => (typeof v === 'bigint' ? v.toString() : v));
    // Process-wide CPU: DuckDB's worker threads count too.
    return { wall, cpu: (cpu.user + cpu.system) / 1e3, values };
  };
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  return { info, run, close };
}

const mismatches = [];

/// Runs one round: every measurement once, quarry's and DuckDB's in turn, so that
/// a change in the machine's load shifts both sides instead of one.
async function runRound(args, duckdb, duckdbCached) {
  const sample = {};
  for (const threads of args.threads) {
    for (const [query, , select] of kQueries) {
      const q = runQuarry(args, query, threads);
      const qWarm = runQuarry(args, query, threads, { warmHeap: true });
      const d = await duckdb.run(select, threads);
      const qCached = runQuarry(args, query, threads, { cached: true });
      const dCached = await duckdbCached.run(select, threads);
      if (!sameValues(dCached.values, d.values)) {
        mismatches.push(`MISMATCH ${query} at ${threads} thread(s): DuckDB cached ${JSON.stringify(dCached.values)}, ` +
                        `uncached ${JSON.stringify(d.values)}`);
      }
      for (const [side, s] of [['quarry', q], ['quarry (warm heap)', qWarm], ['quarry (cached)', qCached]]) {
        const mine = quarryValues(query, s.result);
        if (!sameValues(mine, d.values)) {
          const message = `MISMATCH ${query} at ${threads} thread(s): ${side} ${JSON.stringify(mine)}, ` +
                          `DuckDB ${JSON.stringify(d.values)}`;
          console.error(`\nscan_vs_duckdb: ${message}`);
          mismatches.push(message);
        }
      }
      sample[`quarry/${query}/${threads}`] = { wall: q.wall, cpu: q.cpu };
      sample[`quarryWarm/${query}/${threads}`] = { wall: qWarm.wall, cpu: qWarm.cpu };
      sample[`duckdb/${query}/${threads}`] = { wall: d.wall, cpu: d.cpu };
      sample[`quarryCached/${query}/${threads}`] = { wall: qCached.wall, cpu: qCached.cpu };
      sample[`duckdbCached/${query}/${threads}`] = { wall: dCached.wall, cpu: dCached.cpu };
    }
    if (threads > 1) {
      // The other kind of parallelism: one reader thread, a row group's column
      // chunks decoded in parallel (ReaderOptions::threads, the shared pool).
      const c = runQuarry(args, 'all', 1, { chunkThreads: threads });
      sample[`quarryChunks/all/${threads}`] = { wall: c.wall, cpu: c.cpu };
    }
  }
  return sample;
}

const args = parseFileArgs(process.argv.slice(2), 'scan_vs_duckdb');
const loadBefore = os.loadavg()[0];
const duckdb = await openDuckDB(args.files, { metadataCache: false });
const duckdbCached = await openDuckDB(args.files, { metadataCache: true });
console.error(`scan_vs_duckdb: ${args.runs} rounds (and one warm-up), each running every measurement once`);
await runRound(args, duckdb, duckdbCached);
const samples = [];
for (let r = 0; r < args.runs; ++r) {
  samples.push(await runRound(args, duckdb, duckdbCached));
  process.stderr.write(`\r  round ${r + 1}/${args.runs}`);
}
process.stderr.write('\n');
const info = duckdb.info;
duckdb.close();
duckdbCached.close();
const loadAfter = os.loadavg()[0];
const med = {};
const medCpu = {};
for (const key of Object.keys(samples[0])) {
  med[key] = median(samples.map((s) => s[key].wall));
  medCpu[key] = median(samples.map((s) => s[key].cpu));
}

const bytes = args.files.reduce((total, f) => total + statSync(f).size, 0);
const lines = [];
const out = (s = '') => lines.push(s);
const row = (label, key) =>
  out(`  ${label.padEnd(58)} ${fmtMs(med[key]).padStart(8)} ${fmtMs(medCpu[key]).padStart(8)}`);

out(`Scan: ${args.files.length} files, ${info.rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB`);
out(`  ${cpuModel()}, ${os.cpus().length} cores; DuckDB ${info.version}; medians of ${args.runs} ` +
    `round${args.runs === 1 ? '' : 's'}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
out();
out(`${'medians in ms'.padEnd(60)} ${'wall'.padStart(8)} ${'cpu'.padStart(8)}`);
for (const threads of args.threads) {
  const t = `${threads} thread${threads === 1 ? '' : 's'}`;
  out(`quarry, ${t} (scan_benchmark: files handed out to ${t}, ReaderOptions::threads = 1)`);
  for (const [query, label] of kQueries) row(label, `quarry/${query}/${threads}`);
  out(`quarry, ${t}, warm heap (glibc keeps freed memory)`);
  for (const [query, label] of kQueries) row(label, `quarryWarm/${query}/${threads}`);
  if (threads > 1) {
    out(`quarry, 1 reader thread, ReaderOptions::threads = ${threads} (column chunks in parallel)`);
    row('all 16 columns', `quarryChunks/all/${threads}`);
  }
  out(`quarry, ${t}, cached (footers the warm-up run decoded)`);
  for (const [query, label] of kQueries) row(label, `quarryCached/${query}/${threads}`);
  for (const [variant, state] of [['duckdb', 'off'], ['duckdbCached', 'on']]) {
    out(`DuckDB, SET threads = ${threads}, one warm connection, parquet_metadata_cache ${state}`);
    for (const [query, , select] of kQueries) {
      row(query === 'all' ? 'count() of all 16 + sum(strlen()) of the 5 VARCHARs' : `SELECT ${select}`,
          `${variant}/${query}/${threads}`);
    }
  }
}
out();
// Each ratio is the median of the per-round ratios: a round's figures were taken
// seconds apart, under the same load.
out('quarry / DuckDB, median of per-round ratios, wall (cpu); below 1: quarry faster');
// [quarry's variant, DuckDB's variant, column heading]: uncached against uncached,
// cached against cached, and quarry's warm heap against DuckDB uncached.
const kPairs = [['quarry', 'duckdb', 'uncached'], ['quarryCached', 'duckdbCached', 'cached'],
                ['quarryWarm', 'duckdb', 'warm heap']];
const columns = kPairs.flatMap(([q, d, heading]) => args.threads.map((t) => ({ q, d, heading: `${heading}, ${t}`, t })));
out(`  ${''.padEnd(24)}${columns.map((c) => c.heading.padEnd(18)).join('').trimEnd()}`);
const ratios = {};
for (const [query, label] of kQueries) {
  let line = `  ${label.padEnd(24)}`;
  for (const c of columns) {
    const q = `${c.q}/${query}/${c.t}`;
    const d = `${c.d}/${query}/${c.t}`;
    const wall = median(samples.map((s) => s[q].wall / s[d].wall));
    const cpu = median(samples.map((s) => s[q].cpu / s[d].cpu));
    ratios[q] = { wall, cpu };
    line += `${wall.toFixed(2)} (${cpu.toFixed(2)})`.padEnd(18);
  }
  out(line.trimEnd());
}
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
out(`  ${'geomean (wall)'.padEnd(24)}${columns.map((c) =>
  geomean(kQueries.map(([query]) => ratios[`${c.q}/${query}/${c.t}`].wall)).toFixed(2).padEnd(18)).join('').trimEnd()}`);
out(`  ${'worst (wall)'.padEnd(24)}${columns.map((c) =>
  Math.max(...kQueries.map(([query]) => ratios[`${c.q}/${query}/${c.t}`].wall)).toFixed(2).padEnd(18)).join('').trimEnd()}`);
if (mismatches.length > 0) {
  out();
  out(`RESULTS DIFFER (${mismatches.length}):`);
  for (const m of mismatches) out(`  ${m}`);
} else {
  out();
  out('Results: quarry and DuckDB agree on every query, at every thread count, in every round.');
}
console.log(lines.join('\n'));

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    files: args.files, bytes, cpu: cpuModel(), cores: os.cpus().length, runs: args.runs, loadBefore, loadAfter,
    duckdb: info, medianWallMs: med, medianCpuMs: medCpu, ratios, mismatches, samplesMs: samples,
  }, null, 2) + '\n');
}
if (mismatches.length > 0) process.exit(1);
