#!/usr/bin/env node
// DuckDB's answers for the FilterPredicate differential test
// (tests/formats/parquet/filter_differential_test.cc). Reads a file of SQL queries,
// one per line, each returning rows (c, ids); prints one line per row,
// "c<TAB>ids", in the order the queries return them. Exits 77 when the DuckDB
// oracle is not installed.
import { readFileSync } from 'node:fs';

let openOracle;
try {
  ({ openOracle } = await import('../../tools/oracle/duckdb.mjs'));
} catch (e) {
  process.stderr.write(`filter_oracle.mjs: ${e.message}\n`);
  process.exit(77);
}
const queries = readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.length > 0);
const oracle = await openOracle();
await oracle.query("SET TimeZone = 'UTC'");
const out = [];
for (const q of queries) {
  const { columns, rows } = await oracle.queryRows(q);
  if (columns[0] !== 'c') continue;  // a setup statement
  for (const [c, ids] of rows) out.push(`${c}\t${ids ?? ''}`);
}
oracle.close();
process.stdout.write(out.join('\n') + '\n');
