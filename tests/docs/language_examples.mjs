#!/usr/bin/env node
// The examples of docs/LANGUAGE.md run as they are written: each ```esql block
// (the query; its lines joined with spaces) is followed by a ```text block
// holding exactly what `quarry query '<query>'` prints on stdout (the table
// format, piped), run from the repository root so that data/sample paths
// resolve; a ```stderr block after it, when there is one, holds exactly what
// the query prints on stderr (the warnings of rows an expression failed on). Every example must succeed and print that text; the page must have
// examples, and every function and aggregate quarry knows (the lists its
// "unknown function" / "unknown aggregate" hints give, and the name lists in
// src/quarry/engine/expr/scalar_functions.cc) must have a heading of its own
// (`#### NAME`), so that a function added without documentation fails here.
//
//   node tests/docs/language_examples.mjs path/to/quarry [--update]
//
// --update rewrites every ```text block with quarry's output (to write a new
// example's output; read the diff before committing it); ```stderr blocks are
// left as they are.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const sourceDir = process.env.QUARRY_SOURCE_DIR ??
    resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const languagePage = join(sourceDir, 'docs', 'LANGUAGE.md');
const quarry = process.argv[2];
const update = process.argv.includes('--update');
if (!quarry) {
  console.error('usage: node tests/docs/language_examples.mjs path/to/quarry [--update]');
  process.exit(2);
}

const failures = [];
const fail = (message) => failures.push(message);

// ---- the examples -------------------------------------------------------------

/// [{line, query, expected, expectedErr, textStart, textEnd}] in page order;
/// textStart and textEnd are the indices of the ```text block's content lines
/// [start, end); expectedErr is the ```stderr block's text, or null.
function parseExamples(lines) {
  const examples = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```esql\s*$/.test(lines[i])) continue;
    const line = i + 1;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (end >= lines.length) {
      fail(`LANGUAGE.md:${line}: the esql block is not closed`);
      break;
    }
    const query = lines.slice(i + 1, end).map((l) => l.trim()).filter((l) => l !== '').join(' ');
    let next = end + 1;
    while (next < lines.length && lines[next].trim() === '') next++;
    if (next >= lines.length || !/^```text\s*$/.test(lines[next])) {
      fail(`LANGUAGE.md:${line}: the esql block has no \`\`\`text block after it holding its output`);
      i = end;
      continue;
    }
    let textEnd = next + 1;
    while (textEnd < lines.length && !/^```\s*$/.test(lines[textEnd])) textEnd++;
    if (textEnd >= lines.length) {
      fail(`LANGUAGE.md:${next + 1}: the text block is not closed`);
      break;
    }
    const expected = lines.slice(next + 1, textEnd).map((l) => l + '\n').join('');
    let expectedErr = null;
    let errStart = textEnd + 1;
    while (errStart < lines.length && lines[errStart].trim() === '') errStart++;
    let last = textEnd;
    if (errStart < lines.length && /^```stderr\s*$/.test(lines[errStart])) {
      let errEnd = errStart + 1;
      while (errEnd < lines.length && !/^```\s*$/.test(lines[errEnd])) errEnd++;
      if (errEnd >= lines.length) {
        fail(`LANGUAGE.md:${errStart + 1}: the stderr block is not closed`);
        break;
      }
      expectedErr = lines.slice(errStart + 1, errEnd).map((l) => l + '\n').join('');
      last = errEnd;
    }
    examples.push({ line, query, expected, expectedErr, textStart: next + 1, textEnd });
    i = last;
  }
  return examples;
}

function runQuery(query) {
  const r = spawnSync(quarry, ['query', query], {
    cwd: sourceDir, encoding: 'utf8', timeout: 60_000,
    env: { ...process.env, QUARRY_CACHE_DIR: 'off' },
  });
  if (r.error) throw new Error(`cannot run ${quarry}: ${r.error.message}`);
  return r;
}

const lines = readFileSync(languagePage, 'utf8').split('\n');
const examples = parseExamples(lines);
if (examples.length === 0) fail('LANGUAGE.md has no examples (```esql then ```text blocks)');

const indent = (text) => text.split('\n').map((l) => '    | ' + l).join('\n');
const replacements = [];
for (const example of examples) {
  const r = runQuery(example.query);
  if (update && r.status === 0) {
    replacements.push({ ...example, actual: r.stdout });
    continue;
  }
  if (r.status !== 0 || r.stdout !== example.expected) {
    fail(`LANGUAGE.md:${example.line}: ${example.query}\n` +
         (r.status !== 0 ? `  quarry exited with ${r.status ?? r.signal}:\n${indent(r.stderr)}\n` : '') +
         `  expected:\n${indent(example.expected)}\n  actual:\n${indent(r.stdout)}`);
  } else if (example.expectedErr !== null && r.stderr !== example.expectedErr) {
    fail(`LANGUAGE.md:${example.line}: ${example.query}\n` +
         `  expected on stderr:\n${indent(example.expectedErr)}\n  actual:\n${indent(r.stderr)}`);
  }
}
if (update) {
  for (const { textStart, textEnd, actual } of replacements.reverse()) {
    lines.splice(textStart, textEnd - textStart, ...actual.replace(/\n$/, '').split('\n'));
  }
  writeFileSync(languagePage, lines.join('\n'));
}

// ---- every function has a heading ----------------------------------------------

/// The names after `label` in the hint of a failing query's error.
function namesFromHint(query, label) {
  const r = runQuery(query);
  const match = new RegExp(`${label}: (.*)$`, 'm').exec(r.stderr);
  return match ? match[1].split(',').map((n) => n.trim().toLowerCase()).filter((n) => n) : [];
}

/// The string literals of the array `name` in scalar_functions.cc.
function namesFromSource(name) {
  const source = readFileSync(
      join(sourceDir, 'src', 'quarry', 'engine', 'expr', 'scalar_functions.cc'), 'utf8');
  const match = new RegExp(`${name}\\b[^=]*=\\s*\\{([^}]*)\\}`).exec(source);
  if (!match) return [];
  const body = match[1].replace(/\/\/.*$/gm, '');
  return [...body.matchAll(/"([^"]+)"/g)].map((m) => m[1].toLowerCase());
}

const headings = new Set();
for (const line of lines) {
  const match = /^#{2,6}\s+`?([A-Za-z_][A-Za-z0-9_]*)`?(\s|\(|$)/.exec(line);
  if (match) headings.add(match[1].toLowerCase());
}
const lists = [
  ['function', namesFromHint('ROW x = docs_no_such_function()', 'the functions are'),
   namesFromSource('kScalarNames')],
  ['aggregate', namesFromHint('ROW x = 1 | STATS y = docs_no_such_aggregate(x)', 'the aggregates are'),
   namesFromSource('kAggregateNames')],
];
for (const [kind, fromHint, fromSource] of lists) {
  if (fromHint.length === 0 && fromSource.length === 0) {
    fail(`found no ${kind} names in quarry's unknown-${kind} hint nor in scalar_functions.cc`);
  }
  for (const name of new Set([...fromHint, ...fromSource])) {
    if (!headings.has(name)) {
      fail(`LANGUAGE.md has no heading for the ${kind} ${name.toUpperCase()} ` +
           `(a section "#### ${name.toUpperCase()}" in its family)`);
    }
  }
}

if (failures.length > 0) {
  for (const f of failures) console.error(`FAIL ${f}\n`);
  console.error(`${failures.length} failure(s); ${examples.length} examples in docs/LANGUAGE.md`);
  process.exit(1);
}
console.log(`${examples.length} examples in docs/LANGUAGE.md print what the page shows; ` +
            `every function and aggregate has a section`);
