#!/usr/bin/env node
// Every engine type written by `quarry query --format arrow` (and `quarry
// convert --to arrow`) and read back by apache-arrow from npm, an Arrow
// implementation independent of quarry (issue 30: "An independent Arrow
// implementation reads quarry's output"): one query per column of the
// all-types fixture, so that a failure names the type. Each column's Arrow type
// must be the one quarry/arrow.h maps the engine type to, and its values, read
// from the Arrow buffers, must equal DuckDB's reading of the same Parquet
// column. Also: a result of several batches, an empty result, the null type,
// convert's --columns/--head/--tail, and the refusal to write binary to a
// terminal.
//
//   node tests/api/arrow_ipc_reader_test.mjs QUARRY DIR
//
// Exit status: 0 when every check passes, 1 naming each failure, 77 (ctest:
// skipped) when DuckDB or apache-arrow is not installed (`make oracle`).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { arrowTypeName, arrowTypeProblems, readArrowRows } from '../differential/engine/quarry_arrow.mjs';
import { compareResult, duckdbResult } from '../differential/engine/result_compare.mjs';
import { arrowOrSkip } from '../support/arrow.mjs';
import { duckdbOrSkip } from '../support/duckdb.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '..', 'fixtures', 'engine_source');
const allTypes = join(fixtures, 'all_types.parquet');

const skip = (message) => {
  process.stderr.write(`\n*** SKIPPED arrow_ipc_reader: ${message} ***\n\n`);
  process.exit(77);
};

// The fixture's columns and the Arrow type of each (quarry/arrow.h's mapping).
const kColumns = [
  ['b', 'Bool'], ['i64', 'Int64'], ['u64', 'Uint64'], ['f32', 'Float64'], ['f64', 'Float64'],
  ['d4', 'Decimal128(4,1)'], ['d18', 'Decimal128(18,3)'], ['d38', 'Decimal128(38,10)'],
  ['s', 'LargeUtf8'], ['bin', 'LargeBinary'], ['dt', 'Date32'], ['tm', 'Time64[us]'],
  ['ts', 'Timestamp[us]'], ['tstz', 'Timestamp[us, UTC]'], ['tsms', 'Timestamp[ms]'],
  ['tsns', 'Timestamp[ns]'], ['u', 'FixedSizeBinary[16]'], ['l', 'LargeList<Int32>'],
];

async function main() {
  const [quarry, dirArg] = process.argv.slice(2);
  if (!quarry || !dirArg) {
    process.stderr.write('usage: node tests/api/arrow_ipc_reader_test.mjs QUARRY DIR\n');
    return 2;
  }
  const dir = resolve(dirArg);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const api = await duckdbOrSkip(skip);
  const arrow = await arrowOrSkip(skip);
  const T = api.DuckDBTypeId;
  const instance = await api.DuckDBInstance.create(':memory:');
  const duckdb = await instance.connect();
  await duckdb.run("SET TimeZone = 'UTC'");

  const failures = [];
  const check = (what, problems) => {
    process.stdout.write(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${what}\n`);
    for (const p of problems) process.stdout.write(`       - ${p}\n`);
    if (problems.length > 0) failures.push(what);
  };
  const run = (args) => spawnSync(quarry, args, { maxBuffer: 1 << 30, env: { ...process.env, QUARRY_CACHE_DIR: 'off' } });
  /// Runs quarry; returns { table, rows } as apache-arrow reads its stdout (or `file`).
  const readQuarry = (args, file = null) => {
    const r = run(args);
    if (r.status !== 0) throw new Error(`quarry ${args[0]} exit ${r.status}: ${r.stderr}`);
    return readArrowRows(arrow, file ? readFileSync(file) : r.stdout);
  };
  const compare = async (what, args, sql, { types = null, ordered = true, file = null, batches = null, engineTypes = undefined } = {}) => {
    let problems;
    try {
      const { table, rows } = readQuarry(args, file);
      const duck = await duckdbResult(duckdb, sql, T);
      const pair = { ordered, tolerance: {}, types: engineTypes };
      problems = arrowTypeProblems(arrow, table, duck, pair, T);
      if (types !== null) {
        const actual = table.schema.fields.map((f) => arrowTypeName(arrow, f.type));
        if (actual.join(', ') !== types.join(', ')) problems.push(`Arrow types [${actual}], expected [${types}]`);
      }
      if (batches !== null && !batches(table.batches.length)) {
        problems.push(`${table.batches.length} record batches`);
      }
      problems.push(...compareResult(rows, duck, pair, T));
    } catch (e) {
      problems = [e.message];
    }
    check(what, problems);
  };

  // DuckDB reads a Parquet TIMESTAMP(MILLIS) as TIMESTAMP (microseconds); the
  // engine keeps the file's unit, and so does its Arrow type.
  const engineTypes = { tsms: 'timestamp(ms, local)' };
  for (const [column, type] of kColumns) {
    await compare(`${type} (column ${column})`,
                  ['query', `FROM "${allTypes}" | KEEP id, ${column} | SORT id`, '--format', 'arrow'],
                  `SELECT id, "${column}" FROM read_parquet('${allTypes}') ORDER BY id`,
                  { types: ['Int32', type], engineTypes });
  }
  // The null type: a column of NULL literals (the engine's type null where
  // DuckDB's cast gives INTEGER; the values are DuckDB's NULLs).
  await compare('Null (EVAL n = NULL)', ['query', `FROM "${allTypes}" | KEEP id | EVAL n = NULL | SORT id`,
                                         '--format', 'arrow'],
                `SELECT id, NULL::INTEGER AS n FROM read_parquet('${allTypes}') ORDER BY id`,
                { types: ['Int32', 'Null'], engineTypes: { n: 'null' } });
  await compare('several record batches (10,000 rows of 4 row groups)',
                ['query', `FROM "${join(fixtures, 'multi_row_groups.parquet')}"`, '--format', 'arrow'],
                `SELECT * FROM read_parquet('${join(fixtures, 'multi_row_groups.parquet')}')`,
                { ordered: false, batches: (n) => n > 1 });
  await compare('an empty result: the schema and the end of the stream',
                ['query', `FROM "${allTypes}" | WHERE id > 100 | KEEP id, s`, '--format', 'arrow'],
                `SELECT id, s FROM read_parquet('${allTypes}') WHERE id > 100`,
                { types: ['Int32', 'LargeUtf8'] });

  const out = join(dir, 'all_types.arrows');
  // The struct st's leaves are columns of their own, named by their paths, as in a query.
  await compare('convert --to arrow -o OUT (every column; a struct as its leaves)',
                ['convert', '--to', 'arrow', allTypes, '-o', out],
                `SELECT * EXCLUDE (st, l), st.a AS "st.a", st.b AS "st.b", l FROM read_parquet('${allTypes}')`,
                { file: out, engineTypes });
  await compare('convert --to arrow --columns s,id --head 2',
                ['convert', '--to', 'arrow', allTypes, '--columns', 's,id', '--head', '2'],
                `SELECT s, id FROM read_parquet('${allTypes}') LIMIT 2`, { types: ['LargeUtf8', 'Int32'] });
  await compare('convert --to arrow --tail 1', ['convert', '--to', 'arrow', allTypes, '--tail', '1', '--columns', 'id'],
                `SELECT id FROM (SELECT id, row_number() OVER () AS r FROM read_parquet('${allTypes}')) ` +
                `WHERE r > (SELECT count(*) - 1 FROM read_parquet('${allTypes}'))`, { types: ['Int32'] });

  // "Refuse --format arrow to a terminal with a clear message": stdout a TTY (script(1)).
  for (const args of [['query', `FROM "${allTypes}" | KEEP id`, '--format', 'arrow'],
                      ['convert', '--to', 'arrow', allTypes]]) {
    const command = [quarry, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'latin1' });
    const problems = [];
    if (r.error) problems.push(`script(1) cannot run: ${r.error.message}`);
    else {
      if (r.status !== 2) problems.push(`exit ${r.status}, expected 2`);
      if (!/writes binary data \(an Arrow IPC stream\), not text for a terminal/.test(r.stdout)) {
        problems.push(`the terminal shows ${JSON.stringify(r.stdout.slice(0, 200))}`);
      }
    }
    check(`${args[0]} refuses to write Arrow to a terminal`, problems);
  }

  duckdb.closeSync();
  instance.closeSync();
  process.stdout.write(failures.length === 0 ? 'every check passes\n' : `${failures.length} checks fail\n`);
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
