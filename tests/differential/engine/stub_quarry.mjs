#!/usr/bin/env node
// A stand-in for `quarry query 'QUERY' --format json|ndjson`, for testing
// engine_queries.mjs before (or without) the engine: it looks the query up in
// the corpus the runner wrote ($QUARRY_STUB_CORPUS), has DuckDB run its SQL,
// and prints the rows as quarry's JSON renders values (quarry_json.mjs).
//
// --profile-out FILE writes a profile as quarry's (one file, its footer read;
// the result's columns with DuckDB's types mapped to the engine's, or the pair's
// `types`).
//
// QUARRY_STUB_CORRUPT=K makes it wrong on purpose for every query whose index
// is a multiple of K (a value changed, or a row dropped), so that a run shows
// the runner reports mismatches. QUARRY_STUB_PLANT=WHAT plants one wrong thing in
// every answer (comparator_self_test.mjs): `type` (the first column's type in the
// profile), `rename` (the first column renamed, in the rows and the profile),
// `missing` (the first row lacks its last field), `error` (exit 1 with an error).

import { readFileSync, writeFileSync } from 'node:fs';

import { importDuckdb } from '../../support/duckdb.mjs';
import { quarryJsonLines } from './quarry_json.mjs';
import { quarryTypeOf } from './result_compare.mjs';

async function main(argv) {
  const format = argv[argv.indexOf('--format') + 1] ?? 'json';
  if (argv[0] !== 'query' || argv.length < 2) {
    process.stderr.write('stub_quarry: usage: stub_quarry.mjs query QUERY [--format json|ndjson]\n');
    return 2;
  }
  const corpus = JSON.parse(readFileSync(process.env.QUARRY_STUB_CORPUS, 'utf8'));
  const pair = corpus.find((p) => p.query === argv[1]);
  if (!pair) {
    process.stderr.write('stub_quarry: the query is not in the corpus\n');
    return 1;
  }
  const api = await importDuckdb();
  const T = api.DuckDBTypeId;
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const plant = process.env.QUARRY_STUB_PLANT ?? '';
  if (plant === 'error') {
    process.stderr.write('quarry: planted error\n');
    return 1;
  }
  let reader;
  try {
    reader = await connection.runAndReadAll(pair.sql);
  } catch (e) {
    // An overflow DuckDB refuses: the stub fails as quarry would.
    if (!pair.expectError || !new RegExp(pair.expectError.duckdb).test(e.message)) throw e;
    process.stderr.write(`quarry: Overflow in (stub: ${e.message.split('\n')[0]})\n`);
    return 1;
  }
  const names = reader.columnNames();
  let lines = quarryJsonLines(reader, T);
  const columns = names.map((name, i) =>
    ({ name, type: pair.types?.[name] ?? quarryTypeOf(reader.columnTypes()[i], T) }));
  if (plant === 'type') columns[0].type = columns[0].type === 'int64' ? 'int32' : 'int64';
  if (plant === 'rename') {
    columns[0].name = `${names[0]}_renamed`;
    lines = lines.map((l) => {
      const row = JSON.parse(l);
      return JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v], i) =>
        [i === 0 ? `${k}_renamed` : k, v])));
    });
  }
  if (plant === 'missing' && lines.length > 0) {
    const row = JSON.parse(lines[0]);
    delete row[names[names.length - 1]];
    lines[0] = JSON.stringify(row);
  }
  const profileAt = argv.indexOf('--profile-out');
  if (profileAt >= 0) {
    writeFileSync(argv[profileAt + 1], JSON.stringify({
      files: { read: 1, pruned_by_partition: 0 }, footers: { bytes_read: 8, requests: 1, from_metadata_cache: 0 }, columns,
    }));
  }

  const corruptEvery = Number(process.env.QUARRY_STUB_CORRUPT ?? 0);
  if (corruptEvery > 0 && typeof pair.index === 'number' && pair.index % corruptEvery === 0 &&
      lines.length > 0) {
    if (pair.index % (2 * corruptEvery) === 0) {
      lines = lines.slice(0, -1);
    } else {
      const row = JSON.parse(lines[0]);
      const first = names[0];
      row[first] = row[first] === null ? 'x' : null;
      lines[0] = JSON.stringify(row);
    }
  }
  process.stdout.write(format === 'ndjson' ? lines.map((l) => `${l}\n`).join('')
                                           : `[${lines.join(',\n')}]\n`);
  connection.closeSync();
  instance.closeSync();
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
