#!/usr/bin/env node
// Aggregate pushdown equivalence (issue 9, acceptance): "every pushed result
// equals the same query forced to scan (e.g. with a trivial BY that disables the
// rule) and equals DuckDB's."
//
// For each top-level column of each source, three answers to the same question:
//
//   pushed   FROM "f" | STATS c = COUNT(*), n = COUNT(col), lo = MIN(col), hi = MAX(col)
//            (answered from statistics where the rule allows; --profile says so)
//   scanned  FROM "f" | EVAL __k = 1 | STATS ...
//            (the aggregate is over an EvalExec, not the ExternalSourceExec, so
//            PushAggregatesToExternalSource does not match; --profile must show an
//            ExternalSourceExec and no row group answered from statistics. Still
//            ungrouped: an empty file gives one row, as DuckDB's does; a trivial BY
//            would give none)
//   DuckDB   SELECT count(*) AS c, count(col) AS n, min(col) AS lo, max(col) AS hi
//
// MIN/MAX are asked for columns of the types the rule bounds (integers, floats,
// booleans, strings, binary, dates, UTC timestamps); other columns ask COUNT(*)
// and COUNT(col) only. Values compare with result_compare.mjs (MIN/MAX of doubles:
// -0.0 and 0.0 are equal, either may win a tie; everything else exact).
//
// Sources: the engine differential test's generated files (dataset.mjs), one by
// one; every parquet-testing data/*.parquet that both DuckDB and quarry read; a
// 3-file glob of one schema (default resolution and union_by_name) and a 3-file
// glob of three schemas under union_by_name (a column a file lacks is all null).
// A file or column either side cannot read is listed and skipped, not failed.
// The rule must fire (answered_from_statistics > 0) at least once on each
// generated file.
//
// WHERE-filtered (issue 9, "answered from statistics where each row group (or
// page, through the page index) is proven all-match or none-match, scanning
// only the undecided ones"): a file chDB writes with a page index, small pages
// and 3 row groups is asked the same aggregates under several WHEREs, pushed
// (FROM f | WHERE w | STATS ...), scanned (FROM f | WHERE w | EVAL __k = 1 |
// STATS ...) and by DuckDB (... WHERE w). Some page must be answered from the
// page index (pages.answered_from_statistics > 0). Skipped, with a note, when
// chDB is not installed. parquet-testing's alltypes_tiny_pages files (a page
// index of many small pages) are asked filtered the same way.
//
//   node tests/differential/engine/pushdown_equivalence.mjs QUARRY DIR [--jobs J] [--verbose]
//
// Test data: $QUARRY_TESTDATA, default <repo>/../shared/testdata. Exit status: 0
// when all agree, 1 on a disagreement, 77 (ctest: skipped) when the DuckDB oracle
// is not installed or the test data is absent (the generated files are still
// compared first, and a disagreement there still fails), 2 on bad usage.

import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { writeDatasets } from './dataset.mjs';
import { compareResult, duckdbResult, parseQuarryOutput } from './result_compare.mjs';
import { Num } from '../exact_json.mjs';
import { duckdbOrSkip } from '../../support/duckdb.mjs';
import { runProcess } from '../../support/processes.mjs';

const kSkip = 77;
const kQueryTimeoutMs = 30_000;
const kFailuresShown = 25;
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');

// DuckDB types of the columns whose MIN/MAX the rule can answer from statistics
// (FileStatsSupplier::supports; smaller integers and FLOAT widen to the engine's
// int32/int64/double). Other columns ask COUNT(*) and COUNT(col) only.
const kMinMaxTypes = new Set(['BOOLEAN', 'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT',
  'USMALLINT', 'UINTEGER', 'UBIGINT', 'FLOAT', 'DOUBLE', 'VARCHAR', 'BLOB', 'DATE',
  'TIMESTAMP WITH TIME ZONE']);
const kNested = /^(STRUCT|MAP|UNION)\(|\[\d*\]$/;

function usage(message) {
  process.stderr.write(`pushdown_equivalence: ${message}\n` +
      'usage: node tests/differential/engine/pushdown_equivalence.mjs QUARRY DIR [--jobs J] [--verbose]\n');
  process.exit(2);
}

function skip(message) {
  process.stderr.write(`\n*** SKIPPED pushdown_equivalence: ${message} ***\n\n`);
  process.exit(kSkip);
}

/// Runs `command args...`; resolves to { stdout, stderr, status, signal, error }.
function run(command, args) {
  return runProcess(command, args, { timeoutMs: kQueryTimeoutMs });
}

const firstLine = (text) => String(text).trim().split('\n')[0];
const quarryName = (name) => '`' + name.replaceAll('`', '``') + '`';
const sqlName = (name) => `"${name.replaceAll('"', '""')}"`;
const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;

/// Runs one quarry query with --profile; returns { rows, profile } or { error }.
async function quarryQuery(quarry, query) {
  const r = await run(quarry, ['query', '--format', 'json', '--profile', query]);
  if (r.error || r.signal) return { error: `did not finish: ${r.error?.message ?? r.signal}` };
  if (r.status !== 0) return { error: `exit ${r.status}: ${firstLine(r.stderr)}` };
  const profileLine = r.stderr.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  try {
    return { rows: parseQuarryOutput(r.stdout), profile: JSON.parse(profileLine ?? 'null') };
  } catch (e) {
    return { error: `output is not JSON: ${e.message}` };
  }
}

/// The aggregates asked of `column`, in quarry's language and in SQL.
function aggregates(column) {
  const q = quarryName(column.name);
  const s = sqlName(column.name);
  const minMax = kMinMaxTypes.has(column.type);
  return {
    stats: `c = COUNT(*), n = COUNT(${q})` + (minMax ? `, lo = MIN(${q}), hi = MAX(${q})` : ''),
    sql: `count(*) AS c, count(${s}) AS n` + (minMax ? `, min(${s}) AS lo, max(${s}) AS hi` : ''),
  };
}

// The WHEREs asked of the page-indexed file, in quarry's language and in SQL
// (the same text in both).
const kPagedFilters = [
  'k > 12345',
  'k >= 5000 AND k < 47000',
  'k < 3000 OR k > 55000',
  'NOT (k < 30000)',
  'g > 2000',
  'g IS NULL',
  "s >= 's00030000' AND k <= 41000",
  'v > 0',
];

// parquet-testing files with a page index of many small pages, and the WHEREs
// asked of them.
const kTinyPages = new Set(['alltypes_tiny_pages.parquet', 'alltypes_tiny_pages_plain.parquet']);
const kTinyPagesFilters = ['id > 3000', 'id < 1000 OR id > 6000', 'int_col > 5 AND id >= 2000'];

/// Writes with chDB a file of 60,000 rows in 3 row groups with a page index and
/// pages of about 2,048 rows: k sorted, g sorted with nulls in the first row
/// group, v unsorted with nulls, d and s sorted, f sorted doubles. Returns its
/// path, or null (with the reason in `skipped`) when chDB is not installed.
function writePagedFile(dir, skipped) {
  let chdb;
  try {
    chdb = createRequire(join(repoRoot, 'tools', 'oracle', 'package.json'))('chdb');
  } catch (e) {
    skipped.push(`WHERE-filtered page-index source: chDB unavailable (${e.code ?? e.message})`);
    return null;
  }
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'paged.parquet');
  chdb.query(`
SELECT toInt64(number) AS k,
       if(number % 13 = 0 AND number < 20000, NULL, toInt32(intDiv(number, 7))) AS g,
       if(number % 11 = 0, NULL, toInt64(cityHash64(number) % 100000) - 50000) AS v,
       toDate('2020-01-01') + intDiv(number, 100) AS d,
       concat('s', leftPad(toString(number), 8, '0')) AS s,
       toFloat64(number) / 4 AS f
FROM numbers(60000)
INTO OUTFILE ${sqlString(out)} TRUNCATE FORMAT Parquet SETTINGS
  output_format_parquet_row_group_size = 20000,
  output_format_parquet_data_page_size = 4096,
  output_format_parquet_write_page_index = 1`, 'CSV');
  return out;
}

/// Two quarry rows agree: equal JSON values; MIN/MAX zeros of either sign are equal.
function sameQuarryRows(a, b) {
  if (a.length !== b.length) return false;
  return a.every((row, r) => {
    const other = b[r];
    const keys = Object.keys(row);
    if (keys.join() !== Object.keys(other).join()) return false;
    // Numbers come as Num (exact_json.mjs: the text quarry wrote, every digit).
    const text = (v) => (v instanceof Num ? v.text : v);
    const isZero = (v) => v instanceof Num && Number(v.text) === 0;
    return keys.every((k) => Object.is(text(row[k]), text(other[k])) ||
        ((k === 'lo' || k === 'hi') && isZero(row[k]) && isZero(other[k])));
  });
}

/// The top-level columns of a DuckDB relation: [{ name, type }], nested ones left out.
async function columnsOf(connection, from) {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`);
  return reader.getRowObjectsJS()
      .map((row) => ({ name: String(row.column_name), type: String(row.column_type) }))
      .filter((c) => !kNested.test(c.type));
}

async function main() {
  const argv = process.argv.slice(2);
  const options = { jobs: 2, verbose: false, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--jobs') options.jobs = Math.max(1, Number(argv[++i]) || 1);
    else if (argv[i] === '--verbose') options.verbose = true;
    else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`);
    else options.positional.push(argv[i]);
  }
  if (options.positional.length !== 2) usage('expected QUARRY and DIR');
  let [quarry, dir] = options.positional;
  if (quarry === '-') quarry = process.env.QUARRY_BIN ?? '';
  if (!existsSync(quarry)) usage(`no quarry binary at ${JSON.stringify(quarry)}`);
  dir = resolve(dir);
  const api = await duckdbOrSkip(skip);
  const T = api.DuckDBTypeId;
  const started = Date.now();
  const instance = await api.DuckDBInstance.create(':memory:');
  const setup = await instance.connect();

  // Sources: { label, from (quarry), sql (DuckDB relation), generated }.
  const sources = [];
  const files = await writeDatasets(setup, join(dir, 'generated'));
  for (const f of [...files.typed, ...files.lineitem]) {
    sources.push({ label: basename(f), from: `"${f}"`, sql: `read_parquet(${sqlString(f)})`,
                   generated: true });
  }
  // Three files of one schema, and three of three schemas (union_by_name).
  const same = join(dir, 'glob-same');
  const mixed = join(dir, 'glob-union');
  mkdirSync(same, { recursive: true });
  mkdirSync(mixed, { recursive: true });
  for (let k = 0; k < 3; k++) {
    await setup.run(`COPY (SELECT * FROM read_parquet(${sqlString(files.typed[k])}))
                     TO ${sqlString(join(same, `part-${k}.parquet`))} (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  }
  const unionParts = [
    'SELECT id, i32, s_low FROM read_parquet($f)',
    'SELECT id, i64, s_low, f64 FROM read_parquet($f)',
    'SELECT id, i64::INTEGER AS i32, day, g64 FROM read_parquet($f) WHERE i64 BETWEEN -2147483648 AND 2147483647',
  ];
  for (let k = 0; k < 3; k++) {
    const select = unionParts[k].replace('$f', sqlString(files.typed[k]));
    await setup.run(`COPY (${select}) TO ${sqlString(join(mixed, `part-${k}.parquet`))}
                     (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
  }
  const glob = (d) => join(d, '*.parquet');
  sources.push({ label: 'glob-same/*.parquet', from: `"${glob(same)}"`,
                 sql: `read_parquet(${sqlString(glob(same))})`, generated: true });
  sources.push({ label: 'glob-same/*.parquet union_by_name',
                 from: `"${glob(same)}" WITH {"schema_resolution": "union_by_name"}`,
                 sql: `read_parquet(${sqlString(glob(same))}, union_by_name = true)`, generated: true });
  sources.push({ label: 'glob-union/*.parquet union_by_name',
                 from: `"${glob(mixed)}" WITH {"schema_resolution": "union_by_name"}`,
                 sql: `read_parquet(${sqlString(glob(mixed))}, union_by_name = true)`, generated: true });

  // The page-indexed file, asked under each WHERE of kPagedFilters.
  const skipped = [];
  const paged = writePagedFile(join(dir, 'paged'), skipped);
  if (paged !== null) {
    sources.push({ label: 'paged.parquet (chDB, page index)', from: `"${paged}"`,
                   sql: `read_parquet(${sqlString(paged)})`, generated: true, filters: kPagedFilters });
  }

  const testdata = resolve(process.env.QUARRY_TESTDATA || join(repoRoot, '..', 'shared', 'testdata'));
  const dataDir = join(testdata, 'parquet-testing', 'data');
  const haveTestdata = existsSync(dataDir);
  if (haveTestdata) {
    for (const name of readdirSync(dataDir).filter((n) => n.endsWith('.parquet')).sort()) {
      const f = join(dataDir, name);
      sources.push({ label: name, from: `"${f}"`, sql: `read_parquet(${sqlString(f)})`,
                     generated: false });
      // Files with a page index of many small pages are asked filtered too.
      if (kTinyPages.has(name)) {
        sources.push({ label: `${name} filtered`, from: `"${f}"`, sql: `read_parquet(${sqlString(f)})`,
                       generated: false, filters: kTinyPagesFilters });
      }
    }
  }

  // The queries of every source; a source DuckDB cannot describe is skipped.
  const tasks = [];
  await setup.run("SET TimeZone = 'UTC'");
  for (const source of sources) {
    let columns;
    try {
      columns = await columnsOf(setup, source.sql);
    } catch (e) {
      skipped.push(`${source.label}: DuckDB cannot read it (${firstLine(e.message)})`);
      continue;
    }
    source.fired = 0;
    source.pagesFired = 0;
    source.queries = 0;
    for (const column of columns) {
      for (const where of source.filters ?? [null]) tasks.push({ source, column, where, ...aggregates(column) });
    }
  }
  process.stdout.write(`pushdown_equivalence: ${sources.length} sources, ${tasks.length} queries ` +
                       `(data ready in ${Date.now() - started} ms)\n`);

  const connections = [];
  for (let j = 0; j < options.jobs; j++) {
    const c = await instance.connect();
    await c.run("SET TimeZone = 'UTC'");
    connections.push(c);
  }
  const failures = [];
  const unscannable = new Map();  // source label -> the columns quarry cannot scan, with why
  let compared = 0;
  let fired = 0;
  let next = 0;
  const worker = async (connection) => {
    while (next < tasks.length) {
      const task = tasks[next++];
      const { source, column } = task;
      const filtered = task.where ? ` | WHERE ${task.where}` : '';
      const where = `${source.label} column ${column.name} (${column.type})` +
                    (task.where ? ` WHERE ${task.where}` : '');
      const pushedQuery = `FROM ${source.from}${filtered} | STATS ${task.stats}`;
      const scanQuery = `FROM ${source.from}${filtered} | EVAL __k = 1 | STATS ${task.stats}`;
      const [pushed, scanned] = await Promise.all([quarryQuery(quarry, pushedQuery),
                                                   quarryQuery(quarry, scanQuery)]);
      let duck;
      try {
        const sqlWhere = task.where ? ` WHERE ${task.where}` : '';
        duck = await duckdbResult(connection, `SELECT ${task.sql} FROM ${source.sql}${sqlWhere}`, T);
      } catch (e) {
        skipped.push(`${where}: DuckDB cannot read it (${firstLine(e.message)})`);
        continue;
      }
      if (scanned.error) {
        // The scan is the reference: a column quarry cannot scan is skipped, but a
        // generated file must be read.
        if (source.generated) {
          failures.push({ where, query: scanQuery, problems: [`the scan fails: ${scanned.error}`] });
        } else {
          if (!unscannable.has(source.label)) unscannable.set(source.label, []);
          unscannable.get(source.label).push(`${column.name}: ${scanned.error}`);
        }
        continue;
      }
      const problems = [];
      if (pushed.error) problems.push(`the pushed query fails where the scan does not: ${pushed.error}`);
      const ops = (scanned.profile?.operators ?? []).map((o) => o.name);
      if (!ops.includes('ExternalSourceExec') || ops.includes('LocalSourceExec') ||
          scanned.profile.row_groups.answered_from_statistics !== 0) {
        problems.push(`the forced scan did not scan: operators [${ops}], ` +
                      `answered_from_statistics ${scanned.profile?.row_groups?.answered_from_statistics}`);
      }
      const pair = { ordered: true, tolerance: { lo: 'zero-sign', hi: 'zero-sign' } };
      for (const p of compareResult(scanned.rows, duck, pair, T)) problems.push(`scan vs DuckDB: ${p}`);
      if (!pushed.error) {
        for (const p of compareResult(pushed.rows, duck, pair, T)) problems.push(`pushed vs DuckDB: ${p}`);
        if (!sameQuarryRows(pushed.rows, scanned.rows)) {
          problems.push(`pushed ${JSON.stringify(pushed.rows)} != scanned ${JSON.stringify(scanned.rows)}`);
        }
        const answered = (pushed.profile?.row_groups?.answered_from_statistics ?? 0) +
                         (pushed.profile?.pages?.answered_from_statistics ?? 0);
        if (answered > 0) {
          fired++;
          source.fired++;
        }
        if ((pushed.profile?.pages?.answered_from_statistics ?? 0) > 0) source.pagesFired++;
        if (options.verbose) {
          process.stdout.write(`  ${answered > 0 ? 'pushed ' : 'scanned'} ${where}\n`);
        }
      }
      source.queries++;
      compared++;
      if (problems.length > 0) failures.push({ where, query: pushedQuery, problems });
    }
  };
  await Promise.all(connections.map((c) => worker(c)));

  for (const [label, columns] of unscannable) {
    skipped.push(`${label}: quarry cannot scan ${columns.length} column(s), e.g. ${columns[0]}`);
  }
  for (const source of sources) {
    if (source.generated && source.fired === 0) {
      failures.push({ where: source.label, query: '',
                      problems: [`the rule never answered from statistics (${source.queries} queries)`] });
    }
    if (source.filters && source.pagesFired === 0) {
      failures.push({ where: source.label, query: '',
                      problems: [`no page was answered from the page index (${source.queries} queries)`] });
    }
  }
  for (const { where, query, problems } of failures.slice(0, kFailuresShown)) {
    process.stdout.write(`\nMISMATCH ${where}\n  query: ${query}\n`);
    for (const p of problems) process.stdout.write(`  - ${p}\n`);
  }
  if (failures.length > kFailuresShown) {
    process.stdout.write(`\n... and ${failures.length - kFailuresShown} more\n`);
  }
  if (skipped.length > 0) {
    process.stdout.write(`\nskipped (${skipped.length}):\n${skipped.map((s) => `  ${s}\n`).join('')}`);
  }
  const perSource = sources.filter((s) => s.queries > 0)
      .map((s) => `${s.label} ${s.fired}/${s.queries}` + (s.filters ? ` (pages: ${s.pagesFired})` : ''));
  if (options.verbose) process.stdout.write(`\nanswered from statistics per source: ${perSource.join(', ')}\n`);
  process.stdout.write(`\npushdown_equivalence: ${compared} queries compared (pushed, scanned, DuckDB), ` +
                       `${fired} answered from statistics (${(100 * fired / Math.max(compared, 1)).toFixed(0)} %), ` +
                       `${sources.filter((s) => s.queries > 0).length} sources, ` +
                       `${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const c of connections) c.closeSync();
  setup.closeSync();
  instance.closeSync();
  if (failures.length > 0) {
    process.stdout.write(`${failures.length} disagreements\n`);
    return 1;
  }
  process.stdout.write('all pushed results equal the scanned ones and DuckDB\'s\n');
  if (!haveTestdata) {
    skip(`no test data at ${dataDir} (set QUARRY_TESTDATA to the folder holding parquet-testing/); ` +
         'the generated files agree');
  }
  // A source never written checked nothing: the run counts as skipped, not passed.
  if (paged === null) skip('chDB unavailable, so the page-index source was not written; run `make oracle`');
  return 0;
}

process.exitCode = await main();
