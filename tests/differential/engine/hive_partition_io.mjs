#!/usr/bin/env node
// Hive partition pruning I/O (issue 29, acceptance): "over 1,000 partitions,
// `WHERE year == 2024 AND month == 6` opens only that partition's files, and
// `_file.path` filters prune likewise."
//
// DuckDB writes 1,200 partitions (COPY ... PARTITION_BY (year, month): year
// 2000-2099, month 1-12, one small file each). Then `quarry query --profile`:
//
//   - WHERE year == 2024 AND month == 6: files.read == 1, files.pruned_by_partition
//     == 1199, and footers.requests and requests exactly those of the same query
//     over that one file named alone (no other file opened, no listing read);
//   - WHERE _file.path LIKE "*/year=2024/*": 12 files read, 1188 pruned, 12 times
//     the one file's requests;
//   - WHERE year >= 2098 AND id > 5 (a file column too): 24 files read;
//   - each result equals DuckDB's read_parquet(..., hive_partitioning = true);
//   - grouped answers from statistics ("STATS c = COUNT(*), lo = MIN(x), hi =
//     MAX(x) BY year, month over 1,000 files reads zero data bytes; equal to the
//     same query forced to scan and to DuckDB's"): bytes_read is the footers'
//     bytes alone, no row is decoded, every row group is answered from
//     statistics; the same STATS after `EVAL __k = 1` (which the rule does not
//     match) scans, and both answers equal DuckDB's GROUP BY year, month.
//
//   node tests/differential/engine/hive_partition_io.mjs QUARRY DIR
//
// Exit status: 0 on success, 1 on a failed check, 77 (ctest: skipped) when the
// DuckDB oracle is not installed, 2 on bad usage.

import { join } from 'node:path';

import { parquetFiles, quarryQuery, startIoTest } from './quarry_profile.mjs';
import { compareResult, duckdbResult } from './result_compare.mjs';

const kYears = 100;
const kFiles = kYears * 12;

async function main() {
  const setup = await startIoTest('hive_partition_io', process.argv.slice(2));
  if (setup === null) return 2;
  const { quarry, dir, T, started, connection: duck, failures, check } = setup;

  const root = join(dir, 'sales');
  await duck.run(`COPY (SELECT 2000 + (i // 12) % ${kYears} AS year, 1 + i % 12 AS month,
        i AS id, md5(i::VARCHAR) AS v
      FROM range(${kFiles} * 3) t(i))
    TO '${root}' (FORMAT parquet, PARTITION_BY (year, month))`);
  const files = parquetFiles(root);
  process.stdout.write(`hive_partition_io: ${files.length} files written by DuckDB (${Date.now() - started} ms)\n`);
  check(files.length === kFiles, `${kFiles} files (found ${files.length})`);
  const glob = join(root, '**', '*.parquet');
  const from = `read_parquet('${glob}', hive_partitioning = true)`;

  // The one file of year=2024/month=6, named alone (its folders still give the columns).
  const june = files.filter((f) => f.includes('/year=2024/month=6/'));
  check(june.length === 1, `one file in year=2024/month=6 (${june.length})`);
  const alone = quarryQuery(quarry, `FROM "${june[0]}" | KEEP id, v, year, month`).profile;

  const cases = [
    { name: 'year == 2024 AND month == 6', where: 'year == 2024 AND month == 6', sql: 'year = 2024 AND month = 6',
      read: 1 },
    { name: '_file.path LIKE "*/year=2024/*"', where: '_file.path LIKE "*/year=2024/*"',
      sql: "filename LIKE '%/year=2024/%'", read: 12 },
    { name: 'year >= 2098 AND id > 5', where: 'year >= 2098 AND id > 5', sql: 'year >= 2098 AND id > 5', read: 24 },
  ];
  for (const c of cases) {
    const { rows, profile: p } = quarryQuery(quarry, `FROM "${glob}" | WHERE ${c.where} | KEEP id, v, year, month`);
    process.stdout.write(`  ${c.name}: files ${JSON.stringify(p.files)}, requests ${p.requests}, ` +
                         `footers ${JSON.stringify(p.footers)}\n`);
    check(p.files?.read === c.read, `${c.name}: files.read == ${c.read} (${p.files?.read})`);
    check(p.files?.pruned_by_partition === kFiles - c.read,
          `${c.name}: files.pruned_by_partition == ${kFiles - c.read} (${p.files?.pruned_by_partition})`);
    check(p.footers?.requests === c.read * alone.footers.requests,
          `${c.name}: footers.requests == ${c.read} x ${alone.footers.requests} (${p.footers?.requests})`);
    if (c.read === 1 || c.name.startsWith('_file')) {
      check(p.requests === c.read * alone.requests,
            `${c.name}: requests == ${c.read} x ${alone.requests}, the lone file's (${p.requests})`);
    }
    const expected = await duckdbResult(duck, `SELECT id, v, year, month FROM ${from} WHERE ${c.sql}`, T);
    const problems = compareResult(rows, expected, { ordered: false, tolerance: {} }, T);
    check(problems.length === 0, `${c.name}: ${rows.length} rows, equal to DuckDB's${problems.length ? `: ${problems[0]}` : ''}`);
  }
  const stats = 'STATS c = COUNT(*), lo = MIN(id), hi = MAX(v) BY year, month';
  const expectedStats = await duckdbResult(duck,
    `SELECT count(*) AS c, min(id) AS lo, max(v) AS hi, year, month FROM ${from} GROUP BY year, month`, T);
  const grouped = quarryQuery(quarry, `FROM "${glob}" | ${stats}`);
  const g = grouped.profile;
  process.stdout.write(`  grouped STATS from statistics: bytes ${g.bytes_read} (footers ${g.footers?.bytes_read}), ` +
                       `rows decoded ${g.rows_decoded}, row groups ${JSON.stringify(g.row_groups)}\n`);
  check(g.bytes_read === g.footers?.bytes_read && g.bytes_read > 0,
        `grouped STATS: bytes_read ${g.bytes_read} == footers.bytes_read ${g.footers?.bytes_read} (no data byte)`);
  check(g.rows_decoded === 0, `grouped STATS: rows_decoded == 0 (${g.rows_decoded})`);
  check(g.row_groups?.answered_from_statistics === g.row_groups?.total && g.row_groups?.total >= kFiles,
        `grouped STATS: every row group answered from statistics (${JSON.stringify(g.row_groups)})`);
  let problems = compareResult(grouped.rows, expectedStats, { ordered: false, tolerance: {} }, T);
  check(problems.length === 0, `grouped STATS: ${grouped.rows.length} groups, equal to DuckDB's${problems.length ? `: ${problems[0]}` : ''}`);
  const scanned = quarryQuery(quarry, `FROM "${glob}" | EVAL __k = 1 | ${stats}`);
  check(scanned.profile.row_groups?.answered_from_statistics === 0 && scanned.profile.rows_decoded > 0,
        `grouped STATS forced to scan: no row group answered from statistics (${JSON.stringify(scanned.profile.row_groups)})`);
  problems = compareResult(scanned.rows, expectedStats, { ordered: false, tolerance: {} }, T);
  check(problems.length === 0, `grouped STATS forced to scan: equal to DuckDB's${problems.length ? `: ${problems[0]}` : ''}`);

  process.stdout.write(`hive_partition_io: ${failures.length} failed checks (${Date.now() - started} ms)\n`);
  return failures.length === 0 ? 0 : 1;
}

process.exit(await main());
