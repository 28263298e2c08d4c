#!/usr/bin/env node
// Differential test: `quarry print --format csv FILE` against DuckDB's
// `COPY (SELECT * FROM read_parquet(FILE)) TO 'out.csv' (HEADER)`, byte for byte, on
// every file of parquet-testing data/ (recursively) and shredded_variant/ that
// both read. It checks the text forms (`CAST(x AS VARCHAR)`) quarry's print
// promises: float digits, decimals, temporal values, BLOB escapes, nested
// values with DuckDB's quoting, CSV quoting. The values themselves are checked by
// read_values.mjs; files one of the two cannot read are its business too.
//
//   node tests/differential/print_csv.mjs path/to/quarry [substring-filter]
//
// Test data: $QUARRY_TESTDATA, default <repo>/../shared/testdata. Exit code 77 (ctest
// reports it as skipped) when the test data or the DuckDB oracle is missing.

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, rmSync }
  from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { writePrintTypesFile } from './print_types_file.mjs';

const kSkip = 77;
const kTimeoutMs = 120_000;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// DuckDBTypeId, whose reverse mapping names a type id; set once the oracle loads.
let typeIdName;

// DuckDB types whose text differs by design; their columns are left out.
const UNCOMPARED_TYPES = {
  GEOMETRY: 'DuckDB prints GEOMETRY as WKT, quarry prints the WKB bytes as a BLOB',
  VARIANT: 'quarry does not reassemble VARIANT values yet',
};

// Files whose text differs, with the reason (read_values.mjs has the details).
const EXPECTED_DIFFERENCES = {
  'data/int96_from_spark.parquet':
      'row 5 holds an INT96 that Spark wrote with a wrapped int64; quarry reads its bytes ' +
      'exactly, DuckDB overflows (see read_values.mjs)',
};

function skip(message) {
  process.stderr.write(`\n*** SKIPPED print_csv: ${message} ***\n\n`);
  process.exit(kSkip);
}

function listParquetFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listParquetFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.parquet')) out.push(path);
  }
  return out.sort();
}

const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;
const sqlIdentifier = (name) => `"${name.replaceAll('"', '""')}"`;
const firstLine = (text) => String(text).trim().split('\n')[0];

/// Returns the first line where the two files differ as [line number, a, b], or
/// null when they are equal. Reads in chunks: a line may exceed a JS string.
function firstDifference(pathA, pathB) {
  const fdA = openSync(pathA, 'r');
  const fdB = openSync(pathB, 'r');
  try {
    const a = Buffer.alloc(1 << 22);
    const b = Buffer.alloc(1 << 22);
    let line = 1;
    for (;;) {
      const n = readSync(fdA, a, 0, a.length, null);
      const m = readSync(fdB, b, 0, b.length, null);
      const common = Math.min(n, m);
      let i = 0;
      while (i < common && a[i] === b[i]) {
        if (a[i] === 0x0a) line++;
        i++;
      }
      if (i < common || n !== m) {
        // Show the differing line, cut: the start of its tail in both files.
        const show = (buf, len) => {
          const end = buf.indexOf(0x0a, i);
          return buf.subarray(i, Math.min(end < 0 || end > len ? len : end, i + 120)).toString();
        };
        return [line, show(a, n), show(b, m)];
      }
      if (n === 0) return null;
    }
  } finally {
    closeSync(fdA);
    closeSync(fdB);
  }
}

async function checkFile(file, quarry, scratch, connection) {
  const from = `read_parquet(${sqlString(file)})`;
  let probe;
  try {
    probe = await connection.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`);
  } catch (e) {
    return { skipped: `DuckDB cannot read it (${firstLine(e.message)})` };
  }
  const names = probe.columnNames();
  // By type id: a GEOMETRY's type text carries its CRS.
  const types = probe.columnTypes().map((t) => typeIdName[t.typeId]);
  const kept = names.filter((_, i) => !UNCOMPARED_TYPES[types[i]]);
  const left = names.filter((_, i) => UNCOMPARED_TYPES[types[i]]);
  if (kept.length === 0) return { skipped: `no comparable column (${left.join(', ')})` };
  const duckPath = join(scratch, 'duckdb.csv');
  const quarryPath = join(scratch, 'quarry.csv');
  try {
    await connection.run(`COPY (SELECT ${kept.map(sqlIdentifier).join(', ')} FROM ${from}) ` +
                         `TO ${sqlString(duckPath)} (HEADER)`);
  } catch (e) {
    return { skipped: `DuckDB cannot read it (${firstLine(e.message)})` };
  }
  const args = ['print', '--format', 'csv', file];
  if (left.length > 0) args.push('--columns', kept.join(','));
  const out = openSync(quarryPath, 'w');
  let result;
  try {
    result = spawnSync(quarry, args, { stdio: ['ignore', out, 'pipe'], encoding: 'utf8',
                                       timeout: kTimeoutMs });
  } finally {
    closeSync(out);
  }
  if (result.error || result.signal) {
    return { problem: `quarry did not finish: ${result.error?.message ?? result.signal}` };
  }
  if (result.status !== 0) return { skipped: `quarry cannot read it: ${firstLine(result.stderr)}` };
  const note = left.length > 0 ? `not compared: ${left.join(', ')}` : null;
  const d = firstDifference(quarryPath, duckPath);
  if (d === null) return { note };
  return { note, problem: `line ${d[0]}: quarry ${JSON.stringify(d[1])}, DuckDB ${JSON.stringify(d[2])}` };
}

async function main() {
  const [quarry, filter] = process.argv.slice(2);
  if (!quarry) {
    process.stderr.write('usage: node tests/differential/print_csv.mjs QUARRY_BINARY [FILTER]\n');
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
  let api;
  try {
    api = await import(join(repoRoot, 'tools', 'oracle', 'node_modules', '@duckdb', 'node-api',
                            'lib', 'index.js'));
  } catch (e) {
    skip(`DuckDB oracle unavailable (${e.code ?? e.message}); run \`make oracle\``);
  }
  typeIdName = api.DuckDBTypeId;
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-print-csv-'));
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
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
  try {
    for (const file of files) {
      const name = nameOf(file);
      const { problem, note, skipped: why } = await checkFile(file, quarry, scratch, connection);
      const expected = EXPECTED_DIFFERENCES[name];
      if (why) {
        skipped++;
        console.log(`skip  ${name}: ${why}`);
      } else if (problem && expected) {
        passed++;
        console.log(`ok    ${name}: expected difference: ${expected}\n        ${problem}`);
      } else if (problem) {
        failed++;
        console.log(`FAIL  ${name}${note ? `  (${note})` : ''}\n        ${problem}`);
      } else if (expected) {
        failed++;
        console.log(`FAIL  ${name}: listed in EXPECTED_DIFFERENCES but matches; remove the entry`);
      } else {
        passed++;
        console.log(`ok    ${name}${note ? `  (${note})` : ''}`);
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
  console.log(`print_csv: ${files.length} files (parquet-testing under ${root}, and ` +
              `generated/print_types.parquet); ${skipped} not read by both ` +
              '(read_values.mjs covers them)');
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
