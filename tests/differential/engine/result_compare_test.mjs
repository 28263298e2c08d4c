#!/usr/bin/env node
// Checks the comparison rules of result_compare.mjs on hand-made quarry rows
// against DuckDB results: what must agree agrees and what must not is reported.
//
//   node tests/differential/engine/result_compare_test.mjs
//
// Exit code 77 (skipped) when the DuckDB oracle is not installed.

import { importDuckdb } from '../../support/duckdb.mjs';
import { compareResult, duckdbResult, parseQuarryOutput } from './result_compare.mjs';
import { plainJson } from '../exact_json.mjs';

async function main() {
  let api;
  try {
    api = await importDuckdb();
  } catch (e) {
    process.stderr.write(`\n*** SKIPPED result_compare_test: DuckDB oracle unavailable (${e.code ?? e.message}) ***\n\n`);
    return 77;
  }
  const T = api.DuckDBTypeId;
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const one = await duckdbResult(connection, `SELECT 0.1::DOUBLE + 0.2 AS s, -0.0::DOUBLE AS m,
      'NaN'::DOUBLE AS n, 5::INTEGER AS i, 7::BIGINT AS b, 1.50::DECIMAL(9,2) AS d,
      TIMESTAMPTZ '2020-01-02 03:04:05.5' AS tz, DATE '2020-01-02' AS day, '\\x00A'::BLOB AS bin`, T);
  const base = { s: 0.30000000000000004, m: -0.0, n: 'NaN', i: 5, b: 7, d: '1.50',
                 tz: '2020-01-02 03:04:05.5+00', day: '2020-01-02', bin: '\\x00A' };
  // A FLOAT NaN whose sign and payload are not quarry's canonical -NaN.
  const floats = await duckdbResult(connection, `SELECT 'NaN'::FLOAT AS f, -0.0::FLOAT AS g`, T);
  const many = await duckdbResult(connection,
      "SELECT * FROM (VALUES (1, 'a'), (2, NULL), (3, 'c')) t(k, v) ORDER BY k", T);
  const shuffled = [{ k: 3, v: 'c' }, { k: 1, v: 'a' }, { k: 2, v: null }];

  // quarry's profile columns for `one` (its types mapped to the engine's).
  const oneColumns = [['s', 'double'], ['m', 'double'], ['n', 'double'], ['i', 'int32'],
    ['b', 'int64'], ['d', 'decimal(9,2)'], ['tz', 'timestamp(us, utc)'], ['day', 'date'],
    ['bin', 'binary']].map(([name, type]) => ({ name, type }));
  const withType = (name, type) => oneColumns.map((c) => (c.name === name ? { name, type } : c));
  const empty = await duckdbResult(connection, 'SELECT 1::INTEGER AS k, 2.5::DOUBLE AS x WHERE false', T);
  const keyed = await duckdbResult(connection,
      'SELECT * FROM (VALUES (-0.0::DOUBLE, 0.0::DOUBLE, 1)) t(x, y, k) ORDER BY k LIMIT 5', T);
  const keyedZero = await duckdbResult(connection,
      'SELECT * FROM (VALUES (0.0::DOUBLE, 0.0::DOUBLE, 1)) t(x, y, k) ORDER BY x, k', T);

  // [name, quarry rows, DuckDB result, ordered, tolerance, agrees, (columns, sortKeys, types)]
  const cases = [
    // "Comparators are strict: result types compared (DuckDB's type mapped to
    // quarry's), column names checked on every result including empty ones, a
    // missing field fails, the sign of zero ignored only where the docs say so"
    ['the same values and types agree', [base], one, true, {}, true, oneColumns],
    ['a changed type differs (int64 where DuckDB has INTEGER)', [base], one, true, {},
     false, withType('i', 'int64')],
    ['a changed type differs (decimal scale)', [base], one, true, {}, false, withType('d', 'decimal(9,3)')],
    ['a changed type differs (local timestamp)', [base], one, true, {}, false,
     withType('tz', 'timestamp(us, local)')],
    ['a type the pair lists agrees (length() is int32)', [{ ...base, b: 7 }], one, true, {}, true,
     withType('b', 'int32'), undefined, { b: 'int32' }],
    ['a listed type is still checked', [{ ...base, b: '7' }], one, true, {}, false,
     oneColumns, undefined, { b: 'int32' }],
    ['an int32 column must be a JSON number', [{ ...base, i: '5' }], one, true, {}, false, oneColumns],
    // Every integer is a JSON number with its exact digits (json_numbers.h).
    ['an int64 column must be a JSON number, not a string', [{ ...base, b: '7' }], one, true, {}, false,
     oneColumns],
    ['a renamed column differs in the profile', [base], one, true, {}, false,
     oneColumns.map((c) => (c.name === 'i' ? { ...c, name: 'j' } : c))],
    ['a renamed column differs in the rows', [{ ...base, i: undefined, j: 5 }], one, true, {}, false],
    ['a renamed column differs in a later row only',
     [{ k: 1, v: 'a' }, { k: 2, v: null }, { k: 3, w: 'c' }], many, true, {}, false],
    ['a missing field is not a NULL', [{ k: 1, v: 'a' }, { k: 2 }, { k: 3, v: 'c' }], many, true, {}, false],
    ['an empty result agrees with its names and types', [], empty, false, {}, true,
     [{ name: 'k', type: 'int32' }, { name: 'x', type: 'double' }]],
    ['an empty result with a renamed column differs', [], empty, false, {}, false,
     [{ name: 'k', type: 'int32' }, { name: 'y', type: 'double' }]],
    ['an empty result with a changed type differs', [], empty, false, {}, false,
     [{ name: 'k', type: 'int64' }, { name: 'x', type: 'double' }]],
    ['-0.0 in an ordered result\'s non-key double differs from 0.0', [{ x: -0.0, y: -0.0, k: 1 }],
     keyed, true, {}, false, null, ['k']],
    ['quarry\'s -0.0 in a double sort key agrees with DuckDB\'s 0.0 (DuckDB rebuilds keys)',
     [{ x: -0.0, y: 0, k: 1 }], keyedZero, true, {}, true, null, ['x', 'k']],
    ['quarry\'s -0.0 in a non-key double of the same result differs', [{ x: 0, y: -0.0, k: 1 }],
     keyedZero, true, {}, false, null, ['x', 'k']],
    ['quarry\'s 0.0 where DuckDB keeps -0.0 differs, sort key or not', [{ x: 0, y: 0, k: 1 }],
     keyed, true, {}, false, null, ['x', 'k']],
    ['0.0 differs from -0.0 when relative', [{ ...base, m: 0 }], one, true, { m: 'relative' }, false],

    ['the same values agree', [base], one, true, {}, true],
    // "exact, except SUM/AVG of doubles (1e-9 relative)"
    ['a double one ulp off differs when exact', [{ ...base, s: 0.3 }], one, true, {}, false],
    ['a double one ulp off agrees when relative', [{ ...base, s: 0.3 }], one, true, { s: 'relative' }, true],
    ['a double 1e-8 off differs when relative', [{ ...base, s: 0.300000003 }], one, true, { s: 'relative' }, false],
    ['NaN agrees with NaN when relative', [base], one, true, { n: 'relative' }, true],
    ['0.0 differs from -0.0 when exact', [{ ...base, m: 0 }], one, false, {}, false],
    ['0.0 differs from -0.0 in a sorted result\'s non-key column', [{ ...base, m: 0 }], one, true, {}, false],
    ['0.0 agrees with -0.0 when zero-sign', [{ ...base, m: 0 }], one, true, { m: 'zero-sign' }, true],
    ['a FLOAT NaN agrees with another NaN when zero-sign', [{ f: '-NaN', g: 0 }], floats, true,
     { f: 'zero-sign', g: 'zero-sign' }, true],
    ['a FLOAT NaN differs from another NaN when exact', [{ f: '-NaN', g: -0.0 }], floats, true, {}, false],
    ['a FLOAT 0.0 differs from -0.0 when exact', [{ f: 'NaN', g: 0 }], floats, false, {}, false],
    ['null differs from NaN', [{ ...base, n: null }], one, true, {}, false],
    ['an INTEGER may not come as a string of digits', [{ ...base, i: '5' }], one, true, {}, false],
    ['a BIGINT may not come as a string of digits', [{ ...base, b: '7' }], one, true, {}, false],
    ['a decimal keeps its scale', [{ ...base, d: '1.5' }], one, true, {}, false],
    ['a UTC timestamp shows +00', [{ ...base, tz: '2020-01-02 03:04:05.5' }], one, true, {}, false],
    ['blob text is compared as bytes', [{ ...base, bin: '\\x00B' }], one, true, {}, false],
    ['column order matters', [{ m: -0.0, ...base }], one, true, {}, false],
    ['a missing row is reported', [], one, true, {}, false],
    ['a multiset ignores order', shuffled, many, false, {}, true],
    ['an ordered result does not', shuffled, many, true, {}, false],
    ['a multiset still sees a changed value', [{ k: 3, v: 'c' }, { k: 1, v: 'a' }, { k: 2, v: 'b' }],
     many, false, {}, false],
  ];
  let failed = 0;
  for (const [name, rows, duck, ordered, tolerance, agrees, columns = null, sortKeys, types] of cases) {
    // JSON round trip, as quarry's output arrives: undefined fields vanish.
    const parsed = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
    const problems = compareResult(parsed, duck, { ordered, tolerance, sortKeys, types }, T, columns);
    const ok = (problems.length === 0) === agrees;
    if (!ok) failed++;
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${problems.length ? `: ${problems[0]}` : ''}\n`);
  }
  const parsed = [parseQuarryOutput('[{"a":1},\n{"a":2}]\n'), parseQuarryOutput('{"a":1}\n{"a":2}\n'),
    parseQuarryOutput('[]\n'), parseQuarryOutput('')];
  // Numbers keep quarry's digits (a 64-bit integer or a decimal is a JSON number).
  const big = parseQuarryOutput('{"u":18446744073709551615,"d":1.50}\n')[0];
  const parseOk = JSON.stringify(plainJson(parsed)) === '[[{"a":1},{"a":2}],[{"a":1},{"a":2}],[],[]]' &&
      big.u.text === '18446744073709551615' && big.d.text === '1.50';
  if (!parseOk) failed++;
  process.stdout.write(`${parseOk ? 'ok  ' : 'FAIL'} json and ndjson output parse alike\n`);
  connection.closeSync();
  instance.closeSync();
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
