"""The module's surface (issue 30, "Python"; docs/LIBRARY.md "Python"): query with
`?name` parameters, fetchall's Python types, to_pandas's dtypes and its views of
quarry's buffers, read_parquet's columns and filter, sessions, and errors as
quarry.Error naming the file, the column, the value."""

import datetime
import decimal
import uuid

import numpy
import pandas
import pytest


def test_error_is_an_exception_class(quarry):
    assert issubclass(quarry.Error, Exception)
    assert quarry.Error.__module__ == "quarry"


def test_fetchall_gives_python_values(quarry):
    row = quarry.query('ROW i = 2147483647, l = 2147483648, d = 12.50, f = 1e3, s = "x", t = TRUE, '
                       'day = DATE "2024-03-01", ts = TIMESTAMP "2024-03-01 10:20:30.5", n = NULL').fetchall()
    assert row == [(2147483647, 2147483648, decimal.Decimal("12.50"), 1000.0, "x", True,
                    datetime.date(2024, 3, 1), datetime.datetime(2024, 3, 1, 10, 20, 30, 500000), None)]
    assert str(row[0][2]) == "12.50"  # the decimal's scale kept


def test_instants_are_utc_aware_and_local_times_naive(quarry, answers):
    entry = next(e for e in answers if e["name"] == "every-type")
    result = quarry.query(entry["query"] + " | KEEP ts_utc, ts_local, tod, uid, bin | WHERE ts_utc IS NOT NULL "
                          "AND ts_local IS NOT NULL AND tod IS NOT NULL AND uid IS NOT NULL AND bin IS NOT NULL "
                          "| LIMIT 1")
    assert result.schema == [("ts_utc", "timestamp(us, utc)"), ("ts_local", "timestamp(us, local)"),
                             ("tod", "time(us)"), ("uid", "uuid"), ("bin", "binary")]
    ts_utc, ts_local, tod, uid, binary = result.fetchall()[0]
    assert ts_utc.tzinfo == datetime.timezone.utc
    assert ts_local.tzinfo is None
    assert isinstance(tod, datetime.time) and isinstance(uid, uuid.UUID) and isinstance(binary, bytes)


def test_parameters_bind_values_of_each_type(quarry):
    result = quarry.query("ROW a = ?a, b = ?b, c = ?c, d = ?d, e = ?e, f = ?f", a=5, b=2.5, c='it\'s "x"', d=True,
                          e=None, f=-(2**63))
    assert result.columns == ["a", "b", "c", "d", "e", "f"]
    assert result.fetchall() == [(5, 2.5, 'it\'s "x"', True, None, -(2**63))]
    # A string is a literal, never query text.
    assert quarry.query("ROW s = ?s", s='x" | EVAL y = "1').fetchall() == [('x" | EVAL y = "1',)]


def test_parameter_errors_name_the_parameter(quarry):
    with pytest.raises(quarry.Error, match=r"parameter \?big: 36893488147419103232 does not fit a 64-bit integer"):
        quarry.query("ROW x = ?big", big=2**65)
    with pytest.raises(quarry.Error, match=r"parameter \?when: a date cannot be bound"):
        quarry.query("ROW x = ?when", when=datetime.date(2024, 1, 1))
    with pytest.raises(quarry.Error) as missing:
        quarry.query("ROW x = ?absent")
    assert "absent" in str(missing.value) and "^" in str(missing.value)  # the caret under the place


def test_errors_name_the_file(quarry, tmp_path):
    missing = tmp_path / "nowhere.parquet"
    with pytest.raises(quarry.Error, match="nowhere.parquet"):
        quarry.query(f'FROM "{missing}"')
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"PAR1" + b"\0" * 64 + b"PAR1")
    with pytest.raises(quarry.Error, match="corrupt.parquet"):
        quarry.query(f'FROM "{corrupt}"').fetchall()


def test_overflow_is_null_with_a_warning_naming_the_values(quarry):
    # ES|QL: an integer overflow is null, with a warning.
    result = quarry.query("ROW x = ?a | EVAL y = x + 1", a=2147483647)
    assert result.fetchall() == [(2147483647, None)]
    assert result.warnings() == [
        "Line 1:25: evaluation of [x + 1] failed, treating result as null. "
        "Only first 20 failures recorded.",
        "Line 1:25: integer overflow: 2147483647 + 1",
    ]


def test_warnings_name_the_rows_an_expression_failed_on(quarry):
    # ES|QL: a value TO_INTEGER cannot convert is null, with a warning.
    result = quarry.query('ROW s = "abc" | EVAL i = to_integer(s)')
    assert result.warnings() == []  # known once the rows are read
    assert result.fetchall() == [("abc", None)]
    assert result.warnings() == [
        "Line 1:26: evaluation of [to_integer(s)] failed, treating result as null. "
        "Only first 20 failures recorded.",
        "Line 1:26: Cannot parse number [abc]",
    ]


def test_result_is_read_once(quarry):
    result = quarry.query("ROW x = 1")
    assert result.fetchall() == [(1,)]
    with pytest.raises(quarry.Error, match=r"already read by fetchall\(\)"):
        result.to_pandas()


def test_to_pandas_dtypes_follow_duckdbs_df(quarry, answers):
    entry = next(e for e in answers if e["name"] == "every-type")
    frame = quarry.query(entry["query"]).to_pandas()
    dtypes = {name: str(dtype) for name, dtype in frame.dtypes.items()}
    assert dtypes["id"] == "int64"  # no nulls: the integer type itself
    assert dtypes["i32"] == "float64" and dtypes["i64"] == "float64"  # nulls: float64 with NaN
    assert dtypes["d9"] == "float64" and dtypes["f64"] == "float64"
    assert dtypes["day"] == "datetime64[ns]" and dtypes["ts_local"] == "datetime64[ns]"
    assert dtypes["ts_utc"] == "datetime64[ns, UTC]"
    for name in ("s_low", "bin", "tod", "uid", "flag"):
        assert dtypes[name] == "object", name
    assert frame["s_low"].isna().any() and frame["s_low"].dropna().map(type).eq(str).all()


def test_to_pandas_views_the_buffers_of_a_one_batch_result(quarry, answers):
    entry = next(e for e in answers if e["name"] == "one-batch")
    frame = quarry.query(entry["query"]).to_pandas()
    ids = frame["id"].to_numpy()
    assert ids.dtype == numpy.int64 and not ids.flags.owndata, "a copy where a view of the batch was possible"
    assert frame["i64"].dtype == numpy.int64 and not frame["i64"].to_numpy().flags.owndata
    assert list(ids) == sorted(ids)
    # Several batches: one array the batches are copied into.
    many = quarry.query(next(e for e in answers if e["name"] == "no-nulls")["query"]).to_pandas()
    assert str(many["u64"].dtype) == "uint64" and str(many["flag"].dtype) == "bool" and len(many) > 10_000


def test_empty_result_has_its_columns(quarry, answers):
    entry = next(e for e in answers if e["name"] == "empty")
    result = quarry.query(entry["query"])
    assert result.columns == ["id", "s_low", "d9"]
    frame = result.to_pandas()
    assert list(frame.columns) == ["id", "s_low", "d9"] and len(frame) == 0


def test_read_parquet_columns_and_filter(quarry, sample):
    frame = quarry.read_parquet(sample, columns=["vendor", "fare_amount"],
                                filter="fare_amount > 10.5 AND (vendor IN ('VTS', 'CMT') OR tip_amount IS NULL)"
                                ).to_pandas()
    expected = quarry.query(f'FROM "{sample}" | WHERE fare_amount > 10.5 AND (vendor IN ("VTS", "CMT") OR '
                            'tip_amount IS NULL) | KEEP vendor, fare_amount').to_pandas()
    assert list(frame.columns) == ["vendor", "fare_amount"]
    assert len(frame) > 0
    pandas.testing.assert_frame_equal(frame, expected)
    everything = quarry.read_parquet(sample).to_pandas()
    assert len(everything) > len(frame)


def test_read_parquet_quotes_text_as_the_cli_filter_does(quarry, sample):
    assert quarry.read_parquet(sample, columns="vendor", filter="vendor = 'it''s'").fetchall() == []
    with pytest.raises(quarry.Error, match="no_such_column"):
        quarry.read_parquet(sample, columns=["no_such_column"])


def test_connect_gives_a_session_with_options(quarry, sample, tmp_path):
    session = quarry.connect(threads=1, metadata_cache=str(tmp_path / "cache"))
    assert session.threads == 1 and session.metadata_cache == str(tmp_path / "cache")
    assert session.query(f'FROM "{sample}" | STATS n = COUNT(*)').fetchall()[0][0] > 0
    assert session.read_parquet(sample, columns=["vendor"]).columns == ["vendor"]
    assert quarry.connect().metadata_cache is None
    with pytest.raises(quarry.Error, match="threads must be at least 1, not 0"):
        quarry.connect(threads=0)


def test_lookup_max_rows_bounds_a_lookup_joins_file(quarry, sample):
    # The LOOKUP JOIN file is read whole: lookup_max_rows bounds it as the CLI's
    # --lookup-max-rows does (zones.parquet beside the sample holds 11 rows).
    zones = sample.replace("trips.parquet", "zones.parquet")
    text = f'ROW zone = "SoHo" | LOOKUP JOIN "{zones}" ON zone | KEEP borough'
    assert quarry.connect().lookup_max_rows == 1_000_000
    with pytest.raises(quarry.Error, match="holds 11 rows, more than the limit of 10"):
        quarry.connect(lookup_max_rows=10).query(text).fetchall()
    assert quarry.connect(lookup_max_rows=11).query(text).fetchall() == [("Manhattan",)]
    with pytest.raises(quarry.Error, match="lookup_max_rows must be at least 1"):
        quarry.connect(lookup_max_rows=0)


def test_readme_example_runs(quarry, monkeypatch):
    """README.md's "Use from Python" lines run from the checkout and return rows."""
    from conftest import SOURCE_DIR

    text = (SOURCE_DIR / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Use from Python"):]
    code = section[section.index("```python\n") + len("```python\n"):section.index("\n```", section.index("```python"))]
    monkeypatch.chdir(SOURCE_DIR)
    namespace = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert len(namespace["frame"]) > 0 and len(namespace["rows"]) > 0


def test_values_outside_pandas_range_name_column_and_value(quarry):
    """A date pandas' datetime64[ns] cannot hold is an error naming it, not a wrapped value;
    fetchall's datetime.date holds it. Negative timestamps floor to the right second."""
    assert quarry.query('ROW d = DATE "2300-01-01"').fetchall() == [(datetime.date(2300, 1, 1),)]
    with pytest.raises(quarry.Error, match=r"column d: 2300-01-01 is outside pandas' datetime64\[ns\] range"):
        quarry.query('ROW d = DATE "2300-01-01"').to_pandas()
    before_epoch = datetime.datetime(1960, 5, 6, 7, 8, 9, 123456)
    assert quarry.query('ROW t = TIMESTAMP "1960-05-06 07:08:09.123456"').fetchall() == [(before_epoch,)]
    assert quarry.query('ROW t = TIMESTAMP "1960-05-06 07:08:09.123456"').to_pandas()["t"][0] == \
        pandas.Timestamp(before_epoch)
