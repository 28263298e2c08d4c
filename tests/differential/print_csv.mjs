#!/usr/bin/env node
// Differential test: `quarry print --format csv FILE` and `quarry convert FILE --to
// csv -o OUT` against DuckDB's `COPY (SELECT * FROM read_parquet(FILE)) TO
// 'out.csv' (HEADER)`, byte for byte, on every file of parquet-testing data/
// (recursively) and shredded_variant/ that both read. It checks the text forms
// (`CAST(x AS VARCHAR)`) quarry's print promises: float digits, decimals,
// temporal values, BLOB escapes, nested values with DuckDB's quoting, CSV
// quoting. The values themselves are checked by read_values.mjs; files one of the
// two cannot read are its business too, and so are the files of LARGE_VALUE_FILES
// (compare_values.mjs), whose text it compares with digests of DuckDB's from the
// one read of the file that answers both checks.
//
//   node tests/differential/print_csv.mjs path/to/quarry [substring-filter] [--print | --convert]
//
// Both commands run on each file against one COPY of it (DuckDB's side is most of
// the time on large values); `--print` or `--convert` runs one of them. convert
// shares print's CSV path, and its output is DuckDB's COPY TO CSV of the file
// byte for byte, with the same documented differences.
//
// Test data: $QUARRY_TESTDATA, default <repo>/../shared/testdata. Exit code 77 (ctest
// reports it as skipped) when the test data or the DuckDB oracle is missing.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compareCsvTextModes, csvVerdict, LARGE_VALUE_FILES, listParquetFiles, shreddedVariantErrorCases }
  from './compare_values.mjs';
import { writePrintTypesFile } from './print_types_file.mjs';
import { duckdbOrSkip } from '../support/duckdb.mjs';

const kSkip = 77;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// DuckDBTypeId, whose reverse mapping names a type id; set once the oracle loads.
let T;

// DuckDB types whose text differs by design; their columns are left out. None:
// GEOMETRY (and GEOGRAPHY, which DuckDB reads as GEOMETRY) print as DuckDB's WKT.
const UNCOMPARED_TYPES = {};

// Files whose text differs, with the reason (read_values.mjs has the details):
// `line`, the first differing line quarry must print (a wrong value elsewhere
// still fails), or `error`, the text quarry's error must carry (another failure,
// or a read, fails). A quarry failure on a file not listed here fails.
const CRC_ERROR = 'CRC mismatch';
const EXPECTED_DIFFERENCES = {
  'data/int96_from_spark.parquet': {
    reason: 'row 5 holds an INT96 that Spark wrote with a wrapped int64 (Julian day -105862232, ' +
        'nanoseconds -32509551616000): quarry prints its value, 294555-12-13 (BC) ' +
        '14:58:10.448384; DuckDB reads the day as unsigned and overflows int64 into ' +
        '226414-01-07 (BC) 22:21:39.416064 (tests/cli/print_fidelity_test.cc has the arithmetic)',
    lines: { 7: '294555-12-13 (BC) 14:58:10.448384' },
  },
  'data/datapage_v1-corrupt-checksum.parquet': {
    reason: 'a data page CRC does not match its bytes; quarry verifies CRCs, DuckDB does not',
    error: CRC_ERROR,
  },
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': {
    reason: 'a data page CRC does not match its bytes; quarry verifies CRCs, DuckDB does not',
    error: CRC_ERROR,
  },
  'data/nation.dict-malformed.parquet': {
    reason: 'the last page of column "name" runs past its column chunk; quarry rejects the file, ' +
        'DuckDB reads past the chunk',
    error: 'runs past the end of the column chunk',
  },
};

function skip(message) {
  process.stderr.write(`\n*** SKIPPED print_csv: ${message} ***\n\n`);
  process.exit(kSkip);
}

async function main() {
  const args = process.argv.slice(2);
  const only = ['print', 'convert'].filter((mode) => args.includes(`--${mode}`));
  const modes = only.length > 0 ? only : ['print', 'convert'];
  const [quarry, filter] = args.filter((a) => !a.startsWith('--'));
  if (!quarry) {
    process.stderr.write('usage: node tests/differential/print_csv.mjs QUARRY_BINARY [FILTER] ' +
                         '[--print | --convert]\n');
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
  Object.assign(EXPECTED_DIFFERENCES, shreddedVariantErrorCases(root));
  const api = await duckdbOrSkip(skip);
  T = api.DuckDBTypeId;
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-print-csv-'));
  let instance = await api.DuckDBInstance.create(':memory:');
  let connection = await instance.connect();
  // Beside parquet-testing: a file of every type print renders, written by DuckDB.
  const generated = join(scratch, 'generated', 'print_types.parquet');
  mkdirSync(dirname(generated));
  await writePrintTypesFile(connection, generated);
  const nameOf = (f) => relative(f === generated ? scratch : root, f);
  const files = [...listParquetFiles(join(root, 'data')),
    ...listParquetFiles(join(root, 'shredded_variant')), generated]
      .filter((f) => !filter || f.includes(filter));
  // TIMESTAMP WITH TIME ZONE prints in the session's zone; quarry prints UTC.
  await connection.run("SET TimeZone = 'UTC'");
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let elsewhere = 0;
  try {
    for (const file of files) {
      const name = nameOf(file);
      if (LARGE_VALUE_FILES[name]) {
        elsewhere++;
        console.log(`note  ${name}: its CSV text is compared by read_values.mjs (one DuckDB read ` +
                    'of the file for its values and its text)');
        continue;
      }
      const expected = EXPECTED_DIFFERENCES[name];
      const results = await compareCsvTextModes(file, quarry, scratch, connection, T,
          { uncomparedTypes: UNCOMPARED_TYPES, modes, quarryLines: expected?.lines ?? null });
      if (results.skipped) {
        skipped++;
        console.log(`skip  ${name}: ${results.skipped}`);
        if (/FATAL|INTERNAL/.test(results.skipped)) {
          // DuckDB invalidates the database after an internal error: start afresh.
          connection.closeSync();
          instance.closeSync();
          instance = await api.DuckDBInstance.create(':memory:');
          connection = await instance.connect();
          await connection.run("SET TimeZone = 'UTC'");
        }
        continue;
      }
      for (const mode of modes) {
        const result = results[mode];
        const { verdict, message } = csvVerdict(result, expected);
        const note = result.note ? `  (${result.note})` : '';
        const label = `${mode.padEnd(7)} ${name}`;
        if (verdict === 'ok') {
          passed++;
          console.log(`ok    ${label}${message ? `: ${message}` : note}`);
        } else {
          failed++;
          console.log(`FAIL  ${label}${note}\n        ${message}`);
        }
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const [type, reason] of Object.entries(UNCOMPARED_TYPES)) {
    console.log(`note: ${type} columns are not compared: ${reason}`);
  }
  console.log(`${modes.join(' and ')}: ${files.length} files (parquet-testing under ${root}, and ` +
              `generated/print_types.parquet); ${skipped} not read by both and ${elsewhere} of ` +
              'values too large for a JS string (read_values.mjs covers them)');
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
