#!/usr/bin/env node
// chDB's answers for the ORC FilterPredicate differential test
// (tests/formats/orc/orc_filter_differential_test.cc).
//
//   node orc_filter_oracle.mjs write OUT_DIR
//     writes, with chDB's ORC writer, filter.orc (20,000 rows, one stripe, a row
//     index every 1,000 rows) and filter_stripes.orc (5,000 rows in at least two
//     stripes, a row index every 500 rows: a 16,000-byte random filler column
//     pushes the writer past its 64 MB stripe size), and filter_stripes_small.orc,
//     the same rows without the filler, for chDB to query quickly, and
//     filter_new_york.orc, filter.orc's rows written on New York's wall clock.
//   node orc_filter_oracle.mjs query FILE WHERE_FILE
//     prints, for each line of WHERE_FILE (a SQL condition), one line: the ids of
//     the rows of FILE the condition selects, ascending, space-separated.
//
// Exits 77 (ctest: skipped) when chDB is not installed.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { loadChdb } from './generate_files.mjs';

const { chdb, reason } = loadChdb();
if (!chdb) {
  process.stderr.write(`orc_filter_oracle.mjs: chDB unavailable (${reason})\n`);
  process.exit(77);
}

const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;

// Columns of the fixture; the test's generators mirror them. Monotonic columns
// (i64, f64, ts) let row groups and stripes be pruned; the others repeat values.
const COLUMNS = [
  'toInt32(number) AS id',
  'if(number % 7 = 0, NULL, toInt8(number % 200 - 100)) AS i8',
  'toInt16(intDiv(number, 3) - 3000) AS i16',
  'if(number % 11 = 0, NULL, toInt32(number * 37 % 1000 - 500)) AS i32',
  'toInt64(number) * 1000003 - 5000000000 AS i64',
  'if(number % 13 = 0, NULL, toFloat32(toFloat32(number % 100) / 4 - 12.3)) AS f32',
  'toFloat64(number) / 8 + 0.1 AS f64',
  "if(number % 5 = 0, NULL, concat('s', toString(number % 300))) AS s",
  'if(number % 6 = 0, NULL, toDecimal32((toInt32(number % 2000) - 1000) / 8, 2)) AS dec9',
  'toDecimal64((toInt64(number) * 3 - 30000) / 7, 4) AS dec18',
  'if(number % 4 = 0, NULL, toDecimal128((toInt64(number) - 10000) / 3, 10)) AS dec38',
  "toDate32('1969-06-01') + toInt32(number % 500) AS d",
  "if(number % 9 = 0, NULL, toDateTime64('2020-01-01 00:00:00', 3, 'UTC') + toIntervalMillisecond(number * 1234567)) AS ts",
  'toBool(number % 3 = 0) AS b',
  "CAST(tuple(if(number % 8 = 0, NULL, toInt32(number % 50)), concat('x', toString(number % 17))) " +
      'AS Tuple(a Nullable(Int32), b String)) AS t',
];

const kWriteSettings = "output_format_orc_writer_time_zone_name = 'GMT', session_timezone = 'UTC'";
const kReadSettings = "session_timezone = 'UTC', input_format_orc_reader_time_zone_name = 'GMT'";

function write(outDir) {
  mkdirSync(outDir, { recursive: true });
  const files = [
    { name: 'filter.orc', rows: 20000, stride: 1000, extra: '', codec: 'zstd' },
    // Uncompressed, as the writer cuts stripes by their encoded size.
    { name: 'filter_stripes.orc', rows: 5000, stride: 500, extra: 'randomPrintableASCII(16000) AS filler',
      codec: 'none', settings: ', max_block_size = 250' },
    { name: 'filter_stripes_small.orc', rows: 5000, stride: 500, extra: '', codec: 'zstd' },
    // Timestamps on a wall clock other than UTC (statistics and values).
    { name: 'filter_new_york.orc', rows: 20000, stride: 1000, extra: '', codec: 'zlib',
      settings: ", output_format_orc_writer_time_zone_name = 'America/New_York'" },
  ];
  for (const f of files) {
    const items = [...COLUMNS, ...(f.extra ? [f.extra] : [])];
    chdb.query(`SELECT ${items.join(', ')} FROM numbers(${f.rows}) ORDER BY id ` +
        `INTO OUTFILE ${sqlString(join(outDir, f.name))} TRUNCATE FORMAT ORC SETTINGS ${kWriteSettings}, ` +
        `output_format_orc_row_index_stride = ${f.stride}, output_format_orc_compression_method = '${f.codec}'` +
        `${f.settings ?? ''}`, 'CSV');
  }
}

function query(file, whereFile) {
  const conditions = readFileSync(whereFile, 'utf8').split('\n').filter((l) => l.length > 0);
  // The file is read once into a table; every condition then runs on its rows.
  const session = new chdb.Session();
  session.query(`CREATE TABLE fixture ENGINE = Memory AS SELECT * FROM file(${sqlString(resolve(file))}, ORC) ` +
      `SETTINGS ${kReadSettings}`, 'CSV');
  const out = [];
  for (const condition of conditions) {
    const text = session.query(`SELECT arrayStringConcat(arrayMap(x -> toString(x), arraySort(groupArray(id))), ' ') ` +
        `FROM fixture WHERE ${condition} SETTINGS ${kReadSettings}`, 'TSVRaw');
    out.push(text.trim());
  }
  session.close();
  process.stdout.write(out.join('\n') + '\n');
}

const [mode, a, b] = process.argv.slice(2);
if (mode === 'write' && a) {
  write(resolve(a));
} else if (mode === 'query' && a && b) {
  query(a, b);
} else {
  process.stderr.write('usage: orc_filter_oracle.mjs write OUT_DIR | query FILE WHERE_FILE\n');
  process.exit(2);
}
