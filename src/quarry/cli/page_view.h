#pragma once

#include <optional>
#include <string>
#include <vector>

#include "quarry/cli/chunk_reader.h"
#include "quarry/cli/inspected_file.h"
#include "quarry/cli/json_writer.h"
#include "quarry/cli/statistic_value.h"

/// `quarry inspect pages FILE`: the pages of every column chunk, found by
/// walking the chunk's page headers, and the chunk's page index (OffsetIndex
/// and ColumnIndex) where it has one: per page its location, first row, null
/// flag, bounds and null and NaN counts.
namespace quarry::cli {

/// Everything the pages view shows for one column chunk, read up front so that
/// the text and JSON renderings (and `quarry dive`) share one reading path.
struct ChunkPages {
  ChunkLocation where;
  ValueType valueType;
  const parquet::ColumnChunk* chunk = nullptr;
  /// Why the pages were not walked (no metadata, data in another file); empty
  /// when they were.
  std::string skipped;
  ChunkRange range;
  std::vector<PageEntry> pages;
  std::optional<parquet::OffsetIndex> offsetIndex;
  std::optional<parquet::ColumnIndex> columnIndex;
};

/// Walks the page headers of column chunk (`rowGroup`, `column`) and reads its
/// page index; throws CorruptFile as appendPagesText does.
ChunkPages readChunkPages(const InspectedFile& file, size_t rowGroup, size_t column);

/// Appends one line per page (offset, type, encoding, sizes, values, statistics).
void appendPageTable(const ChunkPages& chunk, std::string& out);

/// Appends the chunk's page index: one line per page with its OffsetIndex
/// location and first row and its ColumnIndex bounds and counts as carried.
void appendPageIndexTable(const ChunkPages& chunk, std::string& out);

/// Writes every field of one page header (statistics included) as JSON.
void writePageHeaderJson(const PageEntry& page, const ValueType& valueType, JsonWriter& json);

/// Appends the pages view as text; throws CorruptFile (naming file, row group,
/// column and offset) at the first page header or page index that is invalid.
void appendPagesText(const InspectedFile& file, std::string& out);

/// Writes {"file", "num_rows", "row_groups": [{"index", "num_rows",
/// "columns": [{..., "pages": [...], "offset_index", "column_index"}]}]}.
void writePagesJson(const InspectedFile& file, JsonWriter& json);

}  // namespace quarry::cli
