"""quarry for Python: run quarry's queries over Parquet and ORC files.

    import quarry
    rows = quarry.query('FROM "trips.parquet" | WHERE fare_amount > ?min | LIMIT 5', min=10).fetchall()
    frame = quarry.read_parquet("trips.parquet", columns=["vendor", "fare_amount"]).to_pandas()

A Result is read once: by fetchall(), to_pandas(), or an Arrow consumer through
__arrow_c_stream__ (pyarrow.table(result), polars.from_arrow(result), DuckDB).
The GIL is released while quarry works, and Ctrl-C cancels the query. Failures
raise quarry.Error with the engine's message (the file, the column, the value).
docs/LIBRARY.md ("Python") says how each type comes out.
"""

import re as _re

from ._quarry import Error, Result, Session, __version__

__all__ = ["Error", "Result", "Session", "connect", "query", "read_parquet", "__version__"]

_default_session = None


def connect(threads=2, metadata_cache=None, lookup_max_rows=1_000_000):
    """Returns a Session: `threads` run a query's scans and footer reads;
    `metadata_cache` keeps footers and listings of local files across queries in
    a directory (True: the CLI's, $QUARRY_CACHE_DIR or ~/.cache/quarry; None: off);
    `lookup_max_rows` is the most rows a LOOKUP JOIN's file may hold (read whole)."""
    return Session(threads=threads, metadata_cache=metadata_cache, lookup_max_rows=lookup_max_rows)


def _session():
    global _default_session
    if _default_session is None:
        _default_session = Session()
    return _default_session


def query(text, **params):
    """Runs `text` (quarry's query language) with `params` bound to its `?name`
    placeholders (None, bool, int, float or str); returns its Result."""
    return _session().query(text, **params)


def _quoted_name(name):
    return "`" + name.replace("`", "``") + "`"


# A text literal of the --filter language: quotes doubled inside.
_FILTER_TEXT = _re.compile(r"'((?:[^']|'')*)'|\"((?:[^\"]|\"\")*)\"")


def _filter_condition(expression):
    """The --filter expression as a WHERE condition: the same operators
    (= != <> < <= > >= IN, IS [NOT] NULL, AND OR NOT), its text literals
    rewritten from doubled quotes to the query language's escapes."""

    def literal(match):
        single, double = match.group(1), match.group(2)
        text = single.replace("''", "'") if single is not None else double.replace('""', '"')
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    return _FILTER_TEXT.sub(literal, expression)


def _read_parquet_query(path, columns=None, filter=None):
    text = 'FROM "' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'
    if filter is not None:
        text += " | WHERE " + _filter_condition(filter)
    if columns is not None:
        if isinstance(columns, str):
            columns = [columns]
        if len(columns) == 0:
            raise Error("read_parquet: columns is empty; name at least one column, or pass None for all")
        text += " | KEEP " + ", ".join(_quoted_name(c) for c in columns)
    return text


def read_parquet(path, columns=None, filter=None, session=None):
    """Reads a Parquet file (or a glob of them): `columns` the names to keep, in
    that order; `filter` a row condition in the text of the CLI's --filter
    (fare > 10.5 AND (vendor IN ('A', 'B') OR tip IS NULL)). Returns its Result."""
    return (session or _session()).query(_read_parquet_query(path, columns, filter))


def _session_read_parquet(self, path, columns=None, filter=None):
    return read_parquet(path, columns, filter, session=self)


def _to_pandas(self):
    """Returns the rows as a pandas DataFrame, typed as DuckDB's .df() types them:
    integers and doubles as numpy int32/int64/uint64/float64 (views of quarry's
    buffers for a result of one batch), integers with nulls and decimals as
    float64 (NaN for null), booleans as bool (object with None when nullable),
    dates and timestamps as datetime64[ns] (tz-aware UTC for instants, NaT for
    null), strings, binaries, times, UUIDs and lists as objects (None for null)."""
    import pandas

    data = {}
    for name, form, values in self._pandas_columns():
        if form == "array":
            data[name] = pandas.Series(values, copy=False)
        elif form == "datetime64[ns]":
            data[name] = pandas.Series(values.view("datetime64[ns]"), copy=False)
        elif form == "datetime64[ns, UTC]":
            data[name] = pandas.Series(values.view("datetime64[ns]"), copy=False).dt.tz_localize("UTC")
        else:
            data[name] = pandas.Series(values, dtype=object)
    frame = pandas.DataFrame(data, copy=False)
    if len(data) != len(self.columns):
        raise Error("to_pandas: the result names a column twice: " + ", ".join(self.columns))
    return frame


def _repr(self):
    return "<quarry.Result " + ", ".join(f"{name}: {type}" for name, type in self.schema) + ">"


Result.to_pandas = _to_pandas
Result.__repr__ = _repr
Session.read_parquet = _session_read_parquet
Result.__module__ = "quarry"
Session.__module__ = "quarry"
