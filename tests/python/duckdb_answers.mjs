#!/usr/bin/env node
// DuckDB's answers for the Python module's differential test (test_pandas_vs_duckdb.py):
// writes the engine differential test's datasets (dataset.mjs: a column of every
// engine type, NULLs, NaN, -0.0, extremes, long UTF-8 strings; lineitem) and a
// file of list columns under DIR, then answers a corpus with DuckDB: the first
// COUNT queries the engine test's generator draws (query_generator.mjs, seed
// SEED), TPC-H Q1 and Q6 (tpch.mjs) and queries naming every type. Each answer is
// DuckDB's result in compare_values.mjs's canonical forms (result_compare.mjs's
// duckdbResult), with the query's comparison rules (ordered, tolerance, sort
// keys) and the errors both engines may give instead (an overflow).
//
//   node tests/python/duckdb_answers.mjs DIR [COUNT] [SEED]
//
// Writes DIR/answers.json: [{ name, query, sql, ordered, tolerance, sortKeys,
// expectError, columns, types, rows } | { ..., refused }]. Exits 1 when DuckDB is
// not installed (`make oracle`): the Python test fails then, it does not skip.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { writeDatasets } from '../differential/engine/dataset.mjs';
import { generateQueries } from '../differential/engine/query_generator.mjs';
import { duckdbResult } from '../differential/engine/result_compare.mjs';
import { tpchQueries } from '../differential/engine/tpch.mjs';
import { importDuckdb } from '../support/duckdb.mjs';

const [dirArg, countArg = '50', seedArg = '11'] = process.argv.slice(2);
if (!dirArg) {
  process.stderr.write('usage: node tests/python/duckdb_answers.mjs DIR [COUNT] [SEED]\n');
  process.exit(2);
}
const dir = resolve(dirArg);

let api;
try {
  api = await importDuckdb();
} catch (e) {
  process.stderr.write(`duckdb_answers: the DuckDB oracle is not installed (${e.code ?? e.message}); ` +
                       'run `make oracle`\n');
  process.exit(1);
}
const T = api.DuckDBTypeId;
const instance = await api.DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const files = await writeDatasets(connection, join(dir, 'data'));
await connection.run("SET TimeZone = 'UTC'");

// Lists of every element kind quarry reads from Parquet: null lists, empty
// lists, null elements, over several row groups.
const lists = join(dir, 'data', 'lists.parquet');
await connection.run(`COPY (
  SELECT i::BIGINT AS id,
    CASE WHEN i % 7 = 0 THEN NULL WHEN i % 5 = 0 THEN []::INTEGER[]
         ELSE [i::INTEGER, NULL, -i::INTEGER] END AS li,
    CASE WHEN i % 6 = 0 THEN NULL ELSE [i * 1000000000000, i]::BIGINT[] END AS ll,
    CASE WHEN i % 4 = 0 THEN [NULL]::DOUBLE[] ELSE [i / 4, -0.5]::DOUBLE[] END AS ld,
    CASE WHEN i % 3 = 0 THEN NULL ELSE ['a' || i, '', '😀' || i] END AS ls
  FROM range(3000) t(i)) TO '${lists}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);

const typedSource = `read_parquet([${files.typed.map((f) => `'${f}'`).join(', ')}])`;
const from = `FROM ${files.typed.map((f) => `"${f}"`).join(', ')}`;
const handWritten = [
  { name: 'every-type', query: `${from} | SORT id | LIMIT 1500`,
    sql: `SELECT * FROM ${typedSource} ORDER BY id LIMIT 1500`, ordered: true },
  { name: 'no-nulls', query: `${from} | WHERE i32 IS NOT NULL AND i64 IS NOT NULL AND u64 IS NOT NULL
      AND g64 IS NOT NULL AND flag IS NOT NULL | KEEP id, i32, i64, u64, g64, flag | SORT id`,
    sql: `SELECT id, i32, i64, u64, g64, flag FROM ${typedSource} WHERE i32 IS NOT NULL AND i64 IS NOT NULL
      AND u64 IS NOT NULL AND g64 IS NOT NULL AND flag IS NOT NULL ORDER BY id`, ordered: true },
  { name: 'one-batch', query: `${from} | WHERE id < 50 AND i64 IS NOT NULL | KEEP id, i64, f64 | SORT id`,
    sql: `SELECT id, i64, f64 FROM ${typedSource} WHERE id < 50 AND i64 IS NOT NULL ORDER BY id`, ordered: true },
  { name: 'group-by-types', query: `${from} | STATS n = COUNT(*), s = SUM(d18), lo = MIN(day), hi = MAX(ts_utc),
      late = MAX(ts_local) BY region | SORT region`,
    sql: `SELECT count(*) AS n, sum(d18) AS s, min(day) AS lo, max(ts_utc) AS hi, max(ts_local) AS late, region
      FROM ${typedSource} GROUP BY region ORDER BY region NULLS LAST`, ordered: true },
  { name: 'lists', query: `FROM "${lists}" | SORT id`, sql: `SELECT * FROM '${lists}' ORDER BY id`, ordered: true },
  { name: 'empty', query: `${from} | WHERE id < 0 | KEEP id, s_low, d9`,
    sql: `SELECT id, s_low, d9 FROM ${typedSource} WHERE id < 0`, ordered: false },
];

const count = Number(countArg);
const generated = generateQueries({ seed: Number(seedArg), count, files, dir: join(dir, 'data') })
    .filter((pair) => !pair.needsOrc || files.orc)
    .map((pair) => ({ ...pair, name: `generated-${pair.index}` }));
const tpch = tpchQueries(files.lineitem).map((pair) => ({ ...pair, name: pair.index }));

const answers = [];
for (const pair of [...handWritten, ...tpch, ...generated]) {
  const entry = {
    name: pair.name, query: pair.query, sql: pair.sql, ordered: Boolean(pair.ordered),
    tolerance: pair.tolerance ?? {}, sortKeys: pair.sortKeys ?? [], expectError: pair.expectError ?? null,
  };
  try {
    const duck = await duckdbResult(connection, pair.sql, T);
    answers.push({ ...entry, columns: duck.columns, types: duck.types.map(String), rows: duck.rows });
  } catch (e) {
    const message = e.message.split('\n')[0];
    if (!pair.expectError || !new RegExp(pair.expectError.duckdb).test(message)) {
      throw new Error(`DuckDB fails ${pair.name}: ${message}\n${pair.sql}`);
    }
    answers.push({ ...entry, refused: message });
  }
}
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
process.stdout.write(`duckdb_answers: ${answers.length} answers in ${join(dir, 'answers.json')}\n`);
