// Compares a query result of `quarry query --format json|ndjson` with DuckDB's
// answer to the SQL, by value: both sides become the canonical forms of
// compare_values.mjs, guided by the DuckDB type of each result column.
//
// - Column names and their order must be equal.
// - Integers compare by value whatever their width: a JSON number or a string
//   of digits (an int32 result where DuckDB says BIGINT, e.g. length(), is the
//   same value). Decimals compare with their scale (1.50 != 1.5), as DuckDB's
//   CSV prints them. Doubles compare bit for bit (NaN == NaN, -0.0 != 0.0) except
//   in the columns the generator marked (FLOAT columns alike):
//     relative   SUM of doubles and AVG: |a - b| <= 1e-12 * max(|a|, |b|)
//     zero-sign  MIN/MAX of doubles: -0.0 and 0.0 are equal (either may win a tie)
//   Under either tolerance a NaN equals any NaN (sign and payload are not compared).
// - An ordered result compares row by row; else both sides are sorted by
//   their canonical text (the exact columns first) and then compared.

import { canonicalDuckDB, canonicalQuarry, show } from '../compare_values.mjs';
import { Num, parseJson } from '../exact_json.mjs';

export const kRelativeTolerance = 1e-12;

const INTEGER_TYPES = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT',
  'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT'];

/// Canonical form of one quarry JSON value read as DuckDB's `type`.
function quarryValue(value, type, T) {
  if (value !== null && INTEGER_TYPES.includes(T[type.typeId])) {
    const text = value instanceof Num ? value.text : value;
    if (Number.isInteger(text) || (typeof text === 'string' && /^-?\d+$/.test(text))) {
      return `int:${BigInt(text)}`;
    }
    throw new Error(`quarry gives ${JSON.stringify(value)} where an integer is expected`);
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
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (tolerance === 'zero-sign') return x === y;
  if (x === y) return true;  // -0.0 == 0.0 and equal infinities
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
/// of problems, empty when they agree. `pair` gives ordered and tolerance.
export function compareResult(quarryRows, duck, pair, T) {
  const problems = [];
  if (!Array.isArray(quarryRows)) return ['quarry output is not a list of rows'];
  if (quarryRows.length !== duck.rows.length) {
    problems.push(`quarry gives ${quarryRows.length} rows, DuckDB ${duck.rows.length}`);
  }
  if (quarryRows.length > 0) {
    const keys = Object.keys(quarryRows[0]);
    if (keys.join('\u0000') !== duck.columns.join('\u0000')) {
      problems.push(`quarry's columns [${keys}] are not DuckDB's [${duck.columns}]`);
    }
  }
  if (problems.length > 0) return problems;
  // DuckDB's ORDER BY hands back sort-key columns rebuilt from its normalized
  // keys, where -0.0 is 0.0: in a sorted result a double's zero sign is not compared.
  const tolerances = duck.columns.map((name, c) => pair.tolerance?.[name] ??
    (pair.ordered && T[duck.types[c].typeId] === 'DOUBLE' ? 'zero-sign' : 'exact'));
  let ours;
  try {
    ours = quarryRows.map((row, r) => duck.columns.map((name, c) => {
      try {
        return quarryValue(row[name] ?? null, duck.types[c], T);
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
