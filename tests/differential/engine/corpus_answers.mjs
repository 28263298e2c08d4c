// The engine corpus and DuckDB's answers to it, saved once and read by the runs
// that compare quarry with them (engine_queries.mjs --save-corpus / --corpus-from).
//
// Writing the datasets and answering 2,000 queries with DuckDB is the same work
// for every variant of the engine differential test (local, metadata cache,
// cluster): the self-check does it once and saves, beside the datasets,
//
//   answers.json   { seed, count, files, noOrc, dataNulls, pairs, answers }
//                  pairs as the generator made them; answers[i] DuckDB's answer to
//                  pairs[i]: { refused } | { sqlError } | { columns, types, rows },
//                  rows in compare_values.mjs's canonical forms, types as below
//
// A DuckDB type is saved as the fields the comparison reads (typeId, width,
// scale, valueType, keyType, entryNames, entryTypes) and its text; read back, it
// is an object with those fields whose String() is the text.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const kAnswersFile = 'answers.json';
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
  const saved = pairs.map((p) => answerToJson(answers.get(p)));
  saved.forEach((answer, i) => {
    (answer.types ?? []).forEach((t, c) => {
      const original = answers.get(pairs[i]).types[c];
      const back = new SavedType(t);
      if (String(back) !== String(original) || back.typeId !== original.typeId) {
        throw new Error(`query ${pairs[i].index}: DuckDB's type ${original} of column ` +
                        `${answer.columns[c]} does not survive saving (${back})`);
      }
    });
  });
  writeFileSync(join(dir, kAnswersFile),
                JSON.stringify({ format: kFormat, seed, count, files, noOrc, dataNulls, pairs, answers: saved }));
}

/// Reads what saveCorpus saved in `dir`; throws, naming the file, when it is
/// missing or was saved for another seed or corpus size.
export function loadCorpus(dir, { seed, count }) {
  const path = join(dir, kAnswersFile);
  if (!existsSync(path)) {
    throw new Error(`no saved corpus at ${path}: the self-check writes it (ctest runs ` +
                    'differential_engine_self_check first, as the fixture engine_corpus_answers)');
  }
  const saved = JSON.parse(readFileSync(path, 'utf8'));
  if (saved.format !== kFormat || saved.seed !== seed || saved.count !== count) {
    throw new Error(`${path} holds the corpus of seed ${saved.seed} and ${saved.count} queries ` +
                    `(format ${saved.format}), not seed ${seed} and ${count} queries (format ${kFormat})`);
  }
  const answers = new Map();
  saved.pairs.forEach((p, i) => answers.set(p, answerFromJson(saved.answers[i])));
  return { ...saved, answers };
}
