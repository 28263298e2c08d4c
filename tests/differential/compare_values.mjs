// What the differential tests share: the canonical forms that make quarry's values
// (`quarry print --format ndjson`) and DuckDB's comparable, value by value, and the
// byte-for-byte comparison of `quarry print --format csv` with DuckDB's CSV. Used
// by read_values.mjs and print_csv.mjs (parquet-testing) and generated_files.mjs
// (files written by DuckDB and chDB).
//
// Canonical forms, guided by DuckDB's type of the column:
//   integers, decimals   exact digits (a decimal's scale included: 1.50 != 1.5)
//   FLOAT, DOUBLE        bit-exact, in the width DuckDB gives the column; NaN
//                        included (sign and payload; the quiet bit is set on both
//                        sides, as DuckDB's path to JS quiets a signaling NaN)
//   strings, BLOB, GEOMETRY (WKB)  exact bytes
//   DATE, TIME, TIMESTAMP*  the day / nanosecond count, time zone offset included
//   INTERVAL, UUID       their components
//   LIST, STRUCT, MAP    element by element, field by field, entry by entry

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { Num, parseJson } from './exact_json.mjs';

// One quarry run: large_string_map.brotli.parquet prints 2 GB of text, about 70 s
// on a loaded 2-core machine.
const kTimeoutMs = 300_000;
export const kMaxMismatchesShown = 5;
// Strings longer than this many bytes compare by digest (see digestLongStrings).
const kLongString = 1 << 20;

/// Returns the .parquet files under `dir`, recursively, sorted; none if it is absent.
export function listParquetFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listParquetFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.parquet')) out.push(path);
  }
  return out.sort();
}

// shredded_variant/cases.json names the cases a reader must refuse ("error_message")
// and those it may refuse or read ("notes": "... can choose to error, or read the
// shredded value"). quarry refuses both kinds with CorruptFile; DuckDB reads some.
// Returns them as expected differences keyed by `shredded_variant/<file>`, whose
// quarry error must carry the message (print_csv.mjs and read_values.mjs use them).
export function shreddedVariantErrorCases(root) {
  const casesPath = join(root, 'shredded_variant', 'cases.json');
  const out = {};
  if (!existsSync(casesPath)) return out;
  for (const c of JSON.parse(readFileSync(casesPath, 'utf8'))) {
    const mayError = /can choose to error/.test(c.notes ?? '');
    if (!c.error_message && !mayError) continue;
    out[`shredded_variant/${c.parquet_file}`] = {
      reason: c.error_message
          ? `cases.json: ${c.test} must fail with "${c.error_message}"`
          : `cases.json: ${c.test}: "${c.notes}"`,
      error: c.error_message ? c.error_message.split(':')[0] : 'Invalid variant',
      mayMatch: !c.error_message,
    };
  }
  return out;
}

export function sqlString(text) {
  return `'${text.replaceAll("'", "''")}'`;
}

export function sqlIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

export function firstLine(text) {
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
export function canonicalDuckDB(value, type, T) {
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
export function canonicalQuarry(value, type, T) {
  if (value === null) return null;
  const expect = (ok, what) => {
    if (!ok) throw new Mismatch(`quarry gives ${JSON.stringify(value)} where ${what} is expected`);
  };
  // A JSON number, read by parseJson as the text quarry wrote (every digit).
  if (value instanceof Num) {
    const text = value.text;
    switch (type.typeId) {
      case T.TINYINT: case T.SMALLINT: case T.INTEGER: case T.UTINYINT: case T.USMALLINT:
      case T.UINTEGER: case T.BIGINT: case T.HUGEINT: case T.UBIGINT: case T.UHUGEINT:
        expect(/^-?\d+$/.test(text), 'an integer');
        return `int:${BigInt(text)}`;
      case T.FLOAT: return quarryFloat(Number(text), 32);
      case T.DOUBLE: return quarryFloat(Number(text), 64);
      case T.DECIMAL: return parseDecimal(text);
      default:
        throw new Mismatch(`quarry gives the number ${text} where ${typeName(type)} is expected`);
    }
  }
  switch (type.typeId) {
    case T.BOOLEAN:
      expect(typeof value === 'boolean', 'a boolean');
      return `bool:${value}`;
    case T.TINYINT: case T.SMALLINT: case T.INTEGER: case T.UTINYINT: case T.USMALLINT:
    case T.UINTEGER:
      expect(Number.isInteger(value), 'a JSON integer');
      return `int:${BigInt(value)}`;
    case T.BIGINT: case T.HUGEINT: case T.UBIGINT: case T.UHUGEINT:
      // A string only under --json-big-numbers-as-strings.
      expect(typeof value === 'string' && /^-?\d+$/.test(value), 'an integer');
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
      return `interval:${[value.months, value.days, value.micros]
        .map((part) => (part instanceof Num ? part.text : part)).join('/')}`;
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
export function difference(a, b, path) {
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

export function show(value) {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

// ---------------------------------------------------------------------------

/// Returns `line` (a Buffer holding one JSON document) with the contents of every
/// string longer than kLongString bytes replaced by "md5:<hex>:<bytes>", so that
/// values larger than a JS string can hold still compare (DuckDB's side must digest
/// its long strings the same way: LARGE_VALUE_FILES).
function digestLongStrings(line) {
  const parts = [];
  let copied = 0;
  let i = 0;
  // indexOf, not a byte loop: a line can be a gigabyte. The next backslash is
  // looked for again only once passed (not once per string: a line of many).
  let backslash = -2;
  while (i < line.length) {
    i = line.indexOf(0x22, i);  // '"'
    if (i < 0) break;
    const start = i + 1;
    let j = start;
    let escaped = false;
    for (;;) {
      const quote = line.indexOf(0x22, j);
      if (backslash !== -1 && backslash < j) backslash = line.indexOf(0x5c, j);
      if (backslash >= 0 && (quote < 0 || backslash < quote)) {
        escaped = true;
        j = backslash + 2;
        continue;
      }
      j = quote < 0 ? line.length : quote;
      break;
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

/// Runs `quarry print --format ndjson FILE [--columns a,b]`; returns { rows } or
/// { error }.
export function runQuarry(quarry, file, scratch, columns = null) {
  const outPath = join(scratch, 'out.ndjson');
  const out = openSync(outPath, 'w');
  const args = ['print', '--format', 'ndjson', file];
  if (columns) args.push('--columns', columns.join(','));
  let result;
  try {
    result = spawnSync(quarry, args, {
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
      rows.push(parseJson(text));
    } catch (e) {
      error = `quarry output line ${rows.length + 1} is not JSON (${e.message}): ${show(text)}`;
    }
  });
  rmSync(outPath);
  return error ? { error } : { rows };
}

/// Reads `file` with DuckDB: every column (or `only`), less the skipped ones and
/// those of a type in `uncomparedTypes` (DuckDB type name -> reason). `T` is the
/// API's DuckDBTypeId. `sql`, if given, is the query to read, {file} the file.
export async function readWithDuckDB(connection, file, T,
    { skipColumns = [], only = null, sql = null, uncomparedTypes = {} } = {}) {
  const from = sql ? `(${sql.replaceAll('{file}', `read_parquet(${sqlString(file)})`)})`
                   : `read_parquet(${sqlString(file)})`;
  const probe = await connection.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`);
  const names = probe.columnNames().filter((n) => !only || only.includes(n));
  const types = probe.columnTypes();
  const compared = [];
  const skipped = [];
  probe.columnNames().forEach((name, i) => {
    if (!names.includes(name)) return;
    const typeReason = uncomparedTypes[T[types[i].typeId]];
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
/// Mismatches in `listedRows` go to `listed` instead, one per row. `columnRules`
/// ({ column: (ours, theirs) => boolean } over canonical values) replaces
/// equality for a column whose listed difference has an exact expected form.
export function compareRows(quarryRows, duck, T, listedRows = [], listed = [], columnRules = {}) {
  const problems = [];
  if (quarryRows.length !== duck.rowCount) {
    problems.push(`quarry gives ${quarryRows.length} rows, DuckDB ${duck.rowCount}`);
    return problems;
  }
  // Every row's fields, not the first row's only: a missing field is not a NULL.
  for (let r = 0; r < quarryRows.length; r++) {
    const keys = Object.keys(quarryRows[r]);
    const same = duck.partial ? duck.names.every((n) => keys.includes(n))
                              : keys.join('\u0000') === duck.names.join('\u0000');
    if (!same) {
      problems.push(`${r === 0 ? '' : `row ${r}: `}quarry's fields [${keys}] are not DuckDB's ` +
                    `columns [${duck.names}]`);
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
        const rule = columnRules[column.name];
        d = rule ? (rule(ours, theirs) ? null : `${path}: quarry ${show(ours)}, DuckDB ${show(theirs)} ` +
                                                 '(not the listed expected difference)')
                 : difference(ours, theirs, path);
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

// ---------------------------------------------------------------------------
// Text: `quarry print --format csv` against DuckDB's CSV of the same columns.

/// Returns the first line where the two files differ as [line number, a, b], or
/// null when they are equal. Reads in chunks: a line may exceed a JS string.
function firstDifference(pathA, pathB) {
  const fdA = openSync(pathA, 'r');
  const fdB = openSync(pathB, 'r');
  try {
    const a = Buffer.alloc(1 << 22);
    const b = Buffer.alloc(1 << 22);
    let line = 1;
    for (;;) {
      const n = readSync(fdA, a, 0, a.length, null);
      const m = readSync(fdB, b, 0, b.length, null);
      const common = Math.min(n, m);
      // Chunks compare natively; a byte loop (seconds a gigabyte) only finds where
      // they differ.
      let i = common;
      if (!a.subarray(0, common).equals(b.subarray(0, common))) {
        i = 0;
        while (a[i] === b[i]) i++;
      }
      for (let nl = a.indexOf(0x0a); nl >= 0 && nl < i; nl = a.indexOf(0x0a, nl + 1)) line++;
      if (i < common || n !== m) {
        // Show the differing line, cut: the start of its tail in both files.
        const show = (buf, len) => {
          const end = buf.indexOf(0x0a, i);
          return buf.subarray(i, Math.min(end < 0 || end > len ? len : end, i + 120)).toString();
        };
        return [line, show(a, n), show(b, m)];
      }
      if (n === 0) return null;
    }
  } finally {
    closeSync(fdA);
    closeSync(fdB);
  }
}

/// The first problem of two small CSV files that must differ exactly on the lines
/// of `quarryLines` (number -> quarry's text) and nowhere else; null when none.
function listedLinesDifference(quarryPath, duckPath, quarryLines) {
  const ours = readFileSync(quarryPath, 'utf8').split('\n');
  const theirs = readFileSync(duckPath, 'utf8').split('\n');
  for (const [number, text] of Object.entries(quarryLines)) {
    const i = Number(number) - 1;
    if (ours[i] !== text) {
      return `line ${number}: quarry ${JSON.stringify(ours[i])}, listed as ${JSON.stringify(text)}`;
    }
    if (theirs[i] === text) return `line ${number}: listed as differing, but DuckDB prints it too`;
    ours[i] = theirs[i];
  }
  if (ours.length !== theirs.length) return `quarry prints ${ours.length} lines, DuckDB ${theirs.length}`;
  const i = ours.findIndex((line, k) => line !== theirs[k]);
  return i < 0 ? null : `line ${i + 1}: quarry ${JSON.stringify(ours[i])}, DuckDB ${JSON.stringify(theirs[i])}`;
}

/// Compares `quarry print --format csv FILE` with DuckDB's `COPY (SELECT ...) TO
/// 'x.csv' (HEADER)` byte for byte, leaving out the columns of a type in
/// `uncomparedTypes` (DuckDB type name -> reason) and the `skipColumns`. Returns
/// { skipped } when DuckDB cannot read the file, { quarryError } when quarry exits
/// with an error (its first line), else { problem, note }, each possibly null.
/// `convert`: `quarry convert FILE --to csv -o OUT` instead of print.
/// `quarryLines` ({ line number: text }, small files only): quarry must print
/// exactly that text on that line, where DuckDB prints another, and every other
/// line must still match. TIMESTAMP WITH TIME ZONE: the connection's TimeZone
/// must be UTC, as quarry's.
export async function compareCsvText(file, quarry, scratch, connection, T,
    { convert = false, ...options } = {}) {
  const mode = convert ? 'convert' : 'print';
  const results = await compareCsvTextModes(file, quarry, scratch, connection, T,
      { ...options, modes: [mode] });
  return results.skipped ? results : results[mode];
}

/// compareCsvText for each of `modes` ('print', 'convert') against one DuckDB COPY
/// of the file: { skipped } when DuckDB cannot read it, else { [mode]: result }.
/// (DuckDB's side is most of the time on large values: parquet-testing's
/// large_string_map.brotli.parquet takes it about a minute to write.)
export async function compareCsvTextModes(file, quarry, scratch, connection, T,
    { uncomparedTypes = {}, skipColumns = [], modes = ['print'], filter = null,
      quarryLines = null } = {}) {
  const from = `read_parquet(${sqlString(file)})`;
  let probe;
  try {
    probe = await connection.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`);
  } catch (e) {
    return { skipped: `DuckDB cannot read it (${firstLine(e.message)})` };
  }
  const names = probe.columnNames();
  // By type id: a GEOMETRY's type text carries its CRS.
  const types = probe.columnTypes().map((t) => T[t.typeId]);
  const isLeft = (name, i) => uncomparedTypes[types[i]] || skipColumns.includes(name);
  const kept = names.filter((n, i) => !isLeft(n, i));
  const left = names.filter((n, i) => isLeft(n, i));
  if (kept.length === 0) return { skipped: `no comparable column (${left.join(', ')})` };
  const duckPath = join(scratch, 'duckdb.csv');
  const quarryPath = join(scratch, 'quarry.csv');
  try {
    const where = filter ? ` WHERE ${filter}` : '';
    await connection.run(`COPY (SELECT ${kept.map(sqlIdentifier).join(', ')} FROM ${from}${where}) ` +
                         `TO ${sqlString(duckPath)} (HEADER)`);
  } catch (e) {
    rmSync(duckPath, { force: true });
    return { skipped: `DuckDB cannot read it (${firstLine(e.message)})` };
  }
  const note = left.length > 0 ? `not compared: ${left.join(', ')}` : null;
  const results = {};
  try {
    for (const mode of modes) {
      const extra = [];
      if (left.length > 0) extra.push('--columns', kept.join(','));
      if (filter) extra.push('--filter', filter);
      const result = runQuarryCsv(quarry, file, mode, quarryPath, extra);
      try {
        results[mode] = csvTextResult(result, note, () => textDifference(quarryPath, duckPath, quarryLines));
      } finally {
        rmSync(quarryPath, { force: true });
      }
    }
  } finally {
    rmSync(duckPath, { force: true });
  }
  return results;
}

/// Runs `quarry print --format csv FILE` (mode 'print') or `quarry convert FILE --to
/// csv -o OUT` ('convert'), its CSV text written to `quarryPath` either way, with
/// `extra` arguments; spawnSync's result.
function runQuarryCsv(quarry, file, mode, quarryPath, extra = []) {
  const convert = mode === 'convert';
  // `convert --to csv -o OUT` shares print's CSV path and writes the file itself.
  const args = [...(convert ? ['convert', file, '--to', 'csv', '-o', quarryPath]
                            : ['print', '--format', 'csv', file]), ...extra];
  const out = openSync(convert ? '/dev/null' : quarryPath, 'w');
  try {
    return spawnSync(quarry, args, { stdio: ['ignore', out, 'pipe'], encoding: 'utf8',
                                     timeout: kTimeoutMs });
  } finally {
    closeSync(out);
  }
}

/// One quarry run's outcome against DuckDB's text at `duckPath` (compareCsvText's).
/// `difference()`, called when quarry succeeded, gives the problem of its text or null.
function csvTextResult(result, note, difference) {
  if (result.error || result.signal) {
    return { problem: `quarry did not finish: ${result.error?.message ?? result.signal}` };
  }
  // A quarry failure is the caller's to judge (a failure unless it lists the
  // file with the error text it expects), never a skip.
  if (result.status !== 0) {
    return { note, quarryError: `quarry exit ${result.status}: ${firstLine(result.stderr)}` };
  }
  return { note, problem: difference() };
}

/// The problem of quarry's CSV text at `quarryPath` against DuckDB's at `duckPath`
/// (`quarryLines`: compareCsvText's), or null.
function textDifference(quarryPath, duckPath, quarryLines) {
  if (quarryLines) return listedLinesDifference(quarryPath, duckPath, quarryLines);
  const d = firstDifference(quarryPath, duckPath);
  if (d === null) return null;
  return `line ${d[0]}: quarry ${JSON.stringify(d[1])}, DuckDB ${JSON.stringify(d[2])}`;
}

/// Files with values larger than a JS string can hold. DuckDB reads each once (a
/// minute for large_string_map.brotli.parquet) for both checks, in read_values.mjs:
/// its values, each long string (over 1 MiB) rendered as "md5:<hex>:<bytes>" (the
/// form runQuarry gives quarry's long strings), and the digests of the CSV text
/// its COPY TO CSV writes, which quarry's print and convert are compared with
/// (compareCsvDigests); print_csv.mjs leaves them to read_values.mjs. `values`:
/// the select list of the values; `line`: the text of a row's CSV line (no
/// quoting: checked); `header`: COPY's header line.
export const LARGE_VALUE_FILES = {
  'data/large_string_map.brotli.parquet': {
    values: "map_from_entries(list_transform(map_entries(arr), e -> {'key': 'md5:' || " +
        "md5(e.key) || ':' || strlen(e.key), 'value': e.value})) AS arr",
    line: 'CAST(arr AS VARCHAR)',
    header: 'arr',
  },
};

/// One query of DuckDB answering both checks of a LARGE_VALUE_FILES entry: the
/// values' columns, then CSV_LINE_DIGEST_SQL's ({file} the file).
export function largeValueSql({ values, line }) {
  return `SELECT ${values}, ${CSV_LINE_DIGEST_SQL} FROM (SELECT *, ${line} AS line FROM {file})`;
}

/// The SQL columns (over a subquery's column `line`, the text DuckDB's COPY TO CSV
/// writes for a row when it needs no quoting) that compareCsvDigests reads: the
/// line's md5 and length, and whether COPY would quote it (then the digests cannot
/// stand for COPY's text and the comparison fails).
export const CSV_LINE_DIGEST_SQL = 'md5(coalesce(line, \'\')) AS csv_md5, ' +
    'strlen(coalesce(line, \'\')) AS csv_bytes, ' +
    'coalesce(line = \'\' OR regexp_matches(line, \'[,"\\r\\n]\'), false) AS csv_quoted';

/// Like compareCsvTextModes, for a file whose text DuckDB is given as digests
/// instead of written whole (large_string_map.brotli.parquet: 2 GB of text that
/// DuckDB takes a minute to read and another to write): quarry's output in each of
/// `modes`, a line at a time, against `header` (COPY's header line) and `rows`, per
/// row { csv_md5, csv_bytes, csv_quoted } (CSV_LINE_DIGEST_SQL). Returns { [mode]:
/// result }, results as compareCsvTextModes's.
export function compareCsvDigests(file, quarry, scratch, header, rows, modes) {
  const quarryPath = join(scratch, 'quarry.csv');
  const results = {};
  for (const mode of modes) {
    const result = runQuarryCsv(quarry, file, mode, quarryPath);
    try {
      results[mode] = csvTextResult(result, 'compared by md5 per line',
                                    () => csvDigestDifference(quarryPath, header, rows));
    } finally {
      rmSync(quarryPath, { force: true });
    }
  }
  return results;
}

/// The first difference of the CSV file at `path` from `header` and the line
/// digests `rows` (compareCsvDigests), or null. Each line is hashed as it is read:
/// a line may exceed a JS string.
function csvDigestDifference(path, header, rows) {
  const quoted = rows.findIndex((r) => r.csv_quoted);
  if (quoted >= 0) return `DuckDB's line ${quoted + 2} needs CSV quoting: compare it with COPY's text`;
  const expected = [{ md5: createHash('md5').update(header).digest('hex'), bytes: Buffer.byteLength(header) },
    ...rows.map((r) => ({ md5: r.csv_md5, bytes: Number(r.csv_bytes) }))];
  const lines = [];
  let hash = createHash('md5');
  let bytes = 0;
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(1 << 24);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      let from = 0;
      for (let nl = chunk.indexOf(0x0a, from); nl >= 0 && nl < n; nl = chunk.indexOf(0x0a, from)) {
        hash.update(chunk.subarray(from, nl));
        lines.push({ md5: hash.digest('hex'), bytes: bytes + nl - from });
        hash = createHash('md5');
        bytes = 0;
        from = nl + 1;
      }
      hash.update(chunk.subarray(from, n));
      bytes += n - from;
    }
  } finally {
    closeSync(fd);
  }
  if (bytes > 0) return `quarry's last line (${bytes} bytes) has no newline`;
  for (let i = 0; i < Math.max(lines.length, expected.length); i++) {
    const ours = lines[i];
    const theirs = expected[i];
    if (!ours || !theirs || ours.md5 !== theirs.md5 || ours.bytes !== theirs.bytes) {
      const show = (l) => (l ? `${l.bytes} bytes, md5 ${l.md5}` : 'no line');
      return `line ${i + 1}: quarry ${show(ours)}, DuckDB ${show(theirs)}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------
// Verdicts: what a file's comparison means, given the listed expectation. Kept
// here, apart from the runners, so that comparator_self_test.mjs can plant bad
// results in them. Each returns { verdict: 'ok' | 'FAIL' | 'skip', message }.

/// print_csv.mjs's verdict on `result` (compareCsvText's) for a file whose
/// listed expected difference is `expected` (or undefined): { error } (quarry
/// must fail with an error carrying this text; `mayMatch`: or match), { lines }
/// (compareCsvText checked quarry's listed lines and every other one). A quarry
/// failure is a failure unless listed with its text.
export function csvVerdict(result, expected) {
  const { problem, skipped, quarryError } = result;
  if (quarryError) {
    if (expected?.error && quarryError.includes(expected.error)) {
      return { verdict: 'ok', message: `expected error: ${expected.reason}\n        ${quarryError}` };
    }
    return { verdict: 'FAIL', message: quarryError +
             (expected?.error ? `\n        (expected an error carrying "${expected.error}")` : '') };
  }
  if (skipped) return { verdict: 'skip', message: skipped };
  if (expected?.error) {
    if (expected.mayMatch && !problem) return { verdict: 'ok', message: `read (${expected.reason})` };
    return { verdict: 'FAIL', message: `expected quarry to fail with "${expected.error}" ` +
             `(${expected.reason}); ${problem ? `got ${problem}` : 'it matches'}` };
  }
  if (problem) return { verdict: 'FAIL', message: problem };
  if (expected?.lines) {
    return { verdict: 'ok', message: `expected difference on line(s) ` +
             `${Object.keys(expected.lines).join(', ')}: ${expected.reason}` };
  }
  if (expected) return { verdict: 'FAIL', message: 'listed in EXPECTED_DIFFERENCES but matches; remove the entry' };
  return { verdict: 'ok', message: '' };
}

/// read_values.mjs's verdict on a file: `problems` (value differences, and
/// quarry's error when it failed), `quarryError` (that error, or null) and the
/// file's listed expected difference `expected`: { rows } and { columns } were
/// applied by the comparison; a whole-file entry must name quarry's error text
/// (`error`), and only a quarry failure carrying it passes (`mayMatch`: or a
/// match) - a wrong value does not.
export function valuesVerdict(problems, quarryError, expected) {
  if (expected && !expected.columns && !expected.rows) {
    if (!expected.error) {
      return { verdict: 'FAIL', message: `        listed as a whole-file difference (${expected.reason}) ` +
               'without the error text quarry must give' };
    }
    if (quarryError && quarryError.includes(expected.error)) {
      return { verdict: 'ok', message: `expected difference: ${expected.reason}\n        ${quarryError}` };
    }
    if (!quarryError && problems.length === 0 && expected.mayMatch) {
      return { verdict: 'ok', message: `read (${expected.reason})` };
    }
    return { verdict: 'FAIL', message: `        expected quarry to fail with "${expected.error}" ` +
             `(${expected.reason}); got ${problems[0] ?? 'a match'}` };
  }
  if (problems.length === 0) return { verdict: 'ok', message: '' };
  return { verdict: 'FAIL', message: problems.map((p) => `        ${p}`).join('\n') };
}
