// Times ClickBench's 43 queries (bench/clickbench_queries.mjs) over a hits dataset
// (bench/make-clickbench.mjs) as whole `quarry query` processes against DuckDB
// running the same queries in SQL, with chDB's times beside them, all with the same
// number of threads, in one run. Per query and round:
//
//   cold   quarry: a fresh process with --no-metadata-cache (start-up, listing,
//          footers, planning, execution, output); DuckDB: a new in-memory instance
//          and connection (its defaults: parquet_metadata_cache off), the view
//          `hits` created before the clock starts; chDB: the query's first run in
//          this process (round 1 only; chDB's caches are the process's).
//   hot    the best of three runs: quarry with its metadata cache (filled by the
//          first of them), DuckDB on one persistent connection with
//          parquet_metadata_cache on, chDB in this process.
//
// Every file is read once before the first round, so the OS page cache is warm for
// every engine and column. Every timed quarry run's result is checked against
// DuckDB's result of the same round and kind (doubles to 1e-9 relative, integers and
// text exactly; for an OFFSET query, quarry's rows after the offset): a difference
// fails the run, loudly, at the end. chDB's results are checked the same way and a
// difference is reported as a warning (chDB is a reference for time, not an oracle).
// Query 18 (GROUP BY without ORDER BY, any 10 groups) is checked group by group.
// Queries quarry cannot run yet are listed as pending with the reason; those with an
// interim form (clickbench_queries.mjs: a form with the same answer that quarry runs
// today) are timed and checked with it and marked *, outside the headline geometric
// means.
//
// Ratios are quarry / DuckDB (below 1: quarry faster), the median of the per-round
// ratios; the geometric mean and the worst query are printed for hot and cold.
// Peak memory per query: quarry's maximum resident set over its runs, from the
// kernel's rusage of the process (/usr/bin/time -f %M around the timer); DuckDB's
// system_peak_buffer_memory from its profiler, in one extra untimed run on a fresh
// instance (memory its buffer manager tracked: the hash tables and buffers of the
// query, not the process's RSS); chDB's is not measured (it runs in this process).
//
// Usage: node --expose-gc bench/clickbench_vs_duckdb.mjs --quarry BIN [--timer BIN] [--runs N]
//          [--threads T] [--only REGEX] [--no-chdb] [--json OUT] DIR
//   DIR holds hits_*.parquet. --runs: rounds (default 3). --only keeps the queries
//   whose name (Q01 ... Q43) or title matches REGEX.
//
// With --timer BIN (bench/process_timer.cc; bench/run.sh passes it) each quarry
// process is started and timed by that small program rather than around node's
// spawnSync (see bench/query_vs_duckdb.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { median, geometricMean, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
import { loadDuckDB, sourceDir } from './load_duckdb.mjs';
import { clickbenchQueries } from './clickbench_queries.mjs';

function parseArgs(argv) {
  const args = { quarry: null, timer: null, runs: 3, threads: 2, only: null, chdb: true, json: null, dir: null };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--quarry') args.quarry = argv[++i];
    else if (argv[i] === '--timer') args.timer = argv[++i];
    else if (argv[i] === '--runs') args.runs = Number(argv[++i]);
    else if (argv[i] === '--threads') args.threads = Number(argv[++i]);
    else if (argv[i] === '--only') args.only = new RegExp(argv[++i]);
    else if (argv[i] === '--no-chdb') args.chdb = false;
    else if (argv[i] === '--json') args.json = argv[++i];
    else if (!argv[i].startsWith('--') && !args.dir) args.dir = argv[i];
    else args.bad = argv[i];
  }
  if (!args.quarry || !args.dir || args.bad || !(args.runs >= 1) || !(args.threads >= 1)) {
    console.error('usage: node --expose-gc bench/clickbench_vs_duckdb.mjs --quarry BIN [--timer BIN] [--runs N] ' +
                  '[--threads T] [--only REGEX] [--no-chdb] [--json OUT] DIR');
    process.exit(2);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const dir = path.resolve(args.dir);
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^hits_\d+\.parquet$/.test(f)).sort() : [];
if (files.length === 0) {
  console.error(`clickbench_vs_duckdb: no hits_*.parquet under ${dir} (bench/make-clickbench.mjs writes them)`);
  process.exit(2);
}
const glob = path.join(dir, 'hits_*.parquet');
const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;

let queries = clickbenchQueries(dir);
if (args.only) queries = queries.filter((q) => args.only.test(q.name) || args.only.test(q.title));
// What quarry runs: the query, its interim form, or nothing (pending).
for (const q of queries) q.run = q.pending ? q.interim ?? null : q.quarry;

// ---- results: parsing and comparison -------------------------------------------

/// The rows of quarry's CSV (RFC 4180, the header dropped); an empty unquoted
/// field is null, "" the empty string.
function parseCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false, wasQuoted = false;
  for (let i = 0; i < text.length; ++i) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += '"', ++i;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      quoted = wasQuoted = true;
    } else if (ch === ',' || ch === '\n') {
      row.push(field === '' && !wasQuoted ? null : field);
      field = '', wasQuoted = false;
      if (ch === '\n') rows.push(row), row = [];
    } else if (ch !== '\r') {
      field += ch;
    }
  }
  if (field !== '' || wasQuoted || row.length > 0) row.push(field === '' && !wasQuoted ? null : field), rows.push(row);
  return rows.slice(1);
}

/// A DuckDB or chDB value as text (null stays null): integers with every digit.
const cellText = (v) => (v === null || v === undefined ? null : typeof v === 'object' ? v.toString() : String(v));
const kInteger = /^-?\d+$/;
function sameCell(x, y) {
  if (x === y) return true;
  if (x === null || y === null) return false;
  if (kInteger.test(x) && kInteger.test(y)) return BigInt(x) === BigInt(y);
  if (x.trim() === '' || y.trim() === '') return false;
  const u = Number(x), v = Number(y);
  return Number.isFinite(u) && Number.isFinite(v) && Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v));
}
const sameRows = (a, b) => a.length === b.length &&
    a.every((row, r) => row.length === b[r].length && row.every((x, c) => sameCell(x, b[r][c])));
const show = (rows) => (rows.length > 12 ? JSON.stringify(rows.slice(0, 12)).slice(0, -1) + `, ... ${rows.length} rows]`
                                         : JSON.stringify(rows));

// ---- engines ----------------------------------------------------------------------

const { DuckDBInstance } = await loadDuckDB();
/// A fresh in-memory DuckDB with `threads`, the view `hits` and the given settings.
async function newDuckDB(settings = []) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET threads = ${args.threads}`);
  // Instants (Q43's TIMESTAMPTZ) render in UTC, as quarry's UTC timestamps do.
  await connection.run("SET TimeZone = 'UTC'");
  for (const setting of settings) await connection.run(`SET ${setting}`);
  await connection.run(`CREATE VIEW hits AS SELECT * FROM read_parquet(${sqlString(glob)})`);
  return { instance, connection, close() { connection.closeSync(); instance.closeSync(); } };
}
const duckdbHot = await newDuckDB(['parquet_metadata_cache = true']);
const duckdbVersion = (await duckdbHot.connection.runAndReadAll('SELECT version()')).getRows()[0][0];

/// One timed DuckDB run; the rows are converted after the clock stops.
async function runDuckDB(side, sql) {
  globalThis.gc?.();
  const start = nowMs();
  const reader = await side.connection.runAndReadAll(sql);
  const ms = nowMs() - start;
  return { ms, rows: reader.getRows().map((row) => row.map(cellText)) };
}

let chdb = null, chdbVersion = null, chdbNote = 'not run (--no-chdb)';
if (args.chdb) {
  try {
    const oracleDir = process.env.QUARRY_ORACLE_DIR || path.join(sourceDir, 'tools', 'oracle');
    chdb = createRequire(path.join(oracleDir, 'package.json'))('chdb');
    chdbVersion = chdb.query('SELECT version()', 'TSV').trim();
  } catch (e) {
    chdb = null;
    chdbNote = `not available (${e.message.split('\n')[0]})`;
  }
}
const chdbSource = `file(${sqlString(glob)}, Parquet)`;
/// One timed chDB run (in this process); JSON rows parsed after the clock stops.
function runChdb(q) {
  const sql = `${(q.chdb ?? q.sql).replaceAll(' FROM hits', ` FROM ${chdbSource}`)} SETTINGS max_threads = ${args.threads}, output_format_json_quote_64bit_integers = 1`;
  globalThis.gc?.();
  const start = nowMs();
  let text;
  try {
    text = chdb.query(sql, 'JSONCompactEachRow');
  } catch (e) {
    return { ms: NaN, error: e.message.split('\n')[0] };
  }
  const ms = nowMs() - start;
  const rows = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l).map(cellText));
  return { ms, rows };
}

const timingDir = mkdtempSync(path.join(os.tmpdir(), 'quarry-clickbench-'));
const timingPath = path.join(timingDir, 'ms.txt');
const memoryPath = path.join(timingDir, 'rss.txt');
const profilePath = path.join(timingDir, 'duckdb-profile.json');
// The run's own metadata cache: filled by the hot runs, not by earlier runs.
process.env.QUARRY_CACHE_DIR = path.join(timingDir, 'cache');
const kTime = '/usr/bin/time';
const measureMemory = existsSync(kTime);

/// Runs `program` with `argv` (through --timer when given, and /usr/bin/time for the
/// peak RSS, outside the timed span); returns spawnSync's result, the wall ms and the
/// peak RSS in bytes (null when not measured).
function timedRun(program, argv, { memory = false } = {}) {
  let command = args.timer ? [args.timer, timingPath, program, ...argv] : [program, ...argv];
  if (memory && measureMemory) command = [kTime, '-f', '%M', '-o', memoryPath, ...command];
  const start = nowMs();
  const r = spawnSync(command[0], command.slice(1), { encoding: 'utf8', maxBuffer: 256 << 20, timeout: 1800e3 });
  const ms = nowMs() - start;
  let rss = null;
  if (memory && measureMemory && existsSync(memoryPath)) {
    const kb = Number(readFileSync(memoryPath, 'utf8').trim().split('\n').pop());
    rss = Number.isFinite(kb) ? kb * 1024 : null;
    rmSync(memoryPath);
  }
  return { r, ms: args.timer && r.status === 0 ? Number(readFileSync(timingPath, 'utf8')) : ms, rss };
}

/// One quarry run of `text`; a failure is recorded, not fatal.
function runQuarry(text, flags) {
  const run = timedRun(args.quarry, ['query', '--threads', String(args.threads), '--format', 'csv', ...flags, text],
                       { memory: true });
  if (run.r.status !== 0) {
    return { ...run, error: `exit ${run.r.status ?? run.r.signal}: ${(run.r.stderr || run.r.error?.message || '').trim()}` };
  }
  return { ...run, rows: parseCsv(run.r.stdout) };
}

/// DuckDB's peak buffer memory for `sql` (bytes), from its profiler on a fresh instance.
async function duckdbPeakMemory(sql) {
  const side = await newDuckDB();
  try {
    await side.connection.run("PRAGMA enable_profiling = 'json'");
    await side.connection.run(`SET profiling_output = ${sqlString(profilePath)}`);
    await side.connection.run(`SET custom_profiling_settings = '{"SYSTEM_PEAK_BUFFER_MEMORY": "true"}'`);
    await side.connection.runAndReadAll(sql);
    return JSON.parse(readFileSync(profilePath, 'utf8')).system_peak_buffer_memory ?? null;
  } catch {
    return null;
  } finally {
    side.close();
  }
}

// ---- checks -----------------------------------------------------------------------

let checked = 0, mismatches = 0, failures = 0, chdbChecked = 0, chdbMismatches = 0;
const verifiedGroups = new Map();

/// Query 18: each of quarry's groups must be one, with DuckDB's aggregate for it,
/// and there must be as many as DuckDB returned (LIMIT n or all groups).
async function checkGroups(q, rows, duckRows) {
  const { keys, types, aggregates } = q.groups;
  const key = JSON.stringify(rows);
  if (!verifiedGroups.has(key)) {
    let problem = null;
    const nAggregates = rows.length ? rows[0].length - keys.length : 0;
    const keyOf = (row) => JSON.stringify(row.slice(nAggregates));
    if (rows.length !== duckRows.length) problem = `${rows.length} groups, DuckDB returned ${duckRows.length}`;
    else if (new Set(rows.map(keyOf)).size !== rows.length) problem = 'a group appears twice';
    else if (rows.length > 0) {
      const literal = (v, t) => (v === null ? 'NULL' : t === 'VARCHAR' ? sqlString(v) : `${v}::${t}`);
      const values = rows.map((row) => `(${keys.map((k, i) => literal(row[nAggregates + i], types[i])).join(', ')})`);
      const on = keys.map((k, i) => `h.${k} IS NOT DISTINCT FROM v.k${i}`).join(' AND ');
      const sql = `SELECT ${aggregates}, ${keys.map((k) => `h.${k}`).join(', ')} FROM hits h ` +
                  `JOIN (VALUES ${values.join(', ')}) v(${keys.map((k, i) => `k${i}`).join(', ')}) ON ${on} ` +
                  `GROUP BY ALL ORDER BY ${keys.map((k) => `h.${k}`).join(', ')}`;
      const expected = (await duckdbHot.connection.runAndReadAll(sql)).getRows().map((row) => row.map(cellText));
      const sorted = [...rows].sort((a, b) => {
        for (let i = nAggregates; i < a.length; ++i) {
          const x = a[i], y = b[i];
          if (x === y) continue;
          if (types[i - nAggregates] === 'VARCHAR') return Buffer.compare(Buffer.from(x ?? ''), Buffer.from(y ?? ''));
          return BigInt(x) < BigInt(y) ? -1 : 1;
        }
        return 0;
      });
      if (!sameRows(sorted, expected)) problem = `groups ${show(sorted)}, DuckDB counts them as ${show(expected)}`;
    }
    verifiedGroups.set(key, problem);
  }
  return verifiedGroups.get(key);
}

/// Compares a quarry run with DuckDB's rows of the same round; returns false on a difference.
async function check(q, label, run, duckRows) {
  ++checked;
  let problem = null;
  if (run.error) {
    ++failures;
    console.error(`FAILED ${q.name} (${label}): quarry ${run.error}`);
    return false;
  }
  let rows = run.rows;
  if (q.offset) {
    if (rows.length > q.offset + 10) problem = `${rows.length} rows, more than LIMIT ${q.offset + 10}`;
    rows = rows.slice(q.offset);
  }
  if (!problem) {
    if (q.check === 'groups') problem = await checkGroups(q, rows, duckRows);
    else if (!sameRows(rows, duckRows)) problem = `quarry ${show(rows)}\n  duckdb ${show(duckRows)}`;
  }
  if (!problem) return true;
  ++mismatches;
  console.error(`MISMATCH ${q.name} (${label}${q.pending ? ', interim form' : ''}):\n  ${problem}\n  query: ${q.run}`);
  return false;
}

function checkChdb(q, label, run, duckRows) {
  if (q.check === 'groups') return;  // any 10 groups: not comparable row by row
  ++chdbChecked;
  if (run.error) {
    ++chdbMismatches;
    console.error(`chDB warning ${q.name} (${label}): ${run.error}`);
  } else if (!sameRows(run.rows, duckRows)) {
    ++chdbMismatches;
    console.error(`chDB warning ${q.name} (${label}): chDB ${show(run.rows)}\n  duckdb ${show(duckRows)}`);
  }
}

// ---- the rounds -------------------------------------------------------------------

const runnable = queries.filter((q) => q.run);
const samples = new Map(runnable.map((q) => [q.name, {
  quarryCold: [], duckdbCold: [], chdbCold: [], quarryHot: [], duckdbHot: [], chdbHot: [], engineCold: [],
  coldRatio: [], hotRatio: [], chdbColdRatio: [], chdbHotRatio: [], quarryRss: [], duckdbPeak: null, ok: true,
}]));

let totalBytes = 0;
for (const f of files) {  // the OS page cache, warm for every engine
  const bytes = readFileSync(path.join(dir, f));
  totalBytes += bytes.length;
}
const params = existsSync(path.join(dir, 'params.json')) ? JSON.parse(readFileSync(path.join(dir, 'params.json'))) : null;
const nInterim = runnable.filter((q) => q.pending).length;
console.error(`clickbench_vs_duckdb: ${runnable.length} queries to run (${nInterim} in an interim form), ` +
              `${queries.length - runnable.length} pending without one; ${args.runs} round(s), ${args.threads} threads`);

const best = (list) => list.reduce((a, b) => (b.ms < a.ms ? b : a));
for (let round = 0; round < args.runs; ++round) {
  for (const q of runnable) {
    const s = samples.get(q.name);
    if (process.stderr.isTTY) process.stderr.write(`  round ${round + 1}/${args.runs} ${q.name} ${q.title}`.padEnd(72) + '\r');
    // cold
    const qCold = runQuarry(q.run, ['--no-metadata-cache', '--profile']);
    const dCold = await (async () => {
      const side = await newDuckDB();
      try { return await runDuckDB(side, q.sql); } finally { side.close(); }
    })();
    const cCold = chdb && round === 0 ? runChdb(q) : null;
    // hot: best of three, the engines in turn
    const qHot = [], dHot = [], cHot = [];
    for (let i = 0; i < 3; ++i) {
      qHot.push(runQuarry(q.run, []));
      dHot.push(await runDuckDB(duckdbHot, q.sql));
      if (chdb) cHot.push(runChdb(q));
    }
    let ok = await check(q, `round ${round + 1} cold`, qCold, dCold.rows);
    for (const [i, run] of qHot.entries()) ok = (await check(q, `round ${round + 1} hot ${i + 1}`, run, dHot[i].rows)) && ok;
    if (cCold) checkChdb(q, 'first run', cCold, dCold.rows);
    for (const [i, run] of cHot.entries()) checkChdb(q, `round ${round + 1} run ${i + 1}`, run, dHot[i].rows);
    s.ok &&= ok;
    if (qCold.error || qHot.some((r) => r.error)) continue;
    const qBest = best(qHot), dBest = best(dHot);
    s.quarryCold.push(qCold.ms);
    s.duckdbCold.push(dCold.ms);
    s.quarryHot.push(qBest.ms);
    s.duckdbHot.push(dBest.ms);
    s.coldRatio.push(qCold.ms / dCold.ms);
    s.hotRatio.push(qBest.ms / dBest.ms);
    for (const run of [qCold, ...qHot]) if (run.rss !== null) s.quarryRss.push(run.rss);
    try {
      s.engineCold.push(JSON.parse(qCold.r.stderr.trim().split('\n').pop()).elapsed_ms);
    } catch { /* no profile line */ }
    if (cCold && !cCold.error) s.chdbCold.push(cCold.ms), s.chdbColdRatio.push(qCold.ms / cCold.ms);
    if (cHot.length && cHot.every((r) => !r.error)) {
      const cBest = best(cHot);
      s.chdbHot.push(cBest.ms);
      s.chdbHotRatio.push(qBest.ms / cBest.ms);
    }
    if (round === 0) s.duckdbPeak = await duckdbPeakMemory(q.sql);
  }
}
if (process.stderr.isTTY) process.stderr.write(' '.repeat(72) + '\r');
const floor = [];
for (let i = 0; i < 5; ++i) floor.push(timedRun(args.quarry, ['--version']).ms);
rmSync(timingDir, { recursive: true, force: true });
duckdbHot.close();

// ---- the report -------------------------------------------------------------------

const mb = (bytes) => (bytes === null || bytes === undefined ? 'n/a' : (bytes / 1048576).toFixed(0));
const fmt = (list) => (list.length ? fmtMs(median(list)) : '-');
const ratio = (list) => (list.length ? median(list).toFixed(2) : '-');
const rowsText = params ? `${params.rows.toLocaleString('en-US')} rows, ` : '';
console.log(`clickbench_vs_duckdb: ${dir}: ${rowsText}${files.length} files, ${(totalBytes / 1048576).toFixed(0)} MB; ` +
            `${args.threads} threads; ${args.runs} round(s); ${cpuModel()} (${os.cpus().length} CPUs); ` +
            `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`DuckDB ${duckdbVersion}; chDB ${chdbVersion ?? chdbNote}; OS page cache warm`);
console.log(`cold: quarry --no-metadata-cache process / DuckDB fresh instance / chDB first run in process; ` +
            `hot: best of 3 (metadata caches on)`);
console.log(`${''.padEnd(38)} ${'cold'.padEnd(36)}  ${'hot (best of 3)'.padEnd(36)}  peak MB`);
const header = (side) => `${'quarry'.padStart(8)} ${'DuckDB'.padStart(8)} ${'ratio'.padStart(6)} ${'chDB'.padStart(8)}  `;
console.log(`${'query'.padEnd(38)} ${header()}${header()}  ${'quarry'.padStart(6)} ${'DuckDB'.padStart(6)}` +
            `   ${'quarry engine ms'.padStart(16)}`);
const finals = { cold: [], hot: [], chdbCold: [], chdbHot: [] };
const interims = { cold: [], hot: [] };
for (const q of queries) {
  const label = `${q.name}${q.pending && q.run ? '*' : ''} ${q.title}`.slice(0, 38).padEnd(38);
  if (!q.run) {
    console.log(`${label} pending: ${q.pending}`);
    continue;
  }
  const s = samples.get(q.name);
  if (s.coldRatio.length === 0) {
    console.log(`${label} FAILED (see the errors above)`);
    continue;
  }
  const into = q.pending ? interims : finals;
  into.cold.push([q.name, median(s.coldRatio)]);
  into.hot.push([q.name, median(s.hotRatio)]);
  if (!q.pending && s.chdbHotRatio.length) finals.chdbHot.push([q.name, median(s.chdbHotRatio)]);
  if (!q.pending && s.chdbColdRatio.length) finals.chdbCold.push([q.name, median(s.chdbColdRatio)]);
  console.log(`${label} ${fmt(s.quarryCold).padStart(8)} ${fmt(s.duckdbCold).padStart(8)} ${ratio(s.coldRatio).padStart(6)}` +
              ` ${fmt(s.chdbCold).padStart(8)}   ${fmt(s.quarryHot).padStart(8)} ${fmt(s.duckdbHot).padStart(8)}` +
              ` ${ratio(s.hotRatio).padStart(6)} ${fmt(s.chdbHot).padStart(8)}  ` +
              ` ${mb(s.quarryRss.length ? Math.max(...s.quarryRss) : null).padStart(6)} ${mb(s.duckdbPeak).padStart(6)}` +
              `   ${fmt(s.engineCold).padStart(16)}${s.ok ? '' : '  MISMATCH'}`);
}
const worst = (ratios) => ratios.reduce((a, b) => (b[1] > a[1] ? b : a));
const summary = (ratios) => (ratios.length === 0 ? 'no query ran'
  : `geometric mean ${geometricMean(ratios.map((r) => r[1])).toFixed(2)} over ${ratios.length}, ` +
    `worst ${worst(ratios)[1].toFixed(2)} (${worst(ratios)[0]})`);
console.log(`quarry / DuckDB, hot:  ${summary(finals.hot)}`);
console.log(`quarry / DuckDB, cold: ${summary(finals.cold)}`);
if (interims.hot.length) {
  console.log(`with the ${interims.hot.length} interim forms (*): hot ${summary([...finals.hot, ...interims.hot])}; ` +
              `cold ${summary([...finals.cold, ...interims.cold])}`);
}
if (chdb) {
  console.log(`quarry / chDB, hot:    ${summary(finals.chdbHot)}`);
  console.log(`quarry / chDB, cold:   ${summary(finals.chdbCold)}`);
}
const pending = queries.filter((q) => q.pending);
if (pending.length) {
  console.log(`pending (${pending.length}): ` +
              pending.map((q) => `${q.name}${q.run ? '*' : ''}`).join(', ') + ' (* timed with an interim form)');
}
console.log(`peak memory: quarry's max RSS over its runs (${measureMemory ? kTime + ' -f %M' : 'not available: no ' + kTime}); ` +
            "DuckDB's profiler system_peak_buffer_memory (buffer-managed memory, not RSS); chDB not measured");
console.log(`process floor (quarry --version): ${fmtMs(median(floor))} ms ` +
            `(${args.timer ? 'processes timed by ' + args.timer : 'processes timed around node spawnSync'})`);
console.log(`results checked: ${checked} quarry runs against DuckDB's of the same round, ${mismatches} differ, ` +
            `${failures} failed` + (chdb ? `; chDB: ${chdbChecked} checked, ${chdbMismatches} differ (warnings)` : ''));
if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    dir, params, threads: args.threads, runs: args.runs, duckdb: duckdbVersion, chdb: chdbVersion,
    queries: queries.map((q) => ({ name: q.name, title: q.title, pending: q.pending ?? null,
                                   interim: Boolean(q.pending && q.run), samples: samples.get(q.name) ?? null })),
    mismatches, failures, chdbMismatches,
  }, null, 1) + '\n');
}
if (mismatches > 0 || failures > 0) {
  console.error(`clickbench_vs_duckdb: ${mismatches} result(s) differ from DuckDB's, ${failures} quarry run(s) failed`);
  process.exit(1);
}
