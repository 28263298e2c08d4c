// Times quarry's ORC scans and chDB's (embedded ClickHouse) on the same ORC files in
// one run, at 1 and 2 threads, checks that both compute the same results, and
// prints the figures with their ratios. bench/run.sh orc builds orc_scan_benchmark
// and the lineitem Parquet files (bench/make-lineitem.mjs), then calls this.
//
// Usage: node bench/orc_vs_chdb.mjs --bench BIN --orc-dir DIR [--runs N]
//          [--threads 1,2] [--json OUT] PARQUET_FILE...
//   --bench    the orc_scan_benchmark binary (quarry, in-process times)
//   --orc-dir  where the ORC files go: each Parquet file is converted by chDB
//              (`SELECT * FROM file(..., Parquet) INTO OUTFILE ... FORMAT ORC`,
//              ClickHouse's defaults: ZSTD, 256 KiB compression blocks, row index
//              stride 10,000), again only when the Parquet file is newer
//   --runs     rounds; each runs every measurement once, each figure is a median
//              over the rounds (default 15)
//   --threads  thread counts to compare (default 1,2)
//   --json     also writes every figure to OUT
//
// The queries: sum(l_extendedprice) over every row, and count(*) with
// sum(l_extendedprice) where l_partkey = 100000 (30 rows of 6M). quarry runs each
// as one orc_scan_benchmark process (one untimed warm-up, then one timed run, in
// process), also with a warm heap (below); chDB in this process, `SETTINGS max_threads = N`, the result text
// parsed after the clock stops. chDB is timed twice for the filter: as it runs by
// default (input_format_orc_filter_push_down = 1: stripes and row groups whose
// statistics exclude the key are skipped; here none are, the keys are spread)
// and without push-down. Rounds alternate quarry's and chDB's measurements after
// one untimed warm-up round; a ratio is the median of the per-round ratios.
//
// Cache states: the OS page cache is warm on both sides (the warm-up round reads
// every file). "uncached" (the headline): quarry reads and decodes every file's
// tail in the timed run. "cached": quarry's timed run opens the files with the
// tails and schemas its warm-up run read (orc_scan_benchmark --metadata cached).
// chDB runs at its defaults in both: it has no cache of ORC file tails, so its
// runs are the same ones. Every timed run's result is checked against chDB's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuModel, fmtMs, median, nowMs, parseFileArgs } from './bench_support.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kPartKey = 100000;

// [orc_scan_benchmark --query (or a chDB-only key), label, chDB SELECT list, WHERE, settings]
const kQueries = [
  ['extendedprice', 'SELECT sum(l_extendedprice)', 'count(), sum(l_extendedprice)', '', ''],
  ['partkey', `count(*), sum(l_extendedprice) WHERE l_partkey = ${kPartKey}`,
    'count(), sum(l_extendedprice)', `WHERE l_partkey = ${kPartKey}`, ''],
  ['partkeyNoPushdown', 'the same, input_format_orc_filter_push_down = 0',
    'count(), sum(l_extendedprice)', `WHERE l_partkey = ${kPartKey}`, ', input_format_orc_filter_push_down = 0'],
];

function loadChdb() {
  const dir = process.env.QUARRY_ORACLE_DIR ?? path.join(root, 'tools', 'oracle');
  return createRequire(path.join(dir, 'package.json'))('chdb');
}

const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;

/// Converts each Parquet file to DIR/<name>.orc unless an ORC file newer than it
/// exists; returns the ORC paths.
function convert(chdb, parquetFiles, orcDir) {
  mkdirSync(orcDir, { recursive: true });
  return parquetFiles.map((file) => {
    const orc = path.join(orcDir, `${path.basename(file, '.parquet')}.orc`);
    if (existsSync(orc) && statSync(orc).mtimeMs >= statSync(file).mtimeMs) return orc;
    console.error(`orc_vs_chdb: converting ${file} to ${orc} with chDB`);
    const partial = `${orc}.partial`;
    chdb.query(`SELECT * FROM file(${sqlString(file)}, Parquet) INTO OUTFILE ${sqlString(partial)} ` +
               'TRUNCATE FORMAT ORC', 'CSV');
    renameSync(partial, orc);
    return orc;
  });
}

// glibc settings that keep freed memory in the process (no heap trimming, no mmap
// below 32 MB), as scan_vs_duckdb.mjs's "warm heap" rows: what the scan costs once
// the kernel no longer hands out and zeroes fresh pages for every stripe's vectors.
const kWarmHeapTunables = 'glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432';

function runQuarry(bench, query, threads, files, { warmHeap = false, cached = false } = {}) {
  const env = { ...process.env };
  if (warmHeap) env.GLIBC_TUNABLES = kWarmHeapTunables;
  const r = spawnSync(bench, ['--query', query, '--threads', String(threads), '--runs', '1', '--warmup', '1',
                              '--metadata', cached ? 'cached' : 'uncached', ...files], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    console.error(`orc_vs_chdb: ${bench} --query ${query} exited with ${r.status ?? r.signal}: ${r.stderr}`);
    process.exit(1);
  }
  const out = JSON.parse(r.stdout);
  return { wall: out.runs[0].wallMs, cpu: out.runs[0].cpuMs, values: [Number(out.result.count), out.result.sum] };
}

function runChdb(chdb, files, [, , select, where, settings], threads) {
  const list = files.length === 1 ? files[0] : `{${files.map((f) => path.basename(f)).join(',')}}`;
  const from = files.length === 1 ? list : path.join(path.dirname(files[0]), list);
  const sql = `SELECT ${select} FROM file(${sqlString(from)}, ORC) ${where} ` +
              `SETTINGS max_threads = ${threads}${settings}`;
  globalThis.gc?.();
  const cpuStart = process.cpuUsage();
  const start = nowMs();
  const text = chdb.query(sql, 'TSV');
  const wall = nowMs() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1e3, values: text.trim().split('\t').map(Number) };
}

/// Sums of doubles differ in the last bits with the order of additions.
function sameValues(a, b) {
  return a.length === b.length &&
      a.every((x, i) => Math.abs(x - b[i]) <= 1e-9 * Math.max(Math.abs(x), Math.abs(b[i])));
}

const argv = process.argv.slice(2);
const orcDirAt = argv.indexOf('--orc-dir');
if (orcDirAt < 0 || orcDirAt + 1 >= argv.length) {
  console.error('usage: node orc_vs_chdb.mjs --bench BIN --orc-dir DIR [--runs N] [--threads 1,2] ' +
                '[--json OUT] PARQUET_FILE...');
  process.exit(2);
}
const orcDir = argv.splice(orcDirAt, 2)[1];
const args = parseFileArgs(argv, 'orc_vs_chdb');
const chdb = loadChdb();
const files = convert(chdb, args.files, orcDir);
const version = chdb.query('SELECT version()', 'TSV').trim();
const rows = Number(chdb.query(`SELECT count() FROM file(${sqlString(path.join(orcDir, '*.orc'))}, ORC)`,
                               'TSV'));
const mismatches = [];

/// One round: every measurement once, quarry's and chDB's in turn, so that a change
/// in the machine's load shifts both sides instead of one.
function runRound() {
  const sample = {};
  for (const threads of args.threads) {
    for (const query of kQueries) {
      const [key] = query;
      const c = runChdb(chdb, files, query, threads);
      sample[`chdb/${key}/${threads}`] = c;
      if (key === 'partkeyNoPushdown') continue;
      const q = runQuarry(args.bench, key, threads, files);
      const qWarm = runQuarry(args.bench, key, threads, files, { warmHeap: true });
      const qCached = runQuarry(args.bench, key, threads, files, { cached: true });
      sample[`quarry/${key}/${threads}`] = q;
      sample[`quarryWarm/${key}/${threads}`] = qWarm;
      sample[`quarryCached/${key}/${threads}`] = qCached;
      for (const [side, s] of [['quarry', q], ['quarry (warm heap)', qWarm], ['quarry (cached)', qCached]]) {
        if (sameValues(s.values, c.values)) continue;
        const message = `MISMATCH ${key} at ${threads} thread(s): ${side} ${JSON.stringify(s.values)}, ` +
                        `chDB ${JSON.stringify(c.values)}`;
        console.error(`\norc_vs_chdb: ${message}`);
        mismatches.push(message);
      }
    }
  }
  return sample;
}

const loadBefore = os.loadavg()[0];
console.error(`orc_vs_chdb: ${args.runs} rounds (and one warm-up), each running every measurement once`);
runRound();
const samples = [];
for (let r = 0; r < args.runs; ++r) {
  samples.push(runRound());
  process.stderr.write(`\r  round ${r + 1}/${args.runs}`);
}
process.stderr.write('\n');
const loadAfter = os.loadavg()[0];
const med = {};
const medCpu = {};
for (const key of Object.keys(samples[0])) {
  med[key] = median(samples.map((s) => s[key].wall));
  medCpu[key] = median(samples.map((s) => s[key].cpu));
}

const bytes = files.reduce((total, f) => total + statSync(f).size, 0);
const lines = [];
const out = (s = '') => lines.push(s);
const row = (label, key) =>
  out(`  ${label.padEnd(66)} ${fmtMs(med[key]).padStart(8)} ${fmtMs(medCpu[key]).padStart(8)}`);
out(`ORC scan: ${files.length} files, ${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB ` +
    '(written by chDB from the lineitem Parquet files: ZSTD, one stripe a file)');
out(`  ${cpuModel()}, ${os.cpus().length} cores; chDB ${version}; medians of ${args.runs} ` +
    `round${args.runs === 1 ? '' : 's'}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
out();
out(`${'medians in ms'.padEnd(68)} ${'wall'.padStart(8)} ${'cpu'.padStart(8)}`);
for (const threads of args.threads) {
  const t = `${threads} thread${threads === 1 ? '' : 's'}`;
  out(`quarry, ${t} (orc_scan_benchmark: files handed out to ${t})`);
  for (const [key, label] of kQueries.slice(0, 2)) row(label, `quarry/${key}/${threads}`);
  out(`quarry, ${t}, warm heap (glibc keeps freed memory)`);
  for (const [key, label] of kQueries.slice(0, 2)) row(label, `quarryWarm/${key}/${threads}`);
  out(`quarry, ${t}, cached (tails the warm-up run read)`);
  for (const [key, label] of kQueries.slice(0, 2)) row(label, `quarryCached/${key}/${threads}`);
  out(`chDB, max_threads = ${threads}, in process`);
  for (const [key, label] of kQueries) row(label, `chdb/${key}/${threads}`);
}
out();
out('quarry / chDB, median of per-round ratios, wall (cpu); below 1: quarry faster');
const kVariants = [['quarry', 'uncached'], ['quarryCached', 'cached'], ['quarryWarm', 'warm heap']];
out(`  ${''.padEnd(44)}${kVariants.flatMap(([, heading]) => args.threads.map((t) => `${heading}, ${t}`.padEnd(16)))
  .join('').trimEnd()}`);
const ratios = {};
for (const [q, d, label] of [['extendedprice', 'extendedprice', 'sum(l_extendedprice)'],
  ['partkey', 'partkey', 'l_partkey = 100000'],
  ['partkey', 'partkeyNoPushdown', 'l_partkey = 100000, chDB no push-down']]) {
  let line = `  ${label.padEnd(44)}`;
  for (const [variant] of kVariants) {
    for (const threads of args.threads) {
      const qk = `${variant}/${q}/${threads}`;
      const dk = `chdb/${d}/${threads}`;
      const wall = median(samples.map((s) => s[qk].wall / s[dk].wall));
      const cpu = median(samples.map((s) => s[qk].cpu / s[dk].cpu));
      ratios[`${variant}/${q}/${d}/${threads}`] = { wall, cpu };
      line += `${wall.toFixed(2)} (${cpu.toFixed(2)})`.padEnd(16);
    }
  }
  out(line.trimEnd());
}
out();
if (mismatches.length > 0) {
  out(`RESULTS DIFFER (${mismatches.length}):`);
  for (const m of mismatches) out(`  ${m}`);
} else {
  out('Results: quarry and chDB agree on every query, at every thread count, in every round.');
}
console.log(lines.join('\n'));

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    files, bytes, rows, cpu: cpuModel(), cores: os.cpus().length, runs: args.runs, loadBefore, loadAfter,
    chdb: version, medianWallMs: med, medianCpuMs: medCpu, ratios, mismatches, samplesMs: samples,
  }, null, 2) + '\n');
}
if (mismatches.length > 0) process.exit(1);
