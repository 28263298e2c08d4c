#!/usr/bin/env python3
"""What the Arrow stream adds to a query (issue 30: "Exporting the 6M-row lineitem
result through the stream adds at most 10 % to the query's time").

The same query, every column of the lineitem files (bench/make-lineitem.mjs:
6,000,000 rows, 16 columns), consumed two ways in one process, alternated:

  native   Result::next() to the end in C++ (quarry._quarry._native_row_count)
  stream   Result.__arrow_c_stream__(), its ArrowArrayStream moved out of the
           capsule and read by a C consumer (get_next, release) to the end
           (quarry._quarry._stream_row_count)

Prints each median and the ratio stream / native; exits 1 when a row count is
not the files' (the timings are not checked: they need a quiet machine).

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_export_vs_query.py \\
      [--runs N] [--threads T] FILE.parquet...      (bash bench/run.sh python)
"""

import argparse
import statistics
import sys
import time

import quarry
from quarry import _quarry


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rows", type=int, default=6_000_000, help="rows the files hold in all")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    session = quarry.connect(threads=args.threads)
    text = "FROM " + ", ".join('"' + f + '"' for f in args.files)
    consumers = {
        "native": lambda: _quarry._native_row_count(session.query(text)),
        "stream": lambda: _quarry._stream_row_count(session.query(text).__arrow_c_stream__()),
    }
    times = {name: [] for name in consumers}
    failed = False
    for run in range(args.runs + 1):  # the first round warms the page cache
        for name, consume in consumers.items():
            start = time.perf_counter()
            rows = consume()
            elapsed = time.perf_counter() - start
            if rows != args.rows:
                print(f"python_export_vs_query: {name} read {rows} rows, the files hold {args.rows}", file=sys.stderr)
                failed = True
            if run > 0:
                times[name].append(elapsed)
    if failed:
        return 1
    native, stream = statistics.median(times["native"]), statistics.median(times["stream"])
    print(f"lineitem, {args.rows:,} rows, {len(args.files)} files, {args.threads} threads, "
          f"median of {args.runs} runs each")
    print(f"  native  Result::next()               {native * 1000:9.1f} ms")
    print(f"  stream  __arrow_c_stream__ + C reader {stream * 1000:9.1f} ms")
    print(f"  stream / native                      {stream / native:9.3f}  (the issue's bound: 1.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
