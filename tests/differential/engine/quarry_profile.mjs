// What the engine's I/O tests (pushdown_io.mjs, hive_partition_io.mjs) share: their
// start (arguments, a fresh directory, DuckDB, a check list), the Parquet files of a
// directory tree, and one `quarry query --profile` run with its rows and its profile.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { parseQuarryOutput } from './result_compare.mjs';
import { duckdbOrSkip } from '../../support/duckdb.mjs';

const kSkip = 77;

/// The start of I/O test `name` (tests/differential/engine/NAME.mjs QUARRY DIR):
/// null after printing the usage or the missing binary (exit 2); else { quarry, dir
/// (emptied), api, T, started, instance, connection (DuckDB in memory), failures,
/// check(ok, what) }. Without DuckDB the process exits 77 (skipped), saying why.
export async function startIoTest(name, argv) {
  const [quarry, dirArg] = argv;
  if (!quarry || !dirArg) {
    process.stderr.write(`usage: node tests/differential/engine/${name}.mjs QUARRY DIR\n`);
    return null;
  }
  if (!existsSync(quarry)) {
    process.stderr.write(`${name}: no quarry binary at ${quarry}\n`);
    return null;
  }
  const dir = resolve(dirArg);
  const api = await duckdbOrSkip((message) => {
    process.stderr.write(`\n*** SKIPPED ${name}: ${message} ***\n\n`);
    process.exit(kSkip);
  });
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const failures = [];
  const check = (ok, what) => {
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
    if (!ok) failures.push(what);
  };
  return { quarry, dir, api, T: api.DuckDBTypeId, started, instance, connection, failures, check };
}

/// The .parquet files under `dir`, recursively.
export function parquetFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...parquetFiles(path));
    else if (entry.name.endsWith('.parquet')) out.push(path);
  }
  return out;
}

/// Runs `quarry query --profile` (with QUARRY_CACHE_DIR=`cacheDir`); returns
/// { rows, profile, ms }. A failing run throws with quarry's stderr.
export function quarryQuery(quarry, query, cacheDir = 'off') {
  const started = process.hrtime.bigint();
  const r = spawnSync(quarry, ['query', '--format', 'json', '--profile', query],
                      { encoding: 'utf8', maxBuffer: 16 << 20, timeout: 60_000,
                        env: { ...process.env, QUARRY_CACHE_DIR: cacheDir } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`quarry failed (${r.status ?? r.signal}): ${r.stderr}`);
  const profileLine = r.stderr.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  return { rows: parseQuarryOutput(r.stdout), profile: JSON.parse(profileLine), ms };
}
