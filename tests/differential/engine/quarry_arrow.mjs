// Reads `quarry query --format arrow` (an Arrow IPC stream) with apache-arrow,
// an Arrow implementation independent of quarry, and turns its columns into the
// rows `quarry query --format json` gives (parseQuarryOutput's shape: objects
// keyed by column name, numbers kept exact as Num), so that result_compare.mjs
// compares them with DuckDB's answer as it compares quarry's JSON. The values
// are read from the Arrow buffers by Arrow type (days of a date32, units of a
// timestamp, a decimal's 128-bit two's complement words), never through
// quarry's text. arrowTypeProblems checks the Arrow types against DuckDB's
// column types.

import { Num } from '../exact_json.mjs';
import { quarryTypeOf } from './result_compare.mjs';

/// The Arrow type quarry's stream carries for each engine type (quarry/arrow.h's
/// mapping), written as arrowTypeName writes apache-arrow's types. DuckDB's
/// types reach the engine's by result_compare.mjs's quarryTypeOf (BIGINT int64,
/// DOUBLE and FLOAT double, VARCHAR string, DECIMAL(p,s) decimal(p,s), HUGEINT
/// decimal(38,0), DATE date, TIMESTAMP WITH TIME ZONE timestamp(us, utc), ...);
/// composed, this table is DuckDB's type -> Arrow's.
const ARROW_TYPE = {
  boolean: 'Bool', int32: 'Int32', int64: 'Int64', uint64: 'Uint64', double: 'Float64',
  string: 'LargeUtf8', binary: 'LargeBinary', date: 'Date32', uuid: 'FixedSizeBinary[16]',
  null: 'Null',
};
const UNITS = ['s', 'ms', 'us', 'ns'];

/// The Arrow type an engine type name (DataType::toString) is written as.
export function arrowTypeOfEngine(engineType) {
  if (ARROW_TYPE[engineType]) return ARROW_TYPE[engineType];
  let m = /^decimal\((\d+),(\d+)\)$/.exec(engineType);
  if (m) return `Decimal128(${m[1]},${m[2]})`;
  m = /^time\((ms|us|ns)\)$/.exec(engineType);
  if (m) return `${m[1] === 'ms' ? 'Time32' : 'Time64'}[${m[1]}]`;
  m = /^timestamp\((s|ms|us|ns), (utc|local)\)$/.exec(engineType);
  if (m) return `Timestamp[${m[1]}${m[2] === 'utc' ? ', UTC' : ''}]`;
  m = /^list<(.*)>$/.exec(engineType);
  if (m) return `LargeList<${arrowTypeOfEngine(m[1])}>`;
  return `[no Arrow type for ${engineType}]`;
}

/// apache-arrow's type `type` as a name: Int64, Decimal128(10,2), Timestamp[us, UTC], ...
export function arrowTypeName(arrow, type) {
  const D = arrow.DataType;
  if (D.isNull(type)) return 'Null';
  if (D.isBool(type)) return 'Bool';
  if (D.isInt(type)) return `${type.isSigned ? 'Int' : 'Uint'}${type.bitWidth}`;
  if (D.isFloat(type)) return ['Float16', 'Float32', 'Float64'][type.precision];
  if (D.isUtf8(type)) return 'Utf8';
  if (D.isLargeUtf8(type)) return 'LargeUtf8';
  if (D.isBinary(type)) return 'Binary';
  if (D.isLargeBinary(type)) return 'LargeBinary';
  if (D.isDecimal(type)) return `Decimal${type.bitWidth}(${type.precision},${type.scale})`;
  if (D.isDate(type)) return type.unit === arrow.DateUnit.DAY ? 'Date32' : 'Date64';
  if (D.isTime(type)) return `Time${type.bitWidth}[${UNITS[type.unit]}]`;
  if (D.isTimestamp(type)) return `Timestamp[${UNITS[type.unit]}${type.timezone ? `, ${type.timezone}` : ''}]`;
  if (D.isFixedSizeBinary(type)) return `FixedSizeBinary[${type.byteWidth}]`;
  if (D.isList(type)) return `List<${arrowTypeName(arrow, type.children[0].type)}>`;
  if (D.isLargeList(type)) return `LargeList<${arrowTypeName(arrow, type.children[0].type)}>`;
  return `[${String(type)}]`;
}

/// Problems of the stream's schema against DuckDB's answer: the column names,
/// and each column's Arrow type against DuckDB's type (through the engine type
/// quarryTypeOf gives, or the pair's `types` where the language defines
/// another; a wider decimal of the same scale, as result_compare.mjs allows).
export function arrowTypeProblems(arrow, table, duck, pair, T) {
  const fields = table.schema.fields;
  const names = fields.map((f) => f.name);
  if (names.join('\u0000') !== duck.columns.join('\u0000')) {
    return [`the Arrow stream's columns [${names}] are not DuckDB's [${duck.columns}]`];
  }
  const problems = [];
  fields.forEach((field, c) => {
    const engineType = pair.types?.[field.name] ?? quarryTypeOf(duck.types[c], T);
    const expected = arrowTypeOfEngine(engineType);
    const actual = arrowTypeName(arrow, field.type);
    const e = /^Decimal128\((\d+),(\d+)\)$/.exec(expected);
    const a = /^Decimal128\((\d+),(\d+)\)$/.exec(actual);
    const wider = e && a && a[2] === e[2] && Number(a[1]) > Number(e[1]);
    if (actual !== expected && !wider) {
      problems.push(`column ${field.name}: Arrow type ${actual}, DuckDB's ${duck.types[c]} (${expected} expected)`);
    }
  });
  return problems;
}

const pad = (n, width) => String(n).padStart(width, '0');

/// Days since 1970-01-01 -> "YYYY-MM-DD[ (BC)]", as quarry and DuckDB write a date.
function dateText(days) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return year <= 0 ? `${pad(1 - year, 4)}-${pad(month, 2)}-${pad(day, 2)} (BC)`
                   : `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/// Nanoseconds of a day -> "HH:MM:SS.fffffffff".
function timeText(nanos) {
  const seconds = nanos / 1_000_000_000n;
  return `${pad(seconds / 3600n, 2)}:${pad((seconds / 60n) % 60n, 2)}:${pad(seconds % 60n, 2)}.` +
         `${pad(nanos % 1_000_000_000n, 9)}`;
}

const kNanosPerUnit = [1_000_000_000n, 1_000_000n, 1_000n, 1n];
const kNanosPerDay = 86_400_000_000_000n;

/// A decimal's value: `words` 32-bit little-endian words of a two's complement
/// integer, scaled by `scale` -> "-12.50".
function decimalText(words, scale) {
  let unscaled = 0n;
  for (let w = words.length - 1; w >= 0; w--) unscaled = (unscaled << 32n) | BigInt(words[w]);
  const bits = BigInt(32 * words.length);
  if (unscaled >> (bits - 1n)) unscaled -= 1n << bits;
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}

/// A double as quarry's JSON writes it: a number, or NaN with its sign and payload.
function doubleValue(value) {
  if (!Number.isNaN(value)) return value;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  if (bits === 0x7ff8000000000000n) return 'NaN';
  if (bits === 0xfff8000000000000n) return '-NaN';
  return `NaN(0x${bits.toString(16)})`;
}

/// Value `i` of `data` (an apache-arrow Data of one batch) in quarry's JSON form.
function valueAt(arrow, data, i) {
  const D = arrow.DataType;
  const { type } = data;
  if (D.isNull(type) || !data.getValid(i)) return null;
  if (D.isBool(type)) {
    const bit = data.offset + i;
    return (data.values[bit >> 3] & (1 << (bit % 8))) !== 0;
  }
  if (D.isInt(type)) {
    const value = data.values[i];
    return typeof value === 'bigint' ? new Num(value.toString()) : value;
  }
  if (D.isFloat(type)) return doubleValue(Number(data.values[i]));
  if (D.isUtf8(type) || D.isLargeUtf8(type) || D.isBinary(type) || D.isLargeBinary(type)) {
    const bytes = data.values.subarray(Number(data.valueOffsets[i]), Number(data.valueOffsets[i + 1]));
    if (D.isUtf8(type) || D.isLargeUtf8(type)) return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return [...bytes].map((b) => `\\x${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  }
  if (D.isDecimal(type)) {
    const stride = type.bitWidth / 32;
    return new Num(decimalText(data.values.subarray(stride * i, stride * (i + 1)), type.scale));
  }
  if (D.isDate(type)) {
    if (type.unit !== arrow.DateUnit.DAY) throw new Error(`a Date64 column: quarry writes Date32`);
    return dateText(data.values[i]);
  }
  if (D.isTime(type)) return timeText(BigInt(data.values[i]) * kNanosPerUnit[type.unit]);
  if (D.isTimestamp(type)) {
    const nanos = BigInt(data.values[i]) * kNanosPerUnit[type.unit];
    let days = nanos / kNanosPerDay;
    if (days * kNanosPerDay > nanos) days -= 1n;  // floor
    return `${dateText(Number(days))} ${timeText(nanos - days * kNanosPerDay)}${type.timezone ? '+00' : ''}`;
  }
  if (D.isFixedSizeBinary(type)) {
    const hex = Buffer.from(data.values.subarray(type.byteWidth * i, type.byteWidth * (i + 1))).toString('hex');
    if (type.byteWidth !== 16) throw new Error(`a fixed-size binary of ${type.byteWidth} bytes`);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  if (D.isList(type) || D.isLargeList(type)) {
    const begin = Number(data.valueOffsets[i]);
    const end = Number(data.valueOffsets[i + 1]);
    const child = data.children[0];
    const out = [];
    for (let k = begin; k < end; k++) out.push(valueAt(arrow, child, k));
    return out;
  }
  throw new Error(`the test reads no Arrow ${String(type)} column`);
}

/// Reads `bytes` (an Arrow IPC stream) with apache-arrow; returns { table, rows }:
/// rows in parseQuarryOutput's shape.
export function readArrowRows(arrow, bytes) {
  const table = arrow.tableFromIPC(bytes);
  const names = table.schema.fields.map((f) => f.name);
  const rows = [];
  for (const batch of table.batches) {
    const columns = names.map((_, c) => batch.data.children[c]);
    for (let i = 0; i < batch.numRows; i++) {
      const row = {};
      names.forEach((name, c) => { row[name] = valueAt(arrow, columns[c], i); });
      rows.push(row);
    }
  }
  return { table, rows };
}
