// The engine corpus and DuckDB's answers to it, saved once and read by the runs
// that compare quarry with them (engine_queries.mjs --save-corpus / --corpus-from).
//
// Writing the datasets and answering 2,000 queries with DuckDB is the same work
// for every variant of the engine differential test (local, metadata cache,
// cluster): the self-check does it once and saves, beside the datasets,
//
//   answers.ndjson  a first line { format, seed, count, files, noOrc, dataNulls },
//                   then one line per query, { pair, answer }: the pair as the
//                   generator made it and DuckDB's answer to it, { refused } |
//                   { sqlError } | { columns, types, rows }, rows in
//                   compare_values.mjs's canonical forms, types as below (a line
//                   per query: the 2,000 queries' answers are about 150 MB, a
//                   larger corpus's more than one JS string holds)
//
// A DuckDB type is saved as the fields the comparison reads (typeId, width,
// scale, valueType, keyType, entryNames, entryTypes) and its text; read back, it
// is an object with those fields whose String() is the text.

import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const kAnswersFile = 'answers.ndjson';
// Bumped when the saved form changes, so that a stale file is refused.
const kFormat = 1;

function typeToJson(type) {
  const out = { typeId: type.typeId, text: String(type) };
  if (type.width !== undefined) out.width = type.width;
  if (type.scale !== undefined) out.scale = type.scale;
  if (type.valueType) out.valueType = typeToJson(type.valueType);
  if (type.keyType) out.keyType = typeToJson(type.keyType);
  if (type.entryNames) {
    out.entryNames = [...type.entryNames];
    out.entryTypes = type.entryTypes.map(typeToJson);
  }
  return out;
}

class SavedType {
  constructor(json) {
    Object.assign(this, json);
    if (json.valueType) this.valueType = new SavedType(json.valueType);
    if (json.keyType) this.keyType = new SavedType(json.keyType);
    if (json.entryTypes) this.entryTypes = json.entryTypes.map((t) => new SavedType(t));
  }

  toString() {
    return this.text;
  }
}

function answerToJson(duck) {
  if (duck.refused !== undefined) return { refused: duck.refused };
  if (duck.sqlError !== undefined) return { sqlError: duck.sqlError };
  return { columns: duck.columns, types: duck.types.map(typeToJson), rows: duck.rows };
}

function answerFromJson(json) {
  if (json.types === undefined) return json;
  return { columns: json.columns, types: json.types.map((t) => new SavedType(t)), rows: json.rows };
}

/// Saves `pairs` and their `answers` (a Map from pair to DuckDB's answer) in `dir`.
/// Every saved type must read back as the same type: a field the comparison reads
/// and this file does not save would otherwise pass unnoticed.
export function saveCorpus(dir, { seed, count, files, noOrc, dataNulls, pairs, answers }) {
  const fd = openSync(join(dir, kAnswersFile), 'w');
  try {
    writeSync(fd, `${JSON.stringify({ format: kFormat, seed, count, files, noOrc, dataNulls })}\n`);
    for (const pair of pairs) {
      const duck = answers.get(pair);
      const answer = answerToJson(duck);
      (answer.types ?? []).forEach((t, c) => {
        const back = new SavedType(t);
        if (String(back) !== String(duck.types[c]) || back.typeId !== duck.types[c].typeId) {
          throw new Error(`query ${pair.index}: DuckDB's type ${duck.types[c]} of column ` +
                          `${answer.columns[c]} does not survive saving (${back})`);
        }
      });
      writeSync(fd, `${JSON.stringify({ pair, answer })}\n`);
    }
  } finally {
    closeSync(fd);
  }
}

/// Reads what saveCorpus saved in `dir`: { seed, count, files, noOrc, dataNulls,
/// pairs, answers }; throws, naming the file, when it is missing or was saved
/// for another seed or corpus size.
export function loadCorpus(dir, { seed, count }) {
  const path = join(dir, kAnswersFile);
  if (!existsSync(path)) {
    throw new Error(`no saved corpus at ${path}: the self-check writes it (ctest runs ` +
                    'differential_engine_self_check first, as the fixture engine_corpus_answers)');
  }
  // Read as bytes and parsed a line at a time: the whole is more than a string holds.
  const bytes = readFileSync(path);
  const lines = [];
  for (let from = 0; from < bytes.length;) {
    const end = bytes.indexOf(0x0a, from);
    const to = end < 0 ? bytes.length : end;
    lines.push(bytes.toString('utf8', from, to));
    from = to + 1;
  }
  const saved = JSON.parse(lines[0] ?? '{}');
  if (saved.format !== kFormat || saved.seed !== seed || saved.count !== count) {
    throw new Error(`${path} holds the corpus of seed ${saved.seed} and ${saved.count} queries ` +
                    `(format ${saved.format}), not seed ${seed} and ${count} queries (format ${kFormat})`);
  }
  const pairs = [];
  const answers = new Map();
  for (const line of lines.slice(1)) {
    const { pair, answer } = JSON.parse(line);
    pairs.push(pair);
    answers.set(pair, answerFromJson(answer));
  }
  return { ...saved, pairs, answers };
}
