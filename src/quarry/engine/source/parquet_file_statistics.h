#pragma once

#include <cstddef>
#include <optional>

#include "quarry/engine/source/source_statistics.h"
#include "quarry/formats/parquet/column_bounds.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/schema.h"

/// SourceStatistics from a Parquet footer, without reading data. Only exact
/// values are kept (ARCHITECTURE.md, "Statistics are bounds unless proven
/// exact"); every rule of query-controls.txt "When statistics are ignored"
/// applies (through formats/parquet/column_bounds), and further:
///   - only min_value / max_value are read, never the deprecated min / max;
///   - a byte-string bound counts only where the file marks it exact
///     (is_min_value_exact / is_max_value_exact); integer, boolean, date,
///     timestamp and floating-point bounds, which writers never truncate, count
///     unless the file marks them inexact;
///   - FLOAT / DOUBLE bounds need a nan_count of 0 in every row group, and a
///     zero bound counts only under IEEE_754_TOTAL_ORDER (under TYPE_ORDER a
///     +0.0 minimum may hide -0.0 values); FLOAT16 bounds are not used;
///   - a row group with non-null values but no usable bound makes the column's
///     minimum / maximum unknown; a null count missing in any row group makes
///     the column's null count unknown;
///   - leaves under a repeated field (LIST / MAP elements) are left unknown:
///     their counts are of values, not rows;
///   - DECIMAL, TIME, INTERVAL, UUID and local (not UTC-adjusted) timestamp
///     columns have no bound (no StatisticValue carries them yet).
namespace quarry::engine {

class ParquetFileStatistics {
 public:
  /// The statistics of every row group of the file.
  static SourceStatistics extract(const parquet::FileMetaData& metadata,
                                  const parquet::FileSchema& schema);
  /// The statistics of row groups [first, first + count) (clamped to the file).
  static SourceStatistics extractRowGroups(const parquet::FileMetaData& metadata,
                                           const parquet::FileSchema& schema, size_t first,
                                           size_t count);
  /// The statistics of `leaf` in row group `rowGroup`.
  static ColumnStatistics chunk(const parquet::FileMetaData& metadata,
                                const parquet::SchemaNode& leaf, const parquet::RowGroup& rowGroup);
  /// The statistics of `leaf` over a unit whose Parquet statistics are `unit`
  /// (a chunk's, or a page's from the page index), under the rules above; the
  /// bounds are exact or not as `minExact` / `maxExact` say where the file says
  /// (a page index never does: its byte-string bounds then never count).
  static ColumnStatistics fromUnit(const parquet::FileMetaData& metadata,
                                   const parquet::SchemaNode& leaf,
                                   const parquet::UnitStatistics& unit,
                                   std::optional<bool> minExact = std::nullopt,
                                   std::optional<bool> maxExact = std::nullopt);
};

}  // namespace quarry::engine
