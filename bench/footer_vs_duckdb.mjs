// Times quarry's footer decoding and DuckDB's parquet_metadata() on the same file in
// one run, and prints both with their ratios. bench/run.sh builds the binaries and
// the file, then calls this.
//
// Usage: node bench/footer_vs_duckdb.mjs --file F --bench BIN --quarry BIN [--runs N]
//          [--json OUT]
//   --bench   the footer_decode_benchmark binary (Google Benchmark, in-process times)
//   --quarry  the quarry CLI (end-to-end `quarry inspect --json F`, one process per run)
//   --runs    rounds; each runs every measurement once, each figure is a median
//             over the rounds (default 15)
//   --json    also writes every figure to OUT
//
// DuckDB runs in this process on one persistent connection: instance start-up and
// connection set-up are excluded, and each timed query fetches the whole result
// (runAndReadAll) without converting it to JS values. Measurements run in rounds,
// quarry's and DuckDB's in turn, after one untimed warm-up round.
//
// Cache states: the OS page cache is warm on both sides (the warm-up round reads the
// file). uncached: quarry decodes on every run, DuckDB's parquet_metadata_cache is
// off (its default). cached: quarry's ReadFooter/Cached opens the file with the
// footer a FooterCache kept from an untimed first open (as a repeated query does),
// DuckDB's parquet_metadata_cache is on and warm; `quarry inspect` keeps no cache,
// so its cached pair is its uncached run against DuckDB's cached one.
//
// The ratios compare like with like: quarry's footer read and decode against
// DuckDB's cheapest full decode (parquet_file_metadata: one row per file), quarry's
// decode with every chunk's statistics against count(*) over parquet_metadata(), and
// quarry's rendering of every column chunk (inspect columns --json, a process)
// against DuckDB's materialized parquet_metadata() table. The warm-up round checks
// that both decoded the same metadata: rows, row groups, writer, column chunks,
// their values and compressed bytes.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { median, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
import { loadDuckDB } from './load_duckdb.mjs';

function parseArgs(argv) {
  const args = { runs: 15 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!['file', 'bench', 'quarry', 'runs', 'json'].includes(key) || i + 1 >= argv.length) {
      console.error('usage: node footer_vs_duckdb.mjs --file F --bench BIN --quarry BIN [--runs N] [--json OUT]');
      process.exit(2);
    }
    args[key] = key === 'runs' ? Number(argv[i + 1]) : argv[i + 1];
  }
  for (const required of ['file', 'bench', 'quarry']) {
    if (!args[required]) {
      console.error(`footer_vs_duckdb: --${required} is required`);
      process.exit(2);
    }
  }
  return args;
}

function footerLength(file) {
  const trailer = Buffer.alloc(8);
  const fd = openSync(file, 'r');
  readSync(fd, trailer, 0, 8, statSync(file).size - 8);
  closeSync(fd);
  return trailer.readUInt32LE(0);
}

// glibc settings that keep freed memory in the process (no heap trimming, no mmap
// for large blocks): the "warm heap" variants show what the decode costs once the
// kernel no longer has to hand out and zero fresh pages for every footer.
const kWarmHeapTunables = 'glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432';

/// Runs one quarry benchmark in a process of its own, so that no benchmark inherits
/// the allocator state another left behind; returns { wall, cpu } in ms.
function runGoogleBenchmark(binary, file, name, warmHeap) {
  const env = { ...process.env };
  if (warmHeap) env.GLIBC_TUNABLES = kWarmHeapTunables;
  const filter = `^${name}$`;
  const result = spawnSync(binary, ['--benchmark_format=json', '--benchmark_min_time=0.3',
                                    `--benchmark_filter=${filter}`, file],
                           { encoding: 'utf8', env, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    console.error(`footer_vs_duckdb: ${binary} exited with ${result.status ?? result.signal}: ${result.stderr}`);
    process.exit(1);
  }
  const b = JSON.parse(result.stdout).benchmarks.find((x) => x.run_name === name);
  if (!b || b.error_occurred) {
    console.error(`footer_vs_duckdb: benchmark ${name} ${b ? `failed: ${b.error_message}` : 'missing'} in ${binary}'s output`);
    process.exit(1);
  }
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  return { wall: b.real_time * toMs[b.time_unit], cpu: b.cpu_time * toMs[b.time_unit] };
}

/// Times `command args` once as a child process with stdout sent nowhere; returns
/// { wall, cpu } in ms. A small bash starts it and reads the clock around it (node's
/// own spawn, slow from a process holding DuckDB, stays outside), and reports the
/// child's user + system time with `times`.
function timeProcess(command, args) {
  const script = 's=$EPOCHREALTIME; "$@" > /dev/null; rc=$?; e=$EPOCHREALTIME; times >&2; ' +
                 'echo "elapsed $s $e" >&2; exit $rc';
  const r = spawnSync('bash', ['-c', script, 'bash', command, ...args],
                      { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' },
                        stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) {
    console.error(`footer_vs_duckdb: ${command} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
    process.exit(1);
  }
  const lines = r.stderr.trim().split('\n');
  const [, start, end] = lines.pop().split(' ').map(Number);
  // The last line of `times` is the children's user and system time, e.g. "0m0.036s 0m0.072s".
  const t = lines.pop().match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  const cpu = t ? (Number(t[1]) * 60 + Number(t[2]) + Number(t[3]) * 60 + Number(t[4])) * 1e3 : NaN;
  return { wall: (end - start) * 1e3, cpu };
}

async function openDuckDB(file) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const scalar = async (sql) => (await connection.runAndReadAll(sql)).getRows()[0][0];
  const quoted = `'${file.replaceAll("'", "''")}'`;
  const info = {
    version: await scalar('SELECT version()'),
    threads: String(await scalar("SELECT current_setting('threads')")),
    rows: Number(await scalar(`SELECT count(*) FROM parquet_metadata(${quoted})`)),
  };
  const [[, numRows, numRowGroups, , createdBy]] = (await connection.runAndReadAll(
      `SELECT file_name, num_rows, num_row_groups, format_version, created_by FROM parquet_file_metadata(${quoted})`)).getRows();
  const [[chunks, values, compressed]] = (await connection.runAndReadAll(
      `SELECT count(*), sum(num_values), sum(total_compressed_size) FROM parquet_metadata(${quoted})`)).getRows();
  info.decoded = { num_rows: Number(numRows), num_row_groups: Number(numRowGroups), created_by: createdBy ?? '',
                   chunks: Number(chunks), num_values: Number(values), total_compressed_size: Number(compressed) };
  const selectAll = `SELECT * FROM parquet_metadata(${quoted})`;
  const count = `SELECT count(*) FROM parquet_metadata(${quoted})`;
  // Settings are applied before each timed query, outside the timing; the defaults
  // (metadata cache off, external file cache on) are restored first.
  const query = (sql, settings = []) => async () => {
    await connection.run('SET parquet_metadata_cache = false');
    await connection.run('RESET enable_external_file_cache');
    for (const s of settings) await connection.run(`SET ${s}`);
    // The previous result's garbage is collected now rather than inside a timing
    // (bench/run.sh runs node with --expose-gc).
    globalThis.gc?.();
    const cpuStart = process.cpuUsage();
    const start = nowMs();
    await connection.runAndReadAll(sql);
    const wall = nowMs() - start;
    const cpu = process.cpuUsage(cpuStart);
    // Process-wide CPU: DuckDB's worker threads count too.
    return { wall, cpu: (cpu.user + cpu.system) / 1e3 };
  };
  const queries = {
    roundTrip: query('SELECT 1'),
    selectAll: query(selectAll),
    count: query(count),
    fileMetadata: query(`SELECT * FROM parquet_file_metadata(${quoted})`),
    fileMetadataCached: query(`SELECT * FROM parquet_file_metadata(${quoted})`, ['parquet_metadata_cache = true']),
    selectAllNoFileCache: query(selectAll, ['enable_external_file_cache = false']),
    selectAllCached: query(selectAll, ['parquet_metadata_cache = true']),
    countCached: query(count, ['parquet_metadata_cache = true']),
  };
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  return { info, queries, close };
}

// key: [benchmark name, warm heap]
const kQuarryBenchmarks = {
  decode: ['DecodeFileMetaData', false],
  decodeTwo: ['DecodeFileMetaData/TwoColumnsStats', false],
  decodeNoStats: ['DecodeFileMetaData/NoStatistics', false],
  schema: ['FileSchemaBuild', false],
  readFooter: ['ReadFooter', false],
  readFooterSchema: ['ReadFooter/WithSchema', false],
  readFooterTwo: ['ReadFooter/WithSchema/TwoColumnsStats', false],
  readFooterCached: ['ReadFooter/Cached', false],
  decodeWarm: ['DecodeFileMetaData', true],
  readFooterSchemaWarm: ['ReadFooter/WithSchema', true],
};

/// What quarry decoded from the file (inspect --json and inspect columns --json),
/// in the terms of DuckDB's parquet_file_metadata() and parquet_metadata().
function quarryDecoded(quarry, file) {
  const run = (argv) => {
    const r = spawnSync(quarry, argv, { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.status !== 0) {
      console.error(`footer_vs_duckdb: quarry ${argv.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr}`);
      process.exit(1);
    }
    return JSON.parse(r.stdout);
  };
  const summary = run(['inspect', '--json', file]);
  const columns = run(['inspect', 'columns', '--json', file]);
  const decoded = { num_rows: Number(summary.num_rows), num_row_groups: Number(summary.num_row_groups),
                    created_by: summary.created_by ?? '', chunks: 0, num_values: 0, total_compressed_size: 0 };
  for (const rowGroup of columns.row_groups) {
    for (const chunk of rowGroup.columns) {
      decoded.chunks += 1;
      decoded.num_values += Number(chunk.num_values ?? 0);
      decoded.total_compressed_size += Number(chunk.total_compressed_size ?? 0);
    }
  }
  return decoded;
}

/// Runs one round: every measurement once, quarry's and DuckDB's in turn, so that
/// a change in the machine's load shifts both sides instead of one.
async function runRound(args, duckdb) {
  const sample = {};
  for (const [key, [name, warmHeap]] of Object.entries(kQuarryBenchmarks)) {
    sample[key] = runGoogleBenchmark(args.bench, args.file, name, warmHeap);
  }
  sample.inspect = timeProcess(args.quarry, ['inspect', '--json', args.file]);
  sample.inspectColumns = timeProcess(args.quarry, ['inspect', 'columns', '--json', args.file]);
  sample.processFloor = timeProcess('/bin/true', []);
  for (const [key, run] of Object.entries(duckdb.queries)) sample[key] = await run();
  return sample;
}

const args = parseArgs(process.argv.slice(2));
const file = args.file;
const loadBefore = os.loadavg()[0];
const duckdb = await openDuckDB(file);
console.error(`footer_vs_duckdb: ${args.runs} rounds (and one warm-up), each running every measurement once`);
await runRound(args, duckdb);
// Both sides decoded the same metadata, or the timings compare different work.
const decoded = quarryDecoded(args.quarry, file);
for (const [key, expected] of Object.entries(duckdb.info.decoded)) {
  if (decoded[key] !== expected) {
    console.error(`footer_vs_duckdb: quarry decoded ${key} = ${decoded[key]}, DuckDB ${expected}`);
    process.exit(1);
  }
}
const samples = [];
for (let r = 0; r < args.runs; ++r) {
  samples.push(await runRound(args, duckdb));
  process.stderr.write(`\r  round ${r + 1}/${args.runs}`);
}
process.stderr.write('\n');
const info = duckdb.info;
duckdb.close();
const loadAfter = os.loadavg()[0];
const med = {};
const medCpu = {};
for (const key of Object.keys(samples[0])) {
  med[key] = median(samples.map((s) => s[key].wall));
  medCpu[key] = median(samples.map((s) => s[key].cpu));
}

const size = statSync(file).size;
const footer = footerLength(file);
const lines = [];
const out = (s = '') => lines.push(s);
const row = (label, key) =>
  out(`  ${label.padEnd(72)} ${fmtMs(med[key]).padStart(8)} ${fmtMs(medCpu[key]).padStart(8)}`);

out(`Footer decoding: ${file}`);
out(`  ${(size / 1e6).toFixed(1)} MB file, ${footer.toLocaleString('en-US')}-byte footer, ` +
    `${info.rows.toLocaleString('en-US')} column chunks (parquet_metadata rows)`);
out(`  ${cpuModel()}, ${os.cpus().length} cores; DuckDB ${info.version} (threads=${info.threads}); ` +
    `medians of ${args.runs} round${args.runs === 1 ? "" : "s"}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
out();
out(`${'medians in ms'.padEnd(74)} ${'wall'.padStart(8)} ${'cpu'.padStart(8)}`);
out('quarry, in process (Google Benchmark)');
row('decodeFileMetaData (footer bytes in memory)', 'decode');
row('decodeFileMetaData, statistics of 2 of the columns', 'decodeTwo');
row('decodeFileMetaData, no statistics', 'decodeNoStats');
row('FileSchema::build', 'schema');
row('readFooter (openObject + tail read + decode)', 'readFooter');
row('readFooter + FileSchema::build', 'readFooterSchema');
row('readFooter + FileSchema::build, statistics of 2 columns', 'readFooterTwo');
row('open with the footer from a warm FooterCache (+ FileSchema::build)', 'readFooterCached');
row('decodeFileMetaData, warm heap (glibc keeps freed memory)', 'decodeWarm');
row('readFooter + FileSchema::build, warm heap', 'readFooterSchemaWarm');
out('quarry, end to end');
row('quarry inspect --json FILE > /dev/null (one process)', 'inspect');
row('quarry inspect columns --json FILE > /dev/null (all chunk statistics)', 'inspectColumns');
row('  (floor: starting /bin/true the same way)', 'processFloor');
out('DuckDB, one warm connection');
row('SELECT 1 (round-trip floor)', 'roundTrip');
row('SELECT * FROM parquet_metadata(F), materialized', 'selectAll');
row('SELECT count(*) FROM parquet_metadata(F)', 'count');
row('SELECT * FROM parquet_file_metadata(F)', 'fileMetadata');
row('SELECT * FROM parquet_metadata(F), enable_external_file_cache=false', 'selectAllNoFileCache');
row('SELECT * FROM parquet_metadata(F), parquet_metadata_cache=true', 'selectAllCached');
row('SELECT count(*) FROM parquet_metadata(F), parquet_metadata_cache=true', 'countCached');
row('SELECT * FROM parquet_file_metadata(F), parquet_metadata_cache=true', 'fileMetadataCached');
out();
// Each ratio is the median of the per-round ratios: a round's two figures were taken
// seconds apart, under the same load.
out('quarry / DuckDB, like for like, median of per-round wall-time ratios (below 1: quarry faster);');
out(`  both decoded the same metadata (${decoded.chunks.toLocaleString('en-US')} chunks, ` +
    `${decoded.num_rows.toLocaleString('en-US')} rows); OS page cache warm on both sides`);
const comparisons = [
  ['uncached: readFooter (open, tail read, decode)', 'readFooter', 'parquet_file_metadata', 'fileMetadata'],
  ['uncached: readFooter + schema, all statistics', 'readFooterSchema', 'count(*) parquet_metadata', 'count'],
  ['uncached: inspect columns --json (process)', 'inspectColumns', 'SELECT * parquet_metadata', 'selectAll'],
  ['cached: open, footer from FooterCache', 'readFooterCached', 'parquet_file_metadata', 'fileMetadataCached'],
  ['cached: open, footer from FooterCache', 'readFooterCached', 'count(*) parquet_metadata', 'countCached'],
  ['cached: inspect columns (keeps no cache)', 'inspectColumns', 'SELECT * parquet_metadata', 'selectAllCached'],
];
const ratios = {};
for (const [ql, qk, dl, dk] of comparisons) {
  const wall = median(samples.map((s) => s[qk].wall / s[dk].wall));
  const cpu = median(samples.map((s) => s[qk].cpu / s[dk].cpu));
  ratios[`${qk}/${dk}`] = { wall, cpu };
  out(`  ${ql.padEnd(48)} vs ${dl.padEnd(26)} ${fmtMs(med[qk]).padStart(8)} / ${fmtMs(med[dk]).padStart(8)} ms` +
      ` = ${wall.toFixed(2).padStart(5)} (cpu ${cpu.toFixed(2)})`);
}
for (const state of ['uncached', 'cached']) {
  const walls = comparisons.filter(([ql]) => ql.startsWith(`${state}:`)).map(([, qk, , dk]) => ratios[`${qk}/${dk}`].wall);
  const geomean = Math.exp(walls.reduce((a, x) => a + Math.log(x), 0) / walls.length);
  out(`  ${`${state}: geomean / worst`.padEnd(48)}    ${geomean.toFixed(2)} / ${Math.max(...walls).toFixed(2)}`);
}
console.log(lines.join('\n'));

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    file, size, footer, cpu: cpuModel(), cores: os.cpus().length, runs: args.runs, loadBefore, loadAfter,
    duckdb: info, medianWallMs: med, medianCpuMs: medCpu, ratios, samplesMs: samples,
  }, null, 2) + '\n');
}
