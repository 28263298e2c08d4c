#!/usr/bin/env node
// Differential test: `quarry inspect --json FILE` against DuckDB on every file of
// parquet-testing/data (recursively).
//
//   node tests/differential/inspect_row_counts.mjs path/to/quarry
//
// - FILE.parquet: quarry exits 0 and its top-level "num_rows" equals DuckDB's
//   count(*). Where DuckDB cannot read the file, only quarry's exit 0 (the footer's
//   num_rows) is checked.
// - FILE.parquet.encrypted: quarry exits non-zero with a one-line message on stderr
//   that names the file and says "encrypt".
//
// Test data: $QUARRY_TESTDATA, default <repo>/../shared/testdata. Exit code 77 (ctest
// reports it as skipped) when the test data or the DuckDB oracle is missing.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const kSkip = 77;
const kTimeoutMs = 60_000;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function skip(message) {
  process.stderr.write(`\n*** SKIPPED inspect_row_counts: ${message} ***\n\n`);
  process.exit(kSkip);
}

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

function runInspect(quarry, file) {
  return spawnSync(quarry, ['inspect', '--json', file], {
    encoding: 'utf8',
    timeout: kTimeoutMs,
    maxBuffer: 1 << 30,
  });
}

/// Returns why the run did not end normally (crash, hang, spawn error), or null.
function abnormalEnd(result) {
  if (result.error) return `could not run: ${result.error.message}`;
  if (result.signal) return `killed by ${result.signal}`;
  return null;
}

function firstLines(text, n = 5) {
  return text.trim().split('\n').slice(0, n).join(' | ');
}

async function checkPlain(file, quarry, oracle) {
  const result = runInspect(quarry, file);
  const abnormal = abnormalEnd(result);
  if (abnormal) return abnormal;
  if (result.status !== 0) {
    return `exit ${result.status}: ${firstLines(result.stderr)}`;
  }
  let json;
  try {
    json = JSON.parse(result.stdout);
  } catch (e) {
    return `stdout is not JSON (${e.message}): ${firstLines(result.stdout, 2)}`;
  }
  const value = json?.num_rows;
  if (value === undefined || !/^\d+$/.test(String(value))) {
    return `no non-negative integer top-level "num_rows" in the JSON (got ${JSON.stringify(value)})`;
  }
  const quarryRows = BigInt(String(value));
  let duckdbRows;
  try {
    const [row] = await oracle.query(
        `SELECT count(*) AS n FROM read_parquet('${file.replaceAll("'", "''")}')`);
    duckdbRows = BigInt(row.n);
  } catch (e) {
    return { note: `DuckDB cannot read it (${firstLines(e.message, 1)}); footer says ${quarryRows}` };
  }
  if (quarryRows !== duckdbRows) return `num_rows ${quarryRows}, DuckDB count(*) ${duckdbRows}`;
  return null;
}

function checkEncrypted(file, quarry) {
  const result = runInspect(quarry, file);
  const abnormal = abnormalEnd(result);
  if (abnormal) return abnormal;
  if (result.status === 0) return 'exit 0 on an encrypted file; expected a refusal';
  const message = result.stderr.trim();
  if (message.length === 0) return `exit ${result.status} with an empty stderr`;
  if (message.includes('\n')) return `stderr has more than one line: ${firstLines(message)}`;
  if (!message.includes(basename(file))) return `stderr does not name the file: ${message}`;
  if (!/encrypt/i.test(message)) return `stderr does not mention encryption: ${message}`;
  return null;
}

async function main() {
  const quarry = process.argv[2];
  if (!quarry) {
    process.stderr.write('usage: node tests/differential/inspect_row_counts.mjs QUARRY_BINARY\n');
    return 2;
  }
  if (!existsSync(quarry)) {
    process.stderr.write(`quarry binary not found: ${quarry}\n`);
    return 1;
  }
  const testdata = resolve(process.env.QUARRY_TESTDATA || join(repoRoot, '..', 'shared', 'testdata'));
  const dataDir = join(testdata, 'parquet-testing', 'data');
  if (!existsSync(dataDir)) {
    skip(`no test data at ${dataDir} (set QUARRY_TESTDATA to the folder holding parquet-testing/)`);
  }
  let openOracle;
  try {
    ({ openOracle } = await import(join(repoRoot, 'tools', 'oracle', 'duckdb.mjs')));
  } catch (e) {
    skip(`DuckDB oracle unavailable: ${e.message}`);
  }

  const files = listFiles(dataDir);
  const plain = files.filter((f) => f.endsWith('.parquet'));
  const encrypted = files.filter((f) => f.endsWith('.parquet.encrypted'));
  const oracle = await openOracle();
  let passed = 0;
  let failed = 0;
  const report = (file, outcome) => {
    const name = relative(dataDir, file);
    if (outcome === null || typeof outcome === 'object') {
      passed++;
      console.log(`ok    ${name}${outcome?.note ? `  (${outcome.note})` : ''}`);
    } else {
      failed++;
      console.log(`FAIL  ${name}: ${outcome}`);
    }
  };
  try {
    for (const file of plain) report(file, await checkPlain(file, quarry, oracle));
    for (const file of encrypted) report(file, checkEncrypted(file, quarry));
  } finally {
    oracle.close();
  }
  console.log(`inspect_row_counts: ${plain.length} plain and ${encrypted.length} encrypted files ` +
              `under ${dataDir}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
