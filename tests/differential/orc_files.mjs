#!/usr/bin/env node
// Differential test of quarry's ORC reader against chDB (embedded ClickHouse, whose
// ORC writer is its own native one): chDB writes ORC files, quarry prints them
// (`quarry print --format ndjson`) and chDB reads them back (`SELECT ... FROM
// file(..., ORC) FORMAT JSONEachRow`); every value of every row is compared in the
// canonical forms of orc_values.mjs.
//
// The columns are generate_files.mjs's ClickHouse columns (every integer width,
// signed and unsigned, which ClickHouse writes as the signed ORC type of the same
// width; floats with NaN, infinities and -0; decimals of 9, 18 and 38 digits;
// strings, FixedString; Date and Date32; DateTime and DateTime64(3, 6, 9); Bool;
// Enum8; arrays, tuples, maps) less UUID, which ClickHouse cannot write as ORC,
// plus the ORC_COLUMNS below (LowCardinality, Int128 as binary, deeper nesting,
// times before 1970). Nullable columns are NULL on 0, 50 or 100 % of the rows.
// The files vary the codec (zstd, lz4, snappy, zlib, none), the compression block
// (256 KiB, or 64 KiB, the least the writer takes), the row index stride (1,000 or
// 10,000 rows), dictionary or direct
// string encoding, strings as ORC binary, the writer's time zone, and the stripe
// count (ClickHouse cuts 64 MB stripes and has no setting for it: two files carry
// a random filler column, never compared nor projected, so that they span stripes).
//
//   node tests/differential/orc_files.mjs QUARRY OUT_DIR [FILTER]
//
// Files are written to OUT_DIR and left there to look at. A column that differs
// must be in KNOWN_DIVERGENCES with the reason; a listed one that matches fails
// the test, so the list stays true. Exit code 77 (ctest: skipped) without chDB.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { CH_COLUMNS, chNull, kChBase, loadChdb } from './generate_files.mjs';
import { canonical, difference, Mismatch, parseJson, parseType, show } from './orc_values.mjs';

const kSkip = 77;
const kMaxMismatchesShown = 5;

const sqlString = (text) => `'${text.replaceAll("'", "''")}'`;
// How chDB reads the files back: dictionary-encoded strings as plain String (as a
// LowCardinality one, a map key of them cannot even be described); timestamps on
// the writer's wall clock (see orc_values.mjs); output text that loses nothing.
// max_threads = 1: read back in file order (with several threads chDB may hand a
// multi-stripe file's stripes over out of order, and the rows are compared by position).
const kReadSettings = "max_threads = 1, input_format_orc_dictionary_as_low_cardinality = 0, session_timezone = 'UTC', " +
    "input_format_orc_reader_time_zone_name = 'GMT', output_format_json_quote_denormals = 1, " +
    'output_format_decimal_trailing_zeros = 1, output_format_json_named_tuples_as_objects = 1';

/// ORC-specific columns beside CH_COLUMNS: [name, expression, may be NULL].
const ORC_COLUMNS = [
  // Few distinct values: dictionary-encoded when the threshold allows.
  ['lc', "toLowCardinality(concat('lc-', toString(h % 7)))", true],
  ['str_empty', "if(h % 5 = 0, '', toString(g))", true],
  // Int128 has no ORC type: ClickHouse writes its 16 bytes as binary.
  ['i128', 'toInt128(h) * toInt128(g) * if(h % 2 = 0, -1, 1)', true],
  // generate_files.mjs's dt64_3 takes h * 1000 as seconds, which ClickHouse clamps
  // to 9999-12-31: chDB cannot read that back from ORC (DateTime64(9) ends in 2262).
  ['dt64_3', "fromUnixTimestamp64Milli(toInt64(h) * 1000 + g % 1000, 'UTC')", false],
  // ClickHouse writes a Date (16-bit unsigned days) as ORC's 32-bit date through a
  // signed 16-bit value: days from 32768 (2059-09-19) on come out negative, and chDB
  // then refuses its own file (Date32 ends before 1900). Kept below that.
  ['date', "toDate('1970-01-01') + toInt32(h % 32768)", true],
  // Before 1970: whole seconds, and with a fraction (see KNOWN_DIVERGENCES).
  ['dt64_neg', "fromUnixTimestamp64Milli(-toInt64(h) * 1000, 'UTC')", true],
  ['dt64_neg_frac', "fromUnixTimestamp64Nano(-toInt64(h) * 1000000 - g, 'UTC')", true],
  ['f32_small', 'toFloat32(h / (g + 1) * 1e-30)', true],
  ['arr_null', 'arrayMap(x -> if((x + i) % 3 = 0, NULL, toInt64(x * h)), range(toUInt32(g % 5)))', false],
  ['arr_arr', 'arrayMap(y -> arrayMap(x -> toInt16(x + y), range(toUInt32((g + y) % 3))), ' +
              'range(toUInt32(h % 4)))', false],
  ['arr_tup', "arrayMap(x -> tuple(toInt32(x), if(x % 2 = 0, NULL, toString(x * g)))" +
              '::Tuple(x Int32, y Nullable(String)), range(toUInt32(h % 3)))', false],
  ['tup_nested', "tuple(tuple(toInt16(g % 1000), toDate32('2000-01-01') + toInt32(h % 10000)), " +
                 'arrayMap(x -> toFloat64(x + h) / 3, range(toUInt32(g % 3))))' +
                 '::Tuple(a Tuple(b Int16, c Date32), d Array(Float64))', false],
  ['tup_null', 'tuple(if(h % 4 = 0, NULL, toFloat64(g) / 7), if(g % 3 = 0, NULL, ' +
               'toDecimal32(toInt64(h % 100000) / 100, 2)))' +
               '::Tuple(a Nullable(Float64), b Nullable(Decimal(9, 2)))', false],
  ['map_arr', 'mapFromArrays(arrayMap(x -> toInt32(x + h % 100), range(toUInt32(g % 3))), ' +
              "arrayMap(x -> arrayMap(y -> concat('v', toString(y)), range(toUInt32(x))), " +
              'range(toUInt32(g % 3))))', false],
];

const COLUMNS = [...CH_COLUMNS.filter(([name]) => !['uuid', 'dt64_3', 'date'].includes(name)), ...ORC_COLUMNS];
// Read by chDB through hex(): their bytes are not UTF-8.
const HEX_COLUMNS = ['i128'];

/// The files: [{ name, nullPercent, rows, settings, binary }].
function matrix() {
  const common = {
    output_format_orc_row_index_stride: 1000,
    // Dictionary-encode a string column whose distinct values are at most half its
    // rows (str_dict, lc, enum-like text); the rest stay direct.
    output_format_orc_dictionary_key_size_threshold: 0.5,
  };
  const out = [];
  const add = (label, nullPercent, settings, extra = {}) => out.push({
    name: `chdb_${label}_n${nullPercent}.orc`, nullPercent, rows: 5000,
    settings: { ...common, ...settings }, ...extra,
  });
  for (const codec of ['zstd', 'lz4', 'snappy', 'zlib', 'none']) {
    add(codec, 50, { output_format_orc_compression_method: codec });
  }
  for (const nullPercent of [0, 100]) add('zstd', nullPercent, { output_format_orc_compression_method: 'zstd' });
  // ORC C++ (ClickHouse's writer) closes a stripe after a batch that brings it past
  // 64 MB, and has no setting for that size: 5,000 rows of a 16,000-byte filler in
  // 250-row batches make two stripes (checked). The second file has 64 KiB
  // compression blocks, the smallest the writer takes.
  const stripes = { rows: 5000, filler: 'randomPrintableASCII(16000)', minStripes: 2 };
  add('stripes', 50, { output_format_orc_compression_method: 'none', max_block_size: 250 }, stripes);
  add('stripes_lz4_block64k', 0, { output_format_orc_compression_method: 'lz4', max_block_size: 250,
    output_format_orc_compression_block_size: 65536 }, stripes);
  add('direct', 50, { output_format_orc_dictionary_key_size_threshold: 0 });
  add('dictionary', 0, { output_format_orc_dictionary_key_size_threshold: 1 });
  add('stride10000', 50, { output_format_orc_row_index_stride: 10000 });
  add('binary', 50, { output_format_orc_string_as_string: 0 }, { binary: true });
  add('new_york', 50, { output_format_orc_writer_time_zone_name: 'America/New_York' });
  add('kolkata', 0, { output_format_orc_writer_time_zone_name: 'Asia/Kolkata' });
  return out;
}

// Columns where quarry and chDB differ: { files: RegExp over the file name,
// column, reason }. The file is compared without the column; the column alone
// must still differ.
const KNOWN_DIVERGENCES = [{
  files: /_n(0|50)\.orc$/,
  column: 'dt64_neg_frac',
  reason: 'ClickHouse writes a time before 1970 that is not a whole second with a negative ' +
      'nanosecond count (-1 ns is stored as 2^64 - 8: nanos -1 shifted by the ORC C++ writer\'s ' +
      'trailing-zero encoding); the ORC specification\'s ' +
      'nanoseconds are 0..999999999, quarry refuses the stream as CorruptFile, chDB reads it ' +
      'back as signed. Repro: chDB `SELECT fromUnixTimestamp64Nano(-1, \'UTC\') AS t INTO OUTFILE ' +
      '\'neg.orc\' FORMAT ORC`, then `quarry print neg.orc`',
},
...['dt64_3', 'dt64_6', 'dt64_9'].map((column) => ({
  files: /^chdb_new_york_n50\.orc$/,
  column,
  reason: 'a time after 1970 UTC with a fraction of a second whose New York wall clock is before ' +
      '1970 reads one second earlier in chDB than the arithmetic gives (1970-01-01 03:25:45.029649 ' +
      'UTC is 1969-12-31 22:25:45.029649 in New York, as quarry prints; chDB shows 22:25:44.029649). ' +
      'Likely the ORC C++ writer\'s Java-compatible "negative seconds with nanos: add one second" ' +
      'step decided on the UTC seconds but undone on the written ones',
})),
...[['new_york', '238 s apart (New York before 1883-11-18: LMT -4:56:02, EST -5:00)'],
  ['kolkata', '8 s apart (Kolkata before 1854-06-28: LMT +5:53:28, HMT +5:53:20)']].map(([zone, gap]) => ({
  files: new RegExp(`^chdb_${zone}_n(0|50)\\.orc$`),
  column: 'dt64_neg',
  reason: `times before the writer zone's first transition show wall clocks ${gap}. Both ` +
      'recover the same instant (the one ClickHouse wrote; chDB shows it with ' +
      'input_format_orc_reader_time_zone_name set to the writer\'s zone); quarry shows it on the ' +
      'tzdb\'s local mean time of that date, chDB (the ORC C++ library\'s time zone rules) at the ' +
      'offset that follows the first transition. E.g. 1873-08-11 20:22:57 UTC: quarry 15:26:55, ' +
      'chDB 15:22:57',
}))];

function skip(message) {
  process.stderr.write(`\n*** SKIPPED differential_orc_chdb: ${message} ***\n\n`);
  process.exit(kSkip);
}

function writeFile(chdb, f) {
  const items = COLUMNS.map(([name, expr, nullable], k) =>
    `${nullable ? chNull(k, expr, f.nullPercent) : expr} AS ${name}`);
  if (f.filler) items.push(`${f.filler} AS filler`);
  const settings = Object.entries(f.settings)
      .map(([k, v]) => `${k} = ${typeof v === 'string' ? sqlString(v) : v}`).join(', ');
  const base = kChBase.replace(/numbers\(\d+\)/, `numbers(${f.rows})`);
  f.generator = `SELECT ${items.join(',\n  ')}\nFROM (${base}) ORDER BY i ` +
      `INTO OUTFILE ${sqlString(f.path)} TRUNCATE FORMAT ORC SETTINGS ${settings}`;
  chdb.query(f.generator, 'CSV');
}

/// Reads `columns` ([{ name, type }]) of the file with chDB; returns parsed rows.
function readWithChdb(chdb, path, columns) {
  const items = columns.map(({ name, type }) => {
    if (HEX_COLUMNS.includes(name)) return `hex(${name}) AS ${name}`;
    if (type.name === 'Map') return `arrayZip(mapKeys(${name}), mapValues(${name})) AS ${name}`;
    return name;
  });
  const text = chdb.query(`SELECT ${items.join(', ')} FROM file(${sqlString(path)}, ORC) ` +
      `SETTINGS ${kReadSettings}`, 'JSONEachRow');
  return text.split('\n').filter((line) => line.length > 0).map(parseJson);
}

function readWithQuarry(quarry, path, scratch, names) {
  const out = join(scratch, 'out.ndjson');
  const result = spawnSync('sh', ['-c', '"$0" print --format ndjson --columns "$1" "$2" > "$3"',
    quarry, names.join(','), path, out], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) return { error: `quarry failed: ${result.stderr.trim().split('\n')[0]}` };
  const rows = readFileSync(out, 'utf8').split('\n').filter((l) => l.length > 0).map(parseJson);
  rmSync(out);
  return { rows };
}

/// Compares the `columns` of quarry's and chDB's rows; returns the first mismatch
/// of each column that has one (with the count of its rows that differ).
function compare(ours, theirs, columns, binary) {
  const problems = [];
  if (ours.length !== theirs.length) return [`quarry gives ${ours.length} rows, chDB ${theirs.length}`];
  for (const { name, type } of columns) {
    let first = null;
    let count = 0;
    for (let r = 0; r < ours.length; r++) {
      let d;
      try {
        const hex = HEX_COLUMNS.includes(name);
        const a = canonical(ours[r][name], type, 'quarry', { binary });
        const b = canonical(theirs[r][name], type, 'chdb', { hex, binary });
        d = difference(a, b);
        if (d) d = `row ${r} ${name}${d}`;
      } catch (e) {
        if (!(e instanceof Mismatch)) throw e;
        d = `row ${r} ${name}: ${e.message}`;
      }
      if (d) {
        first ??= d;
        count++;
      }
    }
    if (first) problems.push(`${first} (${count} of ${ours.length} rows differ)`);
    if (problems.length >= kMaxMismatchesShown) break;
  }
  return problems;
}

function checkFile(chdb, quarry, scratch, f) {
  const described = parseJsonLines(chdb.query(
      `DESCRIBE file(${sqlString(f.path)}, ORC) SETTINGS ${kReadSettings}`, 'JSONEachRow'));
  const all = described.map((d) => ({ name: d.name, type: parseType(d.type) }))
      .filter((c) => c.name !== 'filler');
  const listed = KNOWN_DIVERGENCES.filter((e) => e.files.test(f.name));
  const compared = all.filter((c) => !listed.some((e) => e.column === c.name));
  const problems = [];
  if (f.minStripes) {
    const inspect = spawnSync(quarry, ['inspect', f.path], { encoding: 'utf8' });
    const stripes = Number(/^stripes\s+(\d+)/m.exec(inspect.stdout)?.[1]);
    if (!(stripes >= f.minStripes)) problems.push(`${stripes} stripes, the test needs ${f.minStripes}`);
  }
  const ours = readWithQuarry(quarry, f.path, scratch, compared.map((c) => c.name));
  if (ours.error) return { problems: [ours.error], seen: [] };
  const keys = ours.rows.length > 0 ? Object.keys(ours.rows[0]) : [];
  if (ours.rows.length > 0 && keys.join() !== compared.map((c) => c.name).join()) {
    problems.push(`quarry's fields [${keys}] are not chDB's columns [${compared.map((c) => c.name)}]`);
  }
  problems.push(...compare(ours.rows, readWithChdb(chdb, f.path, compared), compared, f.binary));
  const seen = [];
  for (const e of listed) {
    const column = all.filter((c) => c.name === e.column);
    const alone = readWithQuarry(quarry, f.path, scratch, [e.column]);
    const example = alone.error ??
        compare(alone.rows, readWithChdb(chdb, f.path, column), column, f.binary)[0];
    if (example) seen.push({ entry: e, example });
    else problems.push(`${e.column}: listed in KNOWN_DIVERGENCES but matches`);
  }
  return { problems, seen };
}

function parseJsonLines(text) {
  return text.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

function main() {
  const [quarryArg, outArg, filter] = process.argv.slice(2);
  if (!quarryArg || !outArg) {
    process.stderr.write('usage: node tests/differential/orc_files.mjs QUARRY OUT_DIR [FILTER]\n');
    return 2;
  }
  const quarry = resolve(quarryArg);
  if (!existsSync(quarry)) {
    process.stderr.write(`quarry binary not found: ${quarry}\n`);
    return 1;
  }
  const { chdb, reason } = loadChdb();
  if (!chdb) skip(`chDB unavailable (${reason}); run \`make oracle\``);
  const outDir = resolve(outArg);
  rmSync(outDir, { recursive: true, force: true });
  const scratch = join(outDir, 'scratch');
  mkdirSync(scratch, { recursive: true });

  const files = matrix().filter((f) => !filter || f.name.includes(filter));
  let passed = 0;
  let failed = 0;
  const examples = new Map();
  const start = Date.now();
  for (const f of files) {
    f.path = join(outDir, f.name);
    writeFile(chdb, f);
    const { problems, seen } = checkFile(chdb, quarry, scratch, f);
    for (const s of seen) if (!examples.has(s.entry)) examples.set(s.entry, `${f.name}: ${s.example}`);
    const notes = seen.length === 0 ? '' : `  (known divergences: ${seen.map((s) => s.entry.column).join(', ')})`;
    if (problems.length === 0) {
      passed++;
      console.log(`ok    ${f.name}${notes}`);
    } else {
      failed++;
      console.log(`FAIL  ${f.name}${notes}\n${problems.map((p) => `        ${show(p).slice(1, -1)}`).join('\n')}`);
    }
  }
  for (const [e, example] of examples) {
    console.log(`known divergence: ${e.column}: ${e.reason}\n    e.g. ${example}`);
  }
  for (const e of KNOWN_DIVERGENCES) {
    if (!filter && !files.some((f) => e.files.test(f.name))) {
      failed++;
      console.log(`FAIL  KNOWN_DIVERGENCES entry for ${e.column} matches no file`);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  console.log(`orc_files: ${files.length} files written by chDB into ${outDir}, ${COLUMNS.length} ` +
              `columns each, written and compared in ${Date.now() - start} ms`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = main();
