#pragma once

#include <string>

#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"

/// `quarry inspect FILE`: the file as a whole. Format version, writer, row and
/// row-group counts, every leaf column with its types and levels, the schema
/// tree including groups, and the key-value metadata.
namespace quarry::cli {

/// Appends the summary as aligned text. Key-value values longer than
/// kMaxTextValueLength are cut, with a note that --json shows them whole.
void appendFileSummaryText(const InspectedFile& file, std::string& out);

/// Writes the summary as one JSON object whose top level holds "file",
/// "file_size", "version", "created_by", "num_rows", "num_row_groups",
/// "columns", "schema" and "key_value_metadata" (values whole).
void writeFileSummaryJson(const InspectedFile& file, JsonWriter& json);

/// Appends the schema tree in parquet-format's notation, one node a line
/// indented by depth; `withLevels` ends each line with "-- def D rep R" (and
/// ", column N" on a leaf). `quarry schema` and `quarry dive` show it.
void appendSchemaText(const InspectedFile& file, bool withLevels, std::string& out);

/// Writes the schema tree as nested JSON objects: name, path, repetition,
/// physical_type, logical_type, converted_type, field_id, max levels, children.
void writeSchemaJson(const InspectedFile& file, JsonWriter& json);

inline constexpr size_t kMaxTextValueLength = 200;

}  // namespace quarry::cli
