// What the engine's I/O tests (pushdown_io.mjs, hive_partition_io.mjs) share: the
// Parquet files of a directory tree, and one `quarry query --profile` run with its
// rows and its profile.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { parseQuarryOutput } from './result_compare.mjs';

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
