#!/usr/bin/env node
// Differential test of LIST columns in the query engine: DuckDB writes a file
// (COPY ... TO parquet) of list<int>, list<bigint>, list<double> and
// list<varchar> columns with null lists, empty lists, null elements, lists of
// thousands of elements and several row groups; each query below runs through
// `quarry query` (JSON: lists as arrays, compared element by element) and, for
// the CSV form, against DuckDB's own COPY ... TO csv of the same SELECT (lists
// as DuckDB casts them to VARCHAR).
//
//   node tests/differential/engine/list_columns.mjs QUARRY DIR
//
// Exit status: 0 when all agree, 1 on a mismatch, 77 (ctest: skipped) without
// the DuckDB oracle, 2 on bad usage.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compareResult, duckdbResult, parseQuarryOutput } from './result_compare.mjs';
import { duckdbOrSkip } from '../../support/duckdb.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');

function skip(message) {
  process.stderr.write(`\n*** SKIPPED list_columns: ${message} ***\n\n`);
  process.exit(77);
}

const kRows = 12_000;
// Null lists, empty lists, null elements, a 2,500-element list every 3,000 rows,
// strings DuckDB quotes inside a list ('x,y', '', 'NULL', ' lead', "it's").
const kSelect = `SELECT i::INTEGER AS id,
  CASE WHEN i % 7 = 0 THEN NULL WHEN i % 7 = 1 THEN []::INTEGER[] WHEN i % 7 = 2 THEN [NULL]::INTEGER[]
       WHEN i % 3000 = 2999 THEN range(0, 2500)::INTEGER[]
       ELSE [i, -i, CASE WHEN i % 5 = 0 THEN NULL ELSE i * 3 END]::INTEGER[] END AS li,
  CASE WHEN i % 4 = 0 THEN NULL ELSE [i * 1000000000, NULL]::BIGINT[] END AS lb,
  CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN [i / 8, -0.0, 1e300, NULL]::DOUBLE[]
       ELSE [i * 0.1]::DOUBLE[] END AS ld,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN []::VARCHAR[]
       ELSE ['s' || (i % 13), NULL, 'x,y', '', 'NULL', ' lead', 'it''s', 'a\\b', 'q"d'] END AS ls
FROM range(${kRows}) r(i)`;

/// DuckDB's form of mv_count: the non-null elements, NULL where there is none.
const mvCount = (x) => `CASE WHEN len(list_filter(${x}, e -> e IS NOT NULL)) = 0 THEN NULL ` +
    `ELSE len(list_filter(${x}, e -> e IS NOT NULL)) END`;
const relative = (...names) => Object.fromEntries(names.map((n) => [n, 'relative']));

/// [quarry query, DuckDB SQL over the file, ordered, tolerance per column]
function queries(file) {
  const from = `FROM "${file}"`;
  const src = `read_parquet('${file}')`;
  const mv = (x) => `EVAL c = mv_count(${x}), mn = mv_min(${x}), mx = mv_max(${x}), f = mv_first(${x}), ` +
      `l = mv_last(${x})`;
  const mvSql = (x) => `${mvCount(x)} AS c, list_min(${x}) AS mn, list_max(${x}) AS mx, ` +
      `list_filter(${x}, e -> e IS NOT NULL)[1] AS f, list_filter(${x}, e -> e IS NOT NULL)[-1] AS l`;
  const stats = 'c = COUNT(x), mn = MIN(x), mx = MAX(x), s = SUM(x), a = AVG(x), d = COUNT_DISTINCT(x)';
  const statsSql = 'count(e) AS c, min(e) AS mn, max(e) AS mx, sum(e) AS s, avg(e) AS a, count(DISTINCT e) AS d';
  return [
    // Stage 2: the mv_ functions (DuckDB's list_ functions) and aggregates over every element (unnest).
    [`${from} | ${mv('li')}, s = mv_sum(li), a = mv_avg(li) | SORT id | KEEP id, c, mn, mx, f, l, s, a`,
     `SELECT id, ${mvSql('li')}, list_sum(li) AS s, list_avg(li) AS a FROM ${src} ORDER BY id`, true,
     relative('a')],
    [`${from} | ${mv('ld')}, s = mv_sum(ld), a = mv_avg(ld) | KEEP id, c, mn, mx, f, l, s, a`,
     `SELECT id, ${mvSql('ld')}, list_sum(ld) AS s, list_avg(ld) AS a FROM ${src}`, false, relative('s', 'a')],
    [`${from} | ${mv('ls')} | KEEP id, c, mn, mx, f, l`, `SELECT id, ${mvSql('ls')} FROM ${src}`, false],
    [`${from} | EVAL x = li | STATS ${stats}`, `SELECT ${statsSql} FROM (SELECT unnest(li) AS e FROM ${src})`, true,
     relative('a')],
    [`${from} | RENAME lb AS x | STATS ${stats} BY g = id % 3`,
     `SELECT ${statsSql}, g FROM (SELECT unnest(lb) AS e, id % 3 AS g FROM ${src}) GROUP BY g`, false, relative('a')],
    [`${from} | WHERE id < 6000 | RENAME ld AS x | STATS ${stats}`,
     `SELECT ${statsSql} FROM (SELECT unnest(ld) AS e FROM ${src} WHERE id < 6000)`, true, relative('s', 'a')],
    [`${from} | STATS c = COUNT(ls), mn = MIN(ls), mx = MAX(ls), d = COUNT_DISTINCT(ls), n = COUNT(*)`,
     `SELECT count(e) AS c, min(e) AS mn, max(e) AS mx, count(DISTINCT e) AS d, ` +
     `(SELECT count(*) FROM ${src}) AS n FROM (SELECT unnest(ls) AS e FROM ${src})`, true],
    // SORT by a list: ascending by its least element, descending by its greatest (ES|QL).
    [`${from} | SORT li, id | KEEP id, li`, `SELECT id, li FROM ${src} ORDER BY list_min(li) NULLS LAST, id`, true],
    [`${from} | SORT ls DESC, id | LIMIT 2500 | KEEP id, ls`,
     `SELECT id, ls FROM ${src} ORDER BY list_max(ls) DESC NULLS FIRST, id LIMIT 2500`, true],
    [`${from} | SORT ld DESC NULLS LAST, id DESC | LIMIT 50 | KEEP id, ld`,
     `SELECT id, ld FROM ${src} ORDER BY list_max(ld) DESC NULLS LAST, id DESC LIMIT 50`, true],
    // Stage 1: lists passing through.
    [`${from} | SORT id | KEEP id, li, lb, ld, ls`, `SELECT id, li, lb, ld, ls FROM ${src} ORDER BY id`, true],
    [`${from} | KEEP ls, li`, `SELECT ls, li FROM ${src}`, false],
    [`${from} | WHERE id % 17 == 3 | KEEP id, ld`, `SELECT id, ld FROM ${src} WHERE id % 17 = 3`, false],
    [`${from} | WHERE li IS NULL | KEEP id, ls`, `SELECT id, ls FROM ${src} WHERE li IS NULL`, false],
    [`${from} | WHERE ls IS NOT NULL AND id > 11000 | KEEP id, ls`,
     `SELECT id, ls FROM ${src} WHERE ls IS NOT NULL AND id > 11000`, false],
    [`${from} | SORT id DESC | LIMIT 25 | EVAL copy = li | RENAME lb AS big | KEEP id, copy, big`,
     `SELECT id, li AS copy, lb AS big FROM ${src} ORDER BY id DESC LIMIT 25`, true],
    [`${from} | LIMIT 5000 | STATS n = COUNT(*)`, `SELECT count(*) AS n FROM (SELECT * FROM ${src} LIMIT 5000)`, true],
    [`${from} | WHERE ld IS NULL | STATS n = COUNT(*)`, `SELECT count(*) AS n FROM ${src} WHERE ld IS NULL`, true],
  ];
}

function quarryRun(quarry, args) {
  const result = spawnSync(quarry, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) {
    throw new Error(`quarry ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}`);
  }
  return result.stdout;
}

async function main() {
  const [quarry, dirArg] = process.argv.slice(2);
  if (!quarry || !dirArg) {
    process.stderr.write('usage: node tests/differential/engine/list_columns.mjs QUARRY DIR\n');
    return 2;
  }
  const api = await duckdbOrSkip(skip);
  if (!existsSync(quarry)) {
    process.stderr.write(`list_columns: no quarry binary at ${quarry}\n`);
    return 2;
  }
  const T = api.DuckDBTypeId;
  const dir = resolve(dirArg);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'lists.parquet');
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`COPY (${kSelect}) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 4096)`);

  const failures = [];
  let compared = 0;
  for (const [query, sql, ordered, tolerance = {}] of queries(file)) {
    const pair = { query, sql, ordered, tolerance };
    // JSON: values element by element.
    const duck = await duckdbResult(connection, sql, T);
    let problems;
    try {
      problems = compareResult(parseQuarryOutput(quarryRun(quarry, ['query', '--format', 'ndjson', query])),
                               duck, pair, T);
    } catch (e) {
      problems = [e.message];
    }
    if (problems.length > 0) failures.push({ query, form: 'ndjson', problems });
    // CSV: the text of every list as DuckDB writes it (ordered queries only).
    if (ordered && Object.keys(tolerance).length === 0) {
      const csv = join(dir, 'duckdb.csv');
      await connection.run(`COPY (${sql}) TO '${csv}' (FORMAT csv)`);
      const theirs = readFileSync(csv, 'utf8');
      let ours;
      try {
        ours = quarryRun(quarry, ['query', '--format', 'csv', query]);
      } catch (e) {
        ours = e.message;
      }
      if (ours !== theirs) {
        const a = ours.split('\n');
        const b = theirs.split('\n');
        const line = a.findIndex((l, k) => l !== b[k]);
        failures.push({ query, form: 'csv', problems: [`line ${line + 1}: quarry ${JSON.stringify(a[line])}, ` +
                                                        `DuckDB ${JSON.stringify(b[line])}`] });
      }
    }
    compared++;
  }
  for (const f of failures) {
    process.stdout.write(`MISMATCH (${f.form}) ${f.query}\n  ${f.problems.join('\n  ')}\n`);
  }
  process.stdout.write(`list_columns: ${compared} queries, ${failures.length} mismatches\n`);
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
