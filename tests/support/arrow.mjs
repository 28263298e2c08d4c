// apache-arrow, the independent Arrow implementation that reads quarry's Arrow
// IPC streams in the tests: the version pinned in tools/oracle (installed by
// `make oracle`), loaded from one place.
//
//   import { arrowOrSkip } from '../support/arrow.mjs';
//   const arrow = await arrowOrSkip(skip);  // skip(message) exits 77
//   const table = arrow.tableFromIPC(bytes);

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const apiPath = join(repoRoot, 'tools', 'oracle', 'node_modules', 'apache-arrow', 'Arrow.node.mjs');

/// Loads apache-arrow, or calls `skip` with why it cannot (a test's skip exits
/// with code 77, which ctest reports as skipped).
export async function arrowOrSkip(skip) {
  try {
    return await import(pathToFileURL(apiPath).href);
  } catch (e) {
    skip(`apache-arrow unavailable (${e.code ?? e.message}); run \`make oracle\``);
    return null;
  }
}
