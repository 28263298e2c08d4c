// The DuckDB node API the differential tests compare quarry with: the version
// pinned in tools/oracle (installed by `make oracle`), loaded from one place.
//
//   import { duckdbOrSkip } from '../support/duckdb.mjs';
//   const api = await duckdbOrSkip(skip);  // skip(message) exits 77
//   const instance = await api.DuckDBInstance.create(':memory:');

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const apiPath = join(repoRoot, 'tools', 'oracle', 'node_modules', '@duckdb', 'node-api', 'lib', 'index.js');

/// Loads the DuckDB node API; rejects when it is not installed.
export async function importDuckdb() {
  return import(pathToFileURL(apiPath).href);
}

/// Loads the DuckDB node API, or returns null when it is not installed.
export async function loadDuckdb() {
  try {
    return await importDuckdb();
  } catch {
    return null;
  }
}

/// Loads the DuckDB node API, or calls `skip` with why it cannot (a test's
/// skip exits with code 77, which ctest reports as skipped).
export async function duckdbOrSkip(skip) {
  try {
    return await importDuckdb();
  } catch (e) {
    skip(`DuckDB oracle unavailable (${e.code ?? e.message}); run \`make oracle\``);
    return null;
  }
}
