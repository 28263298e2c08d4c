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
  const base = { s: 0.30000000000000004, m: -0.0, n: 'NaN', i: 5, b: '7', d: '1.50',
                 tz: '2020-01-02 03:04:05.5+00', day: '2020-01-02', bin: '\\x00A' };
  // A FLOAT NaN whose sign and payload are not quarry's canonical -NaN.
  const floats = await duckdbResult(connection, `SELECT 'NaN'::FLOAT AS f, -0.0::FLOAT AS g`, T);
  const many = await duckdbResult(connection,
      "SELECT * FROM (VALUES (1, 'a'), (2, NULL), (3, 'c')) t(k, v) ORDER BY k", T);
  const shuffled = [{ k: 3, v: 'c' }, { k: 1, v: 'a' }, { k: 2, v: null }];

  // [name, quarry rows, DuckDB result, ordered, tolerance, agrees]
  const cases = [
    ['the same values agree', [base], one, true, {}, true],
    // "exact, except SUM/AVG of doubles (1e-12 relative)"
    ['a double one ulp off differs when exact', [{ ...base, s: 0.3 }], one, true, {}, false],
    ['a double one ulp off agrees when relative', [{ ...base, s: 0.3 }], one, true, { s: 'relative' }, true],
    ['a double 1e-9 off differs when relative', [{ ...base, s: 0.3000000003 }], one, true, { s: 'relative' }, false],
    ['NaN agrees with NaN when relative', [base], one, true, { n: 'relative' }, true],
    ['0.0 differs from -0.0 when exact', [{ ...base, m: 0 }], one, false, {}, false],
    ['0.0 agrees with -0.0 in a sorted result (DuckDB rebuilds sort keys)', [{ ...base, m: 0 }], one, true, {}, true],
    ['0.0 agrees with -0.0 when zero-sign', [{ ...base, m: 0 }], one, true, { m: 'zero-sign' }, true],
    ['a FLOAT NaN agrees with another NaN when zero-sign', [{ f: '-NaN', g: 0 }], floats, true,
     { f: 'zero-sign', g: 'zero-sign' }, true],
    ['a FLOAT NaN differs from another NaN when exact', [{ f: '-NaN', g: -0.0 }], floats, true, {}, false],
    ['a FLOAT 0.0 differs from -0.0 when exact', [{ f: 'NaN', g: 0 }], floats, false, {}, false],
    ['null differs from NaN', [{ ...base, n: null }], one, true, {}, false],
    ['an INTEGER may come as a string of digits', [{ ...base, i: '5' }], one, true, {}, true],
    ['a BIGINT may come as a number', [{ ...base, b: 7 }], one, true, {}, true],
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
  for (const [name, rows, duck, ordered, tolerance, agrees] of cases) {
    const problems = compareResult(rows, duck, { ordered, tolerance }, T);
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
