// Writes the wide Parquet file of the footer benchmark with DuckDB: 1,000 columns
// (int64, double and varchar in turn, some with nulls) x 100 row groups, with the
// statistics DuckDB writes by default. Usage: node make-wide-file.mjs OUT.parquet
//
// DuckDB cuts row groups only at its 2,048-row vector boundaries (ROW_GROUP_SIZE
// 100 over 10,000 rows gives 5 groups of 2,048), so the file has 100 x 2,048 rows
// and ROW_GROUP_SIZE 2048. Values repeat within a row group (dictionary + RLE keep
// the file small) but differ across groups, so each chunk has its own min/max.
import { renameSync } from 'node:fs';
import { loadDuckDB } from './load_duckdb.mjs';

const kColumns = 1000;
const kRowGroups = 100;
const kRowsPerGroup = 2048;

const out = process.argv[2];
if (!out) {
  console.error('usage: node make-wide-file.mjs OUT.parquet');
  process.exit(2);
}

function columnExpr(k) {
  const name = `c${String(k).padStart(4, '0')}`;
  // g: row group number; v: one of four values per row group.
  const g = `(i // ${kRowsPerGroup})`;
  const v = `(${g} * 4 + i % 4)`;
  const nullable = k % 10 === 0 ? `CASE WHEN i % 7 = 0 THEN NULL ELSE ` : '';
  const end = nullable ? ' END' : '';
  switch (k % 3) {
    case 0: return `${nullable}(${v} * ${k + 1} - 5000)::BIGINT${end} AS ${name}`;
    case 1: return `${nullable}(${v} * ${k + 1} / 7.0)::DOUBLE${end} AS ${name}`;
    default: return `${nullable}'${name}_value_' || lpad(${v}::VARCHAR, 6, '0')${end} AS ${name}`;
  }
}

const { DuckDBInstance } = await loadDuckDB();
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const tmp = `${out}.tmp`;
const sqlTmp = `'${tmp.replaceAll("'", "''")}'`;
const columns = Array.from({ length: kColumns }, (_, k) => columnExpr(k)).join(',\n  ');
await con.run(`COPY (SELECT\n  ${columns}\nFROM range(${kRowGroups * kRowsPerGroup}) t(i))
  TO ${sqlTmp} (FORMAT parquet, ROW_GROUP_SIZE ${kRowsPerGroup})`);

const check = await con.runAndReadAll(`SELECT count(DISTINCT row_group_id) AS groups,
    count(DISTINCT path_in_schema) AS cols, min(row_group_num_rows) AS minRows
  FROM parquet_metadata(${sqlTmp})`);
const { groups, cols, minRows } = check.getRowObjects()[0];
if (Number(groups) !== kRowGroups || Number(cols) !== kColumns || Number(minRows) !== kRowsPerGroup) {
  console.error(`make-wide-file: expected ${kRowGroups} row groups x ${kColumns} columns of ${kRowsPerGroup} rows, ` +
                `DuckDB wrote ${groups} x ${cols} (smallest group ${minRows} rows)`);
  process.exit(1);
}
renameSync(tmp, out);
console.log(`make-wide-file: wrote ${out} (${groups} row groups x ${cols} columns)`);
