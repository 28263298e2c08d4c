#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "quarry/formats/parquet/column_keys.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/schema.h"

/// The statistics of one unit of one column (a row group's column chunk, a page
/// by its ColumnIndex entry or its header's statistics), and the rules of
/// query-controls.txt, "When statistics are ignored", that decide whether its
/// min / max bounds can be compared against. Bounds that cannot are dropped, never trusted: the unit is
/// then decided from its null and NaN counts alone.
namespace quarry::parquet {

/// What pruning reads of a unit; every count stays absent where the file
/// records none (an absent null_count is not a zero one).
struct UnitStatistics {
  /// Rows in the unit (the row group's num_rows; a page's row count).
  int64_t rowCount = 0;
  std::optional<int64_t> nullCount;
  std::optional<int64_t> nanCount;
  /// PLAIN-encoded bounds (min_value / max_value), in the column's order. Left
  /// absent where a column-level rule ignores them (see boundsOrderKnown).
  std::optional<std::string_view> min;
  std::optional<std::string_view> max;
  const GeospatialStatistics* geospatial = nullptr;
};

/// Returns whether `leaf`'s bounds, written under `order` (absent when the file
/// declares no column orders), follow an order quarry knows. False for: an
/// unknown or absent ColumnOrder, an order the column's type may not use, INT96
/// and 12-byte timestamps, an annotation without an order (INTERVAL, GEOMETRY,
/// GEOGRAPHY, VARIANT, LIST, MAP, NULL, FILE) and a dropped annotation.
bool boundsOrderKnown(const SchemaNode& leaf, std::optional<ColumnOrder> order);

/// Returns the column order `metadata` declares for leaf `leafIndex`, if any.
std::optional<ColumnOrder> declaredColumnOrder(const FileMetaData& metadata, int32_t leafIndex);

/// Builds the UnitStatistics of `chunk` (column `leaf` of a row group of
/// `rowCount` rows): min_value / max_value where boundsOrderKnown allows them,
/// never the deprecated min / max fields; a null count of 0 for a required leaf
/// (no null can be written), whatever the statistics record.
UnitStatistics chunkStatistics(const FileMetaData& metadata, const ColumnChunk& chunk,
                               const SchemaNode& leaf, int64_t rowCount);

/// Builds the UnitStatistics of page `page` of a chunk's ColumnIndex `index`
/// (column `leaf`, a page of `pageRows` rows): its min / max under the rules of
/// chunkStatistics, none for a null page; its null and NaN counts where recorded
/// (0 nulls for a required leaf, as in chunkStatistics).
UnitStatistics pageStatistics(const FileMetaData& metadata, const ColumnIndex& index, size_t page,
                              const SchemaNode& leaf, int64_t pageRows);

/// Builds the UnitStatistics of a data page from the Statistics of its header
/// (column `leaf`, a page of `pageRows` rows), under the rules of chunkStatistics;
/// a null or NaN count outside [0, pageRows] is dropped.
UnitStatistics pageHeaderStatistics(const FileMetaData& metadata, const Statistics& stats,
                                    const SchemaNode& leaf, int64_t pageRows);

/// Returns `stats` (of a unit of stats.rowCount rows) restricted to `rows` of
/// those rows: the bounds still hold; a null or NaN count only where it says
/// "none" or "all" of them.
UnitStatistics restrictTo(const UnitStatistics& stats, int64_t rows);

/// A unit's bounds in a comparison's key domain, covering its non-null values
/// (its non-NaN ones on a floating-point column). Either side may be absent.
struct KeyBounds {
  std::optional<ColumnKey> min;
  std::optional<ColumnKey> max;
};

/// Decodes `stats`' bounds for comparison node `node`, or returns no bound when
/// they must be ignored: a bound of the wrong width, a NaN bound, the minimum
/// above the maximum, a byte literal against a column that orders by value
/// (DECIMAL, FLOAT16, INT96, TIMESTAMP over FIXED_LEN_BYTE_ARRAY(12)). A zero
/// float bound is widened as parquet.thrift directs (a +0 minimum may hide -0
/// values, a -0 maximum +0 values).
KeyBounds decodeBounds(const BoundNode& node, const UnitStatistics& stats);

}  // namespace quarry::parquet
