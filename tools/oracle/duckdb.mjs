#!/usr/bin/env node
// DuckDB as quarry's oracle: differential tests and benchmarks compare quarry's
// answers with DuckDB's on the same files.
//
// Command line:
//   node tools/oracle/duckdb.mjs "SELECT count(*) FROM read_parquet('f.parquet')"
//   node tools/oracle/duckdb.mjs --csv "SELECT ..."
// prints the rows of the last statement as one JSON array of objects (64-bit
// integers, decimals and hugeints as strings, so that no digit is lost) or as CSV
// with a header line. On error: DuckDB's message on stderr and exit code 1.
//
// As a module:
//   import { openOracle } from './duckdb.mjs';
//   const oracle = await openOracle();
//   const rows = await oracle.query('SELECT 42 AS x');  // [{ x: 42 }]
//   oracle.close();
//
// Install with `make oracle` (npm ci --prefix tools/oracle).

import { pathToFileURL } from 'node:url';

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;

let duckdbApi;
try {
  duckdbApi = await import('@duckdb/node-api');
} catch (e) {
  const message = `cannot load @duckdb/node-api (${e.code ?? e.message}); run \`make oracle\` first`;
  if (!isMain) throw new Error(message, { cause: e });
  process.stderr.write(`duckdb.mjs: ${message}\n`);
  process.exit(2);
}
const { DuckDBInstance } = duckdbApi;

/// Opens an in-memory DuckDB database; returns an object with query(sql) and close().
export async function openOracle() {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  return {
    /// Runs sql (one or more statements) and returns the last one's rows as JSON-safe objects.
    async query(sql) {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJson();
    },
    /// Runs sql and returns { columns: [names], rows: [[values]] }, values JSON-safe.
    async queryRows(sql) {
      const reader = await connection.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRowsJson() };
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

function csvField(value) {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function main(argv) {
  const csv = argv.includes('--csv');
  const sqlArgs = argv.filter((a) => a !== '--csv');
  if (sqlArgs.length !== 1) {
    process.stderr.write('usage: node tools/oracle/duckdb.mjs [--csv] "SQL"\n');
    return 2;
  }
  const oracle = await openOracle();
  try {
    if (csv) {
      const { columns, rows } = await oracle.queryRows(sqlArgs[0]);
      const lines = [columns.map(csvField).join(',')];
      for (const row of rows) lines.push(row.map(csvField).join(','));
      process.stdout.write(lines.join('\n') + '\n');
    } else {
      const rows = await oracle.query(sqlArgs[0]);
      // One row per line: readable, and still a single JSON array.
      process.stdout.write('[' + rows.map((r) => JSON.stringify(r)).join(',\n ') + ']\n');
    }
    return 0;
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 1;
  } finally {
    oracle.close();
  }
}

if (isMain) {
  process.exitCode = await main(process.argv.slice(2));
}
