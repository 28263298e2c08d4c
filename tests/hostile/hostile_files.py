#!/usr/bin/env python3
"""Hostile Parquet files: tiny files whose declared counts and sizes ask for
gigabytes. Each is written here, byte by byte (Thrift compact protocol), and run
through `quarry query` and `quarry print`. Every run must end within 1 s and
200 MB of peak RSS, with either the right answer or a clear error (exit code 1,
not a signal) naming the file; valid files must give the right answer.

Run under `ulimit -v 2097152` by ctest (tests/script_tests.cmake), so an
allocation a count check missed fails instead of taking the machine.

    hostile_files.py QUARRY OUT_DIR
    hostile_files.py --write-only OUT_DIR   (the files alone: fuzz seeds)
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

MAX_SECONDS = 1.0
# What DuckDB 1.5 takes for COUNT(x) over 2^31 - 1 nulls without statistics
# (measured for issue 26): the bound for runs that must read every row.
DUCKDB_SECONDS_ON_BIG_NULLS = 9.0
MAX_RSS_KB = 200 * 1024
BIG = 2**31 - 1

# ---- Thrift compact protocol -------------------------------------------------

I32, I64, BINARY, LIST, STRUCT, BOOL_TRUE, BOOL_FALSE = 5, 6, 8, 9, 12, 1, 2


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return varint((n << 1) ^ (n >> 63))


class Struct:
    """A Thrift struct: fields (id, type, value) written in ascending id order."""

    def __init__(self, *fields):
        self.fields = [f for f in fields if f is not None and f[2] is not None]

    def encode(self):
        out = bytearray()
        last = 0
        for fid, ftype, value in sorted(self.fields, key=lambda f: f[0]):
            wire = ftype
            if ftype == "bool":
                wire = BOOL_TRUE if value else BOOL_FALSE
            delta = fid - last
            if 0 < delta <= 15:
                out.append(delta << 4 | wire)
            else:
                out.append(wire)
                out += zigzag(fid)
            last = fid
            if ftype != "bool":
                out += encode_value(ftype, value)
        out.append(0)
        return bytes(out)


def encode_value(ftype, value):
    if ftype in (I32, I64):
        return zigzag(value)
    if ftype == BINARY:
        data = value.encode() if isinstance(value, str) else value
        return varint(len(data)) + data
    if ftype == STRUCT:
        return value.encode()
    if ftype == LIST:
        etype, items = value
        head = bytes([len(items) << 4 | etype]) if len(items) < 15 else bytes([0xF0 | etype]) + varint(len(items))
        return head + b"".join(encode_value(etype, i) for i in items)
    raise ValueError(ftype)


# ---- Parquet structures --------------------------------------------------------

BOOLEAN, INT32, INT64, BYTE_ARRAY = 0, 1, 2, 6
REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
PLAIN, PLAIN_DICTIONARY, RLE, DELTA_BINARY_PACKED, RLE_DICTIONARY = 0, 2, 3, 5, 8
UNCOMPRESSED, SNAPPY, GZIP = 0, 1, 2
DATA_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2 = 0, 2, 3


def schema_element(name, type_=None, repetition=None, children=None, converted=None):
    return Struct((1, I32, type_), (3, I32, repetition), (4, BINARY, name), (5, I32, children),
                  (6, I32, converted))


def rle_run(count, value, bit_width):
    """One RLE run of the hybrid encoding: `count` copies of `value`."""
    return varint(count << 1) + value.to_bytes((bit_width + 7) // 8, "little")


def v1_levels(*runs):
    body = b"".join(runs)
    return struct.pack("<I", len(body)) + body


def data_page_v1(num_values, body, encoding=PLAIN, uncompressed=None):
    header = Struct((1, I32, DATA_PAGE), (2, I32, len(body) if uncompressed is None else uncompressed),
                    (3, I32, len(body)),
                    (5, STRUCT, Struct((1, I32, num_values), (2, I32, encoding), (3, I32, RLE), (4, I32, RLE))))
    return header.encode() + body


def data_page_v2(num_values, num_nulls, num_rows, def_levels, values, encoding=PLAIN):
    body = def_levels + values
    header = Struct((1, I32, DATA_PAGE_V2), (2, I32, len(body)), (3, I32, len(body)),
                    (8, STRUCT, Struct((1, I32, num_values), (2, I32, num_nulls), (3, I32, num_rows),
                                       (4, I32, encoding), (5, I32, len(def_levels)), (6, I32, 0),
                                       (7, "bool", False))))
    return header.encode() + body


def dictionary_page(num_values, body):
    header = Struct((1, I32, DICTIONARY_PAGE), (2, I32, len(body)), (3, I32, len(body)),
                    (7, STRUCT, Struct((1, I32, num_values), (2, I32, PLAIN))))
    return header.encode() + body


def parquet_file(schema, type_, path, pages, num_rows, num_values, codec=UNCOMPRESSED,
                 null_count=None, dictionary=None, encodings=(PLAIN, RLE)):
    """A file of one row group holding one column chunk: `dictionary` (a page,
    optional) then `pages`."""
    chunk = (dictionary or b"") + b"".join(pages)
    data_offset = 4 + len(dictionary or b"")
    stats = Struct((3, I64, null_count)) if null_count is not None else None
    meta = Struct((1, I32, type_), (2, LIST, (I32, list(encodings))), (3, LIST, (BINARY, path)),
                  (4, I32, codec), (5, I64, num_values), (6, I64, len(chunk)), (7, I64, len(chunk)),
                  (9, I64, data_offset), (11, I64, 4 if dictionary else None), (12, STRUCT, stats))
    column = Struct((2, I64, 4), (3, STRUCT, meta))
    group = Struct((1, LIST, (STRUCT, [column])), (2, I64, len(chunk)), (3, I64, num_rows))
    footer = Struct((1, I32, 1), (2, LIST, (STRUCT, schema)), (3, I64, num_rows),
                    (4, LIST, (STRUCT, [group])), (6, BINARY, "hostile_files.py")).encode()
    return b"PAR1" + chunk + footer + struct.pack("<I", len(footer)) + b"PAR1"


def flat(name, type_, repetition):
    return [schema_element("schema", children=1), schema_element(name, type_, repetition)]


def optional_int32_list():
    """optional group l (LIST) { repeated group list { optional int32 element } }"""
    return [schema_element("schema", children=1), schema_element("l", None, OPTIONAL, 1, 3),
            schema_element("list", None, REPEATED, 1), schema_element("element", INT32, OPTIONAL)]


def all_nulls_file(num_rows, null_count=None):
    """optional int32 x: one page whose definition levels are one RLE run of BIG zeros."""
    page = data_page_v1(BIG, v1_levels(rle_run(BIG, 0, 1)))
    return parquet_file(flat("x", INT32, OPTIONAL), INT32, ["x"], [page], num_rows, BIG,
                        null_count=null_count)


def deep_nesting_file(depth):
    schema = [schema_element("schema", children=1)]
    for i in range(depth):
        schema.append(schema_element("g%d" % i, None, OPTIONAL, 1))
    schema.append(schema_element("leaf", INT32, OPTIONAL))
    path = ["g%d" % i for i in range(depth)] + ["leaf"]
    page = data_page_v1(1, v1_levels(rle_run(1, 0, max(1, (depth + 1).bit_length()))))
    return parquet_file(schema, INT32, path, [page], 1, 1)


def files():
    """Yields (name, bytes, [(argv after the file, expected[, seconds])]) where
    expected is ("ok", regex on stdout) or ("error", regex on stderr), and seconds
    (MAX_SECONDS unless given) bounds the run."""
    query = lambda q: ("query", q)
    print_head = ("print", "--head", "5", "--format", "csv")

    # A 10-row group whose one page claims BIG nulls in one RLE run.
    yield ("rle_nulls_in_10_rows", all_nulls_file(10),
           [(query("STATS n = COUNT(x)"), ("error", r"declares 2147483647 values but its row group has 10 rows")),
            (print_head, ("error", r"declares 2147483647 values but its row group has 10 rows"))])
    # A valid file of BIG nulls whose statistics say so: answered from them.
    yield ("rle_nulls_valid_with_statistics", all_nulls_file(BIG, null_count=BIG),
           [(query("STATS n = COUNT(x)"), ("ok", r"^n\n0\n$")),
            (query("STATS n = COUNT(*)"), ("ok", r"^n\n2147483647\n$"))])
    # The same without statistics: the levels must be read. "A valid file of 2^31-1
    # nulls is answered without materializing them ... COUNT(x) = 0 within DuckDB's
    # time" (DuckDB 1.5 takes 9 s): one run of nulls is never expanded.
    yield ("rle_nulls_valid", all_nulls_file(BIG),
           [(query("STATS n = COUNT(x)"), ("ok", r"^n\n0\n$"), DUCKDB_SECONDS_ON_BIG_NULLS),
            (query("STATS n = COUNT(*), m = MAX(x)"), ("ok", r"^n,m\n2147483647,\n$"),
             DUCKDB_SECONDS_ON_BIG_NULLS),
            # "print --head 5 prints 5 null rows quickly": decoded only as far as them.
            (print_head, ("ok", r"^x\n\n\n\n\n\n$"))])

    # Dictionary indices: a one-entry dictionary and BIG indices of width 0.
    dictionary = dictionary_page(1, struct.pack("<i", 7))
    ids = bytes([0]) + rle_run(BIG, 0, 0)
    yield ("rle_dictionary_ids_in_10_rows",
           parquet_file(flat("x", INT32, REQUIRED), INT32, ["x"], [data_page_v1(BIG, ids, RLE_DICTIONARY)],
                        10, BIG, dictionary=dictionary, encodings=(PLAIN, RLE_DICTIONARY)),
           [(query("STATS s = SUM(x)"), ("error", r"declares 2147483647 values but its row group has 10 rows"))])
    # A page of 10 values whose index run goes on for BIG: only 10 are read.
    yield ("rle_dictionary_run_longer_than_page",
           parquet_file(flat("x", INT32, REQUIRED), INT32, ["x"], [data_page_v1(10, ids, RLE_DICTIONARY)],
                        10, 10, dictionary=dictionary, encodings=(PLAIN, RLE_DICTIONARY)),
           [(query("STATS s = SUM(x)"), ("ok", r"^s\n70\n$")),
            (print_head, ("ok", r"^x\n7\n7\n7\n7\n7\n$"))])
    yield ("rle_dictionary_ids_valid",
           parquet_file(flat("x", INT32, REQUIRED), INT32, ["x"], [data_page_v1(BIG, ids, RLE_DICTIONARY)],
                        BIG, BIG, dictionary=dictionary, encodings=(PLAIN, RLE_DICTIONARY)),
           [(query("STATS s = SUM(x)"), ("error", r"memory limit")),
            (print_head, ("ok", r"^x\n7\n7\n7\n7\n7\n$"))])

    # A list of 2^30 null elements in one row: repetition levels 0 then 2^30 - 1 ones.
    n = 2**30
    rep = v1_levels(rle_run(1, 0, 1), rle_run(n - 1, 1, 1))
    defs = v1_levels(rle_run(n, 2, 2))
    yield ("list_of_2_30_elements",
           parquet_file(optional_int32_list(), INT32, ["l", "list", "element"], [data_page_v1(n, rep + defs)],
                        1, n),
           [(query("STATS n = COUNT(*)"), ("ok", r"^n\n1\n$")),
            (query("EVAL k = MV_COUNT(l) | KEEP k"), ("error", r"memory limit")),
            (print_head, ("error", r"memory limit"))])
    # Repetition levels that start a new row BIG times in a 3-row group.
    rep = v1_levels(rle_run(BIG, 0, 1))
    defs = v1_levels(rle_run(BIG, 3, 2))
    yield ("rle_repetition_levels_in_3_rows",
           parquet_file(optional_int32_list(), INT32, ["l", "list", "element"], [data_page_v1(BIG, rep + defs)],
                        3, BIG),
           [(print_head, ("error", r"memory limit|rows but its row group has 3|declares"))])

    # Declared sizes far beyond the bytes present.
    yield ("huge_uncompressed_page_size_snappy",
           parquet_file(flat("x", INT32, REQUIRED), INT32, ["x"],
                        [data_page_v1(10, b"\x28\x00" + b"\x00" * 8, uncompressed=BIG)], 10, 10, codec=SNAPPY),
           [(query("STATS s = SUM(x)"), ("error", r"memory limit|snappy|uncompress|decompress"))])
    yield ("huge_uncompressed_page_size_gzip",
           parquet_file(flat("x", INT32, REQUIRED), INT32, ["x"],
                        [data_page_v1(10, b"\x1f\x8b\x08\x00" + b"\x00" * 12, uncompressed=BIG)], 10, 10,
                        codec=GZIP),
           [(query("STATS s = SUM(x)"), ("error", r"memory limit|gzip|inflate|decompress|GZIP"))])
    yield ("huge_dictionary_num_values",
           parquet_file(flat("x", INT32, REQUIRED), INT32, ["x"], [data_page_v1(10, bytes([0]) + rle_run(10, 0, 0),
                                                                                RLE_DICTIONARY)],
                        10, 10, dictionary=dictionary_page(BIG, struct.pack("<i", 7)),
                        encodings=(PLAIN, RLE_DICTIONARY)),
           [(query("STATS s = SUM(x)"), ("error", r"2147483647 values, more than its 4 bytes"))])
    yield ("huge_string_length",
           parquet_file(flat("s", BYTE_ARRAY, REQUIRED), BYTE_ARRAY, ["s"],
                        [data_page_v1(1, struct.pack("<I", BIG) + b"abc")], 1, 1),
           [(print_head, ("error", r"length|2147483647"))])
    yield ("plain_booleans_beyond_page",
           parquet_file(flat("b", BOOLEAN, REQUIRED), BOOLEAN, ["b"], [data_page_v1(BIG, b"\xff" * 4)], BIG, BIG),
           [(query("WHERE b | STATS n = COUNT(*)"), ("error", r"2147483647 values, its 4 bytes hold at most 32")),
            # A head reads the page as far as its 5 rows, which its bytes hold.
            (print_head, ("ok", r"^b\ntrue\ntrue\ntrue\ntrue\ntrue\n$"))])
    yield ("page_count_beyond_chunk",
           parquet_file(flat("x", INT32, OPTIONAL), INT32, ["x"],
                        [data_page_v2(BIG, BIG, BIG, rle_run(BIG, 0, 1), b"")], 10, 10),
           [(print_head, ("error", r"declares 2147483647 values, but only 10"))])
    # DELTA_BINARY_PACKED: a header of BIG values, every miniblock of width 0.
    delta = varint(128) + varint(4) + varint(BIG) + zigzag(5) + zigzag(0) + bytes(4)
    yield ("delta_count_valid",
           parquet_file(flat("x", INT64, REQUIRED), INT64, ["x"], [data_page_v1(BIG, delta, DELTA_BINARY_PACKED)],
                        BIG, BIG, encodings=(DELTA_BINARY_PACKED,)),
           [(query("STATS s = SUM(x)"), ("error", r"memory limit|DELTA"))])
    yield ("deep_nesting",
           deep_nesting_file(20000),
           [(("print", "--head", "1", "--format", "csv"), ("error|ok", r".")),
            (query("STATS n = COUNT(*)"), ("error|ok", r"."))])


def main():
    quarry, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    if quarry == "--write-only":
        for name, data, _ in files():
            with open(os.path.join(out_dir, name + ".parquet"), "wb") as f:
                f.write(data)
        return 0
    env_limit = os.environ.get("HOSTILE_ONLY")
    failures = []
    for name, data, runs in files():
        if env_limit and env_limit != name:
            continue
        path = os.path.join(out_dir, name + ".parquet")
        with open(path, "wb") as f:
            f.write(data)
        for argv, (kind, pattern), *bound in runs:
            max_seconds = bound[0] if bound else MAX_SECONDS
            code, out, err, elapsed, rss = measured(quarry, argv, path)
            label = "%s: quarry %s" % (name, " ".join(argv))
            problems = []
            if code is None or code < 0:
                problems.append("ended by signal %s" % (-code if code else "?"))
            elif code == 0:
                if "ok" not in kind.split("|"):
                    problems.append("succeeded, expected an error")
                elif not re.search(pattern, out, re.M):
                    problems.append("printed %r, expected /%s/" % (out[:300], pattern))
            else:
                if "error" not in kind.split("|"):
                    problems.append("failed, expected the answer: %s" % err.strip()[:300])
                elif not re.search(pattern, err):
                    problems.append("error %r does not match /%s/" % (err.strip()[:300], pattern))
                elif name not in err:
                    problems.append("error %r does not name the file" % err.strip()[:300])
            if elapsed > max_seconds:
                problems.append("took %.2f s (limit %.1f)" % (elapsed, max_seconds))
            if rss > MAX_RSS_KB:
                problems.append("peaked at %d MB RSS (limit %d)" % (rss // 1024, MAX_RSS_KB // 1024))
            status = "FAIL" if problems else "ok"
            print("%-4s %-70s %.2f s %4d MB  %s" % (status, label[:70], elapsed, rss // 1024,
                                                    (err.strip() or out.strip()).splitlines()[0][:160]
                                                    if (err.strip() or out.strip()) else ""))
            for p in problems:
                print("     " + p)
            if problems:
                failures.append(label)
    if failures:
        print("%d hostile runs failed" % len(failures))
        return 1
    print("every hostile file gave its answer or a clear error")
    return 0


def measured(quarry, argv, path):
    """Runs quarry; returns (exit code, stdout, stderr, seconds, peak RSS in KB)."""
    args = [quarry]
    if argv[0] == "query":
        args += ["query", 'FROM "%s" | %s' % (path, argv[1]), "--format", "csv"]
    else:
        args += [argv[0], path] + list(argv[1:])
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(args, stdout=out, stderr=err, env=dict(os.environ, QUARRY_CACHE_DIR="off"))
        # wait4 gives the child's own peak RSS; bounded: a run that hangs is killed.
        deadline = start + 10
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() > deadline:
                proc.kill()
            time.sleep(0.002)
        elapsed = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                elapsed, usage.ru_maxrss)


if __name__ == "__main__":
    sys.exit(main())
