// Times whole `quarry query` runs (a process each: start-up, footers, planning,
// execution, output) against DuckDB running the same SQL in a persistent
// in-process connection (no start-up), both with 2 threads, in one run, four ways
// in every round:
//
//   first query   quarry --no-metadata-cache   against DuckDB with its defaults
//                 (parquet_metadata_cache off): what a user's first query costs;
//                 this is the headline ratio.
//   cached        quarry with its metadata cache (listings and footers of local
//                 files, filled by the warm-up round) against DuckDB with
//                 parquet_metadata_cache on (filled by the same warm-up round).
//
// Both sides read the files through a warm OS page cache (the warm-up round reads
// every file); DuckDB keeps its external file cache at its default (on) in both
// columns. Every timed run's result is checked against DuckDB's result of the same
// round (doubles to 1e-9 relative): a difference fails the run. Ratios are the
// medians of the per-round ratios; across the queries the geometric mean and the
// worst are printed for both columns.
//
// Usage: node bench/query_vs_duckdb.mjs --quarry BIN [--timer BIN] [--runs N]
//          [--threads T] [--small-files DIR] [--only REGEX] FILE...
//
// Queries (over lineitem files, bench/make-lineitem.mjs, bench/lineitem_queries.mjs):
// the shapes of TPC-H Q1 and Q6 (over a DOUBLE l_extendedprice), a grouped COUNT by a
// low-cardinality string, a full-scan SUM, and an ungrouped COUNT(*)/MIN/MAX that
// quarry answers from footer statistics while DuckDB scans the column for MIN/MAX.
// With --small-files, the same COUNT(*)/MIN/MAX over 1,000 small files under DIR
// (DIR/p=<n>/*.parquet, written by DuckDB here when DIR does not hold them).
// --only keeps the cases whose name matches REGEX.
//
// Besides the whole process, each uncached quarry run's `--profile` elapsed_ms is
// kept (parsing, footers, planning, execution: the process's start-up, exit and
// output excluded), and the median of `quarry --version` runs is printed as the
// process floor: what any quarry run costs before it does any work.
//
// With --timer BIN (bench/process_timer.cc; bench/run.sh passes it), each quarry
// process is started and timed by that small program: node forking itself (a
// process of hundreds of megabytes, DuckDB loaded) would add milliseconds that
// are node's, not quarry's. Without it, quarry is timed around node's spawnSync,
// and `/bin/true` started the same way shows what that adds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { median, geometricMean, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
import { loadDuckDB } from './load_duckdb.mjs';
import { lineitemQueries as queries } from './lineitem_queries.mjs';

function parseArgs(argv) {
  const args = { quarry: null, timer: null, runs: 7, threads: 2, smallFiles: null, only: null, files: [] };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--quarry') args.quarry = argv[++i];
    else if (argv[i] === '--timer') args.timer = argv[++i];
    else if (argv[i] === '--runs') args.runs = Number(argv[++i]);
    else if (argv[i] === '--threads') args.threads = Number(argv[++i]);
    else if (argv[i] === '--small-files') args.smallFiles = argv[++i];
    else if (argv[i] === '--only') args.only = new RegExp(argv[++i]);
    else args.files.push(argv[i]);
  }
  if (!args.quarry || args.files.length === 0) {
    console.error('usage: node bench/query_vs_duckdb.mjs --quarry BIN [--timer BIN] [--runs N] [--threads T] ' +
                  '[--small-files DIR] [--only REGEX] FILE...');
    process.exit(2);
  }
  return args;
}

const kSmallFiles = 1000;

/// Writes kSmallFiles Parquet files of 1 to 40 rows each (k BIGINT with nulls,
/// v VARCHAR) under `dir`, one per partition directory, unless they are there.
async function writeSmallFiles(connection, dir) {
  const count = existsSync(dir) ? readdirSync(dir).filter((d) => d.startsWith('p=')).length : 0;
  if (count === kSmallFiles) return;
  console.error(`query_vs_duckdb: writing ${kSmallFiles} small files under ${dir} with DuckDB`);
  rmSync(dir, { recursive: true, force: true });
  await connection.run(`COPY (SELECT i % ${kSmallFiles} AS p,
        CASE WHEN hash(i) % 7 = 0 THEN NULL ELSE (hash(i) % 1000000)::BIGINT - 500000 END AS k,
        md5(i::VARCHAR) AS v
      FROM range(${kSmallFiles} * 20) t(i)
      WHERE i < ${kSmallFiles} OR hash(i * 3) % 40 <= (i % ${kSmallFiles}) % 40)
    TO '${dir}' (FORMAT parquet, PARTITION_BY (p))`);
}

/// The COUNT(*)/MIN/MAX case over the small files.
function smallFilesQueries(dir) {
  const glob = join(dir, '*', '*.parquet');
  const query = `FROM "${glob}" | STATS n = COUNT(*), lo = MIN(k), hi = MAX(k)`;
  const sql = `SELECT count(*) AS n, min(k) AS lo, max(k) AS hi FROM read_parquet('${glob}', hive_partitioning = false)`;
  return [['1000 files c/min/max', query, sql]];
}

/// The rows of a CSV text without its header, each a list of cells.
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
const { DuckDBInstance } = await loadDuckDB();
/// A DuckDB instance and connection with `threads` and the given settings.
async function duckdbWith(settings) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET threads = ${args.threads}`);
  for (const setting of settings) await connection.run(`SET ${setting}`);
  return { instance, connection };
}
// DuckDB's defaults (its metadata cache off), and the same with the cache on.
const duckdbFirst = await duckdbWith(['parquet_metadata_cache = false']);
const duckdbCached = await duckdbWith(['parquet_metadata_cache = true']);

let cases = queries(args.files);
if (args.smallFiles) {
  await writeSmallFiles(duckdbFirst.connection, args.smallFiles);
  cases.push(...smallFilesQueries(args.smallFiles));
}
if (args.only) cases = cases.filter(([name]) => args.only.test(name));
const kSides = ['quarry', 'duckdb', 'quarryCached', 'duckdbCached'];
const samples = new Map(cases.map(([name]) => [name, {
  quarry: [], duckdb: [], quarryCached: [], duckdbCached: [], engine: [], ratio: [], cachedRatio: [],
}]));
const timingDir = mkdtempSync(join(os.tmpdir(), 'quarry-bench-'));
const timingPath = join(timingDir, 'ms.txt');
// The run's own metadata cache: filled by the warm-up round, not by earlier runs.
process.env.QUARRY_CACHE_DIR = join(timingDir, 'cache');

/// Runs `program` with `argv`; returns spawnSync's result and the process's wall
/// time in ms (through --timer when given).
function timedRun(program, argv) {
  const start = nowMs();
  const r = args.timer
    ? spawnSync(args.timer, [timingPath, program, ...argv], { encoding: 'utf8', maxBuffer: 16 << 20 })
    : spawnSync(program, argv, { encoding: 'utf8', maxBuffer: 16 << 20 });
  const ms = nowMs() - start;
  return { r, ms: args.timer && r.status === 0 ? Number(readFileSync(timingPath, 'utf8')) : ms };
}

/// One quarry run of `query`; exits the benchmark when quarry fails.
function runQuarry(name, query, flags) {
  const run = timedRun(args.quarry, ['query', '--threads', String(args.threads), '--format', 'csv',
                                     '--profile', ...flags, query]);
  if (run.r.status !== 0) {
    console.error(`query_vs_duckdb: ${name}: quarry exited with ${run.r.status ?? run.r.signal}: ${run.r.stderr}`);
    process.exit(1);
  }
  return run;
}

/// One timed DuckDB run of `sql`; the rows are converted after the timing.
async function runDuckDB(side, sql) {
  globalThis.gc?.();
  const start = nowMs();
  const reader = await side.connection.runAndReadAll(sql);
  const ms = nowMs() - start;
  return { ms, rows: reader.getRows().map((row) => row.map((v) => (v === null ? '' : String(v)))) };
}

let checked = 0;
let mismatches = 0;
/// Compares a quarry run's CSV with DuckDB's rows of the same round.
function check(name, label, csv, duckRows) {
  ++checked;
  if (sameRows(csvRows(csv), duckRows)) return;
  ++mismatches;
  console.error(`MISMATCH ${name} (${label}):\n  quarry ${JSON.stringify(csvRows(csv))}\n  duckdb ${JSON.stringify(duckRows)}`);
}

const floor = [];
const trueFloor = [];
for (let round = -1; round < args.runs; ++round) {  // round -1 warms both sides (and their caches) up
  for (const [name, query, sql] of cases) {
    const first = runQuarry(name, query, ['--no-metadata-cache']);
    const duckFirst = await runDuckDB(duckdbFirst, sql);
    const cached = runQuarry(name, query, []);
    const duckCached = await runDuckDB(duckdbCached, sql);
    check(name, 'first query', first.r.stdout, duckFirst.rows);
    check(name, 'cached', cached.r.stdout, duckCached.rows);
    if (round === -1) continue;
    const s = samples.get(name);
    s.quarry.push(first.ms);
    s.duckdb.push(duckFirst.ms);
    s.quarryCached.push(cached.ms);
    s.duckdbCached.push(duckCached.ms);
    // --profile writes its JSON on stderr, a pipe here (--profile-out's file
    // truncation and rewrite cost the file system ~0.25 ms a run, not the query).
    s.engine.push(JSON.parse(first.r.stderr.trim().split('\n').pop()).elapsed_ms);
    s.ratio.push(first.ms / duckFirst.ms);
    s.cachedRatio.push(cached.ms / duckCached.ms);
  }
}
for (let i = 0; i < Math.max(args.runs, 5); ++i) {
  floor.push(timedRun(args.quarry, ['--version']).ms);
  trueFloor.push(timedRun('/bin/true', []).ms);
}
rmSync(timingDir, { recursive: true, force: true });
for (const side of [duckdbFirst, duckdbCached]) {
  side.connection.closeSync();
  side.instance.closeSync();
}

console.log(`query_vs_duckdb: ${args.files.length} files, ${args.threads} threads, median of ${args.runs} runs, ` +
            `${cpuModel()} (${os.cpus().length} CPUs); OS page cache warm on both sides`);
console.log(`${''.padEnd(22)} ${'first query: no metadata caches'.padEnd(36)} ${'metadata caches warm'.padEnd(32)}`);
console.log(`${'query'.padEnd(22)} ${'quarry ms'.padStart(10)} ${'DuckDB ms'.padStart(10)} ${'ratio'.padStart(6)}` +
            `    ${'quarry ms'.padStart(10)} ${'DuckDB ms'.padStart(10)} ${'ratio'.padStart(6)}   ${'quarry in-process ms'.padStart(20)}`);
const firstRatios = [];
const cachedRatios = [];
for (const [name] of cases) {
  const s = samples.get(name);
  // Ratios: the median of the per-round ratios (a round's figures share its load).
  const ratio = median(s.ratio), cachedRatio = median(s.cachedRatio);
  firstRatios.push([name, ratio]);
  cachedRatios.push([name, cachedRatio]);
  console.log(`${name.padEnd(22)} ${fmtMs(median(s.quarry)).padStart(10)} ${fmtMs(median(s.duckdb)).padStart(10)}` +
              ` ${ratio.toFixed(2).padStart(6)}    ${fmtMs(median(s.quarryCached)).padStart(10)}` +
              ` ${fmtMs(median(s.duckdbCached)).padStart(10)} ${cachedRatio.toFixed(2).padStart(6)}` +
              `   ${fmtMs(median(s.engine)).padStart(20)}`);
}
const worst = (ratios) => ratios.reduce((a, b) => (b[1] > a[1] ? b : a));
const summary = (ratios) => `geometric mean ${geometricMean(ratios.map((r) => r[1])).toFixed(2)}, ` +
    `worst ${worst(ratios)[1].toFixed(2)} (${worst(ratios)[0]})`;
console.log(`first query (quarry --no-metadata-cache / DuckDB parquet_metadata_cache=false): ${summary(firstRatios)}`);
console.log(`cached (quarry metadata cache / DuckDB parquet_metadata_cache=true):             ${summary(cachedRatios)}`);
console.log(`process floor (quarry --version): ${fmtMs(median(floor))} ms; /bin/true: ${fmtMs(median(trueFloor))} ms ` +
            `(${args.timer ? 'processes timed by ' + args.timer : 'processes timed around node spawnSync'})`);
console.log(`results checked: ${checked} quarry runs against DuckDB's of the same round, ${mismatches} differ`);
if (mismatches > 0) {
  console.error(`query_vs_duckdb: ${mismatches} result(s) differ from DuckDB's`);
  process.exit(1);
}
