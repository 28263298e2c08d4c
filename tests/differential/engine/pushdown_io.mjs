#!/usr/bin/env node
// Aggregate pushdown I/O (issue 9, acceptance): "`STATS COUNT(*), MIN(k), MAX(k)`
// over 1,000 small files reads exactly one range per file and no data page."
//
// DuckDB writes 1,000 small Parquet files (one COPY ... PARTITION_BY, one file
// per partition directory) and `quarry query --profile` answers the aggregates:
//
//   - requests == 1000 and footers.requests == 1000: one read per file, the
//     footer's tail read, and no other (Phase 2: the footers read to resolve the
//     schema answer the query; no second footer read, no data request);
//   - bytes_read == footers.bytes_read == the sum over the files of
//     min(file size, kFooterTailReadSize): the tail read and nothing else (a
//     small file's tail read holds all of it; its pages are not decoded);
//   - rows_decoded == 0, pages.total == 0, every row group answered from statistics;
//   - the result equals DuckDB's.
//
// Then the same over 3 files larger than the tail read: bytes_read is exactly
// 3 * kFooterTailReadSize, fewer than the files hold, so no data page is read.
//
// Then the 1,000 small files again with a metadata cache (QUARRY_CACHE_DIR; the
// checks above run with QUARRY_CACHE_DIR=off): the first query reads the 1,000
// footers and keeps them; the second reads nothing at all (requests == 0,
// footers.from_metadata_cache == 1000) and answers the same; after one file is
// rewritten, the third reads that file's footer only, and answers as DuckDB does.
//
//   node tests/differential/engine/pushdown_io.mjs QUARRY DIR
//
// Exit status: 0 on success, 1 on a failed check, 77 (ctest: skipped) when the
// DuckDB oracle is not installed, 2 on bad usage.

import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parquetFiles, quarryQuery, startIoTest } from './quarry_profile.mjs';
import { compareResult, duckdbResult } from './result_compare.mjs';

const kFiles = 1000;
// formats/parquet/footer.h: kFooterTailReadSize, the one read that opens a file.
const kFooterTailReadSize = 64 * 1024;
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');

async function main() {
  const setup = await startIoTest('pushdown_io', process.argv.slice(2));
  if (setup === null) return 2;
  const { quarry, dir, T, started, instance, connection, failures, check } = setup;

  // 1,000 files of 1 to 40 rows: k BIGINT (nulls included), v VARCHAR.
  const small = join(dir, 'small');
  await connection.run(`COPY (SELECT i % ${kFiles} AS p,
        CASE WHEN hash(i) % 7 = 0 THEN NULL ELSE (hash(i) % 1000000)::BIGINT - 500000 END AS k,
        md5(i::VARCHAR) AS v
      FROM range(${kFiles} * 20) t(i) WHERE i < ${kFiles} OR hash(i * 3) % 40 <= (i % ${kFiles}) % 40)
    TO '${small}' (FORMAT parquet, PARTITION_BY (p))`);
  const files = parquetFiles(small);
  const tailBytes = files.reduce((sum, f) => sum + Math.min(statSync(f).size, kFooterTailReadSize), 0);
  process.stdout.write(`pushdown_io: ${files.length} files written by DuckDB (${Date.now() - started} ms)\n`);
  check(files.length === kFiles, `${kFiles} files (found ${files.length})`);

  const glob = join(small, '*', '*.parquet');
  const stats = 'STATS n = COUNT(*), lo = MIN(k), hi = MAX(k)';
  const sql = 'SELECT count(*) AS n, min(k) AS lo, max(k) AS hi';
  const pushed = quarryQuery(quarry, `FROM "${glob}" | ${stats}`);
  const p = pushed.profile;
  process.stdout.write(`  profile: ${JSON.stringify({ ...p, operators: undefined })} (${pushed.ms.toFixed(1)} ms)\n`);
  check(p.files?.read === kFiles, `files.read == ${kFiles} (${p.files?.read})`);
  check(p.requests === kFiles, `requests == ${kFiles}: one read per file (${p.requests})`);
  check(p.footers?.requests === kFiles, `footers.requests == ${kFiles}: each read is the footer's (${p.footers?.requests})`);
  check(p.bytes_read === tailBytes,
        `bytes_read == ${tailBytes}, the files' tail reads (min(size, ${kFooterTailReadSize}) each) (${p.bytes_read})`);
  check(p.footers?.bytes_read === p.bytes_read, `every byte read is a footer read (${p.footers?.bytes_read})`);
  check(p.rows_decoded === 0, `rows_decoded == 0 (${p.rows_decoded})`);
  check(p.pages.total === 0, `pages.total == 0 (${p.pages.total})`);
  check(p.row_groups.total > 0 && p.row_groups.answered_from_statistics === p.row_groups.total,
        `every row group answered from statistics (${p.row_groups.answered_from_statistics} of ${p.row_groups.total})`);
  check(!p.operators.some((o) => o.name === 'ExternalSourceExec'), 'no ExternalSourceExec ran');
  const duck = await duckdbResult(connection,
                                  `${sql} FROM read_parquet('${glob}', hive_partitioning = false)`, T);
  const problems = compareResult(pushed.rows, duck, { ordered: true, tolerance: {} }, T);
  check(problems.length === 0, `result ${JSON.stringify(pushed.rows)} equals DuckDB's${problems.length ? `: ${problems[0]}` : ''}`);

  // Files larger than the tail read: the tail read ends before the data pages.
  const large = join(dir, 'large');
  mkdirSync(large, { recursive: true });
  const largeFiles = [];
  for (let f = 0; f < 3; f++) {
    const path = join(large, `part-${f}.parquet`);
    await connection.run(`COPY (SELECT (hash(i + ${f * 100000}) % 1000000000)::BIGINT AS k FROM range(40000) t(i))
      TO '${path}' (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE 10000)`);
    largeFiles.push(path);
  }
  const largeBytes = largeFiles.reduce((sum, f) => sum + statSync(f).size, 0);
  const largeGlob = join(large, '*.parquet');
  const big = quarryQuery(quarry, `FROM "${largeGlob}" | ${stats}`);
  const b = big.profile;
  check(largeFiles.every((f) => statSync(f).size > 2 * kFooterTailReadSize),
        `the 3 large files exceed twice the tail read (${largeBytes} bytes in all)`);
  check(b.requests === 3 && b.footers?.requests === 3, `3 large files: requests == 3 (${b.requests})`);
  check(b.bytes_read === 3 * kFooterTailReadSize,
        `3 large files: bytes_read == 3 * ${kFooterTailReadSize}, no data page (${b.bytes_read})`);
  check(b.rows_decoded === 0, `3 large files: rows_decoded == 0 (${b.rows_decoded})`);
  const bigDuck = await duckdbResult(connection, `${sql} FROM read_parquet('${largeGlob}')`, T);
  const bigProblems = compareResult(big.rows, bigDuck, { ordered: true, tolerance: {} }, T);
  check(bigProblems.length === 0, `3 large files: result equals DuckDB's${bigProblems.length ? `: ${bigProblems[0]}` : ''}`);

  // The metadata cache keeps only what is older than its one-second margin
  // (io::kSettleMarginNs): wait until the small files and their directories are.
  const cacheDir = join(dir, 'cache');
  const newest = Math.max(...files.map((f) => Math.max(statSync(f).ctimeMs, statSync(dirname(f)).ctimeMs)),
                          statSync(small).ctimeMs);
  const wait = newest + 1200 - Date.now();
  if (wait > 0) await new Promise((done) => setTimeout(done, wait));
  const filling = quarryQuery(quarry, `FROM "${glob}" | ${stats}`, cacheDir);
  check(filling.profile.footers?.requests === kFiles && filling.profile.footers?.from_metadata_cache === 0,
        `metadata cache, first query: ${kFiles} footers read (${filling.profile.footers?.requests})`);
  const warm = quarryQuery(quarry, `FROM "${glob}" | ${stats}`, cacheDir);
  const w = warm.profile;
  process.stdout.write(`  cached profile: ${JSON.stringify({ ...w, operators: undefined })} (${warm.ms.toFixed(1)} ms)\n`);
  check(w.requests === 0 && w.bytes_read === 0,
        `metadata cache, second query: nothing read (requests ${w.requests}, bytes_read ${w.bytes_read})`);
  check(w.footers?.from_metadata_cache === kFiles,
        `metadata cache, second query: ${kFiles} footers from the cache (${w.footers?.from_metadata_cache})`);
  check(JSON.stringify(warm.rows) === JSON.stringify(pushed.rows), 'metadata cache: the same answer');
  const rewritten = join(small, 'p=7', readdirSync(join(small, 'p=7'))[0]);
  await connection.run(`COPY (SELECT 7777777::BIGINT AS k, 'x' AS v) TO '${rewritten}' (FORMAT parquet)`);
  const changed = quarryQuery(quarry, `FROM "${glob}" | ${stats}`, cacheDir);
  const c = changed.profile;
  check(c.footers?.requests === 1 && c.footers?.from_metadata_cache === kFiles - 1,
        `metadata cache, one file rewritten: its footer read again, ${kFiles - 1} from the cache ` +
        `(${c.footers?.requests}, ${c.footers?.from_metadata_cache})`);
  const changedDuck = await duckdbResult(connection,
                                         `${sql} FROM read_parquet('${glob}', hive_partitioning = false)`, T);
  const changedProblems = compareResult(changed.rows, changedDuck, { ordered: true, tolerance: {} }, T);
  check(changedProblems.length === 0 && JSON.stringify(changed.rows).includes('7777777'),
        `metadata cache, one file rewritten: result ${JSON.stringify(changed.rows)} equals DuckDB's` +
        `${changedProblems.length ? `: ${changedProblems[0]}` : ''}`);

  connection.closeSync();
  instance.closeSync();
  process.stdout.write(`pushdown_io: ${failures.length === 0 ? 'all checks pass' : `${failures.length} checks fail`}, ` +
                       `${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
