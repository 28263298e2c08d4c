#pragma once

#include <string>

#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"

/// `quarry inspect pages FILE`: the pages of every column chunk, found by
/// walking the chunk's page headers, and the chunk's page index (OffsetIndex
/// and ColumnIndex) where it has one: per page its location, first row, null
/// flag, bounds and null and NaN counts.
namespace quarry::cli {

/// Appends the pages view as text; throws CorruptFile (naming file, row group,
/// column and offset) at the first page header or page index that is invalid.
void appendPagesText(const InspectedFile& file, std::string& out);

/// Writes {"file", "num_rows", "row_groups": [{"index", "num_rows",
/// "columns": [{..., "pages": [...], "offset_index", "column_index"}]}]}.
void writePagesJson(const InspectedFile& file, JsonWriter& json);

}  // namespace quarry::cli
