// Times whole `quarry query` runs over a hive-partitioned dataset of 1,000
// partitions (year=2000..2099/month=1..10, one file each, written by DuckDB's
// COPY ... PARTITION_BY) against DuckDB's read_parquet(..., hive_partitioning =
// true) running the same question in a persistent in-process connection, both
// with 2 threads, in one run:
//
//   one partition   WHERE year == 2024 AND month == 6 | STATS COUNT(*), SUM(x):
//                   quarry prunes 999 files by their paths before any footer read
//   grouped         STATS c = COUNT(*), lo = MIN(x), hi = MAX(x) BY year, month:
//                   quarry answers every group from footer statistics
//
// Each round runs both sides once per query (after one untimed warm-up round,
// which also warms the OS page cache); quarry runs with --no-metadata-cache (a
// first query). Every answer is checked against DuckDB's of the same round (rows
// compared as text, in any order): a difference fails the run. Prints the median
// times and their ratio; docs/PERFORMANCE.md records figures measured on a quiet
// machine.
//
// With --timer BIN (bench/process_timer.cc; bench/run.sh passes it) each quarry
// process is timed from its spawn to its exit by that program, without node's own
// cost of starting a child (10-20 ms, more than the queries themselves); without it,
// around node's spawnSync.
//
// Usage: node bench/hive_vs_duckdb.mjs --quarry BIN --dir DIR [--timer BIN] [--runs N]
//   DIR/sales is written when it does not hold the 1,000 files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, nowMs, fmtMs } from './bench_support.mjs';
import { loadDuckDB } from './load_duckdb.mjs';

const kYears = 100;
const kMonths = 10;
const kRowsPerPartition = 2000;
const timingDir = mkdtempSync(join(tmpdir(), 'quarry-hive-'));

function parseArgs(argv) {
  const args = { quarry: null, dir: null, timer: null, runs: 7 };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--quarry') args.quarry = argv[++i];
    else if (argv[i] === '--dir') args.dir = argv[++i];
    else if (argv[i] === '--timer') args.timer = argv[++i];
    else if (argv[i] === '--runs') args.runs = Number(argv[++i]);
    else {
      console.error('usage: node bench/hive_vs_duckdb.mjs --quarry BIN --dir DIR [--timer BIN] [--runs N]');
      process.exit(2);
    }
  }
  if (!args.quarry || !args.dir) {
    console.error('hive_vs_duckdb: --quarry and --dir are required');
    process.exit(2);
  }
  return args;
}

function countFiles(dir) {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.parquet')) n++;
  }
  return n;
}

/// The rows of `quarry query --format csv` (header dropped), as text, and the
/// process's time (by `timer` when given).
function runQuarry(quarry, timer, query) {
  const argv = [quarry, 'query', '--format', 'csv', '--threads', '2', '--no-metadata-cache', query];
  const timingPath = timer ? join(timingDir, 'ms.txt') : null;
  const command = timer ? [timer, timingPath, ...argv] : argv;
  const started = nowMs();
  const r = spawnSync(command[0], command.slice(1), { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = timer && r.status === 0 ? Number(readFileSync(timingPath, 'utf8')) : nowMs() - started;
  if (r.status !== 0) {
    console.error(`hive_vs_duckdb: quarry failed (${r.status ?? r.signal}): ${r.stderr}`);
    process.exit(1);
  }
  return { ms, rows: r.stdout.trim().split('\n').slice(1) };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const duck = await instance.connect();
  const root = join(args.dir, 'sales');
  if (countFiles(root) !== kYears * kMonths) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(args.dir, { recursive: true });
    process.stderr.write(`hive_vs_duckdb: writing ${kYears * kMonths} partitions under ${root}\n`);
    // One file per partition: one thread (more write one file per thread), each
    // partition's rows together (DuckDB closes and later reopens a partition's file,
    // as a new file, when more than partitioned_write_max_open_files are open).
    await duck.run('SET threads = 1');
    await duck.run(`COPY (SELECT 2000 + (i // ${kMonths}) % ${kYears} AS year, 1 + i % ${kMonths} AS month,
          i AS id, (i * 7919) % 1000003 AS x
        FROM range(${kYears * kMonths * kRowsPerPartition}) t(i) ORDER BY year, month, id)
      TO '${root}' (FORMAT parquet, PARTITION_BY (year, month))`);
    await duck.run('SET threads = 2');
  }
  const glob = join(root, '**', '*.parquet');
  const from = `read_parquet('${glob}', hive_partitioning = true)`;
  const queries = [
    { name: 'one partition',
      quarry: `FROM "${glob}" | WHERE year == 2024 AND month == 6 | STATS c = COUNT(*), s = SUM(x)`,
      sql: `SELECT count(*) AS c, sum(x) AS s FROM ${from} WHERE year = 2024 AND month = 6` },
    { name: 'grouped COUNT/MIN/MAX',
      quarry: `FROM "${glob}" | STATS c = COUNT(*), lo = MIN(x), hi = MAX(x) BY year, month`,
      sql: `SELECT count(*) AS c, min(x) AS lo, max(x) AS hi, year, month FROM ${from} GROUP BY year, month` },
  ];
  const times = queries.map(() => ({ quarry: [], duckdb: [] }));
  for (let round = 0; round <= args.runs; ++round) {
    for (const [q, query] of queries.entries()) {
      const started = nowMs();
      const reader = await duck.runAndReadAll(query.sql);
      const duckMs = nowMs() - started;
      const expected = reader.getRows().map((row) => row.map(String).join(',')).sort();
      const run = runQuarry(args.quarry, args.timer, query.quarry);
      const got = [...run.rows].sort();
      if (got.join('\n') !== expected.join('\n')) {
        console.error(`hive_vs_duckdb: ${query.name}: quarry's ${got.length} rows differ from DuckDB's ` +
                      `${expected.length} (first: ${got[0]} vs ${expected[0]})`);
        process.exit(1);
      }
      if (round === 0) continue;  // the warm-up round
      times[q].quarry.push(run.ms);
      times[q].duckdb.push(duckMs);
    }
  }
  process.stdout.write(`hive_vs_duckdb: ${kYears * kMonths} partitions, ${args.runs} rounds, answers equal; ` +
                       `quarry timed ${args.timer ? 'by ' + args.timer : 'around node spawnSync'}\n`);
  rmSync(timingDir, { recursive: true, force: true });
  for (const [q, query] of queries.entries()) {
    const quarryMs = median(times[q].quarry), duckMs = median(times[q].duckdb);
    process.stdout.write(`  ${query.name.padEnd(24)} quarry ${fmtMs(quarryMs)} ms  DuckDB ${fmtMs(duckMs)} ms  ` +
                         `ratio ${(quarryMs / duckMs).toFixed(2)}\n`);
  }
}

await main();
