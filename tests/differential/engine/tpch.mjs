// TPC-H Q1 and Q6 in the query language and in DuckDB's SQL (the benchmark's
// text, with Q1's `date '1998-12-01' - interval '90' day` folded to the date it
// is and its columns in the engine's STATS order: aggregates, then groups).
// Both are compared exactly, AVG included: the acceptance asks for DuckDB's
// results exactly.

/// Returns the two pairs over the lineitem files `files` (paths).
export function tpchQueries(files) {
  const from = `FROM ${files.map((f) => `"${f}"`).join(', ')}`;
  const source = `read_parquet([${files.map((f) => `'${f}'`).join(', ')}])`;
  const q1 = {
    index: 'tpch-q1',
    query: `${from}
| WHERE l_shipdate <= DATE '1998-09-02'
| EVAL disc_price = l_extendedprice * (1 - l_discount),
       charge = l_extendedprice * (1 - l_discount) * (1 + l_tax)
| STATS sum_qty = SUM(l_quantity), sum_base_price = SUM(l_extendedprice),
        sum_disc_price = SUM(disc_price), sum_charge = SUM(charge),
        avg_qty = AVG(l_quantity), avg_price = AVG(l_extendedprice), avg_disc = AVG(l_discount),
        count_order = COUNT(*)
  BY l_returnflag, l_linestatus
| SORT l_returnflag, l_linestatus`,
    sql: `SELECT
    sum(l_quantity) AS sum_qty,
    sum(l_extendedprice) AS sum_base_price,
    sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
    sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
    avg(l_quantity) AS avg_qty,
    avg(l_extendedprice) AS avg_price,
    avg(l_discount) AS avg_disc,
    count(*) AS count_order,
    l_returnflag,
    l_linestatus
FROM ${source}
WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus`,
    ordered: true,
    tolerance: {},
    shape: 'tpch',
  };
  const q6 = {
    index: 'tpch-q6',
    query: `${from}
| WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
    AND l_discount >= 0.05 AND l_discount <= 0.07 AND l_quantity < 24
| STATS revenue = SUM(l_extendedprice * l_discount)`,
    sql: `SELECT sum(l_extendedprice * l_discount) AS revenue
FROM ${source}
WHERE l_shipdate >= DATE '1994-01-01'
  AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
  AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
  AND l_quantity < 24`,
    ordered: true,
    tolerance: {},
    shape: 'tpch',
  };
  return [q1, q6];
}
