#!/usr/bin/env node
// Differential test: every value quarry reads against DuckDB's, on every file of
// parquet-testing data/ (recursively) and shredded_variant/.
//
//   node tests/differential/read_values.mjs path/to/quarry [substring-filter]
//
// For each FILE.parquet, `quarry print --format ndjson FILE` must exit 0 and give
// the same rows as DuckDB's `SELECT * FROM read_parquet(FILE)`, compared value by
// value after turning both sides into one canonical form, guided by DuckDB's type
// of the column (compare_values.mjs: exact digits, bit-exact floats, exact bytes).
//
// Files DuckDB cannot read are checked against their documented expectations
// (DOCUMENTED_EXPECTATIONS: rows from the file's .md, README's statements, a file
// documented to hold the same rows). A FILE_expect.csv beside a file is checked
// too. A file of values too large for a JS string (LARGE_VALUE_FILES) is read by
// DuckDB once for its values and for print_csv.mjs's check of its CSV text, which
// runs here. VARIANT columns are not compared (UNCOMPARED_TYPES). A file or row that
// does not match must be in EXPECTED_DIFFERENCES with the reason; a listed one that
// matches fails the test too, so that the list stays true. A DuckDB-written file of
// every type print renders (print_types_file.mjs) is compared as well.
//
// Test data: $QUARRY_TESTDATA, default <repo>/../shared/testdata. Exit code 77 (ctest
// reports it as skipped) when the test data or the DuckDB oracle is missing.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Num, plainJson } from './exact_json.mjs';

import { compareCsvDigests, compareRows, csvVerdict, difference, firstLine, kMaxMismatchesShown,
  LARGE_VALUE_FILES, largeValueSql, listParquetFiles, readWithDuckDB, runQuarry,
  shreddedVariantErrorCases, show, sqlString, valuesVerdict } from './compare_values.mjs';
import { writePrintTypesFile } from './print_types_file.mjs';
import { duckdbOrSkip } from '../support/duckdb.mjs';

const kSkip = 77;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// DuckDB types whose columns are not compared, with the reason.
const UNCOMPARED_TYPES = {
  VARIANT: 'DuckDB gives a decoded variant whose floats the node API widens to double ' +
      '(10.11 becomes 10.109999656677246); quarry\'s reassembled VARIANT bytes are checked ' +
      'byte-exact against the .variant.bin files in tests/formats/parquet/variant_test.cc',
};

// Files (relative to parquet-testing/) where quarry and DuckDB legitimately differ,
// DuckDB is wrong, or quarry refuses the file. `rows`: only these rows differ (each
// must) and the others are still compared; `columns`: these columns are not
// compared, the others are; neither: quarry refuses the file with an error
// carrying `error` (a wrong value or another error fails; valuesVerdict).
const EXPECTED_DIFFERENCES = {
  'data/datapage_v1-corrupt-checksum.parquet': {
    reason: 'a data page CRC does not match its bytes (README: "with a mismatching CRC"); quarry ' +
        'verifies CRCs and rejects the file with CorruptFile, DuckDB does not verify them',
    error: 'CRC mismatch',
  },
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': {
    reason: 'a data page CRC does not match its bytes (README: "with a mismatching CRC"); quarry ' +
        'verifies CRCs and rejects the file with CorruptFile, DuckDB does not verify them',
    error: 'CRC mismatch',
  },
  'data/nation.dict-malformed.parquet': {
    reason: 'intentionally malformed: column "name"\'s last page runs 15 bytes past the column ' +
        'chunk\'s total_compressed_size (Arrow\'s tests call it nation_dict_truncated_data_page ' +
        'and expect an exception); quarry rejects it with CorruptFile, DuckDB reads past the chunk',
    error: 'runs past the end of the column chunk',
  },
  'data/int96_from_spark.parquet': {
    rows: [5],
    reason: 'row 5 stores Julian day -105862232 and nanos -32509551616000, Spark\'s writer having ' +
        'wrapped int64 microseconds: quarry reads those bytes exactly (294555-12-13 (BC) ' +
        '14:58:10.448384), Spark wraps again when reading and gets the 290000-12-30 23:00:00 UTC ' +
        'int96_from_spark.md lists, DuckDB overflows differently (226414-01-07 (BC) ...)',
  },
};

// What the documentation says of files DuckDB cannot read (fully), as one of:
//   rows          quarry's ndjson rows, transcribed from the documentation;
//   sameAs        another file, which DuckDB reads, holding the same rows;
//   duckdbColumns the columns DuckDB reads (compared with DuckDB as usual), and
//   equalColumns  pairs of columns documented to hold the same values.
const DOCUMENTED_EXPECTATIONS = {
  'data/map_no_value.parquet': {
    source: 'map_no_value.md: "a MAP with all null values, a second MAP without a values ' +
        'field, and an equivalent LIST repeating the MAP keys ... The last two columns ' +
        'comprise 3 equivalent rows of list<Integer>"',
    rows: [1, 4, 7].map((k) => ({
      my_map: [k, k + 1, k + 2].map((key) => ({ key, value: null })),
      my_map_no_v: [k, k + 1, k + 2],
      my_list: [k, k + 1, k + 2],
    })),
  },
  'data/byte_stream_split_extended.gzip.parquet': {
    source: 'README.md, "Additional types": 7 pairs of columns "containing the same values: one ' +
        'PLAIN-encoded and one BYTE_STREAM_SPLIT-encoded" (DuckDB decodes BYTE_STREAM_SPLIT ' +
        'only for FLOAT and DOUBLE)',
    duckdbColumns: ['float16_plain', 'float_plain', 'float_byte_stream_split', 'double_plain',
      'double_byte_stream_split', 'int32_plain', 'int64_plain', 'flba5_plain', 'decimal_plain'],
    equalColumns: ['float16', 'float', 'double', 'int32', 'int64', 'flba5', 'decimal']
        .map((t) => [`${t}_byte_stream_split`, `${t}_plain`]),
  },
  'data/hadoop_lz4_compressed.parquet': {
    source: 'the same 4 rows as lz4_raw_compressed.parquet and non_hadoop_lz4_compressed.parquet ' +
        '(arrow-rs\'s reader tests expect these rows from each); DuckDB does not read ' +
        'Hadoop-framed LZ4',
    sameAs: 'data/lz4_raw_compressed.parquet',
  },
  'data/non_hadoop_lz4_compressed.parquet': {
    source: 'the same 4 rows as lz4_raw_compressed.parquet and hadoop_lz4_compressed.parquet ' +
        '(arrow-rs\'s reader tests expect these rows from each); DuckDB does not read the ' +
        'LZ4 codec',
    sameAs: 'data/lz4_raw_compressed.parquet',
  },
  'data/hadoop_lz4_compressed_larger.parquet': {
    source: 'the same 10000 rows as lz4_raw_compressed_larger.parquet (Arrow\'s reader tests ' +
        'check both); DuckDB does not read Hadoop-framed LZ4',
    sameAs: 'data/lz4_raw_compressed_larger.parquet',
  },
};

function skip(message) {
  process.stderr.write(`\n*** SKIPPED read_values: ${message} ***\n\n`);
  process.exit(kSkip);
}


/// Minimal CSV reader for the *_expect.csv files: quoted or bare fields; a bare
/// empty field is null.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let i = 0;
  while (i < text.length) {
    let field;
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') { value += '"'; i += 2; continue; }
          i++;
          break;
        }
        value += text[i++];
      }
      field = value;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
      field = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(field);
    if (text[i] === ',') { i++; continue; }
    if (text[i] === '\r') i++;
    if (text[i] === '\n' || i >= text.length) {
      rows.push(row);
      row = [];
      i++;
    }
  }
  return rows;
}

/// Compares quarry's rows with FILE_expect.csv (columns by position, values as text).
function compareExpectCsv(quarryRows, csvPath) {
  const [header, ...rows] = parseCsv(readFileSync(csvPath, 'utf8'));
  if (rows.length !== quarryRows.length) {
    return [`${basename(csvPath)} has ${rows.length} rows, quarry ${quarryRows.length}`];
  }
  const problems = [];
  for (let r = 0; r < rows.length && problems.length < kMaxMismatchesShown; r++) {
    const values = Object.values(quarryRows[r]);
    if (values.length !== header.length) {
      return [`${basename(csvPath)} has ${header.length} columns, quarry ${values.length}`];
    }
    for (let c = 0; c < header.length; c++) {
      const ours = values[c] === null ? null : values[c] instanceof Num ? values[c].text : String(values[c]);
      if (ours !== rows[r][c]) {
        problems.push(`${basename(csvPath)} row ${r} column ${c} (${header[c]}): quarry ` +
                      `${show(ours)}, expected ${show(rows[r][c])}`);
        if (problems.length >= kMaxMismatchesShown) break;
      }
    }
  }
  return problems;
}

/// Checks quarry's rows of a file DuckDB cannot read against `documented`.
async function checkDocumented(documented, quarryRows, root, connection, T) {
  if (documented.rows) {
    const d = difference(plainJson(quarryRows), documented.rows, 'rows');
    return d ? [d] : [];
  }
  if (documented.sameAs) {
    const reference = await readWithDuckDB(connection, join(root, documented.sameAs), T,
        { uncomparedTypes: UNCOMPARED_TYPES });
    return compareRows(quarryRows, reference, T);
  }
  const problems = [];
  if (documented.duckdbColumns) {
    const file = documented.file;
    problems.push(...compareRows(quarryRows,
        await readWithDuckDB(connection, file, T,
            { only: documented.duckdbColumns, uncomparedTypes: UNCOMPARED_TYPES }), T));
  }
  for (const [a, b] of documented.equalColumns ?? []) {
    for (let r = 0; r < quarryRows.length && problems.length < kMaxMismatchesShown; r++) {
      const d = difference(quarryRows[r][a], quarryRows[r][b], `row ${r} ${a} vs ${b}`);
      if (d) problems.push(d);
    }
  }
  return problems;
}

async function checkFile(file, name, root, quarry, scratch, connection, T) {
  const expected = EXPECTED_DIFFERENCES[name];
  const notes = [];
  const large = LARGE_VALUE_FILES[name];
  let duck;
  let duckError = null;
  let csvLines = null;
  try {
    let sql = null;
    if (large) {
      // One read of the file for both checks: the values and the CSV lines' digests.
      await connection.run(`CREATE OR REPLACE TEMP TABLE large_value AS ${largeValueSql(large)}`
          .replaceAll('{file}', `read_parquet(${sqlString(file)})`));
      sql = 'SELECT * EXCLUDE (csv_md5, csv_bytes, csv_quoted) FROM large_value';
      csvLines = (await connection.runAndReadAll(
          'SELECT csv_md5, csv_bytes, csv_quoted FROM large_value')).getRowObjects();
    }
    duck = await readWithDuckDB(connection, file, T,
        { skipColumns: expected?.columns ?? [], sql, uncomparedTypes: UNCOMPARED_TYPES });
  } catch (e) {
    duckError = firstLine(e.message);
  } finally {
    if (large) await connection.run('DROP TABLE IF EXISTS large_value');
  }
  const ours = runQuarry(quarry, file, scratch);
  let problems;
  if (duckError !== null) {
    const documented = DOCUMENTED_EXPECTATIONS[name];
    if (documented === undefined) {
      problems = [`DuckDB cannot read it (${duckError}) and it has no documented expectation` +
                  (ours.error ? `; ${ours.error}` : '')];
    } else if (ours.error) {
      problems = [ours.error];
    } else {
      notes.push(`DuckDB cannot read it all; checked against ${documented.source}`);
      problems = await checkDocumented({ ...documented, file }, ours.rows, root, connection, T);
    }
  } else if (ours.error) {
    problems = [ours.error];
  } else {
    const listed = [];
    problems = compareRows(ours.rows, duck, T, expected?.rows ?? [], listed);
    if (duck.skipped.length > 0) notes.push(`not compared: ${duck.skipped.join(', ')}`);
    if (expected?.rows) {
      if (listed.length < expected.rows.length) {
        problems.push(`rows ${expected.rows} are listed in EXPECTED_DIFFERENCES but only ` +
                      `${listed.length} of them differ; update the entry`);
      }
      notes.push(`expected difference in rows ${expected.rows}: ${expected.reason}`, ...listed);
    }
  }
  if (csvLines) {
    // print_csv.mjs's check of this file: quarry's CSV text in both commands against
    // the digests of DuckDB's COPY TO CSV lines.
    const results = compareCsvDigests(file, quarry, scratch, large.header, csvLines, ['print', 'convert']);
    for (const [mode, result] of Object.entries(results)) {
      const { verdict, message } = csvVerdict(result, undefined);
      if (verdict !== 'ok') problems.push(`${mode} --format csv: ${message}`);
    }
    notes.push('and its CSV text by print and convert (print_csv.mjs\'s check, by md5 per line)');
  }
  const expectCsv = file.replace(/\.parquet$/, '_expect.csv');
  if (!ours.error && existsSync(expectCsv)) {
    problems.push(...compareExpectCsv(ours.rows, expectCsv));
    notes.push(`and ${basename(expectCsv)}`);
  }
  return { problems, notes, expected, quarryError: ours.error ?? null };
}

async function main() {
  const [quarry, filter] = process.argv.slice(2);
  if (!quarry) {
    process.stderr.write('usage: node tests/differential/read_values.mjs QUARRY_BINARY [FILTER]\n');
    return 2;
  }
  if (!existsSync(quarry)) {
    process.stderr.write(`quarry binary not found: ${quarry}\n`);
    return 1;
  }
  const testdata = resolve(process.env.QUARRY_TESTDATA || join(repoRoot, '..', 'shared', 'testdata'));
  const root = join(testdata, 'parquet-testing');
  Object.assign(EXPECTED_DIFFERENCES, shreddedVariantErrorCases(root));
  if (!existsSync(join(root, 'data'))) {
    skip(`no test data at ${join(root, 'data')} (set QUARRY_TESTDATA to the folder holding ` +
         'parquet-testing/)');
  }
  const api = await duckdbOrSkip(skip);
  const T = api.DuckDBTypeId;

  const scratch = mkdtempSync(join(tmpdir(), 'quarry-read-values-'));
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  // Beside parquet-testing: a file of every type print renders, written by DuckDB.
  const generated = join(scratch, 'generated', 'print_types.parquet');
  mkdirSync(dirname(generated));
  await writePrintTypesFile(connection, generated);
  const nameOf = (f) => relative(f === generated ? scratch : root, f);
  const files = [...listParquetFiles(join(root, 'data')), ...listParquetFiles(join(root, 'shredded_variant')),
    generated].filter((f) => !filter || f.includes(filter));
  const names = new Set(files.map(nameOf));
  let passed = 0;
  let failed = 0;
  let expectedCount = 0;
  try {
    for (const file of files) {
      const name = nameOf(file);
      const { problems, notes, expected, quarryError } = await checkFile(file, name, root, quarry,
                                                                          scratch, connection, T);
      const note = notes.length > 0 ? `  (${notes.join('; ')})` : '';
      const { verdict, message } = valuesVerdict(problems, quarryError, expected);
      if (verdict === 'ok') {
        passed++;
        if (expected) expectedCount++;
        const why = expected?.columns
            ? `  (columns ${expected.columns.join(', ')}: ${expected.reason})` : '';
        console.log(`ok    ${name}${message ? `: ${message}` : `${note}${why}`}`);
      } else {
        failed++;
        console.log(`FAIL  ${name}${note}\n${message}`);
      }
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(scratch, { recursive: true, force: true });
  }
  const listed = [...Object.keys(EXPECTED_DIFFERENCES), ...Object.keys(DOCUMENTED_EXPECTATIONS),
    ...Object.keys(LARGE_VALUE_FILES)];
  const stale = filter ? [] : listed.filter((n) => !names.has(n));
  for (const n of stale) {
    failed++;
    console.log(`FAIL  ${n}: listed in the test but not in the test data`);
  }
  for (const [type, reason] of Object.entries(UNCOMPARED_TYPES)) {
    console.log(`note: ${type} columns are not compared: ${reason}`);
  }
  console.log(`read_values: ${files.length} files: parquet-testing data/ and shredded_variant/ ` +
              `under ${root}, and generated/print_types.parquet; ` +
              `${expectedCount} with listed expected differences`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
