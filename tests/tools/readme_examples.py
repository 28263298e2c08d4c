#!/usr/bin/env python3
"""Runs every `build/release/quarry ...` example of README.md's "30 seconds with
quarry" and checks what issue 26 asked of them: each names files that exist in the
repository (or that `make demo` generates, data/sample/...), exits 0, and returns
rows (a query's table does not say "(0 rows)", a CSV has more than its header, a
JSON array is not empty, a file written with -o is not empty; an Arrow file
starts with an IPC message).

Usage: readme_examples.py SOURCE_DIR QUARRY_BINARY. The examples run in a
temporary directory holding links to SOURCE_DIR's data/ and tests/, so that their
relative paths resolve and `-o trips.csv` writes there. `quarry dive` needs a
terminal: its files are checked, it is not run.
"""

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

PREFIX = "build/release/quarry "
SECTION = "## 30 seconds with quarry"


def examples(readme):
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    out = []
    for line in text[start:end].splitlines():
        if line.startswith(PREFIX):
            out.append(line)
    return out


def named_files(args):
    """The file arguments and FROM patterns of one command line."""
    names = []
    for arg in args[1:]:
        for pattern in re.findall(r'FROM\s+"([^"]+)"', arg):
            names.append(pattern)
        if arg.startswith(("data/", "tests/")) or arg.endswith((".parquet", ".orc")):
            names.append(arg)
    return names


def returns_rows(args, out, workdir):
    command = args[0]
    if "-o" in args and "arrow" in args:
        # An Arrow IPC stream: binary, its first message's continuation marker.
        with open(os.path.join(workdir, args[args.index("-o") + 1]), "rb") as f:
            head = f.read(8)
        return None if head.startswith(b"\xff\xff\xff\xff") else "no Arrow IPC stream"
    if "-o" in args:
        path = os.path.join(workdir, args[args.index("-o") + 1])
        with open(path, encoding="utf-8") as f:
            out = f.read()
    if not out.strip():
        return "no output"
    if "(0 rows)" in out:
        return "a result of 0 rows"
    fmt = None
    for flag in ("--format", "--to"):
        if flag in args:
            fmt = args[args.index(flag) + 1]
    if command in ("query", "print", "convert"):
        if fmt == "csv" and len(out.strip().splitlines()) < 2:
            return "a CSV header without rows"
        if fmt == "json" and out.strip() in ("[]", "[\n]"):
            return "an empty JSON array"
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, binary = sys.argv[1], sys.argv[2]
    lines = examples(os.path.join(source, "README.md"))
    failures = []
    if len(lines) < 10:
        failures.append(f"only {len(lines)} examples found under '{SECTION}'")
    with tempfile.TemporaryDirectory(prefix="quarry-readme-") as workdir:
        for name in ("data", "tests"):
            os.symlink(os.path.join(source, name), os.path.join(workdir, name))
        env = dict(os.environ, QUARRY_CACHE_DIR="off")
        for line in lines:
            args = shlex.split(line[len(PREFIX):], comments=True)
            for name in named_files(args):
                if not glob.glob(os.path.join(workdir, name), recursive=True):
                    failures.append(f"{line}\n    names {name}, which matches no file")
            if args[0] == "dive":
                continue
            run = subprocess.run([binary] + args, cwd=workdir, env=env, capture_output=True,
                                 text=True, timeout=120)
            if run.returncode != 0:
                failures.append(f"{line}\n    exit {run.returncode}: {run.stderr.strip()}")
                continue
            why = returns_rows(args, run.stdout, workdir)
            if why:
                failures.append(f"{line}\n    returns {why}")
            print(f"ok: {line}")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
