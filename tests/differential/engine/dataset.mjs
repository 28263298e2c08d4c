// The datasets of the engine differential test, written by DuckDB at test time:
//
//   typed-<k>.parquet   4 files, 20,000 rows in all, several row groups each, a
//                       column of every engine type with ~10 % nulls (`id` is the
//                       only column without: a unique key that makes sorts total)
//   lineitem-<k>.parquet  TPC-H's lineitem shape (decimal(15,2), dates, strings),
//                       2 files, 30,000 rows, for Q1 and Q6
//
// Values come from DuckDB's hash() of the row number and a per-column salt, so a
// run writes the same files as the last one (the DuckDB version is pinned in
// tools/oracle/package.json). The rows of a file are written in hash order, not
// id order, so that a sort has work to do.
//
// Two doubles: f64 has NaN (2 %), -0.0 and 0.0; g64 has -0.0 but no NaN, and
// magnitudes from 1e-1 to 1e15, so that a sum's last bits depend on the order
// of its terms (the 1e-9 relative tolerance of SUM and AVG is exercised).
//
// The hard cases (issue 31, "the generated corpus avoids the hard cases"):
//
//   nul      int64, NULL on every row (statistics with no min/max, null_count = rows)
//   sparse   int32, NULL on ~90 % of the rows
//   rg_i64   int64, ~10 % NULLs, and NULL on every row of every third row group
//            of each file (a row group whose chunk is all nulls)
//   big      int64, non-negative: a quarter small, the rest in [2^62, 2^63 - 1], so
//            that `big + big`, `big * 2` and SUM(big) overflow int64; non-negative,
//            so that whether a SUM overflows does not depend on the order of its
//            terms (a partial sum only grows)
//   ext      int64 extremes: 2^63 - 1, -2^63, their neighbours, +-2^62, 0, +-1
//   s_utf8   strings of 1-, 2-, 3- and 4-byte UTF-8 characters, LIKE's own
//            characters (*, ?, \) and SQL's (%, _) as data, and ~4 % long
//            strings (1-10 KB, from a dozen distinct values sharing long prefixes)
//
// big and ext are `extreme`: the query generator uses them only where an overflow
// is expected (query_generator.mjs's overflow queries), in comparisons with
// literals and in aggregates that cannot overflow.
//
//   extra-0.parquet     a 5th typed file (ids 20,000 .. 21,999) with a differing
//                       schema: no s_low, i32 as BIGINT (and last), an extra column
//                       x_extra; read only with union_by_name, where the typed
//                       files' rows have NULL x_extra and its rows NULL s_low
//   typed-<k>.orc       the typed files' rows as ORC (ORC_COLUMNS of them), written
//                       by chDB from the Parquet files: quarry reads the ORC file,
//                       DuckDB (which has no ORC reader) its Parquet twin
//
// COLUMNS describes the typed files for the query generator: the engine type of
// each column and the literals worth comparing it with.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const kTypedFiles = 4;
export const kTypedRows = 20_000;
export const kLineitemFiles = 2;
export const kLineitemRows = 30_000;
export const kExtraRows = 2_000;

export const LOW_STRINGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta',
  'Iota', 'ñandú'];
export const REGIONS = ['north', 'south', 'east', 'west', ''];
// No character here has a case mapping beyond ASCII and Latin-1: quarry's
// to_lower/to_upper map ASCII, Latin-1, Greek and Cyrillic, DuckDB's all of Unicode.
export const UTF8_STRINGS = ['日本', '日本語', '€', '€uro', '→ok', '😀', '😀😀', 'a😀b', '𝄞', 'x%y',
  '100%', 'under_score', '_', 'back\\slash', 'q"uote', "it's", '', 'ñ日😀', '中文字符', '🎉party', 'a*b',
  'why?', '*?'];
// The long strings: a repeated 13-byte unit (three 3-byte characters and a 4-byte
// one) 100, 400 or 700 times, and one of these endings.
export const LONG_UNIT = '日本語😀';
export const LONG_ENDINGS = ['', 'a', '😀', 'z%'];
export const X_EXTRA = ['p', 'q', 'ρ', '😀'];
export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;
const EXT_VALUES = [INT64_MAX, INT64_MIN, INT64_MAX - 1n, INT64_MIN + 1n, 2n ** 62n, -(2n ** 62n), 0n, 1n,
  -1n, 2n ** 32n];

/// Engine type of each column of the typed files, and its domain for literals.
/// `kind` drives what the query generator does with the column.
export const COLUMNS = [
  { name: 'id', kind: 'int64', unique: true },
  { name: 'i32', kind: 'int32' },
  { name: 'i64', kind: 'int64' },
  { name: 'u64', kind: 'uint64' },
  { name: 'f64', kind: 'double' },
  { name: 'g64', kind: 'double' },
  { name: 'd9', kind: 'decimal', scale: 2 },
  { name: 'd18', kind: 'decimal', scale: 4 },
  { name: 'd38', kind: 'decimal', scale: 10 },
  { name: 's_low', kind: 'string', low: true, values: LOW_STRINGS },
  { name: 'region', kind: 'string', low: true, values: REGIONS },
  { name: 's_high', kind: 'string' },
  { name: 'bin', kind: 'binary' },
  { name: 'flag', kind: 'boolean', low: true },
  { name: 'day', kind: 'date' },
  { name: 'ts_utc', kind: 'timestamp', utc: true },
  { name: 'ts_local', kind: 'timestamp', utc: false },
  { name: 'tod', kind: 'time' },
  { name: 'uid', kind: 'uuid' },
  { name: 'nul', kind: 'int64', allNull: true },
  { name: 'sparse', kind: 'int32' },
  { name: 'rg_i64', kind: 'int64' },
  { name: 'big', kind: 'int64', extreme: true },
  { name: 'ext', kind: 'int64', extreme: true },
  { name: 's_utf8', kind: 'string', low: true, values: UTF8_STRINGS },
];

/// The columns of the union of the typed files and extra-0.parquet by name:
/// x_extra added, i32 widened to int64.
export const UNION_COLUMNS = [
  ...COLUMNS.map((c) => (c.name === 'i32' ? { ...c, kind: 'int64' } : c)),
  { name: 'x_extra', kind: 'string', low: true, values: X_EXTRA },
];

/// The columns of the ORC twins: those whose ORC form (as chDB writes it) quarry
/// reads as the Parquet file's type. Left out: u64 (ClickHouse writes UInt64 as
/// ORC's signed long), bin (a string in ORC), the timestamps and tod (ORC's
/// timestamp is not the Parquet file's instant/local pair, TIME has no ORC type),
/// uid (ClickHouse cannot write a UUID to ORC).
export const ORC_COLUMNS = COLUMNS.filter((c) =>
  !['u64', 'bin', 'ts_utc', 'ts_local', 'tod', 'uid'].includes(c.name));

const sqlList = (values) => values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ');

// h(k): a 64-bit hash of the row and salt k; nullable(k, expr): NULL for ~10 % of rows.
const h = (k) => `hash(i * 1000 + ${k})`;
const nullable = (k, expr) => `CASE WHEN ${h(k + 1000)} % 10 = 0 THEN NULL ELSE ${expr} END`;

const TYPED_SELECT = (from, to) => `
SELECT
  i::BIGINT AS id,
  ${nullable(1, `(${h(1)} % 200001)::INTEGER - 100000`)} AS i32,
  ${nullable(2, `(${h(2)} % 2000000000001)::BIGINT - 1000000000000`)} AS i64,
  ${nullable(3, `CASE WHEN ${h(33)} % 2 = 0 THEN ${h(3)} % 1000 ELSE ${h(3)} END`)} AS u64,
  ${nullable(4, `CASE ${h(44)} % 50
      WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN -0.0::DOUBLE WHEN 2 THEN 0.0::DOUBLE
      WHEN 3 THEN ((${h(4)} % 1000)::DOUBLE + 0.1) * 1e12
      WHEN 4 THEN ((${h(4)} % 1000)::DOUBLE + 0.3) * 1e-9
      ELSE ((${h(4)} % 2000001)::DOUBLE - 1000000) / 1000 + 0.1 END`)} AS f64,
  ${nullable(18, `CASE ${h(45)} % 4
      WHEN 0 THEN ((${h(18)} % 1000000)::DOUBLE + 0.7) * 1e9
      WHEN 1 THEN -0.0::DOUBLE
      ELSE ((${h(18)} % 2000001)::DOUBLE - 1000000) / 7 END`)} AS g64,
  ${nullable(5, `(((${h(5)} % 2000001)::BIGINT - 1000000) / 100)::DECIMAL(9,2)`)} AS d9,
  ${nullable(6, `(((${h(6)} % 20000000001)::BIGINT - 10000000000)::DECIMAL(18,4) / 10000)::DECIMAL(18,4)`)} AS d18,
  ${nullable(7, `((${h(7)} % 1000000000000000000)::DECIMAL(38,10) / 1000000 - 500000000000)::DECIMAL(38,10)`)} AS d38,
  ${nullable(8, `([${sqlList(LOW_STRINGS)}])[1 + (${h(8)} % ${LOW_STRINGS.length})::INTEGER]`)} AS s_low,
  ${nullable(9, `([${sqlList(REGIONS)}])[1 + (${h(9)} % ${REGIONS.length})::INTEGER]`)} AS region,
  ${nullable(10, `md5(i::VARCHAR)[1:(1 + ${h(10)} % 12)::INTEGER]`)} AS s_high,
  ${nullable(11, `unhex(md5((i * 7)::VARCHAR)[1:(2 * (${h(11)} % 6))::INTEGER])`)} AS bin,
  ${nullable(12, `${h(12)} % 3 = 0`)} AS flag,
  ${nullable(13, `DATE '2015-01-01' + (${h(13)} % 4000)::INTEGER`)} AS day,
  ${nullable(14, `make_timestamp((1420070400000000 + ${h(14)} % 340000000000000)::BIGINT)::TIMESTAMPTZ`)} AS ts_utc,
  ${nullable(15, `make_timestamp((1420070400000000 + ${h(15)} % 340000000000000)::BIGINT)`)} AS ts_local,
  ${nullable(16, `TIME '00:00:00' + to_microseconds((${h(16)} % 86400000000)::BIGINT)`)} AS tod,
  ${nullable(17, `(md5((i * 13)::VARCHAR)[1:8] || '-' || md5((i * 13)::VARCHAR)[9:12] || '-' ||
      md5((i * 13)::VARCHAR)[13:16] || '-' || md5((i * 13)::VARCHAR)[17:20] || '-' ||
      md5((i * 13)::VARCHAR)[21:32])::UUID`)} AS uid,
  NULL::BIGINT AS nul,
  CASE WHEN ${h(1019)} % 10 <> 0 THEN NULL ELSE (${h(19)} % 2001)::INTEGER - 1000 END AS sparse,
  ${nullable(20, `(${h(20)} % 2000001)::BIGINT - 1000000`)} AS rg_i64,
  ${nullable(21, `CASE WHEN ${h(46)} % 4 = 0 THEN (${h(21)} % 1000)::BIGINT
      ELSE 4611686018427387904 + (${h(21)} % 4611686018427387904)::BIGINT END`)} AS big,
  ${nullable(22, `([${EXT_VALUES.map((v) => `'${v}'::BIGINT`).join(', ')}])[1 + (${h(22)} % ${EXT_VALUES.length})::INTEGER]`)} AS ext,
  ${nullable(23, `CASE WHEN ${h(47)} % 25 = 0
      THEN repeat(${sqlList([LONG_UNIT])}, (100 + 300 * (${h(48)} % 3))::BIGINT) ||
           ([${sqlList(LONG_ENDINGS)}])[1 + (${h(49)} % ${LONG_ENDINGS.length})::INTEGER]
      ELSE ([${sqlList(UTF8_STRINGS)}])[1 + (${h(24)} % ${UTF8_STRINGS.length})::INTEGER] END`)} AS s_utf8
FROM range(${from}, ${to}) t(i)`;

// extra-0.parquet: the typed columns less s_low, i32 as BIGINT and moved last, and
// x_extra (union_by_name matches columns by name, not by position).
const EXTRA_SELECT = `
SELECT * EXCLUDE (i, s_low, i32), i32::BIGINT AS i32,
  ${nullable(25, `([${sqlList(X_EXTRA)}])[1 + (${h(25)} % ${X_EXTRA.length})::INTEGER]`)} AS x_extra
FROM (SELECT id AS i, * FROM (${TYPED_SELECT(kTypedRows, kTypedRows + kExtraRows)}))`;

const SHIPMODES = ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'];
const INSTRUCTS = ['COLLECT COD', 'DELIVER IN PERSON', 'NONE', 'TAKE BACK RETURN'];

// TPC-H's lineitem columns and types. Ship dates 1992-01-02 .. 1998-12-01 as in
// dbgen; the return flag and line status follow dbgen's rule around its current
// date 1995-06-17: received by then R or A, else N; shipped by then F, else O
// (Q1's four groups, N/F included).
const LINEITEM_SELECT = `
SELECT
  (i // 4 + 1)::BIGINT AS l_orderkey,
  (1 + ${h(101)} % 20000)::BIGINT AS l_partkey,
  (1 + ${h(102)} % 1000)::BIGINT AS l_suppkey,
  (i % 4 + 1)::INTEGER AS l_linenumber,
  (1 + ${h(103)} % 50)::DECIMAL(15,2) AS l_quantity,
  ((90000 + ${h(104)} % 10000000)::DECIMAL(15,2) / 100)::DECIMAL(15,2) AS l_extendedprice,
  ((${h(105)} % 11)::DECIMAL(15,2) / 100)::DECIMAL(15,2) AS l_discount,
  ((${h(106)} % 9)::DECIMAL(15,2) / 100)::DECIMAL(15,2) AS l_tax,
  CASE WHEN receipt > DATE '1995-06-17' THEN 'N' WHEN ${h(107)} % 2 = 0 THEN 'R' ELSE 'A' END AS l_returnflag,
  CASE WHEN ship > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
  ship AS l_shipdate,
  ship + (${h(108)} % 60)::INTEGER - 30 AS l_commitdate,
  receipt AS l_receiptdate,
  ([${sqlList(INSTRUCTS)}])[1 + (${h(110)} % 4)::INTEGER] AS l_shipinstruct,
  ([${sqlList(SHIPMODES)}])[1 + (${h(111)} % 7)::INTEGER] AS l_shipmode,
  md5(i::VARCHAR)[1:(10 + ${h(112)} % 20)::INTEGER] AS l_comment
FROM (SELECT *, ship + (1 + ${h(109)} % 30)::INTEGER AS receipt
      FROM (SELECT i, DATE '1992-01-02' + (${h(100)} % 2525)::INTEGER AS ship
            FROM range(${kLineitemRows}) t(i)))`;

/// Writes `count` files from `select` (a query over i), splitting ids into
/// uneven ranges; returns their paths. Each column of `rowGroupNulls` is made
/// NULL on every row of every third row group (the second, the fifth, ...).
async function writeFiles(connection, select, dir, stem, count, rows, rowGroupSize, rowGroupNulls = []) {
  await connection.run(`CREATE OR REPLACE TEMP TABLE gen AS ${select}`);
  const paths = [];
  // Uneven splits: 40 %, 30 %, 20 %, 10 % for four files.
  const weights = Array.from({ length: count }, (_, k) => count - k);
  const total = weights.reduce((a, b) => a + b, 0);
  let from = 0;
  for (let k = 0; k < count; k++) {
    const to = k === count - 1 ? rows : from + Math.floor((rows * weights[k]) / total);
    const path = join(dir, `${stem}-${k}.parquet`);
    // pos: the row's position in the file, hence its row group.
    const replace = rowGroupNulls.length === 0 ? '' : ` REPLACE (${rowGroupNulls.map((c) =>
      `CASE WHEN pos // ${rowGroupSize} % 3 = 1 THEN NULL ELSE "${c}" END AS "${c}"`).join(', ')})`;
    await connection.run(
      `COPY (SELECT * EXCLUDE (i, pos)${replace}
             FROM (SELECT *, row_number() OVER (ORDER BY hash(i * 1000 + 999)) - 1 AS pos
                   FROM (SELECT row_number() OVER () - 1 AS i, * FROM gen)
                   WHERE i >= ${from} AND i < ${to})
             ORDER BY pos)
       TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE ${rowGroupSize})`);
    paths.push(path);
    from = to;
  }
  await connection.run('DROP TABLE gen');
  return paths;
}

const oracleDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tools', 'oracle');

/// Writes the ORC twin of each Parquet file of `parquet` (ORC_COLUMNS of it) with
/// chDB; returns their paths, or null when chDB is not installed.
function writeOrcTwins(parquet) {
  let chdb;
  try {
    chdb = createRequire(join(oracleDir, 'package.json'))('chdb');
  } catch {
    return null;
  }
  const columns = ORC_COLUMNS.map((c) => `\`${c.name}\``).join(', ');
  return parquet.map((path) => {
    const orc = path.replace(/\.parquet$/, '.orc');
    // One thread: the rows in the Parquet file's order; a small row index stride
    // and stripe, so that the ORC reader has several of each to go through.
    chdb.query(`SELECT ${columns} FROM file('${path}', Parquet)
                INTO OUTFILE '${orc}' TRUNCATE FORMAT ORC
                SETTINGS max_threads = 1, output_format_orc_row_index_stride = 1000,
                         session_timezone = 'UTC'`, 'CSV');
    if (!existsSync(orc)) throw new Error(`chDB wrote no ${orc}`);
    return orc;
  });
}

/// LOOKUP JOIN's file, keyed by s_low: two keys with several rows, LOW_STRINGS
/// without a row, a key no typed row has, and a null key (which matches nothing).
const LOOKUP_SELECT = `SELECT * FROM (VALUES ('alpha', 1, 'A1'), ('alpha', 2, 'A2'), ('beta', 3, 'B'),
  ('gamma', 4, NULL), ('delta', 5, 'D'), ('zeta', 6, 'Z1'), ('zeta', 7, 'Z2'), ('zeta', 8, 'Z3'),
  (NULL, 9, 'N'), ('omega?', 10, 'X')) t(s_low, lk_row, lk_s)`;

/// Writes the datasets under `dir` (emptied first); returns { typed, extra,
/// orc, lineitem, lookup }, the file paths of each (orc null without chDB).
export async function writeDatasets(connection, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await connection.run("SET TimeZone = 'UTC'");
  // One thread keeps the row order of `gen`, hence the files, the same every run.
  await connection.run('SET threads = 1');
  const typed = await writeFiles(connection, TYPED_SELECT(0, kTypedRows), dir, 'typed', kTypedFiles,
                                 kTypedRows, 2048, ['rg_i64']);
  const extra = await writeFiles(connection, EXTRA_SELECT, dir, 'extra', 1, kExtraRows, 512, ['rg_i64']);
  const lineitem = await writeFiles(connection, LINEITEM_SELECT, dir, 'lineitem', kLineitemFiles,
                                    kLineitemRows, 4096);
  const lookup = join(dir, 'lookup.parquet');
  await connection.run(`COPY (${LOOKUP_SELECT}) TO '${lookup}' (FORMAT parquet)`);
  await connection.run('RESET threads');
  const orc = writeOrcTwins(typed);
  return { typed, extra, orc, lineitem, lookup };
}
