// Loads @duckdb/node-api from the project's pinned oracle install
// (tools/oracle/node_modules), so bench scripts need no node_modules of their own.
// QUARRY_ORACLE_DIR points elsewhere (a directory holding node_modules/@duckdb/node-api).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const sourceDir = path.resolve(here, '..');

/// Returns the @duckdb/node-api module; exits with a hint when it is not installed.
export async function loadDuckDB() {
  const oracleDir = process.env.QUARRY_ORACLE_DIR || path.join(sourceDir, 'tools', 'oracle');
  const require = createRequire(path.join(oracleDir, 'package.json'));
  let resolved;
  try {
    resolved = require.resolve('@duckdb/node-api');
  } catch {
    const hint = existsSync(path.join(oracleDir, 'package-lock.json'))
      ? `npm ci --prefix ${oracleDir}`
      : 'set QUARRY_ORACLE_DIR to a directory with @duckdb/node-api installed';
    console.error(`bench: @duckdb/node-api not found under ${oracleDir}; run: ${hint}`);
    process.exit(2);
  }
  return import(pathToFileURL(resolved).href);
}
