#!/usr/bin/env bash
# Runs quarry's benchmarks against DuckDB (chDB for ORC) on the same data, in the
# same run, and prints the figures with their ratios (docs/PERFORMANCE.md records them).
#
#   bash bench/run.sh [SUITE...]      SUITE: footer, scan, filter, pages, orc, query, remote,
#                                     cluster, clickbench, hive, python
#                                     (default: all of them)
#
# pages runs the filter driver on the lineitem rows rewritten by chDB with page
# indexes and Bloom filters (bench/make-page-index-lineitem.mjs), with the
# sorted-key equality and range and two unsorted-key equalities (l_partkey, whose
# value lies in every row group, and l_comment, a value stored once). remote times a
# point lookup over 32 files served by the tests' S3 server with 20 ms of latency
# before every answer, against the lower bound that latency sets (no DuckDB there).
# clickbench runs ClickBench's 43 queries over a generated hits dataset (105 columns,
# 24 files) as whole quarry processes, cold and hot, against DuckDB and chDB. hive
# runs a one-partition query and COUNT/MIN/MAX grouped by partition columns over
# 1,000 hive partitions against DuckDB's read_parquet(..., hive_partitioning = true).
# python reads the lineitem rows through the Python module natively (Result::next)
# and through __arrow_c_stream__ with a C consumer (bench/python_export_vs_query.py).
#
# Environment:
#   QUARRY_BENCH_BUILD_DIR  build directory (default build/release), configured
#                           RelWithDebInfo with QUARRY_BENCH=ON if not already
#   QUARRY_BENCH_RUNS       runs per measurement, each figure a median (default 15)
#   QUARRY_BENCH_DATA       where generated files go (default build/bench-data); a
#                           file is generated when missing or older than its generator
#   QUARRY_CLICKBENCH_ROWS  rows of the clickbench dataset (default 10000000); a change
#                           regenerates it
#   QUARRY_CLICKBENCH_RUNS  rounds of the clickbench suite (default 3: a round runs each
#                           of the 43 queries four times per engine)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${QUARRY_BENCH_BUILD_DIR:-build/release}"
runs="${QUARRY_BENCH_RUNS:-15}"
data="${QUARRY_BENCH_DATA:-build/bench-data}"
known=(footer scan filter pages orc query remote cluster clickbench hive python)
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=("${known[@]}")

targets=()
for suite in "${suites[@]}"; do
  case "$suite" in
    footer) targets+=(footer_decode_benchmark quarry) ;;
    scan) targets+=(scan_benchmark) ;;
    filter | pages) targets+=(filter_benchmark) ;;
    orc) targets+=(orc_scan_benchmark) ;;
    query) targets+=(quarry process_timer) ;;
    remote) targets+=(remote_latency_benchmark) ;;
    cluster) targets+=(quarry quarry-cluster) ;;
    clickbench) targets+=(quarry process_timer) ;;
    hive) targets+=(quarry process_timer) ;;
    python) targets+=(quarry_python) ;;
    *) echo "bench/run.sh: unknown suite '$suite' (known: ${known[*]})" >&2; exit 2 ;;
  esac
done

# DuckDB (and chDB, for the pages suite) come from the project's pinned oracle install.
if [ ! -d tools/oracle/node_modules/@duckdb/node-api ] && [ -z "${QUARRY_ORACLE_DIR:-}" ]; then
  echo "bench/run.sh: installing the DuckDB oracle (npm ci --prefix tools/oracle)" >&2
  npm ci --prefix tools/oracle --no-audit --no-fund >&2
fi

# Release binaries: an existing build directory keeps its configuration, only the
# benchmarks are switched on.
if [ -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DQUARRY_BENCH=ON >/dev/null
else
  # The flags of `make build` (Makefile), so that both share one build directory.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG" \
    -DQUARRY_BENCH=ON >/dev/null
fi
if ! grep -q '^benchmark_DIR:PATH=/' "$build/CMakeCache.txt"; then
  echo "bench/run.sh: Google Benchmark not found by cmake (Debian: apt-get install libbenchmark-dev)" >&2
  exit 1
fi
cmake --build "$build" --target "${targets[@]}" -- -j"${JOBS:-$(nproc)}" >&2

# Sets `files` to the 8 lineitem files (scan, filter and orc suites), generating them
# with DuckDB when missing or older than their generator.
lineitem_files() {
  local dir="$data/lineitem" stale=0 f i
  files=()
  for i in 0 1 2 3 4 5 6 7; do files+=("$dir/lineitem-$i.parquet"); done
  for f in "${files[@]}"; do
    if [ ! -f "$f" ] || [ bench/make-lineitem.mjs -nt "$f" ]; then stale=1; fi
  done
  if [ "$stale" = 1 ]; then
    echo "bench/run.sh: generating $dir with DuckDB (6M rows, about a minute)" >&2
    node bench/make-lineitem.mjs "$dir" >&2
  fi
}

# Sets `files` to the lineitem rows rewritten by chDB with page indexes and Bloom
# filters (pages suite), generating them when missing or older than their
# generator or than the DuckDB files they are made from.
page_index_files() {
  lineitem_files
  local dir="$data/lineitem-pages" stale=0 f i
  local sources=("${files[@]}")
  files=()
  for i in "${!sources[@]}"; do files+=("$dir/lineitem-$i.parquet"); done
  for i in "${!sources[@]}"; do
    f="${files[$i]}"
    if [ ! -f "$f" ] || [ bench/make-page-index-lineitem.mjs -nt "$f" ] || [ "${sources[$i]}" -nt "$f" ]; then
      stale=1
    fi
  done
  if [ "$stale" = 1 ]; then
    echo "bench/run.sh: generating $dir with chDB (page indexes, Bloom filters)" >&2
    node bench/make-page-index-lineitem.mjs "$dir" "${sources[@]}" >&2
  fi
}

# Sets `dir` to the clickbench hits files, generating them with DuckDB when missing,
# older than their generator, or of another size than QUARRY_CLICKBENCH_ROWS.
clickbench_dir() {
  dir="$data/clickbench"
  local rows="${QUARRY_CLICKBENCH_ROWS:-10000000}"
  local want="{\"rows\":$rows,\"files\":24,\"seed\":1}"
  if [ ! -f "$dir/params.json" ] || [ bench/make-clickbench.mjs -nt "$dir/params.json" ] ||
     [ "$(cat "$dir/params.json")" != "$want" ]; then
    echo "bench/run.sh: generating $dir with DuckDB ($rows rows; 10M take a few minutes)" >&2
    node bench/make-clickbench.mjs "$dir" --rows "$rows" --files 24 --seed 1 >&2
  fi
}

mkdir -p "$data"
for suite in "${suites[@]}"; do
  case "$suite" in
    footer)
      file="$data/wide-1000x100.parquet"
      if [ ! -f "$file" ] || [ bench/make-wide-file.mjs -nt "$file" ]; then
        echo "bench/run.sh: generating $file with DuckDB" >&2
        node bench/make-wide-file.mjs "$file" >&2
      fi
      node --expose-gc bench/footer_vs_duckdb.mjs --file "$file" --bench "$build/footer_decode_benchmark" \
        --quarry "$build/quarry" --runs "$runs" --json "$data/footer-results.json"
      ;;
    scan)
      lineitem_files
      node --expose-gc bench/scan_vs_duckdb.mjs --bench "$build/scan_benchmark" --runs "$runs" \
        --json "$data/scan-results.json" "${files[@]}"
      ;;
    filter)
      lineitem_files
      node --expose-gc bench/filter_vs_duckdb.mjs --bench "$build/filter_benchmark" --runs "$runs" \
        --json "$data/filter-results.json" "${files[@]}"
      ;;
    pages)
      page_index_files
      node --expose-gc bench/filter_vs_duckdb.mjs --bench "$build/filter_benchmark" --runs "$runs" \
        --queries partkey,comment,orderkeyeq,orderkey --json "$data/pages-results.json" "${files[@]}"
      ;;
    orc)
      # The same lineitem rows as ORC, converted by chDB (cached in $data/lineitem-orc).
      lineitem_files
      node --expose-gc bench/orc_vs_chdb.mjs --bench "$build/orc_scan_benchmark" --runs "$runs" \
        --orc-dir "$data/lineitem-orc" --json "$data/orc-results.json" "${files[@]}"
      ;;
    query)
      # Whole `quarry query` processes against DuckDB's SQL, 2 threads; lineitem and
      # 1,000 small files.
      lineitem_files
      # The 1,000 small files of the COUNT(*)/MIN/MAX case are written by the driver.
      node --expose-gc bench/query_vs_duckdb.mjs --quarry "$build/quarry" --timer "$build/process_timer" --runs "$runs" \
        --small-files "$data/small-files" "${files[@]}"
      ;;
    remote)
      dir="$data/remote-32"
      if [ ! -f "$dir/part-31.parquet" ] || [ bench/make-remote-files.mjs -nt "$dir/part-31.parquet" ]; then
        echo "bench/run.sh: generating $dir with DuckDB" >&2
        node bench/make-remote-files.mjs "$dir" 32 100000 >&2
      fi
      "$build/remote_latency_benchmark" "$dir" --latency-ms 20 --runs "$runs" --threads 2
      ;;
    cluster)
      # The same queries in process and through 1, 2 and 3 local data nodes.
      lineitem_files
      node bench/cluster_bench.mjs --quarry "$build/quarry" --runs "$runs" "${files[@]}"
      ;;
    clickbench)
      # ClickBench's 43 queries, whole quarry processes (cold and hot) against DuckDB
      # and chDB, 2 threads; every answer checked against DuckDB's.
      clickbench_dir
      node --expose-gc bench/clickbench_vs_duckdb.mjs --quarry "$build/quarry" --timer "$build/process_timer" \
        --runs "${QUARRY_CLICKBENCH_RUNS:-3}" --threads 2 --json "$data/clickbench-results.json" "$dir"
      ;;
    hive)
      # 1,000 hive partitions (written by the driver): one partition, and the grouped
      # COUNT/MIN/MAX answered from statistics; every answer checked against DuckDB's.
      node --expose-gc bench/hive_vs_duckdb.mjs --quarry "$build/quarry" --timer "$build/process_timer" \
        --runs "$runs" --dir "$data/hive"
      ;;
    python)
      # The export's cost: the same 6M rows read natively and through the Arrow stream.
      lineitem_files
      PYTHONPATH="$build/python" /usr/bin/python3 bench/python_export_vs_query.py --runs "$runs" "${files[@]}"
      ;;
  esac
done
