"""The Arrow PyCapsule protocol: Result.__arrow_c_stream__ returns a PyCapsule named
"arrow_array_stream" holding an ArrowArrayStream (issue 30: "the capsule is
consumed by a test consumer"). The consumer here is written from the Arrow C
Stream and C Data Interface specification with ctypes: it moves the stream out
of the capsule, calls get_schema and get_next until the released array that ends
the stream, reads every buffer of every type quarry exports (quarry/arrow.h) and
compares the values with fetchall()'s of the same query, releasing each object
once.
"""

import ctypes
import datetime
import decimal
import uuid

import pytest


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def move_stream(capsule):
    """Moves the capsule's stream into a struct the consumer owns (the
    specification's move: copy, then mark the source released)."""
    assert _capsule_name(capsule) == b"arrow_array_stream"
    source = ArrowArrayStream.from_address(_capsule_pointer(capsule, b"arrow_array_stream"))
    assert source.release, "the capsule's stream is released already"
    stream = ArrowArrayStream()
    ctypes.memmove(ctypes.addressof(stream), ctypes.addressof(source), ctypes.sizeof(ArrowArrayStream))
    ctypes.memset(ctypes.addressof(source) + ArrowArrayStream.release.offset, 0, ctypes.sizeof(ctypes.c_void_p))
    return stream


def _bit(address, index):
    return (ctypes.c_uint8.from_address(address + index // 8).value >> (index % 8)) & 1


_EPOCH_UTC = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_UNITS = {"s": 1, "m": 1_000, "u": 1_000_000, "n": 1_000_000_000}


def read_values(schema, array):
    """The values of `array` (of `schema`) as Python values, as fetchall() gives them."""
    fmt = schema.format.decode()
    n = array.length
    assert array.offset == 0
    if fmt == "n":
        assert array.null_count == n
        return [None] * n
    if schema.dictionary:
        # A dictionary-encoded column: int32 indices into the dictionary's values.
        assert fmt == "i", f"{schema.name}: dictionary indices of format {fmt}"
        dictionary = read_values(schema.dictionary.contents, array.dictionary.contents)
        indices = read_values(_INDICES, _indices_array(array))
        return [None if i is None else dictionary[i] for i in indices]
    assert not array.dictionary, f"{schema.name}: a dictionary the schema does not declare"
    buffers = [array.buffers[i] for i in range(array.n_buffers)]
    validity = buffers[0]
    nulls = 0
    values = []
    for i in range(n):
        if validity and not _bit(validity, i):
            nulls += 1
    assert nulls == array.null_count, f"{schema.name}: null_count {array.null_count}, the bitmap has {nulls}"

    def valid(i):
        return not validity or _bit(validity, i)

    data = buffers[1] if len(buffers) > 1 else None
    if fmt == "+L":
        elements = read_values(schema.children[0].contents, array.children[0].contents)
    for i in range(n):
        if not valid(i):
            values.append(None)
        elif fmt == "b":
            values.append(bool(_bit(data, i)))
        elif fmt in ("i", "tdD", "ttm"):
            v = ctypes.c_int32.from_address(data + 4 * i).value
            if fmt == "tdD":
                v = datetime.date(1970, 1, 1) + datetime.timedelta(days=v)
            elif fmt == "ttm":
                v = (datetime.datetime.min + datetime.timedelta(milliseconds=v)).time()
            values.append(v)
        elif fmt in ("l", "ttu", "ttn") or fmt.startswith("ts"):
            v = ctypes.c_int64.from_address(data + 8 * i).value
            if fmt.startswith("tt"):
                micros = v // (1000 if fmt == "ttn" else 1)
                v = (datetime.datetime.min + datetime.timedelta(microseconds=micros)).time()
            elif fmt.startswith("ts"):
                micros = v * 1_000_000 // _UNITS[fmt[2]]
                instant = _EPOCH_UTC + datetime.timedelta(microseconds=micros)
                v = instant if fmt.endswith(":UTC") else instant.replace(tzinfo=None)
            values.append(v)
        elif fmt == "L":
            values.append(ctypes.c_uint64.from_address(data + 8 * i).value)
        elif fmt == "g":
            values.append(ctypes.c_double.from_address(data + 8 * i).value)
        elif fmt.startswith("d:"):
            scale = int(fmt.split(",")[1])
            unscaled = int.from_bytes(ctypes.string_at(data + 16 * i, 16), "little", signed=True)
            values.append(decimal.Decimal(unscaled).scaleb(-scale))
        elif fmt in ("U", "Z"):
            start = ctypes.c_int64.from_address(data + 8 * i).value
            end = ctypes.c_int64.from_address(data + 8 * (i + 1)).value
            raw = ctypes.string_at(buffers[2] + start, end - start)
            values.append(raw.decode() if fmt == "U" else raw)
        elif fmt == "w:16":
            values.append(uuid.UUID(bytes=ctypes.string_at(data + 16 * i, 16)))
        elif fmt == "+L":
            start = ctypes.c_int64.from_address(data + 8 * i).value
            end = ctypes.c_int64.from_address(data + 8 * (i + 1)).value
            values.append(elements[start:end])
        else:
            raise AssertionError(f"{schema.name.decode()}: the consumer does not know format {fmt}")
    return values


_INDICES = ArrowSchema(format=b"i", name=b"indices")


def _indices_array(array):
    """`array` without its dictionary: the indices alone."""
    indices = ArrowArray()
    ctypes.memmove(ctypes.addressof(indices), ctypes.addressof(array), ctypes.sizeof(ArrowArray))
    indices.dictionary = ctypes.POINTER(ArrowArray)()
    return indices


def _format(schema):
    """A column's format, "i:U" for int32 indices into utf8 values."""
    fmt = schema.format.decode()
    return fmt + ":" + schema.dictionary.contents.format.decode() if schema.dictionary else fmt


def comparable(value):
    """NaN as a marker (NaN != NaN), -0.0 apart from 0.0, lists and tuples element-wise."""
    if isinstance(value, (list, tuple)):
        return [comparable(v) for v in value]
    if isinstance(value, float):
        return ("float", value.hex())
    return value


def consume(capsule):
    """Reads the whole stream; returns (column names, formats, rows, batches)."""
    stream = move_stream(capsule)
    schema = ArrowSchema()
    assert stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0
    assert schema.format == b"+s" and schema.release
    names = [schema.children[c].contents.name.decode() for c in range(schema.n_children)]
    formats = [_format(schema.children[c].contents) for c in range(schema.n_children)]
    rows = []
    batches = 0
    while True:
        array = ArrowArray()
        code = stream.get_next(ctypes.byref(stream), ctypes.byref(array))
        assert code == 0, f"get_next: {code} {stream.get_last_error(ctypes.byref(stream))}"
        if not array.release:
            break
        batches += 1
        assert array.n_children == schema.n_children
        columns = [read_values(schema.children[c].contents, array.children[c].contents)
                   for c in range(schema.n_children)]
        rows.extend(zip(*columns))
        array.release(ctypes.byref(array))
        assert not array.release, "the array's release did not mark it released"
    schema.release(ctypes.byref(schema))
    assert not schema.release
    stream.release(ctypes.byref(stream))
    assert not stream.release
    return names, formats, rows, batches


def test_capsule_stream_equals_fetchall_for_every_type(quarry, answers):
    for name in ("every-type", "lists", "group-by-types", "tpch-q1"):
        entry = next(e for e in answers if e["name"] == name)
        capsule = quarry.query(entry["query"]).__arrow_c_stream__()
        names, formats, rows, batches = consume(capsule)
        assert names == entry["columns"]
        assert comparable(rows) == comparable(quarry.query(entry["query"]).fetchall()), name
    assert {"l", "i", "L", "g", "U", "Z", "b", "tdD", "tsu:UTC", "tsu:", "ttu", "w:16", "d:9,2"} <= set(
        consume(quarry.query(next(e for e in answers if e["name"] == "every-type")["query"]).__arrow_c_stream__())[1])


def test_capsule_of_many_batches(quarry, lineitem):
    from_files = ", ".join(f'"{f}"' for f in lineitem)
    names, formats, rows, batches = consume(
        quarry.query(f"FROM {from_files} | KEEP l_orderkey, l_extendedprice, l_shipmode").__arrow_c_stream__())
    assert len(rows) == 30_000 and batches > 1
    # l_shipmode is dictionary-encoded in the files: exported as a dictionary array
    # (quarry/arrow.h), and fetchall's strings are its values.
    assert formats == ["l", "d:15,2", "i:U"]
    assert sorted(set(r[2] for r in rows)) == ["AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"]


def test_capsule_released_by_its_destructor_when_not_consumed(quarry, sample):
    capsule = quarry.query(f'FROM "{sample}"').__arrow_c_stream__()
    assert _capsule_name(capsule) == b"arrow_array_stream"
    del capsule  # the destructor releases the stream and the query with it


def test_schema_capsule_and_requested_schema(quarry, sample):
    result = quarry.query(f'FROM "{sample}" | KEEP vendor | LIMIT 3')
    schema_capsule = result.__arrow_c_schema__()
    assert _capsule_name(schema_capsule) == b"arrow_schema"
    schema = ArrowSchema.from_address(_capsule_pointer(schema_capsule, b"arrow_schema"))
    assert schema.format == b"+s" and schema.children[0].contents.name == b"vendor"
    # requested_schema is honoured as far as dictionaries go: the result's own schema,
    # which has none, gets every column plain; without it vendor is dictionary-encoded.
    _, formats, rows, _ = consume(result.__arrow_c_stream__(requested_schema=schema_capsule))
    assert formats == ["U"] and len(rows) == 3
    _, formats, rows, _ = consume(quarry.query(f'FROM "{sample}" | KEEP vendor | LIMIT 3').__arrow_c_stream__())
    assert formats == ["i:U"] and len(rows) == 3


def test_stream_is_read_once(quarry, sample):
    result = quarry.query(f'FROM "{sample}" | LIMIT 1')
    result.__arrow_c_stream__()
    with pytest.raises(quarry.Error, match=r"already read by __arrow_c_stream__"):
        result.fetchall()


def test_stream_hands_back_the_warnings_at_its_end(quarry):
    # ES|QL: a value TO_INTEGER cannot convert is null, with a warning. The stream
    # owns the result, and gives its warnings back once it has given its last batch.
    result = quarry.query('ROW s = "abc" | EVAL i = to_integer(s), o = 2147483647 + 1')
    capsule = result.__arrow_c_stream__()
    assert result.warnings() == []  # nothing read yet
    _, formats, rows, _ = consume(capsule)
    assert len(rows) == 1
    assert result.warnings() == [
        "Line 1:26: evaluation of [to_integer(s)] failed, treating result as null. "
        "Only first 20 failures recorded.",
        "Line 1:26: Cannot parse number [abc]",
        "Line 1:56: evaluation of [2147483647 + 1] failed, treating result as null. "
        "Only first 20 failures recorded.",
        "Line 1:56: integer overflow: 2147483647 + 1",
    ]
