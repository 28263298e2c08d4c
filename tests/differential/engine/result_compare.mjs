// Compares a query result of `quarry query --format json|ndjson` with DuckDB's
// answer to the SQL, by value: both sides become the canonical forms of
// compare_values.mjs, guided by the DuckDB type of each result column.
//
// - Column names and their order must be equal: the names quarry's profile gives
//   (`--profile-out`, `columns`), an empty result's too, and the fields of every
//   row; a missing field is a difference, not a NULL.
// - Types: quarry's type of each column (the profile's) must be DuckDB's, mapped
//   to the engine's names by quarryTypeOf (INTEGER int32, BIGINT int64, HUGEINT
//   decimal(38,0), DECIMAL(p,s) decimal(p,s), TIMESTAMP WITH TIME ZONE
//   timestamp(us, utc), ...), unless the pair lists the engine's type of the
//   column (`types`), where the language defines another (length() is int32).
// - Integers compare by value in the JSON form of quarry's type: int32 a JSON
//   number, int64 and uint64 a string of digits (by DuckDB's type when quarry's
//   is not known). Decimals compare with their scale (1.50 != 1.5), as DuckDB's
//   CSV prints them. Doubles compare bit for bit (NaN == NaN, -0.0 != 0.0) except
//   in the columns the generator marked (FLOAT columns alike):
//     relative   SUM of doubles and AVG: |a - b| <= 1e-9 * max(|a|, |b|), the
//                sign of a zero still compared
//     zero-sign  MIN/MAX of doubles: -0.0 and 0.0 are equal (either may win a tie)
//   and in an ordered result's double sort keys (`sortKeys`), where DuckDB's full
//   sort hands back the key rebuilt from its normalized form, which has no -0.0:
//   quarry's -0.0 there equals DuckDB's 0.0 (not the other way round).
//   Under either tolerance a NaN equals any NaN (sign and payload are not compared).
// - An ordered result compares row by row; else both sides are sorted by
//   their canonical text (the exact columns first) and then compared.

import { canonicalDuckDB, canonicalQuarry, show } from '../compare_values.mjs';
import { Num, parseJson } from '../exact_json.mjs';

/// A SUM or AVG of doubles adds its terms in an order neither engine fixes:
/// DuckDB's threads, quarry's drivers and splits and a cluster's data nodes each
/// hand their partial sums on as they finish. Its rounding then varies by up to
/// about n * 2^-53 * sum(|x|), which in a group whose terms nearly cancel (the
/// corpus's f64 has such groups: 70 values of +-1000 summing to -0.35) is 1e-11
/// of the result and more. Measured: DuckDB alone gave 15 different AVG(f64)
/// answers in 15 runs of query 1792 of seed 1, and quarry's differed from one of
/// them by 2e-12 (a CI failure at the earlier 1e-12).
export const kRelativeTolerance = 1e-9;

const INTEGER_TYPES = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT',
  'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT'];

// DuckDB's type (its id's name) -> the engine's type (DataType::toString).
const ENGINE_TYPE = {
  BOOLEAN: 'boolean', TINYINT: 'int32', SMALLINT: 'int32', INTEGER: 'int32', UTINYINT: 'int32',
  USMALLINT: 'int32', UINTEGER: 'int64', BIGINT: 'int64', UBIGINT: 'uint64',
  HUGEINT: 'decimal(38,0)', FLOAT: 'double', DOUBLE: 'double', VARCHAR: 'string', BLOB: 'binary',
  DATE: 'date', TIME: 'time(us)', TIME_NS: 'time(ns)', TIMESTAMP: 'timestamp(us, local)',
  TIMESTAMP_S: 'timestamp(s, local)', TIMESTAMP_MS: 'timestamp(ms, local)',
  TIMESTAMP_NS: 'timestamp(ns, local)', TIMESTAMP_TZ: 'timestamp(us, utc)', UUID: 'uuid',
};

/// The engine's name of DuckDB's type `type` (a DuckDB type object), or its
/// DuckDB name in brackets when the engine has none.
export function quarryTypeOf(type, T) {
  const name = T[type.typeId];
  if (name === 'DECIMAL') return `decimal(${type.width},${type.scale})`;
  if (name === 'LIST') return `list<${quarryTypeOf(type.valueType, T)}>`;
  return ENGINE_TYPE[name] ?? `[${String(type)}]`;
}

/// Whether quarry's `actual` decimal type holds DuckDB's `expected` one at the
/// same scale with more digits: quarry's decimal arithmetic sizes a product's
/// precision from its operands' types (decimal(18,4) * -4 is decimal(29,4)), where
/// DuckDB keeps DECIMAL(18,4) when the literal fits; the values are compared
/// exactly all the same. (Which precision ES|QL users should see is open.)
function widerDecimal(actual, expected) {
  const a = /^decimal\((\d+),(\d+)\)$/.exec(actual);
  const e = /^decimal\((\d+),(\d+)\)$/.exec(expected);
  return a !== null && e !== null && a[2] === e[2] && Number(a[1]) > Number(e[1]);
}

/// Canonical form of one quarry JSON value read as DuckDB's `type`; `engineType`,
/// quarry's type of the column when known, sets the JSON form of an integer.
function quarryValue(value, type, T, engineType) {
  if (value !== null && INTEGER_TYPES.includes(T[type.typeId])) {
    // Every integer is a JSON number with its exact digits (json_numbers.h),
    // whatever its width: a string, or a fraction, is a difference.
    const text = value instanceof Num ? value.text : value;
    if (Number.isInteger(text) || (value instanceof Num && /^-?\d+$/.test(text))) {
      return `int:${BigInt(text)}`;
    }
    throw new Error(`quarry gives ${JSON.stringify(value)} where a JSON integer is expected` +
                    (engineType ? ` (quarry's type ${engineType})` : ''));
  }
  return canonicalQuarry(value, type, T);
}

/// Returns the number of a canonical "f64:<hex>" or "f32:<hex>" form, or null for
/// another form.
function doubleOf(canonical) {
  if (typeof canonical !== 'string') return null;
  const view = new DataView(new ArrayBuffer(8));
  if (canonical.startsWith('f64:')) {
    view.setBigUint64(0, BigInt(`0x${canonical.slice(4)}`));
    return view.getFloat64(0);
  }
  if (canonical.startsWith('f32:')) {
    view.setUint32(0, Number(`0x${canonical.slice(4)}`));
    return view.getFloat32(0);
  }
  return null;
}

/// Returns true when canonical values `a` (quarry) and `b` (DuckDB) are equal
/// under `tolerance`.
function sameValue(a, b, tolerance) {
  if (a === b) return true;
  // Lists (canonical arrays of canonical elements) compare exactly, element by element.
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  if (tolerance === 'exact' || a === null || b === null) return false;
  const x = doubleOf(a);
  const y = doubleOf(b);
  if (x === null || y === null) return false;
  if (tolerance === 'sort-key') return x === 0 && y === 0 && Object.is(x, -0) && Object.is(y, 0);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (tolerance === 'zero-sign') return x === y;
  if (x === 0 && y === 0) return Object.is(x, y);  // relative: the sign of a zero counts
  if (x === y) return true;  // equal infinities
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  return Math.abs(x - y) <= kRelativeTolerance * Math.max(Math.abs(x), Math.abs(y));
}

/// Parses quarry's stdout: one JSON array (json) or one object per line (ndjson),
/// numbers kept as the text quarry wrote (exact_json.mjs).
export function parseQuarryOutput(text) {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) return parseJson(trimmed);
  return trimmed.split('\n').filter((l) => l.trim() !== '').map((l) => parseJson(l));
}

/// Runs `sql` on `connection`; returns { columns, types, rows } with canonical
/// values, and `reader` (DuckDB's result) when `keepReader`.
export async function duckdbResult(connection, sql, T, keepReader = false) {
  const reader = await connection.runAndReadAll(sql);
  const columns = reader.columnNames();
  const types = reader.columnTypes();
  const rows = reader.getRows().map((row) => row.map((v, i) => canonicalDuckDB(v, types[i], T)));
  return keepReader ? { columns, types, rows, reader } : { columns, types, rows };
}

const rowKey = (row, order) => JSON.stringify(order.map((i) => row[i]));

/// Compares quarry's parsed rows (objects) with DuckDB's result; returns a list
/// of problems, empty when they agree. `pair` gives ordered, tolerance
/// ({column: 'exact'|'relative'|'zero-sign'}), sortKeys (the ordered result's
/// sort columns) and types ({column: engine type} where the language's differs
/// from DuckDB's mapped). `columns`, quarry's result columns ([{name, type}],
/// from its profile), when known: names and types are then checked, an empty
/// result's too.
export function compareResult(quarryRows, duck, pair, T, columns = null) {
  const problems = [];
  if (!Array.isArray(quarryRows)) return ['quarry output is not a list of rows'];
  const engineTypes = {};
  if (columns !== null) {
    const names = columns.map((c) => c.name);
    if (names.join('\u0000') !== duck.columns.join('\u0000')) {
      return [`quarry's columns [${names}] are not DuckDB's [${duck.columns}]`];
    }
    duck.columns.forEach((name, c) => {
      const expected = pair.types?.[name] ?? quarryTypeOf(duck.types[c], T);
      engineTypes[name] = columns[c].type;
      if (columns[c].type !== expected && !widerDecimal(columns[c].type, expected)) {
        problems.push(`column ${name}: quarry's type ${columns[c].type}, DuckDB's ${duck.types[c]}` +
                      ` (${expected} expected${pair.types?.[name] ? ', as the pair lists' : ''})`);
      }
    });
  }
  if (quarryRows.length !== duck.rows.length) {
    problems.push(`quarry gives ${quarryRows.length} rows, DuckDB ${duck.rows.length}`);
  }
  // Every row has exactly DuckDB's columns, in order: a missing field is not a NULL.
  const expectedKeys = duck.columns.join('\u0000');
  const badRow = quarryRows.findIndex((row) => row === null || typeof row !== 'object' ||
      Array.isArray(row) || Object.keys(row).join('\u0000') !== expectedKeys);
  if (badRow >= 0) {
    const row = quarryRows[badRow];
    const keys = row !== null && typeof row === 'object' ? Object.keys(row) : [];
    problems.push(`row ${badRow}: quarry's fields [${keys}] are not DuckDB's columns [${duck.columns}]` +
                  (duck.columns.some((n) => !keys.includes(n))
                    ? ` (missing ${duck.columns.filter((n) => !keys.includes(n)).join(', ')})` : ''));
  }
  if (problems.length > 0) return problems;
  const tolerances = duck.columns.map((name, c) => pair.tolerance?.[name] ??
    (pair.ordered && pair.sortKeys?.includes(name) && ['DOUBLE', 'FLOAT'].includes(T[duck.types[c].typeId])
      ? 'sort-key' : 'exact'));
  let ours;
  try {
    ours = quarryRows.map((row, r) => duck.columns.map((name, c) => {
      try {
        return quarryValue(row[name], duck.types[c], T, engineTypes[name]);
      } catch (e) {
        throw new Error(`row ${r} column ${name} (${duck.types[c]}): ${e.message}`);
      }
    }));
  } catch (e) {
    return [e.message];
  }
  let theirs = duck.rows;
  if (!pair.ordered) {
    // Exact columns first, so that rows whose tolerant values differ slightly still pair up.
    const order = [...tolerances.keys()].sort((a, b) =>
        (tolerances[a] === 'exact' ? 0 : 1) - (tolerances[b] === 'exact' ? 0 : 1) || a - b);
    const sorted = (rows) => rows.map((row) => [rowKey(row, order), row])
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    ours = sorted(ours);
    theirs = sorted(theirs);
  }
  for (let r = 0; r < theirs.length && problems.length < 3; r++) {
    for (let c = 0; c < duck.columns.length; c++) {
      if (!sameValue(ours[r][c], theirs[r][c], tolerances[c])) {
        problems.push(`${pair.ordered ? 'row' : 'sorted row'} ${r} column ${duck.columns[c]}` +
                      ` (${duck.types[c]}, ${tolerances[c]}): quarry ${show(ours[r][c])},` +
                      ` DuckDB ${show(theirs[r][c])}`);
        break;
      }
    }
  }
  return problems;
}
