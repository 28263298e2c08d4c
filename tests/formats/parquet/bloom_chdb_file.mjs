// Writes, with the chDB pinned in tools/oracle, the Parquet file the Bloom filter
// and dictionary pruning tests read (tests/formats/parquet/bloom_filter_test.cc,
// dictionary_pruning_test.cc): 30,000 rows in three row groups of 10,000, columns
// whose values are spread over every row group (so statistics prune nothing):
//   id BIGINT (row number), i32 INT, i64 BIGINT, f64 DOUBLE, s STRING.
// Row r holds h = (r * 2654435761) % 1000003 in i32, h * 1000 - 7 in i64,
// h / 8 in f64 and 's' || h in s.
//
//   node tests/formats/parquet/bloom_chdb_file.mjs OUT.parquet [bloom|dictionary]
//
// `bloom` writes Bloom filters and no dictionaries; `dictionary` the other way
// round. ClickHouse records no encoding_stats (with either of its encoders), so
// a reader cannot know that every page of a chunk is dictionary-encoded. Exits 77 (a skip for the caller) when chDB is not installed.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [out, mode = 'bloom'] = process.argv.slice(2);
if (!out || !['bloom', 'dictionary'].includes(mode)) {
  process.stderr.write('usage: node bloom_chdb_file.mjs OUT.parquet [bloom|dictionary]\n');
  process.exit(2);
}
const oracle = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tools', 'oracle');
let chdb;
try {
  chdb = createRequire(join(oracle, 'package.json'))('chdb');
} catch (e) {
  process.stderr.write(`chDB unavailable (${e.code ?? e.message}); run \`make oracle\`\n`);
  process.exit(77);
}
const settings = {
  output_format_parquet_row_group_size: 10000,
  output_format_parquet_write_bloom_filter: mode === 'bloom' ? 1 : 0,
  // A dictionary of one byte overflows at once: every page PLAIN.
  ...(mode === 'bloom' ? { output_format_parquet_max_dictionary_size: 1 } : {}),
  output_format_parquet_compression_method: 'zstd',
};
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const query = `SELECT toInt64(number) AS id, toInt32(h) AS i32, toInt64(h) * 1000 - 7 AS i64,
    toFloat64(h) / 8 AS f64, concat('s', toString(h)) AS s
  FROM (SELECT number, (number * 2654435761) % 1000003 AS h FROM numbers(30000)) ORDER BY id
  INTO OUTFILE ${quote(out)} TRUNCATE FORMAT Parquet SETTINGS ${
  Object.entries(settings).map(([k, v]) => `${k} = ${typeof v === 'string' ? quote(v) : v}`).join(', ')}`;
chdb.query(query, 'CSV');
