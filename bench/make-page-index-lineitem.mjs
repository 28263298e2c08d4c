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
// - As many files as inputs (8 of 750,000 rows for run.sh): the same file count as
//   the filter suite, so the two suites differ in the writer and the page layout,
//   not in the number of footers opened or in how files are shared among reader
//   threads.
// - Row groups of 125,000 rows (6 a file, 48 in all), about DuckDB's default of
//   122,880: a value stored in one row group is 1/48 of a column, so a point
//   lookup on an unsorted column that Bloom filters confine to that group can
//   read less than a tenth of the column.
// - Pages of about 64 KiB before compression (output_format_parquet_data_page_size;
//   chDB closes a page at a 1,024-row batch boundary once it holds that much): an
//   l_orderkey chunk (31,000 distinct keys, dictionary-encoded) then has a 125 KB
//   dictionary and 4 data pages of about 33,000 rows, an l_comment chunk (plain)
//   41 pages of 3,072 rows; a handful of sorted keys touches one or two pages.
// - Snappy, like the DuckDB files; dictionaries as chDB decides (up to 1 MiB).
// - One thread and blocks of 25,000 rows: with more threads, the sorted blocks
//   reach the writer in sizes that vary from run to run, and so would the row
//   groups (the writer closes one at a block boundary); so the files are the
//   same on every run.
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
const kRowGroupRows = 125000;
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
      output_format_parquet_row_group_size = ${kRowGroupRows},
      output_format_parquet_data_page_size = 65536,
      output_format_parquet_write_page_index = 1,
      output_format_parquet_write_bloom_filter = 1,
      output_format_parquet_compression_method = 'snappy',
      max_block_size = 25000,
      max_threads = 1`, 'CSV');
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
