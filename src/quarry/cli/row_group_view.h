#pragma once

#include <string>

#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"

/// `quarry inspect rowgroups FILE`: one line per row group with its row count,
/// sizes, offset, ordinal and sorting columns.
namespace quarry::cli {

void appendRowGroupsText(const InspectedFile& file, std::string& out);

/// Writes {"file", "num_rows", "num_row_groups", "row_groups": [...]}.
void writeRowGroupsJson(const InspectedFile& file, JsonWriter& json);

}  // namespace quarry::cli
