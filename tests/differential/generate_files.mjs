#!/usr/bin/env node
// Writes the matrix of Parquet files that generated_files.mjs reads with quarry and
// DuckDB: with DuckDB, every type it writes (scalars and nested values) at null
// fractions 0/50/100 %, several row groups, every codec, PARQUET_VERSION V1 and V2
// (V2: DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT), high and
// low cardinality (PLAIN vs dictionary); with chDB (embedded ClickHouse), files
// with page indexes, many pages per column chunk (1 KiB pages), page CRCs, Bloom
// filters, with and without dictionaries, through both of its encoders (its own and
// Arrow's), format versions 1.0 and 2.
//
//   node tests/differential/generate_files.mjs OUT_DIR [duckdb|chdb|all]
//
// Everything is deterministic: values derive from the row number by integer
// arithmetic, so a file is the same on every run and a mismatch reproduces.

import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { loadDuckdb } from '../support/duckdb.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const oracleDir = join(repoRoot, 'tools', 'oracle');

const kRows = 5000;
// DuckDB cuts row groups at multiples of its 2,048-row vectors: 2048 + 2048 + 904.
// chDB spreads the rows evenly over the row groups it needs: 1667 + 1667 + 1666.
const kDuckRowGroupRows = 2048;
const kChdbRowGroupRows = 1500;
const kCodecs = ['uncompressed', 'snappy', 'gzip', 'zstd', 'brotli', 'lz4_raw'];
const kNullPercents = [0, 50, 100];

const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;

// ---------------------------------------------------------------------------
// DuckDB

// Rows come from `base`: i (the row number, BIGINT) and h, g (pseudo-random in
// [0, 2^32), derived from i, or from i % 13 for low cardinality). A column's
// value is NULL where (i * 19 + k * 37) % 100 < nullPercent, k the column's
// index, so that every column's nulls fall on different rows and exactly
// nullPercent % of the rows are NULL. Special values sit on rows i % 97 == 0, 1, ...
function baseSql(rows, card) {
  const seed = card === 'low' ? 'i % 13' : 'i';
  return `SELECT i, (${seed} * 2654435761 + 12345) % 4294967296 AS h,
                 (${seed} * 40503 + 977) * 65537 % 4294967296 AS g
          FROM (SELECT range AS i FROM range(${rows}))`;
}

/// Picks specials[i % 97] for the first rows of each 97, `otherwise` for the rest.
function withSpecials(specials, otherwise) {
  if (specials.length === 0) return otherwise;
  return `CASE i % 97 ${specials.map((s, n) => `WHEN ${n} THEN ${s}`).join(' ')} ` +
         `ELSE ${otherwise} END`;
}

/// A DECIMAL(p, s) with up to p digits, built from text so that it is exact.
function decimalSql(p, s) {
  const intDigits = p - s;
  const intPart = `(((h::HUGEINT << 40) + g * 7919 + i) % ${10n ** BigInt(intDigits)})`;
  const fracPart = `((g * 31 + h) % ${10n ** BigInt(s)})`;
  const max = `${'9'.repeat(intDigits)}.${'9'.repeat(s)}`;
  return withSpecials([`'${max}'::DECIMAL(${p},${s})`, `'-${max}'::DECIMAL(${p},${s})`,
    `0::DECIMAL(${p},${s})`, `'-0.${'0'.repeat(s - 1)}1'::DECIMAL(${p},${s})`],
  `((CASE WHEN h % 2 = 0 THEN '-' ELSE '' END) || ${intPart}::VARCHAR || '.' || ` +
      `lpad(${fracPart}::VARCHAR, ${s}, '0'))::DECIMAL(${p},${s})`);
}

// A float of varied magnitude and sign: mantissa from h, exponent from g.
const floatMagnitude = (maxExp) =>
  `((CASE WHEN h % 2 = 0 THEN -1 ELSE 1 END) * (h % 1000003)::DOUBLE / 1000003 * ` +
  `pow(10, (g % ${2 * maxExp + 1})::INTEGER - ${maxExp}))`;
const timeOfDayMicros = '((h * 86400 + g) % 86400000000)';
const timestampMicros = '(((h::HUGEINT << 20) + g) % 500000000000000000 - 250000000000000000)::BIGINT';
const kUuidFromMd5 = "(substr(m, 1, 8) || '-' || substr(m, 9, 4) || '-' || substr(m, 13, 4) || '-' || " +
    "substr(m, 17, 4) || '-' || substr(m, 21, 12))::UUID";

/// The scalar columns: [name, SQL expression over i, h, g].
const SCALAR_COLUMNS = [
  ['bool', 'h % 3 = 0'],
  ['i8', withSpecials(['(-128)::TINYINT', '127::TINYINT', '0::TINYINT'], '(h % 256 - 128)::TINYINT')],
  ['i16', withSpecials(['(-32768)::SMALLINT', '32767::SMALLINT'], '(h % 65536 - 32768)::SMALLINT')],
  ['i32', withSpecials(['(-2147483648)::INTEGER', '2147483647::INTEGER'], '(h - 2147483648)::INTEGER')],
  ['i64', withSpecials(['(-9223372036854775808)::BIGINT', '9223372036854775807::BIGINT'],
    '((h::HUGEINT << 32) + g - 9223372036854775808)::BIGINT')],
  ['u8', withSpecials(['255::UTINYINT', '0::UTINYINT'], '(h % 256)::UTINYINT')],
  ['u16', withSpecials(['65535::USMALLINT'], '(h % 65536)::USMALLINT')],
  ['u32', withSpecials(['4294967295::UINTEGER', '2147483648::UINTEGER'], 'h::UINTEGER')],
  ['u64', withSpecials(['18446744073709551615::UBIGINT', '9223372036854775808::UBIGINT'],
    '((h::HUGEINT << 32) + g)::UBIGINT')],
  // DuckDB writes HUGEINT as DOUBLE.
  ['i128', withSpecials(['170141183460469231731687303715884105727::HUGEINT'],
    '(((h::HUGEINT << 64) + (g::HUGEINT << 32) + i) * (CASE WHEN g % 2 = 0 THEN -1 ELSE 1 END))')],
  ['f32', withSpecials(["'nan'::FLOAT", "-('nan'::FLOAT)", "'inf'::FLOAT", "'-inf'::FLOAT", '0.0::FLOAT',
    '(-0.0)::FLOAT', '3.4028235e38::FLOAT', '1e-45::FLOAT', '1.17549435e-38::FLOAT', '0.1::FLOAT'],
  `${floatMagnitude(30)}::FLOAT`)],
  ['f64', withSpecials(["'nan'::DOUBLE", "-('nan'::DOUBLE)", "'inf'::DOUBLE", "'-inf'::DOUBLE",
    '0.0::DOUBLE', '(-0.0)::DOUBLE', '1.7976931348623157e308::DOUBLE', '5e-324::DOUBLE',
    '2.2250738585072014e-308::DOUBLE', '0.1::DOUBLE', '1e16::DOUBLE', '123456789012345680000::DOUBLE'],
  `${floatMagnitude(300)}::DOUBLE`)],
  ['d4', decimalSql(4, 2)],
  ['d9', decimalSql(9, 2)],
  ['d18', decimalSql(18, 3)],
  ['d38', decimalSql(38, 10)],
  ['str', withSpecials(["''", "'é😀 ü'", `'a,b "q" it''s' || chr(10) || 'x'`, "repeat('long', 100)",
    "'NULL'", "' lead'", "chr(1) || chr(127)"],
  "repeat(chr((97 + h % 26)::INTEGER), (g % 12)::INTEGER) || h::VARCHAR")],
  ['blob', withSpecials(["''::BLOB", "'\\x00'::BLOB", "'\\xFF\\x5C\\x27\\x22'::BLOB"],
    'unhex(substr(md5(h::VARCHAR), 1, (2 * (g % 17))::INTEGER))')],
  ['date', withSpecials(["DATE '0001-01-01'", "DATE '9999-12-31'", "DATE '0044-03-15 (BC)'",
    "DATE '1970-01-01'", "DATE '1969-12-31'"],
  "DATE '1970-01-01' + (h % 800000 - 400000)::INTEGER")],
  ['time', withSpecials(["TIME '00:00:00'", "TIME '23:59:59.999999'"],
    `TIME '00:00:00' + to_microseconds(${timeOfDayMicros})`)],
  ['time_ns', withSpecials(["'23:59:59.999999999'::TIME_NS", "'00:00:00'::TIME_NS"],
    "printf('%02d:%02d:%02d.%09d', h % 24, g % 60, (h // 24) % 60, (h * 1000 + g) % 1000000000)" +
    '::TIME_NS')],
  ['time_tz', withSpecials(["'23:59:59.999999+00'::TIMETZ", "'00:00:00+00'::TIMETZ"],
    `((TIME '00:00:00' + to_microseconds(${timeOfDayMicros}))::VARCHAR || ` +
    "(['+00', '+05:30', '-08'])[(g % 3 + 1)::INTEGER])::TIMETZ")],
  ['ts', withSpecials(["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999999'",
    "TIMESTAMP '1969-12-31 23:59:59.999999'", "TIMESTAMP '1970-01-01 00:00:00'"],
  `make_timestamp(${timestampMicros})`)],
  ['ts_s', withSpecials(["'1900-01-01 00:00:00'::TIMESTAMP_S"],
    `make_timestamp(${timestampMicros})::TIMESTAMP_S`)],
  ['ts_ms', withSpecials(["'1969-12-31 23:59:59.999'::TIMESTAMP_MS"],
    `make_timestamp(${timestampMicros})::TIMESTAMP_MS`)],
  ['ts_ns', withSpecials(["'1677-09-22 00:00:00.000000001'::TIMESTAMP_NS",
    "'2262-04-11 00:00:00.123456789'::TIMESTAMP_NS", "'1969-12-31 23:59:59.999999999'::TIMESTAMP_NS"],
  'make_timestamp_ns(((h::HUGEINT << 30) + g * 1000 + i)::BIGINT * (CASE WHEN g % 2 = 0 THEN -1 ELSE 1 END))')],
  ['ts_tz', withSpecials(["TIMESTAMPTZ '0001-01-01 00:00:00+00'", "TIMESTAMPTZ '1969-07-20 20:17:40.1+00'"],
    `make_timestamp(${timestampMicros})::TIMESTAMPTZ`)],
  // Parquet's INTERVAL holds months, days and milliseconds, each unsigned.
  ['iv', withSpecials(["INTERVAL '0 seconds'", "INTERVAL '14 months 1 day 25:00:00.5'"],
    'to_months((h % 30)::INTEGER) + to_days((g % 40)::INTEGER) + to_milliseconds((h * 7 % 86400000)::BIGINT)')],
  ['uuid', withSpecials(["UUID '00000000-0000-0000-0000-000000000000'",
    "UUID 'ffffffff-ffff-ffff-ffff-ffffffffffff'", "UUID '80000000-0000-0000-0000-000000000000'",
    "UUID '7fffffff-ffff-ffff-ffff-ffffffffffff'"],
  `(SELECT ${kUuidFromMd5} FROM (SELECT md5(h::VARCHAR || g::VARCHAR) AS m))`)],
  ['enum', "(['red', 'green', 'blue', ''])[(h % 4 + 1)::INTEGER]::ENUM('red', 'green', 'blue', '')"],
  ['json', withSpecials(["'[]'::JSON", "'null'::JSON", `'{"q": "a\\"b"}'::JSON`],
    "json_object('a', h, 's', 'x' || g::VARCHAR, 'l', [i, g])::JSON")],
];

/// The nested columns. Their elements are NULL about a quarter of the time (never
/// when the file has no nulls).
function nestedColumns(nullPercent) {
  const el = (k) => (nullPercent === 0 ? 'false' : `(x * 7 + i * 3 + ${k}) % 4 = 0`);
  const n = (mod) => `(g % ${mod})::INTEGER`;
  const list = (mod, k, expr) =>
    `list_transform(range(${n(mod)}), lambda x: CASE WHEN ${el(k)} THEN NULL ELSE ${expr} END)`;
  return [
    ['l_i32', list(6, 1, '(x * h % 2000000 - 1000000)::INTEGER')],
    ['l_str', withSpecials(['[]::VARCHAR[]', "['']", "[NULL, 'a,b', '\"q\"', ' x ']::VARCHAR[]"],
      list(5, 2, "'s' || (h + x)::VARCHAR"))],
    ['l_f64', withSpecials(["['nan'::DOUBLE, -0.0, 'inf', 1e-310]"], list(4, 3, '(h + x)::DOUBLE / 7'))],
    ['l_dec', list(4, 4, '((h + x) % 100000 * 0.001::DECIMAL(4,3))::DECIMAL(18,3)')],
    ['l_ts', list(3, 5, `make_timestamp(${timestampMicros} + x)`)],
    ['l_blob', list(3, 6, 'unhex(substr(md5((h + x)::VARCHAR), 1, (2 * x)::INTEGER))')],
    ['ll', `list_transform(range(${n(4)}), lambda y: ` +
           `list_transform(range(((g + y) % 4)::INTEGER), lambda x: CASE WHEN ${el(7)} THEN NULL ` +
           'ELSE (x + y * 10 + i)::BIGINT END))'],
    // CASE cannot yield an ARRAY: the cast follows the null guard.
    ['arr3', '[(h % 100000)::INTEGER, NULL, (g % 1000)::INTEGER]', 'INTEGER[3]'],
    ['st', withSpecials(["{'a': NULL, 'b': NULL, 'c': NULL}::STRUCT(a INTEGER, b VARCHAR, c DOUBLE[])"],
      `{'a': (h % 100000)::INTEGER, 'b': CASE WHEN ${el(8).replaceAll('x', 'g')} THEN NULL ELSE 'b' || g::VARCHAR END, ` +
      `'c': ${list(3, 9, '(x + h)::DOUBLE / 3')}}`)],
    ['l_st', list(4, 10, "{'x': ((h + x) % 1000000)::INTEGER, 'y': 'y' || x::VARCHAR, 'z': [x, NULL]}")],
    ['st_st', `{'a': {'b': (g % 1000)::SMALLINT, 'c': DATE '2000-01-01' + (h % 10000)::INTEGER}, ` +
              `'d': map_from_entries(${list(3, 11, "{'k': 'k' || x::VARCHAR, 'v': (x + g)::DOUBLE}")} ` +
              '.list_filter(lambda e: e IS NOT NULL))}'],
    ['m', `map_from_entries(list_transform(range(${n(5)}), lambda x: ` +
          `{'k': 'key' || x::VARCHAR, 'v': CASE WHEN ${el(12)} THEN NULL ELSE (x * h % 1000)::INTEGER END}))`],
    ['m_l', `map_from_entries(list_transform(range(${n(3)}), lambda x: ` +
            `{'k': (x + h % 100)::INTEGER, 'v': ${list(3, 13, "'v' || x::VARCHAR")}}))`],
    ['m_st', `map_from_entries(list_transform(range(${n(3)}), lambda x: ` +
             `{'k': make_timestamp(${timestampMicros} + x), 'v': {'p': x::UTINYINT, 'q': [h::UBIGINT]}}))`],
    ['un', "CASE WHEN h % 2 = 0 THEN union_value(n := (h % 1000)::INTEGER)::UNION(n INTEGER, s VARCHAR) " +
           "ELSE union_value(s := 'u' || g::VARCHAR)::UNION(n INTEGER, s VARCHAR) END"],
  ];
}

/// The SELECT for one data set, NULL at nullPercent % of each column's rows.
function datasetSql(kind, card, nullPercent, rows) {
  const columns = kind === 'nested' ? nestedColumns(nullPercent) : SCALAR_COLUMNS;
  const items = columns.map(([name, expr, castAfter], k) => {
    const value = `(${expr})`;
    const guarded = nullPercent === 0 ? value
        : `(CASE WHEN (i * 19 + ${k * 37}) % 100 < ${nullPercent} THEN NULL ELSE ${value} END)`;
    return `${guarded}${castAfter ? `::${castAfter}` : ''} AS "${name}"`;
  });
  return `SELECT ${items.join(',\n  ')}\nFROM (${baseSql(rows, card)}) ORDER BY i`;
}

/// The DuckDB-written files: [{ name, kind, card, nullPercent, codec, version }].
export function duckdbMatrix() {
  const out = [];
  // `text`: whether the test compares the printed text too; the codec variants hold
  // the same values as a snappy file, whose text is compared.
  const add = (kind, card, nullPercent, codec, version) => out.push({
    name: `duckdb_${kind}_${card}_n${nullPercent}_${codec}_${version.toLowerCase()}.parquet`,
    kind, card, nullPercent, codec, version, text: codec === 'snappy',
  });
  // Types x null fractions x format versions x cardinality, with one codec...
  for (const version of ['V1', 'V2']) {
    for (const nullPercent of kNullPercents) {
      for (const card of ['high', 'low']) add('scalars', card, nullPercent, 'snappy', version);
      add('nested', 'high', nullPercent, 'snappy', version);
    }
  }
  // ...and every codec on the files with half nulls.
  for (const codec of kCodecs.filter((c) => c !== 'snappy')) {
    add('scalars', 'high', 50, codec, 'V1');
    add('scalars', 'low', 50, codec, 'V2');
    add('nested', 'high', 50, codec, 'V2');
  }
  return out;
}

/// Writes the DuckDB files into outDir through `connection`; returns their entries
/// with `path` set.
export async function writeDuckdbFiles(connection, outDir, { rows = kRows } = {}) {
  // TIMESTAMP -> TIMESTAMPTZ casts take the session's zone.
  await connection.run("SET TimeZone = 'UTC'");
  const files = duckdbMatrix();
  // Each data set is computed once, into a table that keeps the rows' order, and
  // written once per codec and version.
  const tables = new Map();
  for (const f of files) {
    const key = `${f.kind}_${f.card}_n${f.nullPercent}`;
    const dataset = datasetSql(f.kind, f.card, f.nullPercent, rows);
    if (!tables.has(key)) {
      await connection.run(`CREATE OR REPLACE TEMP TABLE ${key} AS ${dataset}`);
      tables.set(key, true);
    }
    f.path = join(outDir, f.name);
    const options = `(FORMAT parquet, COMPRESSION ${f.codec}, ROW_GROUP_SIZE ${kDuckRowGroupRows}, ` +
        `PARQUET_VERSION ${f.version})`;
    await connection.run(`COPY ${key} TO ${sqlString(f.path)} ${options}`);
    // What reproduces the file on its own.
    f.generator = `COPY (${dataset}) TO ${sqlString(f.path)} ${options}`;
  }
  return files;
}

// ---------------------------------------------------------------------------
// chDB (ClickHouse)

// Rows from numbers(): i and pseudo-random h, g as above.
export const kChBase = `SELECT number AS i, (number * 2654435761 + 12345) % 4294967296 AS h,
                        (number * 40503 + 977) * 65537 % 4294967296 AS g FROM numbers(${kRows})`;
export const chNull = (k, expr, nullPercent) => (nullPercent === 0 ? expr
    : `if((i * 19 + ${k * 37}) % 100 < ${nullPercent}, NULL, ${expr})`);

/// ClickHouse columns: [name, expression, may be NULL]; orc_files.mjs writes them as ORC.
export const CH_COLUMNS = [
  ['i8', 'toInt8(h % 256 - 128)', true],
  ['i16', 'toInt16(h % 65536 - 32768)', true],
  ['i32', 'toInt32(h - 2147483648)', true],
  ['i64', 'toInt64(bitShiftLeft(toInt64(h), 31) + g) * if(g % 2 = 0, -1, 1)', true],
  ['u8', 'toUInt8(h % 256)', true],
  ['u16', 'toUInt16(h % 65536)', true],
  ['u32', 'toUInt32(h)', true],
  ['u64', 'bitShiftLeft(toUInt64(h), 32) + g', true],
  ['f32', "multiIf(i % 97 = 0, toFloat32(nan), i % 97 = 1, toFloat32(-inf), i % 97 = 2, toFloat32(-0.), " +
          'toFloat32((h % 1000003) / 1000003 * exp10(toInt32(g % 61) - 30)))', true],
  ['f64', "multiIf(i % 97 = 0, nan, i % 97 = 1, inf, i % 97 = 2, -0., i % 97 = 3, 5e-324, " +
          '(h % 1000003) / 1000003 * exp10(toInt32(g % 601) - 300) * if(h % 2 = 0, -1, 1))', true],
  ['d9', 'toDecimal32((toInt64(h % 2000000000) - 1000000000) / 100, 2)', true],
  ['d18', 'toDecimal64(toString(toInt64(h * 1000 + g % 1000) - 2000000000000) || \'.\' || toString(g % 10), 4)', true],
  ['d38', "toDecimal128(toString(toInt128(h) * 100000000000 + g) || '.' || toString(h % 1000), 10)", true],
  ['str', "concat(repeat(char(97 + h % 26), g % 12), toString(h), if(i % 97 = 0, 'é😀', ''))", true],
  // Few distinct values: dictionary-encoded unless the dictionary is disabled.
  ['str_dict', "concat('category-', toString(h % 40))", true],
  ['fixed', "toFixedString(substring(hex(MD5(toString(h))), 1, 6), 6)", true],
  ['date', "toDate('1970-01-01') + toInt32(h % 40000)", true],
  ['date32', "toDate32('1900-01-01') + toInt32(h % 100000)", true],
  ['dt', "toDateTime(toUInt32(h % 4000000000), 'UTC')", true],
  ['dt64_3', "toDateTime64(toInt64(h) * 1000 + g % 1000, 3, 'UTC')", false],
  ['dt64_6', "fromUnixTimestamp64Micro(toInt64(h) * 1000000 + g % 1000000, 'UTC')", true],
  ['dt64_9', "fromUnixTimestamp64Nano(toInt64(h) * 1000000 + g, 'UTC')", true],
  ['uuid', 'toUUID(UUIDNumToString(MD5(toString(h))))', true],
  ['bool', 'toBool(h % 3 = 0)', true],
  ['enum8', "CAST(['a', 'bb', 'ccc'][h % 3 + 1], 'Enum8(\\'a\\' = 1, \\'bb\\' = 2, \\'ccc\\' = -3)')", true],
  ['arr', 'arrayMap(x -> toInt32(x * h % 100000), range(toUInt32(g % 6)))', false],
  ['arr_str', "arrayMap(x -> concat('e', toString(x + h)), range(toUInt32(g % 4)))", false],
  ['tup', "tuple(toInt32(h % 1000), toString(g))::Tuple(a Int32, b String)", false],
  ['map', "mapFromArrays(arrayMap(x -> concat('k', toString(x)), range(toUInt32(g % 4))), " +
          'arrayMap(x -> toInt64(x * h), range(toUInt32(g % 4))))', false],
];

/// The chDB-written files: [{ name, settings, nullPercent }].
export function chdbMatrix() {
  const common = {
    output_format_parquet_row_group_size: kChdbRowGroupRows,
    // Pages end at 1 KiB or at a batch of 100 rows: a dozen or more per chunk.
    output_format_parquet_data_page_size: 1024,
    output_format_parquet_batch_size: 100,
    output_format_parquet_write_page_index: 1,
    output_format_parquet_write_bloom_filter: 1,
    output_format_parquet_write_checksums: 1,
  };
  const out = [];
  // `text`: whether the test compares the printed text too (once per encoder).
  const add = (label, nullPercent, settings, text = false) => out.push({
    name: `chdb_${label}_n${nullPercent}.parquet`, nullPercent, settings: { ...common, ...settings },
    text,
  });
  for (const [codec, ch] of [['zstd', 'zstd'], ['lz4', 'lz4'], ['snappy', 'snappy'], ['gzip', 'gzip'],
    ['brotli', 'brotli'], ['none', 'none']]) {
    add(`custom_${codec}`, 50, { output_format_parquet_compression_method: ch });
  }
  add('custom_zstd', 0, { output_format_parquet_compression_method: 'zstd' }, true);
  add('custom_zstd', 100, { output_format_parquet_compression_method: 'zstd' }, true);
  // ClickHouse gives up on a dictionary that would outgrow the limit: all PLAIN.
  add('custom_nodict', 50, { output_format_parquet_max_dictionary_size: 1 });
  add('custom_v1', 50, { output_format_parquet_version: '1.0' });
  add('arrow_snappy', 50, { output_format_parquet_use_custom_encoder: 0,
    output_format_parquet_compression_method: 'snappy' });
  add('arrow_v1', 0, { output_format_parquet_use_custom_encoder: 0,
    output_format_parquet_version: '1.0' }, true);
  return out;
}

/// Writes the chDB files into outDir through the `chdb` module; returns their
/// entries with `path` set.
export function writeChdbFiles(chdb, outDir) {
  const files = chdbMatrix();
  for (const f of files) {
    f.path = join(outDir, f.name);
    const items = CH_COLUMNS.map(([name, expr, nullable], k) =>
      `${nullable ? chNull(k, expr, f.nullPercent) : expr} AS ${name}`);
    const settings = Object.entries(f.settings)
        .map(([k, v]) => `${k} = ${typeof v === 'string' ? sqlString(v) : v}`).join(', ');
    f.generator = `SELECT ${items.join(',\n  ')}\nFROM (${kChBase}) ORDER BY i ` +
        `INTO OUTFILE ${sqlString(f.path)} TRUNCATE FORMAT Parquet SETTINGS ${settings}`;
    chdb.query(f.generator, 'CSV');
  }
  return files;
}

/// Loads the pinned chDB from tools/oracle, or returns null with the reason.
export function loadChdb() {
  try {
    return { chdb: createRequire(join(oracleDir, 'package.json'))('chdb') };
  } catch (e) {
    return { chdb: null, reason: e.code ?? e.message };
  }
}

async function main() {
  const [outArg, which = 'all'] = process.argv.slice(2);
  if (!outArg || !['duckdb', 'chdb', 'all'].includes(which)) {
    process.stderr.write('usage: node tests/differential/generate_files.mjs OUT_DIR [duckdb|chdb|all]\n');
    return 2;
  }
  const outDir = resolve(outArg);
  mkdirSync(outDir, { recursive: true });
  const written = [];
  if (which !== 'chdb') {
    const api = await loadDuckdb();
    if (!api) throw new Error('DuckDB oracle unavailable; run `make oracle`');
    const instance = await api.DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const start = Date.now();
    written.push(...await writeDuckdbFiles(connection, outDir));
    console.log(`DuckDB: ${written.length} files in ${Date.now() - start} ms`);
    connection.closeSync();
    instance.closeSync();
  }
  if (which !== 'duckdb') {
    const { chdb, reason } = loadChdb();
    if (!chdb) throw new Error(`chDB unavailable (${reason}); run \`make oracle\``);
    const start = Date.now();
    const files = writeChdbFiles(chdb, outDir);
    console.log(`chDB: ${files.length} files in ${Date.now() - start} ms`);
    written.push(...files);
  }
  for (const f of written) console.log(f.path);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
