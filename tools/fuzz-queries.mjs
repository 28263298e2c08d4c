#!/usr/bin/env node
// Writes query_parser_fuzzer's seeds, one query per file, into OUT_DIR: every
// query the documentation shows (README.md and docs/*.md: the text of `quarry
// query '...'` and `quarry explain '...'` commands, and inline code starting with
// FROM, and code blocks starting with FROM), and the differential test's corpus (tests/differential/engine: the
// generated queries of seed 1 and the TPC-H pair), so that the fuzzer starts from
// every command, function and literal form the engine is tested with.
//
//   node tools/fuzz-queries.mjs OUT_DIR
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateQueries } from '../tests/differential/engine/query_generator.mjs';
import { tpchQueries } from '../tests/differential/engine/tpch.mjs';

const kGeneratedQueries = 300;

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node tools/fuzz-queries.mjs OUT_DIR\n');
  process.exit(2);
}
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const documented = [];
const docs = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
for (const doc of docs) {
  const text = readFileSync(join(repo, doc), 'utf8');
  for (const m of text.matchAll(/quarry (?:query|explain)(?: --?[a-z-]+(?: [a-z0-9]+)?)* '([^']+)'/g)) documented.push(m[1]);
  for (const m of text.matchAll(/`(FROM [^`]+)`/g)) documented.push(m[1].replace(/\s*\n\s*/g, ' '));
  // Code blocks that are a query or the grammar (ARCHITECTURE.md's), whole.
  for (const m of text.matchAll(/```\n(FROM [^`]+)```/g)) documented.push(m[1]);
}
if (documented.length === 0) throw new Error('no query found in README.md and docs/*.md');

// The paths the differential test's datasets have (dataset.mjs's writeDatasets), under `data`.
const files = {
  typed: [0, 1, 2, 3].map((i) => `data/typed-${i}.parquet`),
  extra: ['data/extra-0.parquet'],
  orc: [0, 1, 2, 3].map((i) => `data/typed-${i}.orc`),
  lineitem: ['data/lineitem-0.parquet', 'data/lineitem-1.parquet'],
};
const generated = generateQueries({ seed: 1, count: kGeneratedQueries, files, dir: 'data' }).map((q) => q.query);
const tpch = tpchQueries(['lineitem-0.parquet', 'lineitem-1.parquet']).map((q) => q.query);

mkdirSync(out, { recursive: true });
const write = (prefix, queries) => queries.forEach((q, i) => writeFileSync(join(out, `${prefix}_${i}`), q));
write('documented', [...new Set(documented)]);
write('generated', generated);
write('tpch', tpch);
