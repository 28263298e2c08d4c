#pragma once

#include <string>

#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"

/// `quarry inspect columns FILE`: every column chunk of every row group with
/// its codec, encodings, value count, sizes, page offsets, statistics exactly
/// as carried, size and geospatial statistics, and where its Bloom filter and
/// page index lie (presence only; `inspect pages` decodes the page index).
namespace quarry::cli {

/// Appends one column chunk's block: codec, encodings, encoding stats, sizes,
/// offsets, statistics as carried, size statistics (level histograms), Bloom
/// filter and page index locations.
void appendColumnChunkText(const InspectedFile& file, const parquet::ColumnChunk& chunk,
                           size_t column, std::string& out);

void appendColumnChunksText(const InspectedFile& file, std::string& out);

/// Writes {"file", "num_rows", "row_groups": [{"index", "num_rows",
/// "columns": [...]}]}.
void writeColumnChunksJson(const InspectedFile& file, JsonWriter& json);

}  // namespace quarry::cli
