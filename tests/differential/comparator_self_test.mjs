#!/usr/bin/env node
// Comparator self-tests (issue 31): "A planted wrong value in each comparator's
// input (type changed, column renamed, missing field, -0.0 where it matters, a
// quarry error) makes the corresponding differential test fail." Each comparator
// gets its good input, which must pass, and the same input with one thing
// planted, which must be reported:
//
//   compare_values.mjs compareRows + valuesVerdict   read_values.mjs, generated_files.mjs
//   compare_values.mjs compareCsvText + csvVerdict   print_csv.mjs (print and convert)
//   compare_values.mjs compareCsvDigests             read_values.mjs (LARGE_VALUE_FILES'
//                                                    CSV text)
//   engine_queries.mjs through stub_quarry.mjs       the engine corpus (compareResult,
//                                                    whose rules result_compare_test.mjs
//                                                    checks one by one)
//
//   node tests/differential/comparator_self_test.mjs [SCRATCH_DIR]
//
// Exit code 77 (skipped) when the DuckDB oracle is not installed.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compareCsvDigests, compareCsvText, compareRows, csvVerdict, largeValueSql, readWithDuckDB,
  valuesVerdict } from './compare_values.mjs';
import { importDuckdb } from '../support/duckdb.mjs';

const here = dirname(fileURLToPath(import.meta.url));
let failed = 0;
let passed = 0;

function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}\n`);
}

/// compareRows (quarry's ndjson rows against DuckDB's), then valuesVerdict.
async function valueComparator(connection, T, file) {
  const duck = await readWithDuckDB(connection, file, T);
  const good = [
    { i: 5, b: '7', x: -0.0, s: 'a' },
    { i: -1, b: '-9000000000', x: 0, s: null },
  ];
  const plant = (r, change) => good.map((row, k) => (k === r ? change({ ...row }) : row));
  const verdictOf = (rows) => valuesVerdict(compareRows(rows, duck, T), null, undefined).verdict;
  check('values: the good rows pass', verdictOf(good) === 'ok', compareRows(good, duck, T)[0]);
  const plants = [
    ['type changed (INTEGER as a string)', plant(0, (row) => ({ ...row, i: '5' }))],
    ['type changed (BIGINT as a number)', plant(1, (row) => ({ ...row, b: -9000000000 }))],
    ['column renamed', plant(0, ({ s, ...row }) => ({ ...row, t: s }))],
    ['column renamed in the second row only', plant(1, ({ s, ...row }) => ({ ...row, t: s }))],
    ['missing field', plant(1, ({ s, ...row }) => row)],
    ['-0.0 where DuckDB has 0.0', plant(1, (row) => ({ ...row, x: -0.0 }))],
    ['0.0 where DuckDB has -0.0', plant(0, (row) => ({ ...row, x: 0 }))],
    ['a wrong value', plant(0, (row) => ({ ...row, s: 'b' }))],
  ];
  for (const [name, rows] of plants) {
    const problems = compareRows(rows, duck, T);
    check(`values: ${name} is reported`, verdictOf(rows) === 'FAIL', problems[0] ?? 'no problem');
  }
  // A quarry error: a failure unless the file is listed with that error's text.
  const error = 'quarry exit 1: quarry: CRC mismatch: the data page header records 1';
  const listed = { reason: 'a corrupt page', error: 'CRC mismatch' };
  check('values: a quarry error fails', valuesVerdict([error], error, undefined).verdict === 'FAIL');
  check('values: a quarry error listed with its text passes',
        valuesVerdict([error], error, listed).verdict === 'ok');
  check('values: a quarry error with another text fails',
        valuesVerdict([error], error, { ...listed, error: 'Invalid variant' }).verdict === 'FAIL');
  check('values: a wrong value in a file listed for an error fails',
        valuesVerdict(['row 0 s: quarry "str:b", DuckDB "str:a"'], null, listed).verdict === 'FAIL');
  check('values: a file listed as differing whole without an error text fails',
        valuesVerdict(['row 0 s: quarry "str:b", DuckDB "str:a"'], null,
                      { reason: 'anything' }).verdict === 'FAIL');
  check('values: a listed file that matches fails', valuesVerdict([], null, listed).verdict === 'FAIL');
}

/// A fake quarry that prints $PLANT_CSV, or fails with $PLANT_ERROR.
function fakeQuarry(scratch) {
  const fake = join(scratch, 'fake-quarry.sh');
  writeFileSync(fake, '#!/bin/sh\n' +
      'if [ -n "$PLANT_ERROR" ]; then echo "quarry: $PLANT_ERROR" >&2; exit 1; fi\n' +
      'printf "%s" "$PLANT_CSV"\n');
  chmodSync(fake, 0o755);
  return fake;
}

/// compareCsvText (quarry's CSV text against DuckDB's COPY TO) through a fake
/// quarry that prints planted text, then csvVerdict.
async function csvComparator(connection, T, file, scratch) {
  const fake = fakeQuarry(scratch);
  const good = 'i,b,x,s\n5,7,-0.0,a\n-1,-9000000000,0.0,\n';
  const run = async (csv, error = '', options = {}) => {
    process.env.PLANT_CSV = csv;
    process.env.PLANT_ERROR = error;
    return compareCsvText(file, fake, scratch, connection, T, options);
  };
  const goodResult = await run(good);
  check('csv: the good text passes', csvVerdict(goodResult, undefined).verdict === 'ok',
        goodResult.problem ?? goodResult.quarryError ?? goodResult.skipped);
  const plants = [
    ['column renamed', good.replace('i,b,x,s', 'i,b,x,t')],
    ['missing field', good.replace('-1,-9000000000,0.0,\n', '-1,-9000000000,0.0\n')],
    ['-0.0 where DuckDB has 0.0', good.replace(',0.0,', ',-0.0,')],
    ['type changed (an integer printed as a decimal)', good.replace('5,7', '5.0,7')],
    ['a wrong value', good.replace(',a\n', ',b\n')],
  ];
  for (const [name, csv] of plants) {
    const result = await run(csv);
    check(`csv: ${name} is reported`, csvVerdict(result, undefined).verdict === 'FAIL',
          result.problem ?? 'no problem');
  }
  const errored = await run(good, 'CRC mismatch: planted');
  check('csv: a quarry error is not a skip', errored.skipped === undefined && !!errored.quarryError,
        JSON.stringify(errored));
  check('csv: a quarry error fails', csvVerdict(errored, undefined).verdict === 'FAIL');
  check('csv: a quarry error listed with its text passes',
        csvVerdict(errored, { reason: 'planted', error: 'CRC mismatch' }).verdict === 'ok');
  check('csv: a quarry error with another text fails',
        csvVerdict(errored, { reason: 'planted', error: 'runs past' }).verdict === 'FAIL');
  check('csv: a file listed for an error that reads fails',
        csvVerdict(goodResult, { reason: 'planted', error: 'CRC mismatch' }).verdict === 'FAIL');
  // A listed line: quarry's text there is given, every other line still compared.
  const lines = { 3: '-1,-9000000000,0.5,' };
  const listed = { reason: 'planted', lines };
  const onLine = await run(good.replace('0.0,\n', '0.5,\n'), '', { quarryLines: lines });
  check('csv: the listed line with the listed text passes', csvVerdict(onLine, listed).verdict === 'ok',
        onLine.problem);
  const otherText = await run(good.replace('0.0,\n', '0.7,\n'), '', { quarryLines: lines });
  check('csv: the listed line with another text fails', csvVerdict(otherText, listed).verdict === 'FAIL',
        otherText.problem);
  const elsewhere = await run(good.replace('0.0,\n', '0.5,\n').replace(',a\n', ',b\n'), '',
                              { quarryLines: lines });
  check('csv: a wrong value beside a listed line fails', csvVerdict(elsewhere, listed).verdict === 'FAIL',
        elsewhere.problem);
  delete process.env.PLANT_CSV;
  delete process.env.PLANT_ERROR;
}

/// compareCsvDigests (quarry's CSV text against the digests of DuckDB's lines,
/// largeValueSql's) on a small MAP column: COPY TO CSV's own text passes (the
/// digests stand for COPY's lines), planted text fails, and so does a line COPY
/// would quote (its digest cannot stand for COPY's text).
async function csvDigestComparator(connection, scratch) {
  const fake = fakeQuarry(scratch);
  const file = join(scratch, 'map.parquet');
  const copied = join(scratch, 'map.csv');
  const values = (extra) => `SELECT arr FROM (VALUES (1, MAP {'aa': 1}), (2, NULL), (3, MAP {'b': NULL})${extra})
      t(k, arr) ORDER BY k`;
  const digests = async (extra) => {
    await connection.run(`COPY (${values(extra)}) TO '${file}' (FORMAT PARQUET)`);
    const sql = largeValueSql({ values: 'arr', line: 'CAST(arr AS VARCHAR)' })
        .replaceAll('{file}', `read_parquet('${file}')`);
    return (await connection.runAndReadAll(`SELECT csv_md5, csv_bytes, csv_quoted FROM (${sql})`))
        .getRowObjects();
  };
  const rows = await digests('');
  await connection.run(`COPY (SELECT * FROM read_parquet('${file}')) TO '${copied}' (HEADER)`);
  const good = readFileSync(copied, 'utf8');
  const run = (csv, lines = rows) => {
    process.env.PLANT_CSV = csv;
    return compareCsvDigests(file, fake, scratch, 'arr', lines, ['print']).print;
  };
  const goodResult = run(good);
  check('csv digests: COPY\'s text passes', csvVerdict(goodResult, undefined).verdict === 'ok',
        goodResult.problem ?? goodResult.quarryError);
  const plants = [
    ['a wrong value', good.replace('aa=1', 'aa=2')],
    ['a NULL printed as text', good.replace('\n\n', '\nNULL\n')],
    ['a line missing', good.replace('{b=NULL}\n', '')],
    ['a line more', `${good}{b=NULL}\n`],
    ['the last newline missing', good.slice(0, -1)],
    ['column renamed', good.replace('arr', 'map')],
  ];
  for (const [name, csv] of plants) {
    const result = run(csv);
    check(`csv digests: ${name} is reported`, csvVerdict(result, undefined).verdict === 'FAIL',
          result.problem ?? 'no problem');
  }
  const quoted = run(good, await digests(", (4, MAP {'a,b': 1})"));
  check('csv digests: a line COPY quotes is reported', csvVerdict(quoted, undefined).verdict === 'FAIL',
        quoted.problem ?? 'no problem');
  delete process.env.PLANT_CSV;
}

/// engine_queries.mjs with stub_quarry.mjs (DuckDB answering as quarry would)
/// and one thing planted in every answer.
function engineRunner(scratch) {
  const plants = [
    ['', null],
    ['type', "quarry's type"],
    ['rename', "are not DuckDB's"],
    ['missing', 'missing'],
    ['error', 'quarry exit 1: quarry: planted error'],
  ];
  for (const [plant, expected] of plants) {
    const result = spawnSync(process.execPath, [join(here, 'engine', 'engine_queries.mjs'), '-',
      join(scratch, 'engine'), '--stub', '--count', '4', '--only', '1'],
    { encoding: 'utf8', env: { ...process.env, QUARRY_STUB_PLANT: plant }, timeout: 240_000 });
    const out = `${result.stdout}${result.stderr}`;
    if (plant === '') {
      check('engine: the stub\'s answers pass', result.status === 0, out.trim().split('\n').pop());
    } else {
      check(`engine: planted ${plant} fails the run`, result.status === 1 && out.includes(expected),
            `exit ${result.status}; ${out.includes(expected) ? '' : `no "${expected}" in the output`}`);
    }
  }
}

async function main() {
  let api;
  try {
    api = await importDuckdb();
  } catch (e) {
    process.stderr.write(`\n*** SKIPPED comparator_self_test: DuckDB oracle unavailable (${e.code ?? e.message}) ***\n\n`);
    return 77;
  }
  const T = api.DuckDBTypeId;
  const scratch = process.argv[2] ? resolve(process.argv[2]) : mkdtempSync(join(tmpdir(), 'quarry-cmp-self-'));
  rmSync(scratch, { recursive: true, force: true });
  spawnSync('mkdir', ['-p', scratch]);
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const file = join(scratch, 'planted.parquet');
  await connection.run(`COPY (SELECT * FROM (VALUES
      (5::INTEGER, 7::BIGINT, -0.0::DOUBLE, 'a'), (-1, -9000000000, 0.0, NULL)) t(i, b, x, s))
      TO '${file}' (FORMAT PARQUET)`);
  try {
    await valueComparator(connection, T, file);
    await csvComparator(connection, T, file, scratch);
    await csvDigestComparator(connection, scratch);
    engineRunner(scratch);
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`comparator_self_test: ${passed} passed, ${failed} failed\n`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
