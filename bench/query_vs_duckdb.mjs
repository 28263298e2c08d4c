// Times whole `quarry query` runs (a process each: start-up, footers, planning,
// execution, output) against DuckDB running the same SQL in one persistent
// in-process connection (no start-up, footers cached after the first run), both
// with 2 threads, in one run, and prints the medians and the medians of the
// per-round ratios. DuckDB's side is favoured; a ratio <= 1.0 means quarry is at
// least as fast anyway.
//
// Usage: node bench/query_vs_duckdb.mjs --quarry BIN [--timer BIN] [--runs N]
//          [--threads T] [--small-files DIR] [--only REGEX] FILE...
//
// Queries (over lineitem files, bench/make-lineitem.mjs): TPC-H Q1 and Q6, a
// grouped COUNT by a low-cardinality string, a full-scan SUM, and an ungrouped
// COUNT(*)/MIN/MAX that quarry answers from footer statistics while DuckDB scans
// the column for MIN/MAX. With --small-files, the same COUNT(*)/MIN/MAX over
// 1,000 small files under DIR (DIR/p=<n>/*.parquet, written by DuckDB here when
// DIR does not hold them). Results are compared (doubles to 1e-9 relative).
//
// quarry keeps its metadata cache (listings and footers of local files, kept
// across queries and checked against each file's and directory's stat) in a
// directory of its own for the run: the warm-up round fills it, as DuckDB's
// first run fills its caches. The 1,000-file case also runs with
// --no-metadata-cache ("no cache"): every directory listed and every footer read.
// --only keeps the cases whose name matches REGEX.
//
// Besides the whole process, each quarry run's `--profile` elapsed_ms is kept
// (parsing, footers, planning, execution: the process's start-up, exit and
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
import { median, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
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

/// The COUNT(*)/MIN/MAX case over the small files, with quarry's metadata cache
/// and without it.
function smallFilesQueries(dir) {
  const glob = join(dir, '*', '*.parquet');
  const query = `FROM "${glob}" | STATS n = COUNT(*), lo = MIN(k), hi = MAX(k)`;
  const sql = `SELECT count(*) AS n, min(k) AS lo, max(k) AS hi FROM read_parquet('${glob}', hive_partitioning = false)`;
  return [['1000 files c/min/max', query, sql], ['1000 files, no cache', query, sql, ['--no-metadata-cache']]];
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
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run(`SET threads = ${args.threads}`);

let cases = queries(args.files);
if (args.smallFiles) {
  await writeSmallFiles(connection, args.smallFiles);
  cases.push(...smallFilesQueries(args.smallFiles));
}
if (args.only) cases = cases.filter(([name]) => args.only.test(name));
const samples = new Map(cases.map(([name]) => [name, { quarry: [], engine: [], duckdb: [], ratio: [], engineRatio: [] }]));
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

const floor = [];
const trueFloor = [];
let mismatches = 0;
for (let round = -1; round < args.runs; ++round) {  // round -1 warms both sides up
  for (const [name, query, sql, flags = []] of cases) {
    const { r, ms: quarryMs } = timedRun(args.quarry, ['query', '--threads', String(args.threads), '--format', 'csv',
                                                      '--profile', ...flags, query]);
    if (r.status !== 0) {
      console.error(`query_vs_duckdb: ${name}: quarry exited with ${r.status ?? r.signal}: ${r.stderr}`);
      process.exit(1);
    }
    globalThis.gc?.();
    const duckStart = nowMs();
    const reader = await connection.runAndReadAll(sql);
    const duckMs = nowMs() - duckStart;
    if (round === -1) {
      const duckRows = reader.getRows().map((row) => row.map((v) => (v === null ? '' : String(v))));
      if (!sameRows(csvRows(r.stdout), duckRows)) {
        ++mismatches;
        console.error(`MISMATCH ${name}:\n  quarry ${JSON.stringify(csvRows(r.stdout))}\n  duckdb ${JSON.stringify(duckRows)}`);
      }
      continue;
    }
    samples.get(name).quarry.push(quarryMs);
    // --profile writes its JSON on stderr, a pipe here (--profile-out's file
    // truncation and rewrite cost the file system ~0.25 ms a run, not the query).
    const engineMs = JSON.parse(r.stderr.trim().split('\n').pop()).elapsed_ms;
    samples.get(name).engine.push(engineMs);
    samples.get(name).ratio.push(quarryMs / duckMs);
    samples.get(name).engineRatio.push(engineMs / duckMs);
    samples.get(name).duckdb.push(duckMs);
  }
}
for (let i = 0; i < Math.max(args.runs, 5); ++i) {
  floor.push(timedRun(args.quarry, ['--version']).ms);
  trueFloor.push(timedRun('/bin/true', []).ms);
}
rmSync(timingDir, { recursive: true, force: true });
connection.closeSync();
instance.closeSync();

console.log(`query_vs_duckdb: ${args.files.length} files, ${args.threads} threads, median of ${args.runs} runs, ` +
            `${cpuModel()} (${os.cpus().length} CPUs)`);
console.log('query                 quarry ms   DuckDB ms   ratio   in-process ms   ratio');
for (const [name] of cases) {
  const s = samples.get(name);
  // Ratios: the median of the per-round ratios (a round's two figures share its load).
  const q = median(s.quarry), d = median(s.duckdb), e = median(s.engine);
  console.log(`${name.padEnd(20)} ${fmtMs(q).padStart(10)} ${fmtMs(d).padStart(11)}` +
              ` ${median(s.ratio).toFixed(2).padStart(7)} ${fmtMs(e).padStart(15)}` +
              ` ${median(s.engineRatio).toFixed(2).padStart(7)}`);
}
console.log(`process floor (quarry --version): ${fmtMs(median(floor))} ms; /bin/true: ${fmtMs(median(trueFloor))} ms ` +
            `(${args.timer ? 'processes timed by ' + args.timer : 'processes timed around node spawnSync'})`);
if (mismatches > 0) {
  console.error(`query_vs_duckdb: ${mismatches} result(s) differ from DuckDB's`);
  process.exit(1);
}
