// Times quarry's filtered reads and DuckDB's on the same Parquet files in one run,
// at 1 and 2 threads, checks that both return the same count and the same sum of
// the projected column, and prints the figures with their ratios and rows/s.
// bench/run.sh builds filter_benchmark and the files (bench/make-lineitem.mjs),
// then calls this.
//
// Usage: node bench/filter_vs_duckdb.mjs --bench BIN [--runs N] [--threads 1,2]
//          [--queries partkey,orderkey,quantity] [--json OUT] FILE...
//   --bench    the filter_benchmark binary (quarry, in-process times)
//   --queries  the queries to run, in this order (default partkey,orderkey,quantity;
//              orderkeyeq is l_orderkey = 3000005, 6 rows, for files with a page
//              index: bench/run.sh pages; comment is l_comment = the smallest
//              value stored exactly once, chosen with DuckDB at the start, for
//              files with Bloom filters)
//   --runs     rounds; each runs every measurement once, each figure is a median
//              over the rounds (default 15)
//   --threads  thread counts to compare (default 1,2)
//   --json     also writes every figure to OUT
//
// Every query is `count(*), sum(l_extendedprice)` over the rows a predicate
// selects: l_partkey = 100000 (selective, 30 rows, no statistics can exclude a row
// group), l_orderkey BETWEEN 3000000 AND 3000600 (selective, about 0.01%, the key
// is sorted so statistics exclude all but one row group), l_quantity < 45
// (non-selective, about 88%). quarry reads with RowReader and the FilterPredicate,
// metadata pruning off (the filter's own throughput: every row group decoded and
// filtered row by row) and, when the reader has ReaderOptions::metadataPruning, on.
// DuckDB runs `SELECT count(*), sum(l_extendedprice) FROM read_parquet([...])
// WHERE ...` on one persistent connection with `SET threads = N`, by default and
// with `disabled_optimizers = 'filter_pushdown'` (the filter then runs above the
// scan: no row group is skipped, every row of both columns is decoded), the
// counterpart of quarry without pruning. Each quarry measurement is a
// filter_benchmark process (one untimed warm-up, one timed run); measurements run
// in rounds, quarry's and DuckDB's in turn, after one untimed warm-up round; a
// ratio is the median of the per-round ratios. A result that differs between the
// engines is printed as MISMATCH and the script exits 1.
//
// Cache states: the OS page cache is warm on both sides (the warm-up round reads
// every file). Every comparison but one is uncached: quarry reads and decodes every
// footer in the timed run, DuckDB runs with parquet_metadata_cache off (its
// default). The cached pair: quarry with pruning on opening the files with the
// footers its warm-up run decoded (filter_benchmark --metadata cached) against a
// second DuckDB instance with parquet_metadata_cache on, warmed by the warm-up round.
//
// Below the times, a table of what quarry with pruning on fetched for each query
// (filter_benchmark's metrics, the same in every round): bytes against the
// compressed bytes of the filter column's chunks in all files (DuckDB's
// parquet_metadata()), pages skipped and row groups pruned.
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseFileArgs, median, nowMs, cpuModel, fmtMs } from './bench_support.mjs';
import { loadDuckDB } from './load_duckdb.mjs';

// [filter_benchmark --query, label, DuckDB WHERE clause, filter column]
const kAllQueries = [
  ['partkey', 'l_partkey = 100000', 'l_partkey = 100000', 'l_partkey'],
  ['orderkeyeq', 'l_orderkey = 3000005', 'l_orderkey = 3000005', 'l_orderkey'],
  ['orderkey', 'l_orderkey in [3000000, 3000600]', 'l_orderkey BETWEEN 3000000 AND 3000600', 'l_orderkey'],
  ['quantity', 'l_quantity < 45', 'l_quantity < 45', 'l_quantity'],
  // The WHERE clause is completed once the value is chosen (openDuckDB).
  ['comment', 'l_comment = (a value stored once)', 'l_comment = ', 'l_comment'],
];
const kSelect = 'count(*), sum(l_extendedprice)';

/// Runs one quarry query in a process of its own; returns { wall, cpu, values,
/// metrics, storage } (the last two as filter_benchmark prints them).
function runQuarry(args, query, threads, { pruning = false, mode = 'rows', cached = false } = {}) {
  const literal = query === 'comment' ? ['--literal', args.literal] : [];
  const r = spawnSync(args.bench, ['--query', query, '--mode', mode, '--threads', String(threads),
                                   '--pruning', pruning ? 'on' : 'off', '--runs', '1', '--warmup', '1',
                                   '--metadata', cached ? 'cached' : 'uncached', ...literal, ...args.files],
                      { encoding: 'utf8', maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    console.error(`filter_vs_duckdb: ${args.bench} --query ${query} --mode ${mode} exited with ` +
                  `${r.status ?? r.signal}: ${r.stderr}`);
    process.exit(1);
  }
  const out = JSON.parse(r.stdout);
  return { wall: out.runs[0].wallMs, cpu: out.runs[0].cpuMs, values: [out.result.count, out.result.sum],
           metrics: out.metrics, storage: out.storage };
}

/// Compares [count, sum]: the count exactly, the sum of doubles within 1e-9
/// relative (the order of additions differs between engines and thread counts).
function sameValues(a, b, { countOnly = false } = {}) {
  if (String(a[0]) !== String(b[0])) return false;
  if (countOnly) return true;
  const u = Number(a[1] ?? 0), v = Number(b[1] ?? 0);
  return Math.abs(u - v) <= 1e-9 * Math.max(Math.abs(u), Math.abs(v));
}

/// Opens DuckDB on `files`, with its parquet_metadata_cache on or off.
async function openDuckDB(files, { metadataCache }) {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET parquet_metadata_cache = ${metadataCache}`);
  const scalar = async (sql) => (await connection.runAndReadAll(sql)).getRows()[0][0];
  const list = `[${files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ')}]`;
  const info = {
    version: await scalar('SELECT version()'),
    rows: Number(await scalar(`SELECT count(*) FROM read_parquet(${list})`)),
  };
  // The comment query's value: the smallest l_comment stored exactly once.
  const uniqueComment = async () => scalar(`SELECT l_comment FROM read_parquet(${list}) ` +
                                           'GROUP BY l_comment HAVING count(*) = 1 ORDER BY l_comment LIMIT 1');
  // The compressed bytes of a column's chunks in all files (page headers,
  // dictionary and data pages; not the page index or Bloom filter).
  const columnBytes = async (column) => Number(await scalar(
    `SELECT sum(total_compressed_size) FROM parquet_metadata(${list}) WHERE path_in_schema = '${column}'`));
  const run = async (where, threads, { pushdown = true } = {}) => {
    await connection.run(`SET threads = ${threads}`);
    await connection.run(`SET disabled_optimizers = '${pushdown ? '' : 'filter_pushdown'}'`);
    // The previous result's garbage is collected now rather than inside a timing
    // (bench/run.sh runs node with --expose-gc).
    globalThis.gc?.();
    const cpuStart = process.cpuUsage();
    const start = nowMs();
    const reader = await connection.runAndReadAll(`SELECT ${kSelect} FROM read_parquet(${list}) WHERE ${where}`);
    const wall = nowMs() - start;
    const cpu = process.cpuUsage(cpuStart);
    // Converted after the clock stopped, for the check only. sum() of no row is NULL.
    const values = reader.getRows()[0].map((v) => (typeof v === 'bigint' ? v.toString() : v ?? 0));
    // Process-wide CPU: DuckDB's worker threads count too.
    return { wall, cpu: (cpu.user + cpu.system) / 1e3, values };
  };
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  return { info, run, close, columnBytes, uniqueComment };
}

const mismatches = [];

function check(query, threads, side, mine, theirs, options) {
  if (sameValues(mine, theirs, options)) return;
  const message = `MISMATCH ${query} at ${threads} thread(s): ${side} ${JSON.stringify(mine)}, ` +
                  `DuckDB ${JSON.stringify(theirs)}`;
  console.error(`\nfilter_vs_duckdb: ${message}`);
  mismatches.push(message);
}

/// The quarry variants measured, [key, options, label]; the reference ones only
/// at the first thread count.
function variants(args) {
  const list = [['quarry', { pruning: false }, 'RowReader + filter, metadata pruning off'],
    ['quarryPruned', { pruning: true }, 'RowReader + filter, metadata pruning on'],
    ['quarryPrunedCached', { pruning: true, cached: true }, 'RowReader + filter, pruning on, footers cached']];
  list.push(['quarryCount', { pruning: false, mode: 'count', first: true },
             'same, pruning off, next() only (no field access)']);
  list.push(['quarryColumns', { mode: 'columns', first: true },
             'no filter: ColumnReaders, predicate in the loop']);
  return list;
}

/// Runs one round: every measurement once, quarry's and DuckDB's in turn, so that
/// a change in the machine's load shifts both sides instead of one.
async function runRound(args, duckdb, duckdbCached, quarryVariants) {
  const sample = {};
  sample.fetched = {};
  for (const threads of args.threads) {
    for (const [query, , where] of kQueries) {
      const d = await duckdb.run(where, threads);
      const dNoPush = await duckdb.run(where, threads, { pushdown: false });
      const dCached = await duckdbCached.run(where, threads);
      check(query, threads, 'DuckDB without filter pushdown', dNoPush.values, d.values);
      check(query, threads, 'DuckDB with parquet_metadata_cache', dCached.values, d.values);
      sample[`duckdb/${query}/${threads}`] = { wall: d.wall, cpu: d.cpu };
      sample[`duckdbNoPushdown/${query}/${threads}`] = { wall: dNoPush.wall, cpu: dNoPush.cpu };
      sample[`duckdbCached/${query}/${threads}`] = { wall: dCached.wall, cpu: dCached.cpu };
      for (const [key, options, label] of quarryVariants) {
        if (options.first && threads !== args.threads[0]) continue;
        const q = runQuarry(args, query, threads, options);
        check(query, threads, `quarry (${label})`, q.values, d.values, { countOnly: options.mode === 'count' });
        sample[`${key}/${query}/${threads}`] = { wall: q.wall, cpu: q.cpu };
        if (key === 'quarryPruned') sample.fetched[`${query}/${threads}`] = { metrics: q.metrics, storage: q.storage };
      }
    }
  }
  return sample;
}

function fmtRate(rowsPerMs) {
  const m = rowsPerMs / 1e3;  // millions of rows a second
  return m >= 100 ? m.toFixed(0) : m >= 10 ? m.toFixed(1) : m.toFixed(2);
}

const args = parseFileArgs(process.argv.slice(2), 'filter_vs_duckdb', { queries: 'partkey,orderkey,quantity' });
const kQueries = args.queries.split(',').map((name) => {
  const query = kAllQueries.find(([q]) => q === name);
  if (!query) {
    console.error(`filter_vs_duckdb: unknown query '${name}' (known: ${kAllQueries.map(([q]) => q).join(', ')})`);
    process.exit(2);
  }
  return query;
});
const quarryVariants = variants(args);
const loadBefore = os.loadavg()[0];
const duckdb = await openDuckDB(args.files, { metadataCache: false });
const duckdbCached = await openDuckDB(args.files, { metadataCache: true });
for (const query of kQueries) {
  if (query[0] !== 'comment') continue;
  args.literal = await duckdb.uniqueComment();
  query[2] = `l_comment = '${args.literal.replaceAll("'", "''")}'`;
  console.error(`filter_vs_duckdb: the comment query looks up '${args.literal}'`);
}
console.error(`filter_vs_duckdb: ${args.runs} rounds (and one warm-up), each running every measurement once`);
await runRound(args, duckdb, duckdbCached, quarryVariants);
const samples = [];
for (let r = 0; r < args.runs; ++r) {
  samples.push(await runRound(args, duckdb, duckdbCached, quarryVariants));
  process.stderr.write(`\r  round ${r + 1}/${args.runs}`);
}
process.stderr.write('\n');
const info = duckdb.info;
const columnBytes = {};
for (const [, , , column] of kQueries) columnBytes[column] ??= await duckdb.columnBytes(column);
duckdb.close();
duckdbCached.close();
const loadAfter = os.loadavg()[0];
const med = {};
const medCpu = {};
for (const key of Object.keys(samples[0]).filter((k) => k !== 'fetched')) {
  med[key] = median(samples.map((s) => s[key].wall));
  medCpu[key] = median(samples.map((s) => s[key].cpu));
}

const bytes = args.files.reduce((total, f) => total + statSync(f).size, 0);
const rows = info.rows;
const lines = [];
const out = (s = '') => lines.push(s);
// Rows/s counts the rows scanned (every row of the files), not the rows returned.
const row = (label, key) => {
  if (!(key in med)) return;
  out(`  ${label.padEnd(56)} ${fmtMs(med[key]).padStart(7)} ${fmtMs(medCpu[key]).padStart(7)} ` +
      `${fmtRate(rows / med[key]).padStart(9)} ${fmtRate(rows / medCpu[key]).padStart(9)}`);
};

out(`Filter: ${args.files.length} files, ${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB; ` +
    `SELECT ${kSelect} WHERE ...`);
out(`  ${cpuModel()}, ${os.cpus().length} cores; DuckDB ${info.version}; medians of ${args.runs} ` +
    `round${args.runs === 1 ? '' : 's'}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
out();
out(`${`medians; Mrows/s = rows scanned (${(rows / 1e6).toFixed(0)}M) per second`.padEnd(58)} ${'wall ms'.padStart(7)} ` +
    `${'cpu ms'.padStart(7)} ${'Mrows/s'.padStart(9)} ${'/cpu-s'.padStart(9)}`);
for (const threads of args.threads) {
  const t = `${threads} thread${threads === 1 ? '' : 's'}`;
  for (const [key, options, label] of quarryVariants) {
    if (options.first && threads !== args.threads[0]) continue;
    out(`quarry, ${t}: ${label}`);
    for (const [query, qLabel] of kQueries) row(qLabel, `${key}/${query}/${threads}`);
  }
  out(`DuckDB, SET threads = ${threads}`);
  for (const [query, qLabel] of kQueries) row(qLabel, `duckdb/${query}/${threads}`);
  out(`DuckDB, SET threads = ${threads}, disabled_optimizers = 'filter_pushdown'`);
  for (const [query, qLabel] of kQueries) row(qLabel, `duckdbNoPushdown/${query}/${threads}`);
  out(`DuckDB, SET threads = ${threads}, parquet_metadata_cache = true (warm)`);
  for (const [query, qLabel] of kQueries) row(qLabel, `duckdbCached/${query}/${threads}`);
}
out();
// Each ratio is the median of the per-round ratios: a round's figures were taken
// seconds apart, under the same load.
const comparisons = [
  ['quarry', 'duckdb', 'pruning off / DuckDB'],
  ['quarry', 'duckdbNoPushdown', 'pruning off / DuckDB no pushdown'],
];
comparisons.push(['quarryPruned', 'duckdb', 'pruning on / DuckDB']);
comparisons.push(['quarryPrunedCached', 'duckdbCached', 'cached: pruning on / DuckDB']);
const labelWidth = Math.max(...[...kQueries.map(([, qLabel]) => qLabel), 'geomean / worst'].flatMap(
  (qLabel) => comparisons.map(([, , c]) => `${qLabel}, ${c}`.length))) + 2;
out('quarry / DuckDB, median of per-round ratios, wall (cpu); below 1: quarry faster');
out(`  ${''.padEnd(labelWidth)}${args.threads.map((t) => `${t} thread${t === 1 ? '' : 's'}`.padEnd(16)).join('').trimEnd()}`);
const ratios = {};
for (const [query, qLabel] of kQueries) {
  for (const [mine, theirs, cLabel] of comparisons) {
    let line = `  ${`${qLabel}, ${cLabel}`.padEnd(labelWidth)}`;
    for (const threads of args.threads) {
      const q = `${mine}/${query}/${threads}`;
      const d = `${theirs}/${query}/${threads}`;
      const wall = median(samples.map((s) => s[q].wall / s[d].wall));
      const cpu = median(samples.map((s) => s[q].cpu / s[d].cpu));
      ratios[`${q} vs ${d}`] = { wall, cpu };
      line += `${wall.toFixed(2)} (${cpu.toFixed(2)})`.padEnd(16);
    }
    out(line.trimEnd());
  }
}
// Across the queries, per comparison and thread count: geometric mean and worst.
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
for (const [mine, theirs, cLabel] of comparisons) {
  const per = (t) => kQueries.map(([query]) => ratios[`${mine}/${query}/${t} vs ${theirs}/${query}/${t}`].wall);
  out(`  ${`geomean / worst, ${cLabel}`.padEnd(labelWidth)}` +
      args.threads.map((t) => `${geomean(per(t)).toFixed(2)} / ${Math.max(...per(t)).toFixed(2)}`.padEnd(16)).join('').trimEnd());
}
out();
// What the pruned reader fetched, from the last round at the first thread count
// (the same in every round and at every thread count: pruning does not depend
// on timing).
const fetched = samples[samples.length - 1].fetched;
const kb = (n) => `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KiB`;
out(`quarry, pruning on: bytes fetched vs the compressed bytes of the filter column (all ${args.files.length} files)`);
out(`  ${'query'.padEnd(34)} ${'column'.padStart(11)} ${'reader'.padStart(11)} ${'ratio'.padStart(7)} ` +
    `${'+footers'.padStart(11)} ${'ratio'.padStart(7)} ${'requests'.padStart(8)} ${'pages skipped'.padStart(15)} ` +
    `${'row groups pruned (stats/bloom/dict/pages)'}`);
const bytesRead = {};
for (const [query, qLabel, , column] of kQueries) {
  const f = fetched[`${query}/${args.threads[0]}`];
  const m = f.metrics;
  const total = columnBytes[column];
  bytesRead[query] = { column, columnBytes: total, metrics: m, storage: f.storage,
                       readerRatio: m.bytesFetched / total, storageRatio: f.storage.bytes / total };
  const pruned = [m.rowGroupsPrunedByStatistics, m.rowGroupsPrunedByBloomFilter, m.rowGroupsPrunedByDictionary,
                  m.rowGroupsPrunedByPageIndex].join('/');
  out(`  ${qLabel.padEnd(34)} ${kb(total).padStart(11)} ${kb(m.bytesFetched).padStart(11)} ` +
      `${(m.bytesFetched / total).toFixed(4).padStart(7)} ${kb(f.storage.bytes).padStart(11)} ` +
      `${(f.storage.bytes / total).toFixed(4).padStart(7)} ${String(f.storage.requests).padStart(8)} ` +
      `${`${m.pagesSkipped}/${m.pagesTotal}`.padStart(15)} ${pruned} of ${m.rowGroupsTotal}`);
}
out('  reader: ReaderMetrics::bytesFetched (pages, page indexes, Bloom filters, dictionaries); ' +
    '+footers: everything the files\' storage fetched, footers included; requests: the latter\'s read requests');
out();
if (mismatches.length > 0) {
  out(`RESULTS DIFFER (${mismatches.length}):`);
  for (const m of mismatches) out(`  ${m}`);
} else {
  out('Results: quarry and DuckDB return the same count and sum(l_extendedprice) for every query, ' +
      'at every thread count, in every round.');
}
console.log(lines.join('\n'));

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    files: args.files, bytes, cpu: cpuModel(), cores: os.cpus().length, runs: args.runs, loadBefore, loadAfter,
    duckdb: info, medianWallMs: med, medianCpuMs: medCpu, ratios, bytesRead, mismatches,
    samplesMs: samples.map(({ fetched: _, ...times }) => times),
  }, null, 2) + '\n');
}
if (mismatches.length > 0) process.exit(1);
