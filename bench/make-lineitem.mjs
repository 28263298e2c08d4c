// Writes the lineitem-like dataset of the scan benchmark with DuckDB: 6,000,000
// rows with TPC-H lineitem's 16 columns, as 8 Parquet files of 750,000 rows
// (snappy, DuckDB's default row group size of 122,880 rows).
//
// Usage: node make-lineitem.mjs OUT_DIR      (writes OUT_DIR/lineitem-0.parquet ... -7)
//
// DuckDB's tpch extension needs a download, so the data follows dbgen's rules
// (TPC-H 2.x, section 4.2.3) in plain SQL instead. Every "random" choice is a
// hash of the row number (or order number) and a per-column salt, so the files
// are the same on every run and under any thread count (random() with setseed is
// not reproducible once DuckDB generates rows in parallel).
//
// Types as TPC-H's, with one exception: l_extendedprice is DOUBLE, not
// DECIMAL(15,2). The benchmark's second query sums "one double column"; DuckDB
// stores DECIMAL(15,2) as INT64, which would repeat the first query. The values
// are still cents (quantity x retail price / 100). l_quantity, l_discount and
// l_tax stay DECIMAL(15,2) (INT64 in the file).
import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { loadDuckDB } from './load_duckdb.mjs';

const kRows = 6_000_000;
const kFiles = 8;
const kRowsPerFile = kRows / kFiles;
// Orders have 1-7 lines (4 on average); 1.7M orders give a little more than 6M lines.
const kOrders = 1_700_000;

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node make-lineitem.mjs OUT_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

// dbgen's comment text is drawn from a grammar over these word lists; comments are
// substrings of a text pool at random offsets, as dbgen cuts them.
const kWords = [
  // nouns
  'foxes', 'ideas', 'theodolites', 'pinto beans', 'instructions', 'dependencies', 'excuses',
  'platelets', 'asymptotes', 'courts', 'dolphins', 'multipliers', 'sauternes', 'warthogs',
  'frets', 'dinos', 'attainments', 'somas', 'Tiresias', 'patterns', 'forges', 'braids',
  'hockey players', 'frays', 'warhorses', 'dugouts', 'notornis', 'epitaphs', 'pearls',
  'tithes', 'waters', 'orbits', 'gifts', 'sheaves', 'depths', 'sentiments', 'decoys',
  'realms', 'pains', 'grouches', 'escapades', 'accounts', 'packages', 'requests', 'deposits',
  // verbs
  'sleep', 'wake', 'are', 'cajole', 'haggle', 'nag', 'use', 'boost', 'affix', 'detect',
  'integrate', 'maintain', 'nod', 'was', 'lose', 'sublate', 'solve', 'thrash', 'promise',
  'engage', 'hinder', 'print', 'x-ray', 'breach', 'eat', 'grow', 'impress', 'mold', 'poach',
  'serve', 'run', 'dazzle', 'snooze', 'doze', 'unwind', 'kindle', 'play', 'hang', 'believe',
  // adjectives, adverbs, prepositions
  'furious', 'sly', 'careful', 'blithe', 'quick', 'fluffy', 'slow', 'quiet', 'ruthless',
  'thin', 'close', 'dogged', 'daring', 'brave', 'stealthy', 'permanent', 'enticing', 'idle',
  'busy', 'regular', 'final', 'ironic', 'even', 'bold', 'silent', 'sometimes', 'always',
  'never', 'furiously', 'slyly', 'carefully', 'blithely', 'quickly', 'fluffily', 'about',
  'above', 'according to', 'across', 'after', 'against', 'along', 'among', 'around', 'at',
  'atop', 'before', 'behind', 'beneath', 'beside', 'besides', 'between', 'beyond', 'by',
];
const kPoolWords = 400_000;  // about 3 MB of text: comments rarely repeat, as in dbgen

const { DuckDBInstance } = await loadDuckDB();
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

await con.run(`CREATE TEMP TABLE pool AS
  SELECT string_agg(w[1 + (hash(k, 'word') % ${kWords.length})::INTEGER], ' ' ORDER BY k) AS text
  FROM range(${kPoolWords}) t(k), (SELECT [${kWords.map(sqlString).join(', ')}] AS w)`);

// o: order number (0-based), l: line within the order, i: row number.
await con.run(`CREATE TEMP TABLE lines AS
  SELECT row_number() OVER (ORDER BY o, l) - 1 AS i, o, l
  FROM (SELECT o, unnest(range(1 + (hash(o, 'lines') % 7)::BIGINT)) AS l FROM range(${kOrders}) t(o))
  ORDER BY o, l
  LIMIT ${kRows}`);

// TPC-H: orderdate uniform in [1992-01-01, 1998-12-31 - 151 days]; the current
// date (for return flag and line status) 1995-06-17; suppliers derived from parts.
await con.run(`CREATE TEMP TABLE lineitem AS
  WITH base AS (
    SELECT i, o, l,
      1 + (hash(i, 'part') % 200000)::INTEGER AS p,
      1 + (hash(i, 'qty') % 50)::INTEGER AS q,
      DATE '1992-01-01' + (hash(o, 'orderdate') % 2406)::INTEGER AS orderdate,
      (hash(i, 'shipdays') % 121)::INTEGER + 1 AS shipdays
    FROM lines
  ), dated AS (
    SELECT *, orderdate + shipdays AS shipdate,
      orderdate + shipdays + 1 + (hash(i, 'receipt') % 30)::INTEGER AS receiptdate
    FROM base
  )
  SELECT i,
    ((o // 8) * 32 + o % 8 + 1)::BIGINT AS l_orderkey,
    p AS l_partkey,
    ((p + (hash(i, 'supp') % 4)::INTEGER * (2500 + (p - 1) // 10000)) % 10000 + 1)::INTEGER AS l_suppkey,
    (l + 1)::INTEGER AS l_linenumber,
    q::DECIMAL(15,2) AS l_quantity,
    (q * (90000 + ((p // 10) % 20001) + 100 * (p % 1000)) / 100.0)::DOUBLE AS l_extendedprice,
    ((hash(i, 'discount') % 11)::INTEGER / 100)::DECIMAL(15,2) AS l_discount,
    ((hash(i, 'tax') % 9)::INTEGER / 100)::DECIMAL(15,2) AS l_tax,
    CASE WHEN receiptdate <= DATE '1995-06-17'
         THEN CASE WHEN hash(i, 'flag') % 2 = 0 THEN 'R' ELSE 'A' END
         ELSE 'N' END AS l_returnflag,
    CASE WHEN shipdate > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
    shipdate::DATE AS l_shipdate,
    (orderdate + 30 + (hash(i, 'commit') % 61)::INTEGER)::DATE AS l_commitdate,
    receiptdate::DATE AS l_receiptdate,
    ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'][1 + (hash(i, 'instruct') % 4)::INTEGER]
      AS l_shipinstruct,
    ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'][1 + (hash(i, 'mode') % 7)::INTEGER]
      AS l_shipmode,
    substr(pool.text, 1 + (hash(i, 'comment') % (length(pool.text) - 50))::BIGINT,
           10 + (hash(i, 'commentlen') % 34)::BIGINT) AS l_comment
  FROM dated, pool
  ORDER BY i`);

const columns = `l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice,
  l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate,
  l_shipinstruct, l_shipmode, l_comment`;
for (let f = 0; f < kFiles; ++f) {
  const out = path.join(outDir, `lineitem-${f}.parquet`);
  const tmp = `${out}.tmp`;
  await con.run(`COPY (SELECT ${columns} FROM lineitem
      WHERE i >= ${f * kRowsPerFile} AND i < ${(f + 1) * kRowsPerFile} ORDER BY i)
    TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION snappy)`);
  const check = await con.runAndReadAll(`SELECT count(*) AS rows, min(length(l_comment)) AS shortest,
      max(length(l_comment)) AS longest FROM read_parquet(${sqlString(tmp)})`);
  const { rows, shortest, longest } = check.getRowObjects()[0];
  if (Number(rows) !== kRowsPerFile || Number(shortest) < 10 || Number(longest) > 43) {
    console.error(`make-lineitem: ${tmp} has ${rows} rows (expected ${kRowsPerFile}), ` +
                  `comments of ${shortest}-${longest} characters (expected 10-43)`);
    process.exit(1);
  }
  renameSync(tmp, out);
}
console.log(`make-lineitem: wrote ${kFiles} files of ${kRowsPerFile} rows to ${outDir}`);
