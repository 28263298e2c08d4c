// Writes the remote-latency benchmark's files with DuckDB: FILES Parquet files of
// ROWS rows each (snappy, row groups of 20,000 rows), with an `id` sorted across
// the files (file k holds ids [k * ROWS, (k + 1) * ROWS)), so that a point lookup
// on `id` is proven from the footers to touch one row group of one file, and the
// rest of each row: a low-cardinality string and a double.
//
// Usage: node make-remote-files.mjs OUT_DIR [FILES=32] [ROWS=100000]
//        (writes OUT_DIR/part-00.parquet ... part-31.parquet)
import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { loadDuckDB } from './load_duckdb.mjs';

const [outDir, filesArg = '32', rowsArg = '100000'] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node make-remote-files.mjs OUT_DIR [FILES] [ROWS]');
  process.exit(2);
}
const files = Number(filesArg);
const rows = Number(rowsArg);
mkdirSync(outDir, { recursive: true });
const duckdb = await loadDuckDB();
const instance = await duckdb.DuckDBInstance.create(':memory:');
const con = await instance.connect();
for (let k = 0; k < files; k++) {
  const name = `part-${String(k).padStart(2, '0')}.parquet`;
  const tmp = path.join(outDir, `${name}.tmp`);
  await con.run(`COPY (SELECT ${k * rows} + i AS id,
                              ['AIR', 'MAIL', 'RAIL', 'SHIP', 'TRUCK'][1 + (hash(i) % 5)::BIGINT] AS mode,
                              (hash(i * 7) % 100000)::BIGINT / 100.0 AS amount
                       FROM range(${rows}) t(i) ORDER BY i)
                 TO '${tmp}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 20000)`);
  renameSync(tmp, path.join(outDir, name));
}
console.error(`make-remote-files: ${files} files of ${rows} rows in ${outDir}`);
