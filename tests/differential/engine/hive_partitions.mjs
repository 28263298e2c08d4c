// Hive partitions against DuckDB's read_parquet(..., hive_partitioning = true):
// layouts of 1 to 3 key=value levels (integer, date, timestamp and string keys,
// URL-encoded values such as city=S%C3%A3o%20Paulo, the default partition's
// null, files of two schemas under union_by_name) written by DuckDB under DIR,
// and generated queries (WHERE on partition columns, file columns and
// _file.path, then KEEP, EVAL, STATS BY, SORT + LIMIT) run by `quarry query`
// and DuckDB, compared exactly (names, types, values). Each query's profile
// must also show the files the WHERE prunes by paths alone: `files.read` is
// the number of files DuckDB finds rows in under the path-only conjuncts, and
// `files.read + files.pruned_by_partition` every file the glob matches.
//
// Grouped answers from statistics (issue 29: "STATS COUNT(*), COUNT(x),
// MIN(x), MAX(x) BY <partition columns> answered from footer statistics ...
// equal to the same query forced to scan and to DuckDB's"): --grouped more
// queries STATS COUNT/MIN/MAX of file columns BY partition columns under the
// same generated WHEREs. Each is also run forced to scan (`EVAL __k = 1`
// between the source and STATS, where PushAggregatesToExternalSource does not
// match: its profile must answer no row group from statistics), and both
// answers must equal DuckDB's. At least a third of them must be answered from
// statistics (row_groups.answered_from_statistics > 0) with no row decoded.
//
//   node hive_partitions.mjs QUARRY DIR [--count N] [--grouped G] [--seed S]
//
// Exits 1 on any difference or error (naming the query), 77 when DuckDB's
// oracle is missing (ctest: skipped, which fails `make test`).

import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { duckdbOrSkip } from '../../support/duckdb.mjs';
import { runProcess } from '../../support/processes.mjs';
import { esqlLikeLiteral, likeSql, Random } from './query_generator.mjs';
import { compareResult, duckdbResult, parseQuarryOutput } from './result_compare.mjs';

const kSkip = 77;
const args = process.argv.slice(2);
const positional = [];
const options = { count: 520, grouped: 150, seed: 29 };
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--count') options.count = Number(args[++i]);
  else if (args[i] === '--grouped') options.grouped = Number(args[++i]);
  else if (args[i] === '--seed') options.seed = Number(args[++i]);
  else positional.push(args[i]);
}
if (positional.length !== 2) {
  process.stderr.write('usage: hive_partitions.mjs QUARRY DIR [--count N] [--seed S]\n');
  process.exit(2);
}
const [quarry, dirArg] = positional;
const dir = resolve(dirArg);

const api = await duckdbOrSkip((message) => {
  process.stderr.write(`\n*** SKIPPED hive_partitions: ${message} ***\n\n`);
  process.exit(kSkip);
});
const T = api.DuckDBTypeId;
const instance = await api.DuckDBInstance.create(':memory:');
const duck = await instance.connect();

// ---- Layouts ---------------------------------------------------------------------

const CITIES = ['S%C3%A3o%20Paulo', 'New%20York', 'Z%C3%BCrich', 'plain', 'a%2Fb', '__HIVE_DEFAULT_PARTITION__'];
const decodedCity = (c) => (c === '__HIVE_DEFAULT_PARTITION__' ? null : decodeURIComponent(c));

/// Each layout: its folders (key=value segments), its partition columns (name,
/// kind, the decoded values by folder) and the file columns.
const layouts = [];
let nextId = 0;

async function writeFile(path, rows, schema) {
  mkdirSync(join(path, '..'), { recursive: true });
  const select = schema === 'b'
    ? `SELECT (i + ${nextId})::BIGINT AS id, 'b' || (i % 3) AS b, chr((97 + i % 5)::INTEGER) AS s`
    : `SELECT (i + ${nextId})::INTEGER AS id, (i % 7)::INTEGER AS a, chr((97 + i % 5)::INTEGER) AS s`;
  await duck.run(`COPY (${select} FROM range(${rows}) r(i)) TO '${path}' (FORMAT parquet)`);
  nextId += rows;
}

async function layout(name, levels, { unionByName = false } = {}) {
  const root = join(dir, name);
  const folders = [[]];
  for (const level of levels) {
    const next = [];
    for (const folder of folders) for (const value of level.values) next.push([...folder, `${level.key}=${value}`]);
    folders.splice(0, folders.length, ...next);
  }
  let files = 0;
  for (const folder of folders) {
    const at = join(root, ...folder);
    await writeFile(join(at, 'part-0.parquet'), 3 + (files % 4), 'a');
    files++;
    if (unionByName) {
      await writeFile(join(at, 'part-1.parquet'), 2 + (files % 3), 'b');
      files++;
    }
  }
  layouts.push({ name, root, levels, unionByName, files,
                 fileColumns: unionByName ? ['id', 'a', 's', 'b'] : ['id', 'a', 's'] });
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
await layout('one_level', [{ key: 'year', kind: 'int', values: ['2021', '2022', '2023', '2024', '__HIVE_DEFAULT_PARTITION__'] }]);
await layout('two_levels', [
  { key: 'dt', kind: 'date', values: ['2024-01-01', '2024-01-02', '2024-02-29'] },
  { key: 'city', kind: 'string', values: CITIES },
]);
await layout('three_levels', [
  { key: 'year', kind: 'int', values: ['2023', '2024'] },
  { key: 'month', kind: 'string', values: ['01', '06', '12'] },
  { key: 'region', kind: 'string', values: ['north', 'south', '__HIVE_DEFAULT_PARTITION__'] },
], { unionByName: true });
await layout('timestamps', [
  { key: 'ts', kind: 'timestamp', values: ['2024-01-05 10:00:00', '2024-01-05 23:59:59.5', '2024-03-01 00:00:00'] },
  { key: 'n', kind: 'int', values: ['-3', '0', '17'] },
]);

// ---- Queries ---------------------------------------------------------------------

const q = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;  // quarry string
const d = (s) => `'${s.replace(/'/g, "''")}'`;                          // DuckDB string

/// A literal of a partition value on both sides.
function literal(kind, value) {
  switch (kind) {
    case 'int': return { quarry: value, duck: value };
    case 'date': return { quarry: `DATE '${value}'`, duck: `DATE '${value}'` };
    case 'timestamp': return { quarry: `TIMESTAMP '${value}'`, duck: `TIMESTAMP '${value}'` };
    default: return { quarry: q(value), duck: d(value) };
  }
}

function partitionValues(level) {
  return level.values.map((v) => (level.kind === 'string' ? decodedCity(v) : v === '__HIVE_DEFAULT_PARTITION__' ? null : v))
    .filter((v) => v !== null);
}

/// A conjunct: { quarry, duck, pathOnly }.
function conjunct(rng, L) {
  const level = rng.pick(L.levels);
  const values = partitionValues(level);
  const key = level.key;
  const choice = rng.int(0, 9);
  if (choice <= 1) {
    const v = literal(level.kind, rng.pick(values));
    return { quarry: `${key} == ${v.quarry}`, duck: `${key} = ${v.duck}`, pathOnly: true };
  }
  if (choice === 2) {
    const a = literal(level.kind, rng.pick(values)), b = literal(level.kind, rng.pick(values));
    return { quarry: `${key} IN (${a.quarry}, ${b.quarry})`, duck: `${key} IN (${a.duck}, ${b.duck})`, pathOnly: true };
  }
  if (choice === 3) {
    const v = literal(level.kind, rng.pick(values));
    const op = rng.pick(['<', '<=', '>', '>=', '!=']);
    return { quarry: `${key} ${op} ${v.quarry}`, duck: `${key} ${op === '!=' ? '<>' : op} ${v.duck}`, pathOnly: true };
  }
  if (choice === 4) {
    const not = rng.int(0, 1) === 1 ? ' NOT' : '';
    return { quarry: `${key} IS${not} NULL`, duck: `${key} IS${not} NULL`, pathOnly: true };
  }
  if (choice === 5) {
    const segment = `${level.key}=${rng.pick(level.values)}`;
    // ES|QL's LIKE: `*` any run; the segment's `%` (URL-encoded values) and `_`
    // (__HIVE_DEFAULT_PARTITION__) are themselves, escaped for DuckDB's LIKE.
    const pattern = `*/${esqlLikeLiteral(segment)}/*`;
    return { quarry: `_file.path LIKE ${q(pattern)}`, duck: likeSql('filename', '', pattern), pathOnly: true };
  }
  if (choice === 6) {
    const a = literal(level.kind, rng.pick(values));
    const other = rng.pick(L.levels);
    const b = literal(other.kind, rng.pick(partitionValues(other)));
    return { quarry: `(${key} == ${a.quarry} OR ${other.key} == ${b.quarry})`,
             duck: `(${key} = ${a.duck} OR ${other.key} = ${b.duck})`, pathOnly: true };
  }
  if (choice === 7) {
    const k = rng.int(0, nextId);
    return { quarry: `id > ${k}`, duck: `id > ${k}`, pathOnly: false };
  }
  if (choice === 8) {
    const s = rng.pick(['a', 'b', 'c']);
    return { quarry: `s != ${q(s)}`, duck: `s <> ${d(s)}`, pathOnly: false };
  }
  return { quarry: `(id < 40 OR ${key} IS NULL)`, duck: `(id < 40 OR ${key} IS NULL)`, pathOnly: false };
}

function generate(index, grouped = false) {
  const rng = new Random(options.seed * 100_003 + index + (grouped ? 7_919_000 : 0));
  const L = layouts[index % layouts.length];
  const typed = L.name === 'one_level' && index % 7 === 0;  // hive_types gives year INTEGER
  const conjuncts = [];
  for (let n = rng.int(0, 3); n > 0; n--) conjuncts.push(conjunct(rng, L));
  const keys = L.levels.map((l) => l.key);
  const pick = (list, n) => rng.sample(list, n);
  let quarryTail = '';
  let select;
  let groupBy = '';
  let orderBy = '';
  let limit = '';
  let ordered = false;
  const shape = grouped ? 4 : rng.int(0, 3);
  let forced = null;
  if (shape === 4) {
    // COUNT/MIN/MAX of file columns BY partition columns: answered from statistics.
    const by = pick(keys, rng.int(1, keys.length));
    const [x, y] = [rng.pick(L.fileColumns), rng.pick(L.fileColumns)];
    const stats = `STATS c_ = COUNT(*), n_ = COUNT(${x}), lo_ = MIN(${x}), hi_ = MAX(${y}) BY ${by.join(', ')}`;
    quarryTail = ` | ${stats}`;
    forced = ` | EVAL __k = 1 | ${stats}`;
    select = `count(*) AS c_, count(${x}) AS n_, min(${x}) AS lo_, max(${y}) AS hi_, ${by.join(', ')}`;
    groupBy = ` GROUP BY ${by.join(', ')}`;
  } else if (shape === 0) {
    const cols = pick([...L.fileColumns, ...keys], rng.int(1, 4));
    quarryTail = ` | KEEP ${cols.join(', ')}`;
    select = cols.join(', ');
  } else if (shape === 1) {
    const by = pick(keys, rng.int(1, keys.length));
    const m = rng.pick(keys);
    quarryTail = ` | STATS rows_ = COUNT(*), c_ = COUNT(${m}), lo_ = MIN(${m}), hi_ = MAX(id) BY ${by.join(', ')}`;
    select = `count(*) AS rows_, count(${m}) AS c_, min(${m}) AS lo_, max(id) AS hi_, ${by.join(', ')}`;
    groupBy = ` GROUP BY ${by.join(', ')}`;
  } else if (shape === 2) {
    const key = rng.pick(L.levels.filter((l) => l.kind === 'int')) ?? null;
    if (key) {
      quarryTail = ` | EVAL x = ${key.key} * 10 + id | KEEP id, x, ${key.key}`;
      select = `id, ${key.key} * 10 + id AS x, ${key.key}`;
    } else {
      quarryTail = ` | EVAL x = ${L.levels[0].key} | KEEP id, x`;
      select = `id, ${L.levels[0].key} AS x`;
    }
  } else {
    const by = pick(keys, rng.int(1, keys.length));
    const k = rng.int(1, 12);
    const desc = rng.int(0, 1) === 1 ? ' DESC' : '';
    const cols = [...new Set(['id', ...by])];
    quarryTail = ` | SORT ${by.map((b) => `${b}${desc} NULLS LAST`).join(', ')}, id | LIMIT ${k} | KEEP ${cols.join(', ')}`;
    select = cols.join(', ');
    orderBy = ` ORDER BY ${by.map((b) => `${b}${desc} NULLS LAST`).join(', ')}, id`;
    limit = ` LIMIT ${k}`;
    ordered = true;
  }
  const withOptions = [];
  const duckOptions = ['hive_partitioning = true'];
  if (L.unionByName) {
    withOptions.push('"schema_resolution": "union_by_name"');
    duckOptions.push('union_by_name = true');
  }
  if (typed) {
    withOptions.push('"hive_types": {"year": "integer"}');
    duckOptions.push("hive_types = {'year': 'INTEGER'}");
  }
  const glob = join(L.root, '**', '*.parquet');
  const table = `${L.name}${typed ? '_typed' : ''}`;
  tables.set(table, `read_parquet(${d(glob)}, ${duckOptions.join(', ')})`);
  const where = conjuncts.length ? ` | WHERE ${conjuncts.map((c) => c.quarry).join(' AND ')}` : '';
  const query = `FROM ${q(glob)}${withOptions.length ? ` WITH {${withOptions.join(', ')}}` : ''}${where}${quarryTail}`;
  const from = table;
  const duckWhere = conjuncts.length ? ` WHERE ${conjuncts.map((c) => c.duck).join(' AND ')}` : '';
  const sql = `SELECT ${select} FROM ${from}${duckWhere}${groupBy}${orderBy}${limit}`;
  const pathOnly = conjuncts.filter((c) => c.pathOnly).map((c) => c.duck);
  const filesSql = `SELECT count(DISTINCT filename) AS n FROM ${from}` +
                   (pathOnly.length ? ` WHERE ${pathOnly.join(' AND ')}` : '');
  const forcedQuery = forced === null ? null : query.slice(0, query.length - quarryTail.length) + forced;
  return { index: grouped ? `grouped ${index}` : index, layout: L, query, forcedQuery, sql, filesSql, ordered };
}

// DuckDB reads each layout once, with its options, into a table (with its
// `filename`): the queries then run on what read_parquet gave.
const tables = new Map();
const pairs = [];
for (let i = 0; i < options.count; i++) pairs.push(generate(i));
for (let i = 0; i < options.grouped; i++) pairs.push(generate(i, true));
for (const [table, read] of tables) {
  await duck.run(`CREATE TABLE ${table} AS SELECT *, filename FROM ${read}`);
}

// ---- Running -----------------------------------------------------------------------

function runQuarry(query, profilePath) {
  return runProcess(quarry, ['query', query, '--format', 'json', '--profile-out', profilePath],
                    { env: { ...process.env, QUARRY_CACHE_DIR: 'off' } });
}

const failures = [];
let compared = 0, prunedQueries = 0, emptyResults = 0, groupedFromStatistics = 0;
const started = Date.now();
const jobs = 4;
let next = 0;
async function worker(slot) {
  while (next < pairs.length) {
    const pair = pairs[next++];
    const profilePath = join(dir, `profile-${slot}.json`);
    rmSync(profilePath, { force: true });
    const quarryRun = runQuarry(pair.query, profilePath);
    let expected, files;
    try {
      expected = await duckdbResult(duck, pair.sql, T);
      files = Number((await duck.runAndReadAll(pair.filesSql)).getRows()[0][0]);
    } catch (e) {
      failures.push({ pair, problems: [`DuckDB cannot run the SQL: ${e.message.split('\n')[0]}`] });
      await quarryRun;
      continue;
    }
    const result = await quarryRun;
    let problems;
    if (result.error || result.signal) {
      problems = [`quarry did not finish: ${result.error?.message ?? result.signal}`];
    } else if (result.status !== 0) {
      problems = [`quarry exit ${result.status}: ${result.stderr.split('\n').slice(0, 3).join(' / ')}`];
    } else {
      let profile;
      try {
        profile = JSON.parse(readFileSync(profilePath, 'utf8'));
      } catch (e) {
        failures.push({ pair, problems: [`quarry wrote no readable profile: ${e.message}`] });
        compared++;
        continue;
      }
      problems = compareResult(parseQuarryOutput(result.stdout), expected, pair, T, profile.columns);
      const read = profile.files?.read, pruned = profile.files?.pruned_by_partition;
      if (read !== files || read + pruned !== pair.layout.files) {
        problems.push(`files: quarry read ${read} and pruned ${pruned} of ${pair.layout.files}; ` +
                      `the path conjuncts keep ${files}`);
      }
      if (pruned > 0) prunedQueries++;
      if (expected.rows.length === 0) emptyResults++;
      if (pair.forcedQuery !== null) {
        if (profile.row_groups?.answered_from_statistics > 0 && profile.rows_decoded === 0) groupedFromStatistics++;
        problems.push(...await forcedToScan(pair, expected, profilePath));
      }
    }
    compared++;
    if (problems.length > 0) failures.push({ pair, problems });
  }
}

/// The grouped query forced to scan: its answer must also be DuckDB's, with no
/// row group answered from statistics.
async function forcedToScan(pair, expected, profilePath) {
  rmSync(profilePath, { force: true });
  const result = await runQuarry(pair.forcedQuery, profilePath);
  if (result.error || result.signal || result.status !== 0) {
    return [`forced to scan: quarry exit ${result.status ?? result.signal}: ${result.stderr.split('\n')[0]}`];
  }
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const problems = compareResult(parseQuarryOutput(result.stdout), expected, pair, T, profile.columns)
    .map((p) => `forced to scan (${pair.forcedQuery}): ${p}`);
  if (profile.row_groups?.answered_from_statistics !== 0) {
    problems.push(`forced to scan: ${profile.row_groups?.answered_from_statistics} row groups answered from statistics`);
  }
  return problems;
}

await Promise.all(Array.from({ length: jobs }, (_, slot) => worker(slot)));

for (const { pair, problems } of failures.slice(0, Number(process.env.HIVE_SHOW ?? 8))) {
  process.stderr.write(`\nquery ${pair.index}: ${pair.query}\n  SQL: ${pair.sql}\n`);
  for (const p of problems) process.stderr.write(`  ${p}\n`);
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(`hive_partitions: ${compared} queries over ${layouts.length} layouts ` +
                     `(${layouts.map((l) => `${l.name}: ${l.files} files`).join(', ')}), ${failures.length} differences, ` +
                     `${prunedQueries} pruned files by path, ${emptyResults} empty results, ` +
                     `${groupedFromStatistics} of ${options.grouped} grouped STATS answered from statistics, ${seconds} s\n`);
if (compared < 500 || compared !== pairs.length) {
  process.stderr.write(`only ${compared} queries compared (at least 500 required)\n`);
  process.exit(1);
}
if (prunedQueries < compared / 4) {
  process.stderr.write(`only ${prunedQueries} queries pruned files: the generator lost its path conjuncts\n`);
  process.exit(1);
}
if (groupedFromStatistics < options.grouped / 3) {
  process.stderr.write(`only ${groupedFromStatistics} grouped STATS answered from statistics: ` +
                       'the grouped pushdown no longer fires\n');
  process.exit(1);
}
process.exit(failures.length > 0 ? 1 : 0);
