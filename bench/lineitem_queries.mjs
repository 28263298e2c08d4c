// The lineitem queries the whole-query benchmarks time (bench/make-lineitem.mjs
// files): the shapes of TPC-H Q1 and Q6 ("Q1-like", "Q6-like": l_extendedprice is
// DOUBLE in these files where TPC-H has DECIMAL(15,2), so they are not TPC-H's
// queries), a grouped COUNT by a low-cardinality string, a
// full-scan SUM, and an ungrouped COUNT(*)/MIN/MAX answered from footer
// statistics, unfiltered and under a WHERE. Each entry is [name, quarry query, DuckDB SQL].

export function lineitemQueries(files) {
  const from = `FROM ${files.map((f) => `"${f}"`).join(', ')}`;
  const source = `read_parquet([${files.map((f) => `'${f}'`).join(', ')}])`;
  return [
    ['Q1-like', `${from} | WHERE l_shipdate <= DATE '1998-09-02'
       | EVAL disc_price = l_extendedprice * (1 - l_discount), charge = l_extendedprice * (1 - l_discount) * (1 + l_tax)
       | STATS sum_qty = SUM(l_quantity), sum_base_price = SUM(l_extendedprice), sum_disc_price = SUM(disc_price),
               sum_charge = SUM(charge), avg_qty = AVG(l_quantity), avg_price = AVG(l_extendedprice),
               avg_disc = AVG(l_discount), count_order = COUNT(*) BY l_returnflag, l_linestatus
       | SORT l_returnflag, l_linestatus`,
     `SELECT sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
        sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
        sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty,
        avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order,
        l_returnflag, l_linestatus
      FROM ${source} WHERE l_shipdate <= DATE '1998-09-02'
      GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`],
    ['Q6-like', `${from} | WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
         AND l_discount >= 0.05 AND l_discount <= 0.07 AND l_quantity < 24
       | STATS revenue = SUM(l_extendedprice * l_discount)`,
     `SELECT sum(l_extendedprice * l_discount) AS revenue FROM ${source}
      WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
        AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`],
    ['count by shipmode', `${from} | STATS n = COUNT(*) BY l_shipmode | SORT l_shipmode`,
     `SELECT count(*) AS n, l_shipmode FROM ${source} GROUP BY l_shipmode ORDER BY l_shipmode`],
    ['sum extendedprice', `${from} | STATS s = SUM(l_extendedprice)`,
     `SELECT sum(l_extendedprice) AS s FROM ${source}`],
    ['count/min/max', `${from} | STATS n = COUNT(*), lo = MIN(l_orderkey), hi = MAX(l_orderkey)`,
     `SELECT count(*) AS n, min(l_orderkey) AS lo, max(l_orderkey) AS hi FROM ${source}`],
    // Half the rows match: row groups (and, with a page index, pages) wholly
    // above or below the bound are answered or skipped; only the one holding it is read.
    ['filtered count/min/max', `${from} | WHERE l_orderkey > 2920000
       | STATS n = COUNT(*), lo = MIN(l_orderkey), hi = MAX(l_orderkey)`,
     `SELECT count(*) AS n, min(l_orderkey) AS lo, max(l_orderkey) AS hi FROM ${source}
      WHERE l_orderkey > 2920000`],
  ];
}
