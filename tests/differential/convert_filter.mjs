#!/usr/bin/env node
// Differential test: `quarry convert FILE --to csv --filter EXPR` against DuckDB's
// `COPY (SELECT * FROM read_parquet(FILE) WHERE EXPR) TO 'out.csv' (HEADER)`,
// byte for byte. The --filter language (cli/filter_expression.h) is written so
// that these expressions are also SQL: comparisons, IN, IS [NOT] NULL, AND, OR,
// NOT, parentheses, 'text'. Rows come out in file order on both sides.
//
//   node tests/differential/convert_filter.mjs path/to/quarry
//
// Exit code 77 (skipped) when the test data or the DuckDB oracle is missing.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compareCsvText } from './compare_values.mjs';
import { duckdbOrSkip } from '../support/duckdb.mjs';

const kSkip = 77;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// [file under parquet-testing/data, expression]
const CASES = [
  ['alltypes_plain.parquet', 'id > 3 AND bool_col = true'],
  ['alltypes_plain.parquet', 'NOT (id IN (1, 2, 3)) OR float_col < 0.5'],
  ['alltypes_plain.parquet', "string_col = '1' OR bigint_col >= 10"],
  ['alltypes_tiny_pages.parquet', 'id >= 7000 AND tinyint_col != 3'],
  ['alltypes_tiny_pages.parquet', "date_string_col = '01/01/09' OR id < 5"],
  ['alltypes_tiny_pages.parquet', 'int_col IN (1, 9) AND (month = 12 OR year = 2009)'],
  ['nulls.snappy.parquet', 'b_struct IS NULL'],
  ['nullable.impala.parquet', 'id IS NOT NULL AND id <> 2'],
  ['int32_with_null_pages.parquet', 'int32_field IS NULL OR int32_field > 0'],
  ['nan_in_stats.parquet', 'x > 1.5'],
  ['data_index_bloom_encoding_stats.parquet', "String = 'Hello' OR String IS NULL"],
  ['int64_decimal.parquet', 'value > 10.5'],
  ['byte_array_decimal.parquet', 'value IN (1.00, 4.00)'],
  ['int96_from_spark.parquet', "a > '2000-01-01 00:00:00'"],  // row 5's wrapped INT96 differs (print_csv.mjs)
];

function skip(message) {
  process.stderr.write(`\n*** SKIPPED convert_filter: ${message} ***\n\n`);
  process.exit(kSkip);
}

async function main() {
  const [quarry] = process.argv.slice(2);
  if (!quarry || !existsSync(quarry)) {
    process.stderr.write('usage: node tests/differential/convert_filter.mjs QUARRY_BINARY\n');
    return 2;
  }
  const testdata = resolve(process.env.QUARRY_TESTDATA || join(repoRoot, '..', 'shared', 'testdata'));
  const data = join(testdata, 'parquet-testing', 'data');
  if (!existsSync(data)) skip(`no test data at ${data}`);
  const api = await duckdbOrSkip(skip);
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-convert-filter-'));
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  let passed = 0;
  let failed = 0;
  try {
    for (const [name, filter] of CASES) {
      const { problem, skipped, quarryError } = await compareCsvText(join(data, name), quarry,
          scratch, connection, api.DuckDBTypeId, { convert: true, filter });
      if (skipped || quarryError || problem) {
        failed++;
        console.log(`FAIL  ${name} --filter "${filter}"\n        ${skipped ?? quarryError ?? problem}`);
      } else {
        passed++;
        console.log(`ok    ${name} --filter "${filter}"`);
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
