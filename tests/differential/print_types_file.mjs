// A Parquet file DuckDB writes with one column per type `quarry print` renders,
// holding the values whose text is easy to get wrong (float notation, negative
// fractions, BC dates, escapes, quoting inside nested values). read_values.mjs and
// print_csv.mjs read it beside parquet-testing, which lacks most of these types.

/// Writes the file to `path` through the DuckDB `connection`.
export async function writePrintTypesFile(connection, path) {
  const rows = [
    // Ordinary values.
    `1::TINYINT, 1::SMALLINT, 1, 1::BIGINT, 1::UTINYINT, 1::USMALLINT, 1::UINTEGER, 1::UBIGINT,
     0.1::FLOAT, 0.1::DOUBLE, 12.50::DECIMAL(4,2), 1.5::DECIMAL(9,3), -7.25::DECIMAL(18,6),
     123456789012345678901234.5678901234::DECIMAL(38,10), DATE '2020-01-02', TIME '12:34:56.5',
     '01:02:03.123456789'::TIME_NS, '01:02:03+00'::TIMETZ, TIMESTAMP '2026-01-01 00:00:00.123456',
     '2026-01-01 00:00:01'::TIMESTAMP_S, '2026-01-01 00:00:00.120'::TIMESTAMP_MS,
     '2026-01-01 00:00:00.123456789'::TIMESTAMP_NS, TIMESTAMPTZ '2026-01-01 00:00:00.5+00',
     INTERVAL '1 month 2 days 3 milliseconds', UUID '12345678-1234-5678-1234-567812345678',
     'plain', 'ab'::BLOB, 'x'::ENUM('x', 'y'), '{"a": 1}'::JSON, [1, 2], ['a', 'b c'],
     {'a': 1, 'b c': 'x'}, MAP {'k': 1}, [{'t': TIMESTAMP '2020-01-01 01:02:03'}],
     MAP {1: {'z': [1.5::DOUBLE]}}`,
    // Extremes and special values.
    `(-128)::TINYINT, (-32768)::SMALLINT, (-2147483648)::INTEGER, (-9223372036854775808)::BIGINT, 255::UTINYINT,
     65535::USMALLINT, 4294967295::UINTEGER, 18446744073709551615::UBIGINT,
     'nan'::FLOAT, '-inf'::DOUBLE, -99.99::DECIMAL(4,2), 0::DECIMAL(9,3), 0.000001::DECIMAL(18,6),
     -99999999999999999999999999.9999999999::DECIMAL(38,10), DATE '0044-03-15 (BC)',
     TIME '00:00:00', '23:59:59.999999999'::TIME_NS, '23:59:59.999999+00'::TIMETZ,
     TIMESTAMP '1969-12-31 23:59:59.999999', '1900-01-01 00:00:00'::TIMESTAMP_S,
     '1969-12-31 23:59:59.999'::TIMESTAMP_MS, '1677-09-22 00:00:00.000000001'::TIMESTAMP_NS,
     TIMESTAMPTZ '0001-01-01 00:00:00+00', INTERVAL '0 seconds',
     UUID '00000000-0000-0000-0000-000000000000', '', '\\x00\\xFF\\x5C\\x27\\x22\\x7F '::BLOB,
     'y'::ENUM('x', 'y'), '[]'::JSON, [], [NULL, '', 'NULL', ' a', 'a,b', 'it''s', 'back\\slash'],
     {'a': NULL, 'b c': 'a:b'}, MAP {'': NULL, 'a=b': 2}, [], MAP {}`,
    // Float notation boundaries and other corners.
    `0::TINYINT, 0::SMALLINT, 0, 0::BIGINT, 0::UTINYINT, 0::USMALLINT, 0::UINTEGER, 0::UBIGINT,
     1e16::FLOAT, 1e16::DOUBLE, 0.01::DECIMAL(4,2), -0.001::DECIMAL(9,3), 1::DECIMAL(18,6),
     0::DECIMAL(38,10), DATE '9999-12-31', TIME '23:59:59.999999', '00:00:00'::TIME_NS,
     '00:00:00+00'::TIMETZ, TIMESTAMP '0001-01-01 00:00:00', '1970-01-01 00:00:00'::TIMESTAMP_S,
     '1970-01-01 00:00:00.001'::TIMESTAMP_MS, '2262-04-11 00:00:00.123456789'::TIMESTAMP_NS,
     TIMESTAMPTZ '1969-07-20 20:17:40.1+00', INTERVAL '14 months 1 day 25:00:00.5',
     UUID 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'line
break "quoted" é 😀', ''::BLOB, NULL, 'null'::JSON, [NULL], [NULL], NULL,
     MAP {'null': 1}, [{'t': NULL}], NULL`,
    `NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, -0.0::FLOAT, -0.0::DOUBLE, NULL, NULL, NULL, NULL,
     DATE '1970-01-01', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, INTERVAL '1 day', NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
    `NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1.5e-5::FLOAT, 1e-5::DOUBLE, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
    `NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 123456789::FLOAT, 1.2345678901234567e19::DOUBLE,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
    `NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.4028235e38::FLOAT, 5e-324::DOUBLE, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
    `NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1e-45::FLOAT, 0.0001::DOUBLE, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
  ];
  const names = ['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'f32', 'f64', 'd4', 'd9',
    'd18', 'd38', 'dt', 't', 't_ns', 't_tz', 'ts', 'ts_s', 'ts_ms', 'ts_ns', 'ts_tz', 'iv', 'id',
    's', 'b', 'e', 'j', 'l', 'ls', 'st', 'm', 'lst', 'mst'];
  const union = rows.map((r, i) => `SELECT ${i} AS row_number, ${r}`).join('\nUNION ALL\n');
  // The first SELECT names the columns; UNION ALL takes the types from the first
  // row, so every later NULL takes that column's type.
  const sql = `COPY (SELECT * EXCLUDE (row_number) FROM (
      SELECT * FROM (${union}) t(row_number, ${names.map((n) => `"${n}"`).join(', ')})
    ) ORDER BY row_number) TO '${path.replaceAll("'", "''")}' (FORMAT parquet)`;
  await connection.run(sql);
}
