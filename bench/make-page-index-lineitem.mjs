// Rewrites the lineitem-like files of bench/make-lineitem.mjs with chDB, which
// writes a page index (ColumnIndex and OffsetIndex) and a Bloom filter for every
// column chunk: the data of the page-index benchmark (bench/run.sh pages).
//
// Usage: node bench/make-page-index-lineitem.mjs OUT_DIR LINEITEM_FILE...
//   writes OUT_DIR/lineitem-0.parquet ... one file per input file, the same rows
//
// Layout, and why:
// - Rows sorted by l_orderkey (then l_linenumber) across all files: the sorted key
//   of the sorted-key queries; file k holds the k-th slice of the key range.
// - As many files as inputs (8 of 750,000 rows for run.sh), each one row group:
//   the same file count as the filter suite, so the two suites differ in the
//   writer and the page layout, not in the number of footers opened or in how
//   files are shared among reader threads; a 750,000-row group is as close to
//   chDB's default of 1M rows as 6M rows in 8 files allow.
// - Pages of about 64 KiB before compression (output_format_parquet_data_page_size;
//   chDB closes a page at a 1,024-row batch boundary once it holds that much): an
//   l_orderkey chunk then has 92 pages of 8,192 rows, so a handful of keys
//   touches one or two of them, while a page still holds thousands of values.
// - Snappy, like the DuckDB files; dictionaries as chDB decides (up to 1 MiB).
import { createRequire } from 'node:module';
import { mkdirSync, renameSync, unlinkSync, existsSync } from 'node:fs';
import path from 'node:path';

const chdb = createRequire(new URL('../tools/oracle/package.json', import.meta.url))('chdb');

const [outDir, ...inputs] = process.argv.slice(2);
if (!outDir || inputs.length === 0) {
  console.error('usage: node bench/make-page-index-lineitem.mjs OUT_DIR LINEITEM_FILE...');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

const sqlString = (s) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
const scalar = (sql) => chdb.query(sql, 'TSV').trim();
const source = `(${inputs.map((f) => `SELECT * FROM file(${sqlString(path.resolve(f))}, Parquet)`)
  .join(' UNION ALL ')})`;

const rows = Number(scalar(`SELECT count() FROM ${source}`));
const perFile = Math.ceil(rows / inputs.length);
// The written files read back with these sums: the same rows as the inputs.
const checksum = (from) => scalar(`SELECT count(), sum(l_orderkey), sum(l_partkey), ` +
                                  `sum(toInt64(round(l_extendedprice * 100))) FROM ${from}`);
const expected = checksum(source);

for (let f = 0; f < inputs.length; ++f) {
  const out = path.join(outDir, `lineitem-${f}.parquet`);
  const tmp = `${out}.tmp`;
  if (existsSync(tmp)) unlinkSync(tmp);
  // Each file is one slice of the global order: ORDER BY ... LIMIT n OFFSET k.
  chdb.query(`SELECT * FROM ${source} ORDER BY l_orderkey, l_linenumber
    LIMIT ${perFile} OFFSET ${f * perFile}
    INTO OUTFILE ${sqlString(tmp)} FORMAT Parquet SETTINGS
      output_format_parquet_row_group_size = ${perFile},
      output_format_parquet_data_page_size = 65536,
      output_format_parquet_write_page_index = 1,
      output_format_parquet_write_bloom_filter = 1,
      output_format_parquet_compression_method = 'snappy',
      max_threads = 2`, 'CSV');
  renameSync(tmp, out);
  process.stderr.write(`\r  ${f + 1}/${inputs.length} files`);
}
process.stderr.write('\n');
const outputs = inputs.map((_, f) => path.join(outDir, `lineitem-${f}.parquet`));
const written = checksum(`(${outputs.map((f) => `SELECT * FROM file(${sqlString(f)}, Parquet)`).join(' UNION ALL ')})`);
if (written !== expected) {
  console.error(`make-page-index-lineitem: written files sum to ${written}, inputs to ${expected}`);
  process.exit(1);
}
console.log(`make-page-index-lineitem: wrote ${inputs.length} files of ${perFile} rows to ${outDir}`);
