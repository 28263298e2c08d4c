// Renders a DuckDB result as `quarry query --format ndjson` renders rows (the
// JSON of value_renderer.h: 64-bit integers and decimals as strings, doubles as
// numbers with -0.0 kept, NaN and infinities as strings, temporal values, UUIDs
// and blobs as DuckDB's text): what a correct engine prints. Used by
// stub_quarry.mjs, and by the self-check to prove that the comparison accepts a
// correct answer to every query of the corpus.

/// Returns one JSON object text per row of `reader` (a DuckDB materialized result).
export function quarryJsonLines(reader, T) {
  const names = reader.columnNames();
  const types = reader.columnTypes();
  const typed = reader.getRows();
  return reader.getRowsJson().map((row, r) => '{' + row.map((value, c) => {
    let text = JSON.stringify(value);
    // getRowsJson gives -0.0 as 0: take the sign from the typed value.
    if (types[c].typeId === T.DOUBLE && Object.is(typed[r][c], -0)) text = '-0.0';
    return `${JSON.stringify(names[c])}:${text}`;
  }).join(',') + '}');
}
