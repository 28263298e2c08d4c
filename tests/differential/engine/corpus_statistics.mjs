#!/usr/bin/env node
// The statistics of the engine differential corpus (issue 31: "The corpus
// statistics (how many queries per feature, NULL rate, LIMIT 0 share, refusals)
// are printed by the generator and checked against floors in its own test").
//
// corpusStatistics(pairs) counts the queries using each feature the generator
// records (query_generator.mjs's `features`: each command, LIKE and its
// backslashes, escapes, triple-quoted patterns and SQL wildcards (`%`, `_`,
// ordinary characters), RLIKE with non-ASCII characters and alternatives,
// union_by_name over files of differing schemas, ORC sources, commands after STATS and a repeated STATS, overflow queries,
// the math functions and GREATEST/LEAST among them, time spans, ES|QL's string functions (concat, trim,
// left_right, reverse, repeat, space, split, locate, byte_length, ends_with, the
// digests md5 / sha1 / sha256), the
// conversions, `::` casts, TO_STRING, DATE_FORMAT, DATE_PARSE and DATE_DIFF, the
// statistical and list aggregates (median, percentile, median_absolute_deviation,
// std_dev, variance, weighted_avg, values, top), MV_EXPAND, DISSECT and GROK, the
// NULL-heavy, extreme and UTF-8 columns) and the LIMIT 0 share; engine_queries.mjs
// prints them for the corpus it runs, with the refusals (queries DuckDB refuses
// with an overflow error, which quarry must refuse too) and the data's NULL rate.
//
// Run as a test (no quarry needed):
//
//   node tests/differential/engine/corpus_statistics.mjs DIR [--count N] [--seed S]
//
// writes the datasets under DIR, generates the first draws of the corpus (2,000
// queries, seed 1, as engine_queries.mjs by default), has DuckDB answer the
// overflow queries, and checks every statistic against its floor (kFloors).
// Exit 0 when all hold, 1 when one does not, 77 without the DuckDB oracle.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { COLUMNS, writeDatasets } from './dataset.mjs';
import { generateQueries } from './query_generator.mjs';
import { duckdbOrSkip } from '../../support/duckdb.mjs';

// Floors for the default corpus (2,000 queries, seed 1): about half of what it
// has, so that a change of the generator that starves a feature fails here.
export const kFloors = {
  'command WHERE': 600, 'command EVAL': 300, 'command STATS': 600, 'command SORT': 400,
  'command LIMIT': 400, 'command KEEP': 300, 'command DROP': 60, 'command RENAME': 60,
  like: 150, like_backslash: 25, like_utf8: 40, like_unicode_escape: 8, like_triple_quoted: 30,
  like_sql_wildcard: 8, like_list: 18, rlike: 60, rlike_utf8: 10, rlike_alternation: 10, replace: 40,
  union_by_name: 150, orc: 150, after_stats: 150, repeated_stats: 50,
  overflow: 80, overflow_sum: 20, null_heavy: 300, extreme: 200, utf8: 200,
  math: 200, greatest_least: 70, time_span: 30,
  // STATS items: an aggregate's own WHERE, expressions over aggregates.
  stats_filter: 60, stats_expression: 60,
  // Computed BY keys: BUCKET of a number, a constant key beside another (planStats).
  bucket_number: 9, constant_group: 15,
  // ES|QL's string functions (string_functions.h).
  concat: 18, trim: 30, left_right: 24, reverse: 14, repeat: 6, space: 12, split: 38, locate: 60,
  byte_length: 25, ends_with: 50, digest: 6,
  // MV_ functions over SPLIT's lists (mv_functions.h), joined by MV_CONCAT.
  mv_concat: 14, mv_sort: 6, mv_dedupe: 4, mv_append: 4,
  // Conversions (conversion_functions.h), `::` casts and the date functions of temporal_functions.h.
  conversion: 100, cast: 35, to_string: 28, date_format: 15, date_parse: 18, date_diff: 16,
  // The statistical and list aggregates (aggregator.h).
  median: 35, percentile: 25, median_absolute_deviation: 30, std_dev: 30, variance: 30, weighted_avg: 25,
  values: 45, top: 50,
  // MV_EXPAND of a SPLIT (one row per piece, a null row for a null value).
  mv_expand: 100,
  // DISSECT and GROK of a string column (strpos / regexp_extract in DuckDB).
  dissect: 50, grok: 50,
  // LOOKUP JOIN on s_low (a LEFT JOIN in DuckDB).
  lookup_join: 90,
};
// "empty results capped at a few percent of the corpus": LIMIT 0 is one.
export const kMaxLimitZeroShare = 0.04;
// Refusals: DuckDB's overflow errors among the overflow queries; at least some,
// and not so many that the corpus compares little.
export const kMinRefusals = 40;
export const kMaxRefusalShare = 0.1;
// The typed files' share of NULL values, and what it must include.
export const kMinNullRate = 0.15;

/// Counts, over `pairs` (generated queries), the queries using each feature and
/// those with LIMIT 0 and an expected error.
export function corpusStatistics(pairs) {
  const generated = pairs.filter((p) => typeof p.index === 'number');
  const features = Object.fromEntries(Object.keys(kFloors).map((f) => [f, 0]));
  for (const p of generated) {
    for (const f of p.features ?? []) features[f] = (features[f] ?? 0) + 1;
  }
  const limitZero = generated.filter((p) => p.limitZero).length;
  return { queries: generated.length, features, limitZero,
           limitZeroShare: generated.length ? limitZero / generated.length : 0,
           mayRefuse: generated.filter((p) => p.expectError).length };
}

/// The NULL rate of the typed files (nulls / values over every column), the
/// columns that are all NULL, and the row groups holding a chunk of NULLs only.
export async function dataNullStatistics(connection, files) {
  const list = `[${files.typed.map((f) => `'${f}'`).join(', ')}]`;
  const counts = COLUMNS.map((c) => `count("${c.name}")`).join(', ');
  const reader = await connection.runAndReadAll(`SELECT count(*), ${counts} FROM read_parquet(${list})`);
  const [rows, ...nonNull] = reader.getRows()[0].map(Number);
  const nulls = nonNull.reduce((a, n) => a + (rows - n), 0);
  const chunks = await connection.runAndReadAll(
    `SELECT count(*) FROM parquet_metadata(${list}) WHERE stats_null_count = row_group_num_rows`);
  return { rate: nulls / (rows * COLUMNS.length), allNullColumns: COLUMNS.filter((c, i) => nonNull[i] === 0)
      .map((c) => c.name), allNullChunks: Number(chunks.getRows()[0][0]) };
}

/// One paragraph of text: the statistics, the data's and the refusals when given.
export function formatStatistics(stats, data = null, refusals = null) {
  const features = Object.entries(stats.features).map(([f, n]) => `${f} ${n}`).join(', ');
  let text = `corpus statistics: ${stats.queries} generated queries; by feature: ${features}; ` +
      `LIMIT 0 ${stats.limitZero} (${(100 * stats.limitZeroShare).toFixed(1)} %); ` +
      `${stats.mayRefuse} overflow queries`;
  if (refusals !== null) text += `, ${refusals} refused by DuckDB (quarry must refuse them too)`;
  if (data) {
    text += `; data: ${(100 * data.rate).toFixed(1)} % NULL, all-NULL columns ` +
        `[${data.allNullColumns.join(', ')}], ${data.allNullChunks} all-NULL column chunks`;
  }
  return `${text}\n`;
}

/// The floors `stats` (and `data`, `refusals`) miss, as sentences.
export function missedFloors(stats, data, refusals) {
  const missed = [];
  for (const [f, floor] of Object.entries(kFloors)) {
    if ((stats.features[f] ?? 0) < floor) missed.push(`${f}: ${stats.features[f] ?? 0} queries, floor ${floor}`);
  }
  if (stats.limitZeroShare > kMaxLimitZeroShare) {
    missed.push(`LIMIT 0 share ${(100 * stats.limitZeroShare).toFixed(1)} % > ${100 * kMaxLimitZeroShare} %`);
  }
  if (refusals < kMinRefusals) missed.push(`${refusals} refusals, floor ${kMinRefusals}`);
  if (refusals > kMaxRefusalShare * stats.queries) {
    missed.push(`${refusals} refusals, more than ${100 * kMaxRefusalShare} % of the corpus`);
  }
  if (data.rate < kMinNullRate) missed.push(`NULL rate ${(100 * data.rate).toFixed(1)} % < ${100 * kMinNullRate} %`);
  if (data.allNullColumns.length === 0) missed.push('no all-NULL column');
  if (data.allNullChunks === 0) missed.push('no all-NULL column chunk in a row group');
  return missed;
}

/// Resolves to the number of `pairs` with an expected error that DuckDB refuses
/// with it (on `connections`, in parallel).
export async function countRefusals(connections, pairs) {
  const expecting = pairs.filter((p) => p.expectError);
  let next = 0;
  let refused = 0;
  await Promise.all(connections.map(async (connection) => {
    while (next < expecting.length) {
      const pair = expecting[next++];
      try {
        await connection.runAndReadAll(pair.sql);
      } catch (e) {
        if (new RegExp(pair.expectError.duckdb).test(e.message)) refused++;
        else throw new Error(`query ${pair.index}: DuckDB fails otherwise than expected: ${e.message}`);
      }
    }
  }));
  return refused;
}

async function main(argv) {
  const options = { count: 2000, seed: 1, dir: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--count') options.count = Number(argv[++i]);
    else if (argv[i] === '--seed') options.seed = Number(argv[++i]);
    else options.dir = resolve(argv[i]);
  }
  if (!options.dir || !Number.isInteger(options.count) || !Number.isInteger(options.seed)) {
    process.stderr.write('usage: node tests/differential/engine/corpus_statistics.mjs DIR [--count N] [--seed S]\n');
    return 2;
  }
  const api = await duckdbOrSkip((message) => {
    process.stderr.write(`\n*** SKIPPED corpus_statistics: ${message} ***\n\n`);
    process.exit(77);
  });
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const files = await writeDatasets(connection, options.dir);
  const pairs = generateQueries({ seed: options.seed, count: options.count, files, dir: options.dir });
  const stats = corpusStatistics(pairs);
  const data = await dataNullStatistics(connection, files);
  const connections = [connection, await instance.connect()];
  for (const c of connections) await c.run("SET TimeZone = 'UTC'");
  const refusals = await countRefusals(connections, pairs);
  process.stdout.write(formatStatistics(stats, data, refusals));
  const missed = options.count === 2000 && options.seed === 1 ? missedFloors(stats, data, refusals) : [];
  for (const m of missed) process.stdout.write(`FLOOR MISSED: ${m}\n`);
  process.stdout.write(missed.length === 0 ? 'corpus statistics: every floor holds\n' : '');
  for (const c of connections) c.closeSync();
  instance.closeSync();
  return missed.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
