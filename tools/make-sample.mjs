#!/usr/bin/env node
// Generates data/sample/trips.parquet, the small dataset `make demo` inspects:
// 10,000 taxi-trip-like rows in 3 row groups, Snappy-compressed, written by DuckDB.
// Values come from hashes of the row number, so every run writes the same rows.
// Beside it, zones.parquet: the trips' zones and their boroughs, the lookup file
// of docs/LANGUAGE.md's LOOKUP JOIN examples (Tribeca missing, a zone no trip
// has, and a row without a zone, which matches nothing).
//
// The outputs are committed, so `make demo` needs neither npm nor DuckDB. Re-run
// (after `make oracle`) only to change the dataset:
//   node tools/make-sample.mjs [OUTPUT.parquet]

import { mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openOracle } from './oracle/duckdb.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const output = resolve(process.argv[2] ?? join(repoRoot, 'data', 'sample', 'trips.parquet'));
const quoted = output.replaceAll("'", "''");
const zonesQuoted = join(dirname(output), 'zones.parquet').replaceAll("'", "''");
const kRows = 10000;
// DuckDB cuts row groups at whole 2,048-row vectors: 4096 + 4096 + 1808 rows.
const kRowsPerGroup = 4096;

// u(i, salt) is a deterministic number in [0, 1) per row and column.
const sql = `
SET threads = 1;
CREATE MACRO u(i, salt) AS (hash(i * 7919 + salt) % 1000000)::DOUBLE / 1000000;
CREATE TABLE trips AS
WITH base AS (
  SELECT i,
         TIMESTAMP '2024-03-01 00:00:00'
           + to_minutes((i * 4.3 + u(i, 1) * 4)::BIGINT) AS pickup_at,
         round(0.3 + 25 * u(i, 2) * u(i, 3), 1) AS miles
  FROM range(${kRows}) t(i)
)
SELECT
  i + 1 AS trip_id,
  (['CMT', 'VTS', 'DDS'])[1 + (u(i, 4) * 3)::INT % 3] AS vendor,
  pickup_at,
  (2 + miles * 3 + u(i, 5) * 10)::INTEGER AS trip_minutes,
  CASE WHEN u(i, 6) < 0.08 THEN NULL ELSE 1 + (u(i, 7) * u(i, 7) * 5)::INTEGER END
    AS passenger_count,
  miles AS trip_distance,
  (['Midtown', 'Harlem', 'SoHo', 'Astoria', 'Flushing', 'JFK Airport', 'LaGuardia',
    'Williamsburg', 'Chelsea', 'Tribeca'])[1 + (u(i, 8) * 10)::INT % 10] AS pickup_zone,
  (['Midtown', 'Harlem', 'SoHo', 'Astoria', 'Flushing', 'JFK Airport', 'LaGuardia',
    'Williamsburg', 'Chelsea', 'Tribeca'])[1 + (u(i, 9) * 10)::INT % 10] AS dropoff_zone,
  (3.0 + miles * 2.5)::DECIMAL(9, 2) AS fare_amount,
  CASE WHEN u(i, 10) < 0.3 THEN NULL ELSE round(u(i, 11) * (3.0 + miles * 2.5)) / 4 END
    AS tip_amount,
  (['card', 'cash', 'card', 'card', 'no charge'])[1 + (u(i, 12) * 5)::INT % 5] AS payment_type,
  u(i, 13) < 0.02 AS disputed
FROM base
ORDER BY i;
COPY trips TO '${quoted}'
  (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${kRowsPerGroup},
   KV_METADATA {generator: 'quarry tools/make-sample.mjs', dataset: 'synthetic taxi trips'});
CREATE TABLE zones AS
SELECT * FROM (VALUES
  ('Midtown', 'Manhattan', false), ('Harlem', 'Manhattan', false), ('SoHo', 'Manhattan', false),
  ('Chelsea', 'Manhattan', false), ('Astoria', 'Queens', false), ('Flushing', 'Queens', false),
  ('JFK Airport', 'Queens', true), ('LaGuardia', 'Queens', true), ('Williamsburg', 'Brooklyn', false),
  ('St. George', 'Staten Island', false), (NULL, 'Unknown', false)) t(zone, borough, airport);
COPY zones TO '${zonesQuoted}' (FORMAT parquet, COMPRESSION snappy);
SELECT count(DISTINCT row_group_id) AS row_groups FROM parquet_metadata('${quoted}');
`;

mkdirSync(dirname(output), { recursive: true });
const oracle = await openOracle();
try {
  const [summary] = await oracle.query(sql);
  const [{ n }] = await oracle.query(
      `SELECT count(*) AS n FROM read_parquet('${quoted}')`);
  process.stdout.write(`wrote ${output}: ${n} rows, ${summary.row_groups} row groups, ` +
                       `${statSync(output).size} bytes\n`);
} finally {
  oracle.close();
}
