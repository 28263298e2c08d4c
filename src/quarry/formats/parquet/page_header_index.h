#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/schema.h"

/// Inline page-header statistics: a column chunk written without a ColumnIndex
/// may still record each data page's Statistics in the page's header. Walking
/// the headers (no page body is decompressed) gives what page skipping needs of
/// a page index: each page's bytes and first row (an OffsetIndex) and its
/// statistics, which page_pruning then decides segments from as it does a
/// ColumnIndex's entries (column_bounds, pageHeaderStatistics: the same rules of
/// "When statistics are ignored").
///
/// A page's rows come from its header: num_rows for a DATA_PAGE_V2; num_values
/// for a DATA_PAGE of a column that is not repeated (one level entry per row).
/// A DATA_PAGE of a repeated column does not say where its rows begin, so such a
/// chunk gets no page index from its headers.
///
/// Example: a chunk of a dictionary page and data pages v1 of 100 and 50 values
/// with statistics [1, 9] and [10, 20] gives the page locations (offset of each
/// data page, first rows 0 and 100) and those two statistics.
namespace quarry::parquet {

struct PageHeaderIndex {
  /// The data pages: their bytes (header included) and first rows.
  OffsetIndex offsetIndex;
  /// The Statistics each data page's header records (absent where it has none).
  std::vector<std::optional<Statistics>> statistics;
};

/// Walks the page headers of a whole column chunk in memory (`bytes`, starting
/// at `fileOffset` in the file; column `leaf`, described by `meta`, of a row group
/// of `groupRows` rows). Returns nothing when the headers cannot place every
/// page's rows (see above), when some header does not decode or runs past the
/// chunk, when the pages' rows do not add up to `groupRows`, or when no data page
/// records statistics: the chunk is then read as it would be without this. Never
/// throws for corrupt bytes (decoding the chunk reports them).
std::optional<PageHeaderIndex> indexPageHeaders(std::span<const uint8_t> bytes, uint64_t fileOffset,
                                                const ColumnMetaData& meta, const SchemaNode& leaf,
                                                int64_t groupRows);

}  // namespace quarry::parquet
