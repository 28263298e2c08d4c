#!/usr/bin/env node
// Differential test: every value quarry reads against DuckDB's, on every file of
// parquet-testing data/ (recursively) and shredded_variant/.
//
//   node tests/differential/read_values.mjs path/to/quarry [substring-filter]
//
// For each FILE.parquet, `quarry print --format ndjson FILE` must exit 0 and give
// the same rows as DuckDB's `SELECT * FROM read_parquet(FILE)`, compared value by
// value after turning both sides into one canonical form, guided by DuckDB's type
// of the column:
//   integers, decimals   exact digits (a decimal's scale included: 1.50 != 1.5)
//   FLOAT, DOUBLE        bit-exact, in the width DuckDB gives the column; NaN
//                        included (sign and payload; the quiet bit is set on both
//                        sides, as DuckDB's path to JS quiets a signaling NaN)
//   strings, BLOB, GEOMETRY (WKB)  exact bytes
//   DATE, TIME, TIMESTAMP*  the day / nanosecond count, time zone offset included
//   INTERVAL, UUID       their components
//   LIST, STRUCT, MAP    element by element, field by field, entry by entry
//
// Files DuckDB cannot read are checked against their documented expectations
// (DOCUMENTED_EXPECTATIONS: rows from the file's .md, README's statements, a file
// documented to hold the same rows). A FILE_expect.csv beside a file is checked
// too. VARIANT columns are not compared (UNCOMPARED_TYPES). A file or row that
// does not match must be in EXPECTED_DIFFERENCES with the reason; a listed one that
// matches fails the test too, so that the list stays true. A DuckDB-written file of
// every type print renders (print_types_file.mjs) is compared as well.
//
// Test data: $QUARRY_TESTDATA, default <repo>/../shared/testdata. Exit code 77 (ctest
// reports it as skipped) when the test data or the DuckDB oracle is missing.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync,
  rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { writePrintTypesFile } from './print_types_file.mjs';

const kSkip = 77;
const kTimeoutMs = 120_000;
const kMaxMismatchesShown = 5;
// Strings longer than this many bytes compare by digest (see LARGE_VALUE_QUERIES).
const kLongString = 1 << 20;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// DuckDBTypeId, whose reverse mapping names a type id; set once the oracle loads.
let typeIdName;

// DuckDB types whose columns are not compared, with the reason.
const UNCOMPARED_TYPES = {
  VARIANT: 'quarry does not reassemble VARIANT values yet (shredded or not); ' +
      'DuckDB gives the decoded variant, quarry the metadata/value/typed_value groups',
};

// Files (relative to parquet-testing/) where quarry and DuckDB legitimately differ,
// DuckDB is wrong, or quarry refuses the file. `rows`: only these rows differ (each
// must) and the others are still compared; `columns`: these columns are not
// compared, the others are; neither: the whole file differs.
const EXPECTED_DIFFERENCES = {
  'data/datapage_v1-corrupt-checksum.parquet': {
    reason: 'a data page CRC does not match its bytes (README: "with a mismatching CRC"); quarry ' +
        'verifies CRCs and rejects the file with CorruptFile, DuckDB does not verify them',
  },
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': {
    reason: 'a data page CRC does not match its bytes (README: "with a mismatching CRC"); quarry ' +
        'verifies CRCs and rejects the file with CorruptFile, DuckDB does not verify them',
  },
  'data/nation.dict-malformed.parquet': {
    reason: 'intentionally malformed: column "name"\'s last page runs 15 bytes past the column ' +
        'chunk\'s total_compressed_size (Arrow\'s tests call it nation_dict_truncated_data_page ' +
        'and expect an exception); quarry rejects it with CorruptFile, DuckDB reads past the chunk',
  },
  'data/int96_from_spark.parquet': {
    rows: [5],
    reason: 'row 5 stores Julian day -105862232 and nanos -32509551616000, Spark\'s writer having ' +
        'wrapped int64 microseconds: quarry reads those bytes exactly (294555-12-13 (BC) ' +
        '14:58:10.448384), Spark wraps again when reading and gets the 290000-12-30 23:00:00 UTC ' +
        'int96_from_spark.md lists, DuckDB overflows differently (226414-01-07 (BC) ...)',
  },
};

// What the documentation says of files DuckDB cannot read (fully), as one of:
//   rows          quarry's ndjson rows, transcribed from the documentation;
//   sameAs        another file, which DuckDB reads, holding the same rows;
//   duckdbColumns the columns DuckDB reads (compared with DuckDB as usual), and
//   equalColumns  pairs of columns documented to hold the same values.
const DOCUMENTED_EXPECTATIONS = {
  'data/map_no_value.parquet': {
    source: 'map_no_value.md: "a MAP with all null values, a second MAP without a values ' +
        'field, and an equivalent LIST repeating the MAP keys ... The last two columns ' +
        'comprise 3 equivalent rows of list<Integer>"',
    rows: [1, 4, 7].map((k) => ({
      my_map: [k, k + 1, k + 2].map((key) => ({ key, value: null })),
      my_map_no_v: [k, k + 1, k + 2],
      my_list: [k, k + 1, k + 2],
    })),
  },
  'data/byte_stream_split_extended.gzip.parquet': {
    source: 'README.md, "Additional types": 7 pairs of columns "containing the same values: one ' +
        'PLAIN-encoded and one BYTE_STREAM_SPLIT-encoded" (DuckDB decodes BYTE_STREAM_SPLIT ' +
        'only for FLOAT and DOUBLE)',
    duckdbColumns: ['float16_plain', 'float_plain', 'float_byte_stream_split', 'double_plain',
      'double_byte_stream_split', 'int32_plain', 'int64_plain', 'flba5_plain', 'decimal_plain'],
    equalColumns: ['float16', 'float', 'double', 'int32', 'int64', 'flba5', 'decimal']
        .map((t) => [`${t}_byte_stream_split`, `${t}_plain`]),
  },
  'data/hadoop_lz4_compressed.parquet': {
    source: 'the same 4 rows as lz4_raw_compressed.parquet and non_hadoop_lz4_compressed.parquet ' +
        '(arrow-rs\'s reader tests expect these rows from each); DuckDB does not read ' +
        'Hadoop-framed LZ4',
    sameAs: 'data/lz4_raw_compressed.parquet',
  },
  'data/non_hadoop_lz4_compressed.parquet': {
    source: 'the same 4 rows as lz4_raw_compressed.parquet and hadoop_lz4_compressed.parquet ' +
        '(arrow-rs\'s reader tests expect these rows from each); DuckDB does not read the ' +
        'LZ4 codec',
    sameAs: 'data/lz4_raw_compressed.parquet',
  },
  'data/hadoop_lz4_compressed_larger.parquet': {
    source: 'the same 10000 rows as lz4_raw_compressed_larger.parquet (Arrow\'s reader tests ' +
        'check both); DuckDB does not read Hadoop-framed LZ4',
    sameAs: 'data/lz4_raw_compressed_larger.parquet',
  },
};

// Files with values larger than a JS string can hold: DuckDB's side is this query
// ({file} the file), which renders each long string as "md5:<hex>:<bytes>", the
// form the test gives quarry's long strings.
const LARGE_VALUE_QUERIES = {
  'data/large_string_map.brotli.parquet':
      "SELECT map_from_entries(list_transform(map_entries(arr), e -> {'key': 'md5:' || " +
      "md5(e.key) || ':' || strlen(e.key), 'value': e.value})) AS arr FROM {file}",
};

function skip(message) {
  process.stderr.write(`\n*** SKIPPED read_values: ${message} ***\n\n`);
  process.exit(kSkip);
}

function listParquetFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listParquetFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.parquet')) out.push(path);
  }
  return out.sort();
}

function sqlString(text) {
  return `'${text.replaceAll("'", "''")}'`;
}

function sqlIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

function firstLine(text) {
  return String(text).trim().split('\n')[0];
}

// ---------------------------------------------------------------------------
// Canonical forms. Both sides become plain JS values: strings for scalars,
// arrays for lists and maps ([key, value] pairs), objects for structs.

class Mismatch extends Error {}

/// Returns "f32:<hex>" / "f64:<hex>". A NaN's quiet bit is set: DuckDB's values
/// reach JS through conversions that quiet a signaling NaN (the file's fff0...01
/// arrives as fff8...01), so only sign and payload can be compared.
function bitsText(bits, width) {
  const isNaN = width === 32 ? (bits & 0x7f800000n) === 0x7f800000n && (bits & 0x7fffffn) !== 0n
                             : (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n &&
                                   (bits & 0xfffffffffffffn) !== 0n;
  if (isNaN) bits |= width === 32 ? 0x400000n : 0x8000000000000n;
  return `f${width}:${bits.toString(16).padStart(width / 4, '0')}`;
}

function floatBits(number, width) {
  const bytes = width === 32 ? new Float32Array([number]) : new Float64Array([number]);
  const view = new DataView(bytes.buffer);
  const bits = width === 32 ? BigInt(view.getUint32(0, true)) : view.getBigUint64(0, true);
  return bitsText(bits, width);
}

/// Quarry's JSON float: a number, or "NaN", "-NaN", "NaN(0x<bits>)", "Infinity", "-Infinity".
function quarryFloat(value, width) {
  if (typeof value === 'number') return floatBits(value, width);
  if (value === 'Infinity') return floatBits(Infinity, width);
  if (value === '-Infinity') return floatBits(-Infinity, width);
  const canonical = width === 32 ? 0x7fc00000n : 0x7ff8000000000000n;
  const sign = 1n << BigInt(width - 1);
  let bits;
  if (value === 'NaN') bits = canonical;
  else if (value === '-NaN') bits = canonical | sign;
  else {
    const m = /^NaN\(0x([0-9a-f]+)\)$/.exec(String(value));
    if (!m) throw new Mismatch(`not a float: ${JSON.stringify(value)}`);
    bits = BigInt(`0x${m[1]}`);
  }
  return bitsText(bits, width);
}

function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/// "YYYY-MM-DD" or "YYYY-MM-DD (BC)" (DuckDB's form) -> days since 1970-01-01.
function parseDate(text) {
  const m = /^(\d{4,})-(\d{2})-(\d{2})( \(BC\))?$/.exec(text);
  if (!m) throw new Mismatch(`not a date: ${JSON.stringify(text)}`);
  const year = m[4] ? 1 - Number(m[1]) : Number(m[1]);
  return daysFromCivil(year, Number(m[2]), Number(m[3]));
}

/// "HH:MM:SS[.fraction][+HH]" -> [nanoseconds, offset seconds or null].
function parseTime(text) {
  const m = /^(\d{2,}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([+-])(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) throw new Mismatch(`not a time: ${JSON.stringify(text)}`);
  const nanos = (BigInt(m[1]) * 3600n + BigInt(m[2]) * 60n + BigInt(m[3])) * 1_000_000_000n +
      BigInt((m[4] ?? '').padEnd(9, '0'));
  const offset = m[5] ? (m[5] === '-' ? -1 : 1) * (Number(m[6]) * 3600 + Number(m[7] ?? 0) * 60) : null;
  return [nanos, offset];
}

/// "date[ (BC)] time[+00]" -> "ts:<nanoseconds since the epoch>[+offset]".
function parseTimestamp(text) {
  const m = /^(\d{4,}-\d{2}-\d{2}(?: \(BC\))?) (.*)$/.exec(String(text));
  if (!m) throw new Mismatch(`not a timestamp: ${JSON.stringify(text)}`);
  const [nanosOfDay, offset] = parseTime(m[2]);
  const nanos = BigInt(parseDate(m[1])) * 86_400_000_000_000n + nanosOfDay;
  return `ts:${nanos}${offset === null ? '' : `@${offset}`}`;
}

/// DuckDB's BLOB text (\xNN escapes) -> hex of the bytes.
function blobTextToHex(text) {
  if (typeof text !== 'string') throw new Mismatch(`not a blob: ${JSON.stringify(text)}`);
  let hex = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === 'x' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) {
      hex += text.slice(i + 2, i + 4).toLowerCase();
      i += 3;
    } else {
      const code = text.charCodeAt(i);
      if (code < 32 || code > 126) throw new Mismatch(`blob text holds a raw character ${code}`);
      hex += code.toString(16).padStart(2, '0');
    }
  }
  return `blob:${hex}`;
}

function bytesToHex(bytes) {
  return `blob:${Buffer.from(bytes).toString('hex')}`;
}

/// "-12.50" -> "dec:-1250/2".
function parseDecimal(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(text));
  if (!m) throw new Mismatch(`not a decimal: ${JSON.stringify(text)}`);
  const unscaled = BigInt(`${m[1]}${m[2]}${m[3] ?? ''}`);
  return `dec:${unscaled}/${(m[3] ?? '').length}`;
}

function typeName(type) {
  return String(type);
}

/// DuckDB's typed value -> canonical form.
function canonicalDuckDB(value, type, T) {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case T.BOOLEAN: return `bool:${value}`;
    case T.TINYINT: case T.SMALLINT: case T.INTEGER: case T.BIGINT: case T.HUGEINT:
    case T.UTINYINT: case T.USMALLINT: case T.UINTEGER: case T.UBIGINT: case T.UHUGEINT:
      return `int:${BigInt(value)}`;
    case T.FLOAT: return floatBits(value, 32);
    case T.DOUBLE: return floatBits(value, 64);
    case T.DECIMAL: return `dec:${value.value}/${value.scale}`;
    case T.DATE: return `date:${value.days}`;
    case T.TIME: return `time:${value.micros * 1000n}`;
    case T.TIME_NS: return `time:${value.nanos}`;
    case T.TIME_TZ: return `time:${value.micros * 1000n}@${value.offset}`;
    case T.TIMESTAMP: return `ts:${value.micros * 1000n}`;
    case T.TIMESTAMP_S: return `ts:${value.seconds * 1_000_000_000n}`;
    case T.TIMESTAMP_MS: return `ts:${value.millis * 1_000_000n}`;
    case T.TIMESTAMP_NS: return `ts:${value.nanos}`;
    case T.TIMESTAMP_TZ: return `ts:${value.micros * 1000n}@0`;
    case T.INTERVAL: return `interval:${value.months}/${value.days}/${value.micros}`;
    case T.VARCHAR: case T.ENUM: return `str:${value}`;
    case T.BLOB: case T.GEOMETRY: return bytesToHex(value.bytes);
    case T.UUID: return `uuid:${value.toString()}`;
    case T.LIST: case T.ARRAY:
      return value.items.map((item) => canonicalDuckDB(item, type.valueType, T));
    case T.STRUCT: {
      const out = {};
      type.entryNames.forEach((name, i) => {
        out[name] = canonicalDuckDB(value.entries[name], type.entryTypes[i], T);
      });
      return out;
    }
    case T.MAP:
      return value.entries.map(({ key, value: v }) =>
        [canonicalDuckDB(key, type.keyType, T), canonicalDuckDB(v, type.valueType, T)]);
    default:
      // JSON logical type and other text-like extensions arrive as strings.
      if (typeof value === 'string') return `str:${value}`;
      throw new Mismatch(`the test cannot compare DuckDB type ${typeName(type)}`);
  }
}

/// Quarry's ndjson value -> canonical form, read as DuckDB's `type`.
function canonicalQuarry(value, type, T) {
  if (value === null) return null;
  const expect = (ok, what) => {
    if (!ok) throw new Mismatch(`quarry gives ${JSON.stringify(value)} where ${what} is expected`);
  };
  switch (type.typeId) {
    case T.BOOLEAN:
      expect(typeof value === 'boolean', 'a boolean');
      return `bool:${value}`;
    case T.TINYINT: case T.SMALLINT: case T.INTEGER: case T.UTINYINT: case T.USMALLINT:
    case T.UINTEGER:
      expect(Number.isInteger(value), 'a JSON integer');
      return `int:${BigInt(value)}`;
    case T.BIGINT: case T.HUGEINT: case T.UBIGINT: case T.UHUGEINT:
      expect(typeof value === 'string' && /^-?\d+$/.test(value), 'an integer string');
      return `int:${BigInt(value)}`;
    case T.FLOAT: return quarryFloat(value, 32);
    case T.DOUBLE: return quarryFloat(value, 64);
    case T.DECIMAL: return parseDecimal(value);
    case T.DATE: return `date:${parseDate(value)}`;
    case T.TIME: case T.TIME_NS: case T.TIME_TZ: {
      const [nanos, offset] = parseTime(String(value));
      return `time:${nanos}${offset === null ? '' : `@${offset}`}`;
    }
    case T.TIMESTAMP: case T.TIMESTAMP_S: case T.TIMESTAMP_MS: case T.TIMESTAMP_NS:
    case T.TIMESTAMP_TZ:
      return parseTimestamp(value);
    case T.INTERVAL:
      expect(typeof value === 'object' && 'months' in value, 'an interval object');
      return `interval:${value.months}/${value.days}/${value.micros}`;
    case T.VARCHAR: case T.ENUM:
      expect(typeof value === 'string', 'a string');
      return `str:${value}`;
    case T.BLOB: case T.GEOMETRY: return blobTextToHex(value);
    case T.UUID: return `uuid:${value}`;
    case T.LIST: case T.ARRAY:
      expect(Array.isArray(value), 'a list');
      return value.map((item) => canonicalQuarry(item, type.valueType, T));
    case T.STRUCT: {
      expect(typeof value === 'object' && !Array.isArray(value), 'a struct');
      const names = Object.keys(value);
      if (names.length !== type.entryNames.length || !type.entryNames.every((n) => n in value)) {
        throw new Mismatch(`struct fields [${names}] where DuckDB has [${type.entryNames}]`);
      }
      const out = {};
      type.entryNames.forEach((name, i) => {
        out[name] = canonicalQuarry(value[name], type.entryTypes[i], T);
      });
      return out;
    }
    case T.MAP:
      expect(Array.isArray(value), 'a map (list of {key, value})');
      return value.map((entry) => {
        expect(typeof entry === 'object' && entry !== null && 'key' in entry, 'a map entry');
        return [canonicalQuarry(entry.key, type.keyType, T),
          canonicalQuarry(entry.value, type.valueType, T)];
      });
    default:
      if (typeof value === 'string') return `str:${value}`;
      throw new Mismatch(`the test cannot compare DuckDB type ${typeName(type)}`);
  }
}

/// Returns where `a` (quarry) and `b` (DuckDB) differ, or null.
function difference(a, b, path) {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: quarry ${show(a)}, DuckDB ${show(b)}`;
    if (a.length !== b.length) {
      return `${path}: quarry has ${a.length} elements, DuckDB ${b.length} (${show(a)} vs ${show(b)})`;
    }
    for (let i = 0; i < a.length; i++) {
      const d = difference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    for (const key of Object.keys(b)) {
      const d = difference(a[key], b[key], `${path}.${key}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: quarry ${show(a)}, DuckDB ${show(b)}`;
}

function show(value) {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

// ---------------------------------------------------------------------------

/// Returns `line` (a Buffer holding one JSON document) with the contents of every
/// string longer than kLongString bytes replaced by "md5:<hex>:<bytes>", so that
/// values larger than a JS string can hold still compare (see LARGE_VALUE_QUERIES).
function digestLongStrings(line) {
  const parts = [];
  let copied = 0;
  let i = 0;
  while (i < line.length) {
    if (line[i] !== 0x22) { i++; continue; }  // '"'
    const start = i + 1;
    let j = start;
    let escaped = false;
    while (j < line.length && line[j] !== 0x22) {
      if (line[j] === 0x5c) { escaped = true; j += 2; } else j++;
    }
    if (j - start > kLongString && !escaped) {
      const hash = createHash('md5').update(line.subarray(start, j)).digest('hex');
      parts.push(line.subarray(copied, start), Buffer.from(`md5:${hash}:${j - start}`));
      copied = j;
    }
    i = j + 1;
  }
  if (copied === 0) return line;
  parts.push(line.subarray(copied));
  return Buffer.concat(parts);
}

/// Calls onLine(Buffer) for each line of the file at `path`, read in chunks (the
/// output may exceed what one JS string or one readFileSync holds).
function forEachLine(path, onLine) {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(1 << 24);
    let pending = [];
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      let from = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, from);
        if (newline < 0 || newline >= n) break;
        pending.push(chunk.subarray(from, newline));
        onLine(Buffer.concat(pending));
        pending = [];
        from = newline + 1;
      }
      if (from < n) pending.push(Buffer.from(chunk.subarray(from, n)));
    }
    if (pending.length > 0) onLine(Buffer.concat(pending));
  } finally {
    closeSync(fd);
  }
}

function runQuarry(quarry, file, scratch) {
  const outPath = join(scratch, 'out.ndjson');
  const out = openSync(outPath, 'w');
  let result;
  try {
    result = spawnSync(quarry, ['print', '--format', 'ndjson', file], {
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
      timeout: kTimeoutMs,
    });
  } finally {
    closeSync(out);
  }
  if (result.error) return { error: `could not run quarry: ${result.error.message}` };
  if (result.signal) return { error: `quarry killed by ${result.signal}` };
  if (result.status !== 0) return { error: `quarry exit ${result.status}: ${firstLine(result.stderr)}` };
  const rows = [];
  let error = null;
  forEachLine(outPath, (line) => {
    if (error) return;
    const text = (line.length > kLongString ? digestLongStrings(line) : line).toString('utf8');
    try {
      rows.push(JSON.parse(text));
    } catch (e) {
      error = `quarry output line ${rows.length + 1} is not JSON (${e.message}): ${show(text)}`;
    }
  });
  rmSync(outPath);
  return error ? { error } : { rows };
}

/// Reads `file` with DuckDB: every column (or `only`), less the skipped ones.
async function readWithDuckDB(connection, file, { skipColumns = [], only = null, sql = null } = {}) {
  const from = sql ? `(${sql.replaceAll('{file}', `read_parquet(${sqlString(file)})`)})`
                   : `read_parquet(${sqlString(file)})`;
  const probe = await connection.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`);
  const names = probe.columnNames().filter((n) => !only || only.includes(n));
  const types = probe.columnTypes();
  const compared = [];
  const skipped = [];
  probe.columnNames().forEach((name, i) => {
    if (!names.includes(name)) return;
    const typeReason = UNCOMPARED_TYPES[typeIdName[types[i].typeId]];
    if (typeReason || skipColumns.includes(name)) skipped.push(name);
    else compared.push({ name, type: types[i] });
  });
  const select = compared.length > 0 ? compared.map((c) => sqlIdentifier(c.name)).join(', ')
                                     : 'count(*) AS n';
  const reader = await connection.runAndReadAll(`SELECT ${select} FROM ${from}`);
  let rowCount;
  let rows = [];
  if (compared.length > 0) {
    rows = reader.getRows();
    rowCount = rows.length;
  } else {
    rowCount = Number(reader.getRows()[0][0]);
  }
  return { names, compared, skipped, rows, rowCount, partial: only !== null };
}

/// Compares quarry's rows with DuckDB's; returns the mismatches (at most a few).
/// Mismatches in `listedRows` go to `listed` instead, one per row.
function compareRows(quarryRows, duck, T, listedRows = [], listed = []) {
  const problems = [];
  if (quarryRows.length !== duck.rowCount) {
    problems.push(`quarry gives ${quarryRows.length} rows, DuckDB ${duck.rowCount}`);
    return problems;
  }
  if (quarryRows.length > 0) {
    const keys = Object.keys(quarryRows[0]);
    const same = duck.partial ? duck.names.every((n) => keys.includes(n))
                              : keys.join('\u0000') === duck.names.join('\u0000');
    if (!same) {
      problems.push(`quarry's fields [${keys}] are not DuckDB's columns [${duck.names}]`);
      return problems;
    }
  }
  for (let r = 0; r < duck.rows.length && problems.length < kMaxMismatchesShown; r++) {
    for (const [c, column] of duck.compared.entries()) {
      const path = `row ${r} ${column.name}`;
      let d;
      try {
        const ours = canonicalQuarry(quarryRows[r][column.name], column.type, T);
        const theirs = canonicalDuckDB(duck.rows[r][c], column.type, T);
        d = difference(ours, theirs, path);
      } catch (e) {
        if (!(e instanceof Mismatch)) throw e;
        d = `${path} (${column.type}): ${e.message}`;
      }
      if (d && listedRows.includes(r)) {
        if (!listed.some((l) => l.startsWith(`row ${r} `))) listed.push(d);
      } else if (d) {
        problems.push(d);
        if (problems.length >= kMaxMismatchesShown) break;
      }
    }
  }
  return problems;
}

/// Minimal CSV reader for the *_expect.csv files: quoted or bare fields; a bare
/// empty field is null.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let i = 0;
  while (i < text.length) {
    let field;
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') { value += '"'; i += 2; continue; }
          i++;
          break;
        }
        value += text[i++];
      }
      field = value;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
      field = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(field);
    if (text[i] === ',') { i++; continue; }
    if (text[i] === '\r') i++;
    if (text[i] === '\n' || i >= text.length) {
      rows.push(row);
      row = [];
      i++;
    }
  }
  return rows;
}

/// Compares quarry's rows with FILE_expect.csv (columns by position, values as text).
function compareExpectCsv(quarryRows, csvPath) {
  const [header, ...rows] = parseCsv(readFileSync(csvPath, 'utf8'));
  if (rows.length !== quarryRows.length) {
    return [`${basename(csvPath)} has ${rows.length} rows, quarry ${quarryRows.length}`];
  }
  const problems = [];
  for (let r = 0; r < rows.length && problems.length < kMaxMismatchesShown; r++) {
    const values = Object.values(quarryRows[r]);
    if (values.length !== header.length) {
      return [`${basename(csvPath)} has ${header.length} columns, quarry ${values.length}`];
    }
    for (let c = 0; c < header.length; c++) {
      const ours = values[c] === null ? null : String(values[c]);
      if (ours !== rows[r][c]) {
        problems.push(`${basename(csvPath)} row ${r} column ${c} (${header[c]}): quarry ` +
                      `${show(ours)}, expected ${show(rows[r][c])}`);
        if (problems.length >= kMaxMismatchesShown) break;
      }
    }
  }
  return problems;
}

/// Checks quarry's rows of a file DuckDB cannot read against `documented`.
async function checkDocumented(documented, quarryRows, root, connection, T) {
  if (documented.rows) {
    const d = difference(quarryRows, documented.rows, 'rows');
    return d ? [d] : [];
  }
  if (documented.sameAs) {
    const reference = await readWithDuckDB(connection, join(root, documented.sameAs));
    return compareRows(quarryRows, reference, T);
  }
  const problems = [];
  if (documented.duckdbColumns) {
    const file = documented.file;
    problems.push(...compareRows(quarryRows,
        await readWithDuckDB(connection, file, { only: documented.duckdbColumns }), T));
  }
  for (const [a, b] of documented.equalColumns ?? []) {
    for (let r = 0; r < quarryRows.length && problems.length < kMaxMismatchesShown; r++) {
      const d = difference(quarryRows[r][a], quarryRows[r][b], `row ${r} ${a} vs ${b}`);
      if (d) problems.push(d);
    }
  }
  return problems;
}

async function checkFile(file, name, root, quarry, scratch, connection, T) {
  const expected = EXPECTED_DIFFERENCES[name];
  const notes = [];
  let duck;
  let duckError = null;
  try {
    duck = await readWithDuckDB(connection, file,
        { skipColumns: expected?.columns ?? [], sql: LARGE_VALUE_QUERIES[name] ?? null });
  } catch (e) {
    duckError = firstLine(e.message);
  }
  const ours = runQuarry(quarry, file, scratch);
  let problems;
  if (duckError !== null) {
    const documented = DOCUMENTED_EXPECTATIONS[name];
    if (documented === undefined) {
      problems = [`DuckDB cannot read it (${duckError}) and it has no documented expectation` +
                  (ours.error ? `; ${ours.error}` : '')];
    } else if (ours.error) {
      problems = [ours.error];
    } else {
      notes.push(`DuckDB cannot read it all; checked against ${documented.source}`);
      problems = await checkDocumented({ ...documented, file }, ours.rows, root, connection, T);
    }
  } else if (ours.error) {
    problems = [ours.error];
  } else {
    const listed = [];
    problems = compareRows(ours.rows, duck, T, expected?.rows ?? [], listed);
    if (duck.skipped.length > 0) notes.push(`not compared: ${duck.skipped.join(', ')}`);
    if (expected?.rows) {
      if (listed.length < expected.rows.length) {
        problems.push(`rows ${expected.rows} are listed in EXPECTED_DIFFERENCES but only ` +
                      `${listed.length} of them differ; update the entry`);
      }
      notes.push(`expected difference in rows ${expected.rows}: ${expected.reason}`, ...listed);
    }
  }
  const expectCsv = file.replace(/\.parquet$/, '_expect.csv');
  if (!ours.error && existsSync(expectCsv)) {
    problems.push(...compareExpectCsv(ours.rows, expectCsv));
    notes.push(`and ${basename(expectCsv)}`);
  }
  return { problems, notes, expected };
}

async function main() {
  const [quarry, filter] = process.argv.slice(2);
  if (!quarry) {
    process.stderr.write('usage: node tests/differential/read_values.mjs QUARRY_BINARY [FILTER]\n');
    return 2;
  }
  if (!existsSync(quarry)) {
    process.stderr.write(`quarry binary not found: ${quarry}\n`);
    return 1;
  }
  const testdata = resolve(process.env.QUARRY_TESTDATA || join(repoRoot, '..', 'shared', 'testdata'));
  const root = join(testdata, 'parquet-testing');
  if (!existsSync(join(root, 'data'))) {
    skip(`no test data at ${join(root, 'data')} (set QUARRY_TESTDATA to the folder holding ` +
         'parquet-testing/)');
  }
  let api;
  try {
    api = await import(join(repoRoot, 'tools', 'oracle', 'node_modules', '@duckdb', 'node-api',
                            'lib', 'index.js'));
  } catch (e) {
    skip(`DuckDB oracle unavailable (${e.code ?? e.message}); run \`make oracle\``);
  }
  const T = api.DuckDBTypeId;
  typeIdName = T;

  const scratch = mkdtempSync(join(tmpdir(), 'quarry-read-values-'));
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  // Beside parquet-testing: a file of every type print renders, written by DuckDB.
  const generated = join(scratch, 'generated', 'print_types.parquet');
  mkdirSync(dirname(generated));
  await writePrintTypesFile(connection, generated);
  const nameOf = (f) => relative(f === generated ? scratch : root, f);
  const files = [...listParquetFiles(join(root, 'data')), ...listParquetFiles(join(root, 'shredded_variant')),
    generated].filter((f) => !filter || f.includes(filter));
  const names = new Set(files.map(nameOf));
  let passed = 0;
  let failed = 0;
  let expectedCount = 0;
  try {
    for (const file of files) {
      const name = nameOf(file);
      const { problems, notes, expected } = await checkFile(file, name, root, quarry, scratch,
                                                             connection, T);
      const note = notes.length > 0 ? `  (${notes.join('; ')})` : '';
      if (expected && !expected.columns && !expected.rows) {
        if (problems.length > 0) {
          passed++;
          expectedCount++;
          console.log(`ok    ${name}: expected difference: ${expected.reason}\n` +
                      `        ${problems[0]}`);
        } else {
          failed++;
          console.log(`FAIL  ${name}: listed in EXPECTED_DIFFERENCES (${expected.reason}) but ` +
                      'matches; remove the entry');
        }
      } else if (problems.length === 0) {
        passed++;
        if (expected) expectedCount++;
        const why = expected?.columns
            ? `  (columns ${expected.columns.join(', ')}: ${expected.reason})` : '';
        console.log(`ok    ${name}${note}${why}`);
      } else {
        failed++;
        console.log(`FAIL  ${name}${note}\n${problems.map((p) => `        ${p}`).join('\n')}`);
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(scratch, { recursive: true, force: true });
  }
  const listed = [...Object.keys(EXPECTED_DIFFERENCES), ...Object.keys(DOCUMENTED_EXPECTATIONS),
    ...Object.keys(LARGE_VALUE_QUERIES)];
  const stale = filter ? [] : listed.filter((n) => !names.has(n));
  for (const n of stale) {
    failed++;
    console.log(`FAIL  ${n}: listed in the test but not in the test data`);
  }
  for (const [type, reason] of Object.entries(UNCOMPARED_TYPES)) {
    console.log(`note: ${type} columns are not compared: ${reason}`);
  }
  console.log(`read_values: ${files.length} files: parquet-testing data/ and shredded_variant/ ` +
              `under ${root}, and generated/print_types.parquet; ` +
              `${expectedCount} with listed expected differences`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
