// Renders a DuckDB result as `quarry query --format ndjson` renders rows (the
// JSON of value_renderer.h: integers and decimals as numbers with every digit,
// doubles as numbers with -0.0 kept, NaN and infinities as strings, temporal
// values, UUIDs and blobs as DuckDB's text): what a correct engine prints. Used
// by stub_quarry.mjs, and by the self-check to prove that the comparison accepts
// a correct answer to every query of the corpus.

/// Returns the JSON text of `value` (DuckDB's JSON form of a `type` value):
/// getRowsJson gives 64-bit and wider integers and decimals as strings, which
/// quarry writes as numbers.
function valueJson(value, type, T) {
  if (value === null) return 'null';
  switch (type.typeId) {
    case T.BIGINT: case T.UBIGINT: case T.HUGEINT: case T.UHUGEINT: case T.DECIMAL:
      return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? value : JSON.stringify(value);
    case T.LIST: case T.ARRAY:
      return Array.isArray(value) ? `[${value.map((v) => valueJson(v, type.valueType, T)).join(',')}]`
                                  : JSON.stringify(value);
    default:
      return JSON.stringify(value);
  }
}

/// Returns one JSON object text per row of `reader` (a DuckDB materialized result).
export function quarryJsonLines(reader, T) {
  const names = reader.columnNames();
  const types = reader.columnTypes();
  const typed = reader.getRows();
  return reader.getRowsJson().map((row, r) => '{' + row.map((value, c) => {
    let text = valueJson(value, types[c], T);
    // getRowsJson gives -0.0 as 0: take the sign from the typed value.
    if (types[c].typeId === T.DOUBLE && Object.is(typed[r][c], -0)) text = '-0.0';
    return `${JSON.stringify(names[c])}:${text}`;
  }).join(',') + '}');
}
