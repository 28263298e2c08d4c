#!/usr/bin/env node
// Differential test on files the project generates (generate_files.mjs): DuckDB's
// matrix (every type it writes, nulls at 0/50/100 %, several row groups, every
// codec, V1 and V2 encodings, nested structs/lists/maps) or chDB's (page indexes,
// many pages per chunk, CRCs, Bloom filters, both ClickHouse encoders). Each file is
// read whole by quarry and by DuckDB and compared twice:
//   values  `quarry print --format ndjson` vs DuckDB's rows, value by value in the
//           canonical forms of compare_values.mjs: exact integers, decimals,
//           strings and bytes, bit-exact floats (NaN included);
//   text    `quarry print --format csv` vs DuckDB's COPY ... TO CSV, byte for byte.
//
//   node tests/differential/generated_files.mjs QUARRY OUT_DIR duckdb|chdb [FILTER]
//
// The files are written to OUT_DIR/<writer>/ (a build directory) and left there to
// look at. A column that does not match must be in EXPECTED_DIFFERENCES with the
// reason; a listed one that matches fails the test, so that the list stays true.
// Exit code 77 (ctest: skipped) when the DuckDB oracle, or chDB for `chdb`, is not
// installed (`make oracle`).

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { compareCsvText, compareRows, readWithDuckDB, runQuarry, sqlString } from './compare_values.mjs';
import { loadDuckdb } from '../support/duckdb.mjs';
import { loadChdb, writeChdbFiles, writeDuckdbFiles } from './generate_files.mjs';

const kSkip = 77;

// DuckDB types whose columns are not compared, with the reason.
const UNCOMPARED_TYPES = {};

// Columns where quarry and DuckDB differ, by writer: { files: RegExp over the
// file name, column, what, reason }, `what` one of
//   'error'   quarry fails on the column with the text `error`: the file is read
//             without it;
//   'values'  the values differ (the text is compared still);
//   'text'    the text differs (the values are compared still);
//   'both'    both differ.
const EXPECTED_DIFFERENCES = {
  duckdb: [],
  chdb: [{
    files: /^chdb_.*_n(0|50)\.parquet$/,
    column: 'dt64_9',
    what: 'both',
    reason: 'DateTime64(9, UTC) is a TIMESTAMP(NANOS, isAdjustedToUTC): DuckDB has no nanosecond ' +
        'TIMESTAMP WITH TIME ZONE and truncates to microseconds; quarry keeps the nanoseconds',
    // The values: quarry's nanoseconds, floored to the microsecond, are DuckDB's.
    values: (ours, theirs) => {
      const [q, d] = [ours, theirs].map((v) => /^ts:(-?\d+)@0$/.exec(v ?? ''));
      if (ours === null || theirs === null) return ours === theirs;
      if (!q || !d) return false;
      const nanos = BigInt(q[1]);
      const floored = nanos - (((nanos % 1000n) + 1000n) % 1000n);
      return floored === BigInt(d[1]);
    },
  }],
};

function skip(name, message) {
  process.stderr.write(`\n*** SKIPPED ${name}: ${message} ***\n\n`);
  process.exit(kSkip);
}

/// Compares one file (its text too when `withText`); returns { problems: [..],
/// seen: [..] } where `seen` names the listed differences that showed up.
async function checkFile(file, withText, quarry, scratch, connection, T, listed) {
  const problems = [];
  const seen = [];
  const probe = await connection.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(file)}) LIMIT 0`);
  const names = probe.columnNames();
  const unreadable = listed.filter((e) => e.what === 'error').map((e) => e.column);
  const readable = names.filter((n) => !unreadable.includes(n));
  const differing = (kind) => listed.filter((e) => e.what === kind || e.what === 'both');

  const ours = runQuarry(quarry, file, scratch, unreadable.length > 0 ? readable : null);
  if (ours.error) return { problems: [ours.error], seen };
  // A listed value difference with its expected form (`values`) is compared by
  // that rule; one without is left out (and must still differ, below).
  const duck = await readWithDuckDB(connection, file, T, {
    uncomparedTypes: UNCOMPARED_TYPES,
    skipColumns: differing('values').filter((e) => !e.values).map((e) => e.column),
    only: unreadable.length > 0 ? readable : null,
  });
  const rules = Object.fromEntries(differing('values').filter((e) => e.values).map((e) => [e.column, e.values]));
  problems.push(...compareRows(ours.rows, duck, T, [], [], rules).map((p) => `values: ${p}`));
  if (withText) {
    const text = await compareCsvText(file, quarry, scratch, connection, T, {
      uncomparedTypes: UNCOMPARED_TYPES,
      skipColumns: [...differing('text').map((e) => e.column), ...unreadable],
    });
    if (text.skipped) problems.push(`text: ${text.skipped}`);
    else if (text.quarryError) problems.push(`text: ${text.quarryError}`);
    else if (text.problem) problems.push(`text: ${text.problem}`);
  }

  // A listed column must still fail or differ.
  const stillDiffers = (e, kind, difference) => {
    if (difference) seen.push({ entry: e, kind, example: difference });
    else problems.push(`${e.column}: listed in EXPECTED_DIFFERENCES (${kind}) but matches`);
  };
  for (const e of listed) {
    if (e.what === 'error') {
      // The listed failure, with its error text: another failure is a problem.
      const error = runQuarry(quarry, file, scratch, [e.column]).error;
      if (error && !error.includes(e.error)) {
        problems.push(`${e.column}: quarry fails with "${error}", not the listed "${e.error}"`);
      } else {
        stillDiffers(e, 'error', error);
      }
      continue;
    }
    if (e.what !== 'text') {
      const only = await readWithDuckDB(connection, file, T, { only: [e.column] });
      stillDiffers(e, 'values', compareRows(ours.rows, only, T)[0]);
    }
    if (e.what !== 'values' && withText) {
      const alone = await compareCsvText(file, quarry, scratch, connection, T,
          { uncomparedTypes: UNCOMPARED_TYPES, skipColumns: names.filter((n) => n !== e.column) });
      stillDiffers(e, 'text', alone.problem);
    }
  }
  return { problems, seen };
}

async function main() {
  const [quarryArg, outArg, writer, filter] = process.argv.slice(2);
  if (!quarryArg || !outArg || !['duckdb', 'chdb'].includes(writer)) {
    process.stderr.write('usage: node tests/differential/generated_files.mjs QUARRY OUT_DIR ' +
                         'duckdb|chdb [FILTER]\n');
    return 2;
  }
  const quarry = resolve(quarryArg);
  if (!existsSync(quarry)) {
    process.stderr.write(`quarry binary not found: ${quarry}\n`);
    return 1;
  }
  const testName = `generated_files (${writer})`;
  const api = await loadDuckdb();
  if (!api) skip(testName, 'DuckDB oracle unavailable; run `make oracle`');
  let chdb = null;
  if (writer === 'chdb') {
    const loaded = loadChdb();
    if (!loaded.chdb) skip(testName, `chDB unavailable (${loaded.reason}); run \`make oracle\``);
    chdb = loaded.chdb;
  }
  const T = api.DuckDBTypeId;
  const outDir = join(resolve(outArg), writer);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-generated-files-'));
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();

  let passed = 0;
  let failed = 0;
  try {
    const startGenerate = Date.now();
    let files = writer === 'duckdb' ? await writeDuckdbFiles(connection, outDir)
                                    : writeChdbFiles(chdb, outDir);
    const generateMs = Date.now() - startGenerate;
    files = files.filter((f) => !filter || f.name.includes(filter));
    // TIMESTAMP WITH TIME ZONE: quarry prints UTC.
    await connection.run("SET TimeZone = 'UTC'");
    const startCompare = Date.now();
    const expectations = EXPECTED_DIFFERENCES[writer];
    const examples = new Map();
    for (const f of files) {
      const listed = expectations.filter((e) => e.files.test(f.name));
      const { problems, seen } = await checkFile(f.path, f.text, quarry, scratch, connection, T,
                                                  listed);
      for (const s of seen) {
        if (!examples.has(s.entry)) examples.set(s.entry, `${f.name}: ${s.example}`);
      }
      const notes = seen.length === 0 ? ''
          : `  (expected differences: ${seen.map((s) => `${s.entry.column} ${s.kind}`).join(', ')})`;
      if (problems.length === 0) {
        passed++;
        console.log(`ok    ${f.name}${notes}`);
      } else {
        failed++;
        console.log(`FAIL  ${f.name}${notes}\n${problems.map((p) => `        ${p}`).join('\n')}`);
      }
    }
    for (const [e, example] of examples) {
      console.log(`expected difference: ${e.column} (${e.what}): ${e.reason}\n    e.g. ${example}`);
    }
    for (const e of expectations) {
      if (!files.some((f) => e.files.test(f.name)) && !filter) {
        failed++;
        console.log(`FAIL  EXPECTED_DIFFERENCES entry for ${e.column} matches no file`);
      }
    }
    console.log(`generated_files: ${files.length} files written by ${writer} into ${outDir} in ` +
                `${generateMs} ms, compared in ${Date.now() - startCompare} ms (values: all; ` +
                `text: ${files.filter((f) => f.text).length}) ` +
                '(regenerate: node tests/differential/generate_files.mjs DIR)');
    for (const [type, reason] of Object.entries(UNCOMPARED_TYPES)) {
      console.log(`note: ${type} columns are not compared: ${reason}`);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
