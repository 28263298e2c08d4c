"""quarry's results as pandas DataFrames equal DuckDB's answers (issue 30: "query
results as pandas equal DuckDB's answers over a corpus").

The corpus and DuckDB's answers come from tests/python/duckdb_answers.mjs: the
engine differential test's datasets (dataset.mjs) and generated queries
(query_generator.mjs), TPC-H Q1 and Q6, and queries naming every type, answered
by DuckDB in compare_values.mjs's canonical forms. Each query runs through
quarry.query(...).to_pandas(), and each cell is compared with DuckDB's value as
DuckDB's own .df() types it: integers of a column with nulls and decimals become
float64 (the nearest double), a NULL double is NaN; the rules of
result_compare.mjs hold otherwise (doubles bit for bit unless the query marks a
column `relative` (1e-9) or `zero-sign`, an ordered result's double sort keys
equal across -0.0 and 0.0, an unordered result compared as a multiset).
"""

import datetime
import decimal
import math
import struct
import uuid

import numpy
import pandas

kRelativeTolerance = 1e-9
kNanosPerDay = 86_400_000_000_000


def _bits_to_float(text, width):
    if width == 64:
        return struct.unpack(">d", int(text, 16).to_bytes(8, "big"))[0]
    return struct.unpack(">f", int(text, 16).to_bytes(4, "big"))[0]


def expected_cell(canonical, as_float):
    """DuckDB's canonical value as a comparable Python value; `as_float`: the
    pandas column is float64 (numbers become their nearest double, NULL NaN)."""
    if canonical is None:
        return math.nan if as_float else None
    if isinstance(canonical, list):
        return tuple(expected_cell(item, False) for item in canonical)
    kind, _, rest = canonical.partition(":")
    if kind == "int":
        return float(int(rest)) if as_float else int(rest)
    if kind in ("f64", "f32"):
        return _bits_to_float(rest, 64 if kind == "f64" else 32)
    if kind == "dec":
        unscaled, scale = rest.split("/")
        value = decimal.Decimal(unscaled).scaleb(-int(scale))
        return float(value) if as_float else value
    if kind == "str":
        return rest
    if kind == "blob":
        return bytes.fromhex(rest)
    if kind == "bool":
        return rest == "true"
    if kind == "date":
        return ("date", int(rest))
    if kind == "ts":
        nanos, _, offset = rest.partition("@")
        return ("ts", int(nanos), offset != "")
    if kind == "time":
        return ("time", int(rest))
    if kind == "uuid":
        return uuid.UUID(rest)
    raise AssertionError(f"no comparison for DuckDB's {canonical!r}")


def actual_cell(value, dtype):
    """A pandas cell as a comparable Python value (the forms of expected_cell)."""
    if isinstance(value, (list, tuple)):
        return tuple(actual_cell(item, None) for item in value)
    if value is None or value is pandas.NaT:
        return math.nan if dtype == numpy.float64 else None
    if isinstance(value, pandas.Timestamp):
        return ("ts", value.value, value.tz is not None)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            delta = value - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        else:
            delta = value - datetime.datetime(1970, 1, 1)
        return ("ts", (delta.days * 86400 + delta.seconds) * 10**9 + delta.microseconds * 1000,
                value.tzinfo is not None)
    if isinstance(value, datetime.date):
        return ("date", (value - datetime.date(1970, 1, 1)).days)
    if isinstance(value, datetime.time):
        return ("time", ((value.hour * 60 + value.minute) * 60 + value.second) * 10**9 + value.microsecond * 1000)
    if isinstance(value, (bool, numpy.bool_)):
        return bool(value)
    if isinstance(value, (int, numpy.integer)):
        return int(value)
    if isinstance(value, (float, numpy.floating)):
        return float(value)
    return value


def same(actual, expected, tolerance):
    if isinstance(expected, tuple) and expected and expected[0] == "date" and isinstance(actual, tuple) \
            and actual and actual[0] == "ts" and not actual[2]:
        # A DATE column is datetime64[ns] in pandas (as in DuckDB's .df()): its midnight.
        return actual[1] == expected[1] * kNanosPerDay
    if isinstance(expected, float) and isinstance(actual, float):
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        if tolerance == "relative":
            if expected == 0 and actual == 0:
                return math.copysign(1, expected) == math.copysign(1, actual)
            return abs(actual - expected) <= kRelativeTolerance * max(abs(actual), abs(expected))
        if tolerance in ("zero-sign", "sort-key"):
            return actual == expected
        return actual == expected and math.copysign(1, actual) == math.copysign(1, expected)
    if isinstance(expected, tuple) and isinstance(actual, tuple) and len(expected) == len(actual) \
            and not (expected and isinstance(expected[0], str) and expected[0] in ("date", "ts", "time")):
        return all(same(a, e, "exact") for a, e in zip(actual, expected))
    if isinstance(expected, decimal.Decimal) and isinstance(actual, decimal.Decimal):
        return actual == expected and actual.as_tuple().exponent == expected.as_tuple().exponent
    return actual == expected and type(actual) is type(expected)


def _sort_key(row, order):
    return repr([repr(row[i]) for i in order])


def compare(entry, frame):
    columns = entry["columns"]
    assert list(frame.columns) == columns, f"columns {list(frame.columns)}, DuckDB's {columns}"
    assert len(frame) == len(entry["rows"]), f"{len(frame)} rows, DuckDB {len(entry['rows'])}"
    as_float = [frame[c].dtype == numpy.float64 for c in columns]
    tolerances = []
    for i, name in enumerate(columns):
        tolerance = entry["tolerance"].get(name, "exact")
        if entry["ordered"] and name in entry["sortKeys"] and entry["types"][i] in ("DOUBLE", "FLOAT"):
            tolerance = "sort-key"
        tolerances.append(tolerance)
    ours = [[actual_cell(v, frame[c].dtype) for c, v in zip(columns, row)]
            for row in frame.itertuples(index=False, name=None)]
    theirs = [[expected_cell(v, as_float[i]) for i, v in enumerate(row)] for row in entry["rows"]]
    if not entry["ordered"]:
        exact_first = sorted(range(len(columns)), key=lambda i: (tolerances[i] != "exact", i))
        exact = [i for i in exact_first if tolerances[i] == "exact"]
        ours.sort(key=lambda r: _sort_key(r, exact))
        theirs.sort(key=lambda r: _sort_key(r, exact))
    problems = []
    for r, (mine, duck) in enumerate(zip(ours, theirs)):
        for c, name in enumerate(columns):
            if not same(mine[c], duck[c], tolerances[c]):
                problems.append(f"{'row' if entry['ordered'] else 'sorted row'} {r} column {name} "
                                f"({entry['types'][c]}, {frame[name].dtype}): quarry {mine[c]!r}, DuckDB {duck[c]!r}")
                break
        if len(problems) >= 3:
            break
    return problems


def test_corpus_as_pandas_equals_duckdb(quarry, answers):
    import re

    assert len(answers) >= 50, f"the corpus has {len(answers)} queries"
    failures = []
    compared = 0
    for entry in answers:
        try:
            frame = quarry.query(entry["query"]).to_pandas()
        except quarry.Error as e:
            if "refused" in entry and re.search(entry["expectError"]["quarry"], str(e)):
                continue
            failures.append(f"{entry['name']}: quarry.Error {e}")
            continue
        if "refused" in entry:
            failures.append(f"{entry['name']}: DuckDB refused ({entry['refused']}), quarry answered")
            continue
        compared += 1
        for problem in compare(entry, frame):
            failures.append(f"{entry['name']}: {problem}\n  {entry['query']}")
    assert not failures, f"{len(failures)} differences:\n" + "\n".join(failures[:20])
    assert compared >= 45


def test_corpus_names_every_type(quarry, answers):
    """The corpus reaches every engine type (the every-type and lists queries)."""
    kinds = set()
    for name in ("every-type", "lists"):
        entry = next(e for e in answers if e["name"] == name)
        kinds.update(t for _, t in quarry.query(entry["query"]).schema)
    for expected in ("int32", "int64", "uint64", "double", "decimal(9,2)", "string", "binary", "boolean", "date",
                     "timestamp(us, utc)", "timestamp(us, local)", "time(us)", "uuid", "list<int32>",
                     "list<int64>", "list<double>", "list<string>"):
        assert expected in kinds, f"no {expected} column in the corpus: {sorted(kinds)}"


def test_fetchall_equals_duckdb_exactly(quarry, answers):
    """fetchall() keeps every value exact (ints, Decimals, NaN apart from None)."""
    for name in ("every-type", "lists", "tpch-q1", "group-by-types"):
        entry = next(e for e in answers if e["name"] == name)
        rows = quarry.query(entry["query"]).fetchall()
        assert len(rows) == len(entry["rows"]), name
        for r, (mine, duck) in enumerate(zip(rows, entry["rows"])):
            for c, column in enumerate(entry["columns"]):
                tolerance = entry["tolerance"].get(column, "exact")
                if name == "tpch-q1" and entry["types"][c] == "DOUBLE":
                    tolerance = "relative"
                ours = actual_cell(mine[c], None)
                theirs = expected_cell(duck[c], False)
                if isinstance(theirs, float) and math.isnan(theirs) and ours is None:
                    raise AssertionError(f"{name} row {r} {column}: NaN came back as None")
                assert same(ours, theirs, tolerance), f"{name} row {r} {column}: {mine[c]!r}, DuckDB {duck[c]!r}"
