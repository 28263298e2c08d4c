#!/usr/bin/env node
// Differential test of the query engine: a generated corpus of queries
// (query_generator.mjs) and TPC-H Q1 and Q6 (tpch.mjs) over Parquet files that
// DuckDB writes at test time (dataset.mjs), each run by `quarry query` and its
// SQL by DuckDB, the results compared by value (result_compare.mjs). Before the
// queries, each file is read whole by `quarry print --format ndjson` and
// compared the same way: a difference there is the reader's, not the engine's.
//
//   node tests/differential/engine/engine_queries.mjs QUARRY DIR [options]
//
//   QUARRY            the quarry binary (or $QUARRY_BIN when QUARRY is "-")
//   DIR               where the datasets are written (emptied first)
//   --self-check      run the DuckDB side only: every SQL statement must run, and
//                     its answer printed as quarry prints JSON must be accepted
//   --stub            use stub_quarry.mjs (DuckDB answering the SQL of each query)
//                     as quarry: tests this runner without the engine
//   --count N         corpus size (default 2000)
//   --seed S          corpus seed (default 1)
//   --limit K         only the first K generated queries (TPC-H still runs)
//   --only I          only query I (an index, or tpch-q1 / tpch-q6)
//   --jobs J          quarry processes at once (default 2)
//   --format F        json (default), ndjson or arrow: quarry's result as an Arrow
//                     IPC stream read by apache-arrow (quarry_arrow.mjs, an Arrow
//                     implementation independent of quarry), its values compared
//                     with DuckDB's as the JSON's are, and its Arrow types with
//                     DuckDB's column types
//   --print-queries   print the queries, one a line, and exit
//   --quarry-args A   extra arguments of every `quarry query`, split on spaces
//                     (e.g. "--nodes 127.0.0.1:7001,127.0.0.1:7002 --token-file F")
//   --data-nodes N    start N data nodes (`quarry serve` on 127.0.0.1, allowed to
//                     read DIR, a fresh token) once the data is written, run every
//                     query through them (--nodes ... --token-file ...) and stop
//                     them at the end: the corpus through a cluster
//   --metadata-cache  run the corpus twice with quarry's metadata cache on (a
//                     fresh QUARRY_CACHE_DIR under DIR): the first pass fills it,
//                     the second must be answered from it (every query's profile:
//                     each file's footer from the cache, no footer read); both
//                     passes compared with DuckDB
//   --save-corpus     also save the corpus and DuckDB's answers in DIR
//                     (corpus_answers.mjs), for runs given --corpus-from DIR
//   --corpus-from C   take the datasets, the corpus and DuckDB's answers from C,
//                     where a run with --save-corpus (and the same --seed and
//                     --count) left them, instead of writing and answering them
//                     again; DIR then holds only this run's profiles, cache and
//                     token. ctest's self-check saves them once per build (the
//                     fixture engine_corpus_answers) for the local, metadata
//                     cache and cluster runs, which compare quarry with them.
//
// The files of the datasets are read whole by `quarry print` (below) in a run
// without --metadata-cache and --data-nodes only: print reads them locally and
// without the metadata cache whatever those options say, so the local run's
// check is theirs too.
//
// A query the generator marks with `expectError` (an integer overflow) may be
// refused by DuckDB: quarry must then fail with the expected error text ("both
// failed"), else their answers are compared. The corpus statistics
// (corpus_statistics.mjs: queries per feature, LIMIT 0 share, refusals, the data's
// NULL rate) are printed before the run.
//
// Each query runs with --profile-out: the profile's result columns (names and
// types) are compared with DuckDB's, an empty result's too. Empty results are
// counted and capped (kMaxEmptyShare of the generated queries).
//
// Exit status: 0 when all agree, 1 with the count of mismatches, 77 (ctest:
// skipped) when the DuckDB oracle is not installed, 2 on bad usage.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadCorpus, saveCorpus } from './corpus_answers.mjs';
import { corpusStatistics, dataNullStatistics, formatStatistics } from './corpus_statistics.mjs';
import { ORC_COLUMNS, writeDatasets } from './dataset.mjs';
import { generateQuery } from './query_generator.mjs';
import { arrowTypeProblems, readArrowRows } from './quarry_arrow.mjs';
import { quarryJsonLines } from './quarry_json.mjs';
import { Num, parseJson } from '../exact_json.mjs';
import {
  compareResult, duckdbResult, parseQuarryOutput,
} from './result_compare.mjs';
import { tpchQueries } from './tpch.mjs';
import { arrowOrSkip } from '../../support/arrow.mjs';
import { duckdbOrSkip } from '../../support/duckdb.mjs';
import { runProcess } from '../../support/processes.mjs';

const kSkip = 77;
const kQueryTimeoutMs = 60_000;
const kRowsShown = 3;
const kMismatchesShown = 20;
// "empty results capped at a few percent of the corpus": an empty result checks
// names and types only, so a corpus of them would test little.
export const kMaxEmptyShare = 0.04;
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');

function usage(message) {
  process.stderr.write(`engine_queries: ${message}\n` +
      'usage: node tests/differential/engine/engine_queries.mjs QUARRY DIR [--self-check] [--stub]\n' +
      '       [--count N] [--seed S] [--limit K] [--only I] [--jobs J] [--format json|ndjson|arrow]\n' +
      '       [--print-queries] [--quarry-args "ARGS"] [--data-nodes N] [--metadata-cache]\n' +
      '       [--save-corpus] [--corpus-from C]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const options = { count: 2000, seed: 1, limit: null, only: null, jobs: 2, format: 'json',
                    selfCheck: false, stub: false, printQueries: false, positional: [],
                    quarryArgs: [], dataNodes: 0, metadataCache: false, saveCorpus: false,
                    corpusFrom: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      return argv[++i];
    };
    const number = () => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 0) usage(`${arg} needs a non-negative integer`);
      return v;
    };
    if (arg === '--self-check') options.selfCheck = true;
    else if (arg === '--stub') options.stub = true;
    else if (arg === '--print-queries') options.printQueries = true;
    else if (arg === '--metadata-cache') options.metadataCache = true;
    else if (arg === '--save-corpus') options.saveCorpus = true;
    else if (arg === '--corpus-from') options.corpusFrom = resolve(value());
    else if (arg === '--count') options.count = number();
    else if (arg === '--seed') options.seed = number();
    else if (arg === '--limit') options.limit = number();
    else if (arg === '--jobs') options.jobs = Math.max(1, number());
    else if (arg === '--only') options.only = value();
    else if (arg === '--quarry-args') options.quarryArgs = value().split(/\s+/).filter((a) => a !== '');
    else if (arg === '--data-nodes') options.dataNodes = number();
    else if (arg === '--format') {
      options.format = value();
      if (!['json', 'ndjson', 'arrow'].includes(options.format)) usage('--format is json, ndjson or arrow');
    } else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else options.positional.push(arg);
  }
  if (options.positional.length !== 2) usage('expected QUARRY and DIR');
  if (options.saveCorpus && (options.limit !== null || options.only !== null || options.corpusFrom)) {
    usage('--save-corpus saves the whole corpus: not with --limit, --only or --corpus-from');
  }
  return options;
}

function skip(message) {
  process.stderr.write(`\n*** SKIPPED engine_queries: ${message} ***\n\n`);
  process.exit(kSkip);
}

/// Runs `command args...`; resolves to { stdout, stderr, status, signal, error }.
function run(command, args, env) {
  return runProcess(command, args, { env, timeoutMs: kQueryTimeoutMs });
}

/// Starts `count` data nodes (`quarry serve`) on 127.0.0.1 allowed to read
/// `root`, their token written in `dir`; resolves to { args (the query options
/// that use them), stop() }.
async function startDataNodes(quarry, dir, root, count) {
  const tokenFile = join(dir, 'cluster-token');
  writeFileSync(tokenFile, randomBytes(24).toString('hex') + '\n', { mode: 0o600 });
  const children = [];
  const stop = () => { for (const child of children) child.kill('SIGTERM'); };
  const addresses = [];
  try {
    for (let i = 0; i < count; i++) {
      const child = spawn(quarry, ['serve', '--listen', '127.0.0.1:0', '--token-file', tokenFile,
                                   '--allow-root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      addresses.push(await new Promise((resolvePromise, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error('a data node did not start in 30 s')), 30_000);
        child.on('exit', (code) => reject(new Error(`a data node exited with ${code}`)));
        child.stdout.on('data', (d) => {
          text += d;
          const m = /^quarry serve: listening on (\S+)\n/.exec(text);
          if (m) {
            clearTimeout(timer);
            resolvePromise(m[1]);
          }
        });
      }));
    }
  } catch (e) {
    stop();
    throw e;
  }
  process.stdout.write(`engine_queries: ${count} data nodes at ${addresses.join(', ')}\n`);
  return { args: ['--nodes', addresses.join(','), '--token-file', tokenFile], stop };
}

const oneLine = (text) => text.replace(/\s*\n\s*/g, ' ');
const firstLines = (text, n) => String(text).trim().split('\n').slice(0, n).join('\n      ');

// Draws of a query whose result is empty before it is drawn again; one query in
// kEmptyKeptEvery keeps its empty first draw, and LIMIT 0 queries keep theirs, so
// that empty results (names and types, no rows) stay in the corpus, capped.
const kMaxAttempts = 6;
const kEmptyKeptEvery = 50;

/// Selects the corpus: each generated query whose DuckDB result is empty is drawn
/// again (query_generator.mjs's next attempt) up to kMaxAttempts times, unless
/// kept (above); the selection depends on the data and DuckDB only, both fixed,
/// so query I is the same on every run. Resolves to { pairs, answers } where
/// `answers` maps a pair to its DuckDB result, or to the SQL error. `check`, when
/// given, is called with each chosen pair and its result while DuckDB's reader is
/// still at hand (the self-check), which is then let go: a whole corpus of
/// readers held to the end is a large heap.
async function selectPairs(options, files, connections, T, check = null) {
  const dir = dirname(files.typed[0]);
  let indices = Array.from({ length: options.limit ?? options.count }, (_, i) => i)
      .filter((i) => i < options.count);
  const tpch = tpchQueries(files.lineitem);
  let extra = tpch;
  if (options.only !== null) {
    indices = indices.filter((i) => String(i) === options.only);
    extra = tpch.filter((p) => p.index === options.only);
    if (indices.length === 0 && extra.length === 0) usage(`no query ${options.only}`);
  }
  const answers = new Map();
  const keep = (pair, duck) => {
    if (check) {
      check(pair, duck);
      delete duck.reader;
    }
    answers.set(pair, duck);
  };
  const chosen = new Array(indices.length);
  const answer = async (connection, pair) => {
    try {
      return await duckdbResult(connection, pair.sql, T, check !== null);
    } catch (e) {
      const message = e.message.split('\n')[0];
      // An overflow DuckDB raises where quarry must raise too.
      if (pair.expectError && new RegExp(pair.expectError.duckdb).test(message)) return { refused: message };
      return { sqlError: message };
    }
  };
  let next = 0;
  await Promise.all(connections.map(async (connection) => {
    while (next < indices.length) {
      const k = next++;
      const index = indices[k];
      let pair;
      let duck;
      for (let attempt = 0; attempt < kMaxAttempts; attempt++) {
        pair = generateQuery({ seed: options.seed, index, attempt, files, dir });
        // Without chDB there are no ORC twins: such a query is left out (counted).
        if (pair.needsOrc && !files.orc) break;
        duck = await answer(connection, pair);
        const keep = pair.limitZero || (attempt === 0 && index % kEmptyKeptEvery === 0);
        if (duck.sqlError || duck.refused || duck.rows.length > 0 || keep) break;
      }
      chosen[k] = pair;
      if (duck) keep(pair, duck);
    }
  }));
  for (const pair of extra) keep(pair, await answer(connections[0], pair));
  const noOrc = chosen.filter((p) => !answers.has(p)).length;
  return { pairs: [...chosen.filter((p) => answers.has(p)), ...extra], answers, noOrc };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let [quarry, dir] = options.positional;
  if (quarry === '-') quarry = process.env.QUARRY_BIN ?? '';
  dir = resolve(dir);
  const api = await duckdbOrSkip(skip);
  const T = api.DuckDBTypeId;
  const arrow = options.format === 'arrow' ? await arrowOrSkip(skip) : null;
  if (!options.selfCheck && !options.stub && !options.printQueries && !existsSync(quarry)) {
    usage(`no quarry binary at ${JSON.stringify(quarry)}`);
  }

  const instance = await api.DuckDBInstance.create(':memory:');
  const setup = await instance.connect();
  const started = Date.now();
  const connections = [];
  for (let j = 0; j < options.jobs; j++) {
    const c = await instance.connect();
    await c.run("SET TimeZone = 'UTC'");
    connections.push(c);
  }
  // The self-check: DuckDB's own answer, printed as a correct engine prints it,
  // must be accepted (checked as each answer arrives, its reader then let go).
  const selfCheckProblems = new Map();
  const check = !options.selfCheck ? null : (pair, duck) => {
    if (!duck.reader) return;  // refused, or an SQL error (counted below)
    const rows = quarryJsonLines(duck.reader, T).map((line) => parseJson(line));
    selfCheckProblems.set(pair, compareResult(rows, duck, pair, T, null));
  };
  let files;
  let pairs;
  let answers;
  let noOrc;
  let dataNulls;
  const dataDir = options.corpusFrom ?? dir;
  if (options.corpusFrom) {
    let saved;
    try {
      saved = loadCorpus(options.corpusFrom, options);
    } catch (e) {
      process.stderr.write(`engine_queries: ${e.message}\n`);
      return 1;
    }
    ({ files, answers, noOrc, dataNulls } = saved);
    // --limit and --only pick from the saved corpus what selectPairs would pick:
    // query I is the same whatever else runs.
    pairs = saved.pairs.filter((p) => (typeof p.index === 'number'
      ? (options.limit === null || p.index < options.limit) && (options.only === null || String(p.index) === options.only)
      : options.only === null || p.index === options.only));
    if (pairs.length === 0) usage(`no query ${options.only}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  } else {
    files = await writeDatasets(setup, dir);
    ({ pairs, answers, noOrc } = await selectPairs(options, files, connections, T, check));
    dataNulls = await dataNullStatistics(setup, files);
  }
  if (options.printQueries) {
    for (const p of pairs) process.stdout.write(`${oneLine(p.query)}\n`);
    return 0;
  }
  // The stub finds each query's SQL here; a person debugging finds the corpus.
  const corpusPath = join(dir, 'corpus.json');
  writeFileSync(corpusPath, JSON.stringify(pairs, null, 1));
  const redrawn = pairs.filter((p) => p.attempt > 0).length;
  process.stdout.write(`engine_queries: ${pairs.length} queries (seed ${options.seed}; ${redrawn} drawn ` +
                       `again for an empty result), data in ${dataDir}` +
                       `${options.corpusFrom ? ', answered by DuckDB there' : ''} (${Date.now() - started} ms)\n`);
  if (noOrc > 0) {
    process.stdout.write(`engine_queries: ${noOrc} queries of ORC files left out: chDB (which writes ` +
                         'them) is not installed; run `make oracle`\n');
  }
  const refusals = pairs.filter((p) => answers.get(p).refused).length;
  process.stdout.write(formatStatistics(corpusStatistics(pairs), dataNulls, refusals));
  const command = options.stub ? process.execPath : quarry;
  const prefix = options.stub ? [join(here, 'stub_quarry.mjs')] : [];
  const env = { ...process.env, QUARRY_STUB_CORPUS: corpusPath };

  let cluster = null;
  if (options.dataNodes > 0 && !options.selfCheck && !options.stub) {
    cluster = await startDataNodes(quarry, dir, dataDir, options.dataNodes);
    process.on('exit', () => cluster.stop());
  }
  const queryArgs = [...options.quarryArgs, ...(cluster ? cluster.args : [])];

  const failures = [];
  if (!options.selfCheck && !options.stub && options.only === null && !options.metadataCache &&
      options.dataNodes === 0) {
    // The files first, whole, through `quarry print` (the reader and the JSON
    // renderer the engine shares): a difference here is not the engine's.
    // The ORC twins against their Parquet files' columns that ORC holds (as a
    // multiset: chDB keeps the rows' order, but nothing requires it to).
    const orc = (files.orc ?? []).map((file) => ({ file, sql: `SELECT ${ORC_COLUMNS.map((c) => `"${c.name}"`)
        .join(', ')} FROM read_parquet('${file.replace(/\.orc$/, '.parquet')}')`, ordered: false }));
    const parquet = [...files.typed, ...files.extra, ...files.lineitem]
        .map((file) => ({ file, sql: `SELECT * FROM read_parquet('${file}')`, ordered: true }));
    for (const { file, sql, ordered } of [...parquet, ...orc]) {
      const pair = { index: `print ${file}`, query: `quarry print --format ndjson ${file}`,
                     sql, ordered, tolerance: {}, shape: 'print' };
      const result = await run(quarry, ['print', '--format', 'ndjson', file], process.env);
      const duck = await duckdbResult(connections[0], pair.sql, T);
      let problems;
      if (result.error || result.signal || result.status !== 0) {
        problems = [`quarry print failed: ${result.error?.message ?? result.signal ?? firstLines(result.stderr, 2)}`];
      } else {
        problems = compareResult(parseQuarryOutput(result.stdout), duck, pair, T, null);
      }
      if (problems.length > 0) failures.push({ pair, problems, quarryOut: result.stdout, duck });
    }
  }
  const stats = { sqlErrors: 0, rejected: 0, emptyResults: 0, emptyGenerated: 0, generated: 0,
                  rows: 0, ordered: 0, shapes: {}, fromCache: 0, refused: 0 };
  const profiles = join(dir, 'profiles');
  // One pass over the corpus: `label` names it in the problems, `env` is quarry's
  // environment, `cached` requires every query's footers to come from the cache.
  const runPass = async (label, passEnv, cached, counting) => {
    rmSync(profiles, { recursive: true, force: true });
    mkdirSync(profiles, { recursive: true });
    let next = 0;
    let done = 0;
    const worker = async (connection) => {
      while (next < pairs.length) {
        const pair = pairs[next++];
        if (counting) {
          stats.shapes[pair.shape] = (stats.shapes[pair.shape] ?? 0) + 1;
          if (pair.ordered) stats.ordered++;
        }
        const profilePath = join(profiles, `${String(pair.index).replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
        const quarryRun = options.selfCheck ? null
            : run(command, [...prefix, 'query', pair.query, '--format', options.format,
                            '--profile-out', profilePath, ...queryArgs], passEnv);
        const duck = answers.get(pair);
        if (duck.refused) {
          // DuckDB refuses (an overflow): quarry must refuse with its own error.
          if (counting) stats.refused++;
          if (!quarryRun) continue;
          const result = await quarryRun;
          const expected = new RegExp(pair.expectError.quarry);
          if (result.error || result.signal || result.status === 0 || !expected.test(result.stderr)) {
            const what = result.error?.message ?? result.signal ??
                (result.status === 0 ? `exit 0 with ${firstLines(result.stdout, 2)}` : `exit ${result.status}: ${firstLines(result.stderr, 4)}`);
            failures.push({ pair, problems: [`${label ? `${label}: ` : ''}DuckDB refuses (${duck.refused}); ` +
                                             `quarry must fail with /${pair.expectError.quarry}/, but: ${what}`] });
          }
          if (++done % 250 === 0) process.stdout.write(`  ${label ? `${label}: ` : ''}${done}/${pairs.length}\n`);
          continue;
        }
        try {
          if (duck.sqlError) throw new Error(duck.sqlError);
          if (counting) {
            stats.rows += duck.rows.length;
            if (duck.rows.length === 0) stats.emptyResults++;
            if (typeof pair.index === 'number') {
              stats.generated++;
              if (duck.rows.length === 0) stats.emptyGenerated++;
            }
          }
          if (options.selfCheck) {
            const problems = selfCheckProblems.get(pair);
            if (problems.length > 0) {
              stats.rejected++;
              failures.push({ pair, problems: ['a correct answer is rejected:', ...problems] });
            }
          }
        } catch (e) {
          stats.sqlErrors++;
          failures.push({ pair, problems: [`DuckDB cannot run the SQL: ${e.message.split('\n')[0]}`] });
          if (quarryRun) await quarryRun;
          continue;
        }
        if (quarryRun) {
          const result = await quarryRun;
          let problems;
          if (result.error || result.signal) {
            problems = [`quarry did not finish: ${result.error?.message ?? result.signal}`];
          } else if (result.status !== 0) {
            problems = [`quarry exit ${result.status}: ${firstLines(result.stderr, 4)}`];
          } else {
            let profile = null;
            try {
              profile = JSON.parse(readFileSync(profilePath, 'utf8'));
            } catch (e) {
              problems = [`quarry wrote no readable profile: ${e.message}`];
            }
            if (profile && arrow) {
              try {
                const { table, rows } = readArrowRows(arrow, result.stdoutBytes);
                problems = [...arrowTypeProblems(arrow, table, duck, pair, T),
                            ...compareResult(rows, duck, pair, T, profile.columns)];
                // What the mismatch report shows of quarry's answer: the rows as read.
                result.stdout = rows.slice(0, kRowsShown + 1)
                    .map((row) => JSON.stringify(row, (_, v) => (v instanceof Num ? v.text : v))).join('\n');
              } catch (e) {
                problems = [`apache-arrow cannot read quarry's Arrow stream: ${e.message}`];
                result.stdout = `${result.stdoutBytes.length} bytes`;
              }
            } else if (profile) {
              try {
                problems = compareResult(parseQuarryOutput(result.stdout), duck, pair, T, profile.columns);
              } catch (e) {
                problems = [`quarry output is not JSON: ${e.message}`];
              }
              const footers = profile.footers ?? {};
              const filesRead = profile.files?.read;
              if (cached && (footers.from_metadata_cache !== filesRead || footers.requests !== 0)) {
                problems.push(`not answered from the metadata cache: ${filesRead} files, ` +
                              `${footers.from_metadata_cache} footers from the cache, ` +
                              `${footers.requests} footer requests`);
              }
              if (cached && footers.from_metadata_cache === filesRead) stats.fromCache++;
            }
          }
          if (problems.length > 0) {
            if (label) problems.unshift(label);
            failures.push({ pair, problems, quarryOut: result.stdout, duck });
          }
        }
        if (++done % 250 === 0) process.stdout.write(`  ${label ? `${label}: ` : ''}${done}/${pairs.length}\n`);
      }
    };
    await Promise.all(connections.map((c) => worker(c)));
  };
  if (options.metadataCache && !options.selfCheck) {
    // A fresh cache: the first pass fills it (and is compared), the second is
    // answered from it (and is compared again).
    const cacheDir = join(dir, 'metadata-cache');
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    const cacheEnv = { ...env, QUARRY_CACHE_DIR: cacheDir };
    await runPass('metadata cache, first pass (fills it)', cacheEnv, false, true);
    await runPass('metadata cache, second pass (from it)', cacheEnv, true, false);
  } else {
    await runPass(null, env, false, true);
  }

  const shapes = Object.entries(stats.shapes).map(([k, v]) => `${k} ${v}`).join(', ');
  const emptyShare = stats.generated > 0 ? stats.emptyGenerated / stats.generated : 0;
  process.stdout.write(`\nengine_queries: ${pairs.length} queries (${shapes}; ${stats.ordered} ordered), ` +
                       `${stats.rows} DuckDB rows, ${stats.refused} refused (overflow) by both, ` +
                       `${stats.emptyResults} empty results ` +
                       `(${(100 * emptyShare).toFixed(1)} % of the generated queries, at most ` +
                       `${100 * kMaxEmptyShare} %), ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (options.metadataCache) {
    process.stdout.write(`metadata cache: ${stats.fromCache} of ${pairs.length} queries of the second ` +
                         'pass answered with every footer from the cache\n');
  }
  // Only a corpus large enough for a share to mean something is held to the cap.
  const tooManyEmpty = stats.generated >= 200 && emptyShare > kMaxEmptyShare;
  if (tooManyEmpty) {
    failures.push({ pair: { index: 'corpus', query: '-', sql: '-', shape: 'corpus' },
                    problems: [`${stats.emptyGenerated} of ${stats.generated} generated queries have an ` +
                               `empty result, more than ${100 * kMaxEmptyShare} %`] });
  }

  for (const { pair, problems, quarryOut, duck } of failures.slice(0, kMismatchesShown)) {
    process.stdout.write(`\nMISMATCH query ${pair.index} (seed ${options.seed}, ${pair.shape}` +
                         `${pair.ordered ? ', ordered' : ', multiset'}):\n` +
                         `  query: ${pair.query}\n  sql:   ${oneLine(pair.sql)}\n`);
    for (const p of problems) process.stdout.write(`  - ${p}\n`);
    if (quarryOut !== undefined) {
      process.stdout.write(`  quarry: ${firstLines(quarryOut, kRowsShown + 1)}\n`);
      const shown = duck.rows.slice(0, kRowsShown).map((r) =>
          JSON.stringify(Object.fromEntries(duck.columns.map((n, i) => [n, r[i]]))));
      process.stdout.write(`  duckdb: [${duck.columns.join(', ')}] ${duck.rows.length} rows\n` +
                           shown.map((s) => `      ${s}\n`).join(''));
    }
  }
  if (failures.length > kMismatchesShown) {
    process.stdout.write(`\n... and ${failures.length - kMismatchesShown} more\n`);
  }
  if (failures.length > 0) {
    // The most frequent causes first: when the engine lacks a function, one line says so.
    const causes = {};
    for (const { problems } of failures) {
      const cause = problems[0].replace(/\d+/g, 'N').replace(/"[^"]*"/g, '"..."').slice(0, 160);
      causes[cause] = (causes[cause] ?? 0) + 1;
    }
    process.stdout.write('\ncauses (first problem of each query, numbers and strings elided):\n');
    for (const [cause, n] of Object.entries(causes).sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      process.stdout.write(`  ${String(n).padStart(5)}  ${cause}\n`);
    }
  }
  if (cluster) cluster.stop();
  // Saved only when everything agreed: the runs that read it compare with answers
  // this run has checked.
  if (options.saveCorpus && failures.length === 0) {
    saveCorpus(dir, { seed: options.seed, count: options.count, files, noOrc, dataNulls, pairs, answers });
    process.stdout.write(`engine_queries: the corpus and DuckDB's answers saved in ${dir}\n`);
  }
  for (const c of connections) c.closeSync();
  setup.closeSync();
  instance.closeSync();
  if (options.selfCheck) {
    const ok = stats.sqlErrors === 0 && stats.rejected === 0 && !tooManyEmpty;
    process.stdout.write(ok ? 'self-check: every SQL statement runs in DuckDB, and its answer in ' +
                              "quarry's JSON form is accepted\n"
                            : `self-check: ${stats.sqlErrors} SQL statements fail, ` +
                              `${stats.rejected} correct answers rejected` +
                              `${tooManyEmpty ? ', too many empty results' : ''}\n`);
    return ok ? 0 : 1;
  }
  const printed = failures.filter((f) => f.pair.shape === 'print').length;
  process.stdout.write(failures.length === 0 ? 'all results agree with DuckDB\n'
      : `${failures.length - printed} of ${pairs.length} queries disagree` +
        (printed ? `, and ${printed} files read by quarry print\n` : '\n'));
  return failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
