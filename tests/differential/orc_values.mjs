// The canonical forms in which orc_files.mjs compares quarry's ORC values
// (`quarry print FILE.orc --format ndjson`) with chDB's (`SELECT ... FROM
// file(..., ORC) FORMAT JSONEachRow`), guided by the ClickHouse type chDB gives
// the column when it reads the file (DESCRIBE):
//   integers        exact digits (64-bit values never pass through a JS number)
//   Float32/64      bit-exact in the column's width, -0 included; every NaN is one
//                   value, since chDB's text ("nan") carries neither sign nor payload
//   Decimal(p, s)   the unscaled value at scale s; quarry must print exactly s
//                   fraction digits (its contract), chDB's text is rescaled
//   String          the text; ORC binary (quarry: an array of byte values) as hex,
//                   chDB's side as hex of its bytes or, for columns read with
//                   hex(), that hex
//   Date32          the "YYYY-MM-DD" text
//   DateTime64      nanoseconds since 1970 on the writer's wall clock: chDB reads
//                   with input_format_orc_reader_time_zone_name = GMT and
//                   session_timezone = UTC, which shows the writer's wall clock, as
//                   quarry prints a timestamp column
//   Array, Tuple    element by element, field by field
//   Map             entry by entry in file order: quarry's [{key, value}], chDB's
//                   arrayZip(mapKeys, mapValues) pairs
//
// Both sides' JSON is parsed by parseJson, which keeps every number as its text.

import { Num, parseJson } from './exact_json.mjs';

export { Num, parseJson };

export class Mismatch extends Error {}

/// Parses a ClickHouse type name ("Nullable(Decimal(18, 4))", "Tuple(a Int32,
/// b String)") into { name, args }, args being types, numbers or quoted strings;
/// a named tuple element's type carries its `field`.
export function parseType(text) {
  const tokens = text.match(/[A-Za-z_][A-Za-z0-9_]*|\d+|'(?:[^'\\]|\\.)*'|[(),]/g);
  let i = 0;
  const type = () => {
    const name = tokens[i++];
    const out = { name, args: [] };
    if (tokens[i] !== '(') return out;
    i++;
    while (tokens[i] !== ')') {
      if (/^\d/.test(tokens[i]) || tokens[i].startsWith("'")) {
        out.args.push(tokens[i++]);
      } else if (/^[A-Za-z_]/.test(tokens[i + 1] ?? '')) {
        const field = tokens[i++];
        out.args.push({ ...type(), field });
      } else {
        out.args.push(type());
      }
      if (tokens[i] === ',') i++;
    }
    i++;
    return out;
  };
  return type();
}

function floatBits(number, width) {
  const bytes = width === 32 ? new Float32Array([number]) : new Float64Array([number]);
  const view = new DataView(bytes.buffer);
  return `f${width}:${(width === 32 ? view.getUint32(0, true) : view.getBigUint64(0, true)).toString(16)}`;
}

function canonicalFloat(value, width) {
  if (value instanceof Num) return floatBits(Number(value.text), width);
  const text = String(value);
  if (/nan/i.test(text)) return 'nan';
  if (/^\+?inf(inity)?$/i.test(text)) return floatBits(Infinity, width);
  if (/^-inf(inity)?$/i.test(text)) return floatBits(-Infinity, width);
  throw new Mismatch(`not a float: ${JSON.stringify(value)}`);
}

/// "-12.5" at scale 2 -> "dec:-1250/2"; `exact` requires exactly `scale` digits.
function canonicalDecimal(value, scale, exact) {
  const text = value instanceof Num ? value.text : String(value);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Mismatch(`not a decimal: ${JSON.stringify(text)}`);
  const fraction = m[3] ?? '';
  if (exact ? fraction.length !== scale : fraction.length > scale) {
    throw new Mismatch(`decimal ${text} not at scale ${scale}`);
  }
  return `dec:${BigInt(`${m[1]}${m[2]}${fraction.padEnd(scale, '0')}`)}/${scale}`;
}

function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/// "YYYY-MM-DD HH:MM:SS[.fraction]" -> "ts:<nanoseconds since 1970>".
function canonicalTimestamp(value) {
  const m = /^(-?\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(String(value));
  if (!m) throw new Mismatch(`not a timestamp: ${JSON.stringify(value)}`);
  const days = BigInt(daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])));
  const seconds = days * 86400n + BigInt(Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]));
  return `ts:${seconds * 1_000_000_000n + BigInt((m[7] ?? '').padEnd(9, '0'))}`;
}

/// Returns the canonical form of `value` of ClickHouse type `type`, as `side`
/// ('quarry' or 'chdb') prints it. `hex`: chDB's side of this column is hex().
/// `binary`: the file's strings are ORC binary.
export function canonical(value, type, side, { hex = false, binary = false } = {}) {
  const quarry = side === 'quarry';
  const expect = (ok, what) => {
    if (!ok) throw new Mismatch(`${side} gives ${JSON.stringify(value)} where ${what} is expected`);
  };
  if (type.name === 'Nullable' || type.name === 'LowCardinality') {
    return canonical(value, type.args[0], side, { hex, binary });
  }
  if (value === null) return null;
  switch (type.name) {
    case 'Int8': case 'Int16': case 'Int32': case 'Int64':
    case 'UInt8': case 'UInt16': case 'UInt32': case 'UInt64':
      expect(value instanceof Num || (!quarry && /^-?\d+$/.test(value)), 'an integer');
      return `int:${BigInt(value instanceof Num ? value.text : value)}`;
    case 'Float32': return canonicalFloat(value, 32);
    case 'Float64': return canonicalFloat(value, 64);
    case 'Decimal': return canonicalDecimal(value, Number(type.args[1]), quarry);
    case 'Bool':
      expect(typeof value === 'boolean', 'a boolean');
      return `bool:${value}`;
    case 'Date': case 'Date32':
      expect(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value), 'a date');
      return `date:${value}`;
    case 'DateTime': case 'DateTime64': return canonicalTimestamp(value);
    case 'String': case 'FixedString':
      if (quarry && Array.isArray(value)) {
        expect(value.every((b) => b instanceof Num && /^\d+$/.test(b.text) && Number(b.text) < 256),
               'byte values');
        return `bin:${Buffer.from(value.map((b) => Number(b.text))).toString('hex')}`;
      }
      expect(typeof value === 'string', 'a string');
      if (quarry) return `str:${value}`;
      if (hex) return `bin:${value.toLowerCase()}`;
      return binary ? `bin:${Buffer.from(value, 'utf8').toString('hex')}` : `str:${value}`;
    case 'Array':
      expect(Array.isArray(value), 'an array');
      return value.map((v) => canonical(v, type.args[0], side, { binary }));
    case 'Tuple': {
      expect(typeof value === 'object' && !Array.isArray(value), 'a tuple as an object');
      const names = type.args.map((t) => t.field);
      expect(Object.keys(value).join() === names.join(), `fields [${names}]`);
      return names.map((n, k) => canonical(value[n], type.args[k], side, { binary }));
    }
    case 'Map':
      expect(Array.isArray(value), 'map entries');
      return value.map((entry) => {
        const [k, v] = quarry ? [entry.key, entry.value] : entry;
        return [canonical(k, type.args[0], side, { binary }), canonical(v, type.args[1], side, { binary })];
      });
    default:
      throw new Mismatch(`the test cannot compare ClickHouse type ${type.name}`);
  }
}

/// Returns where canonical forms `a` (quarry) and `b` (chDB) differ ("[2][0]: quarry
/// ..., chDB ..."), or null. The path is built only for a difference.
export function difference(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `: quarry has ${a.length} elements, chDB ${b.length}`;
    for (let k = 0; k < a.length; k++) {
      const d = difference(a[k], b[k]);
      if (d) return `[${k}]${d}`;
    }
    return null;
  }
  return a === b ? null : `: quarry ${show(a)}, chDB ${show(b)}`;
}

export function show(value) {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 160 ? `${text.slice(0, 160)}...` : text;
}
