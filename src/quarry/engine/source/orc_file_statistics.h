#pragma once

#include <cstddef>
#include <vector>

#include "quarry/engine/source/source_statistics.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/orc_statistics.h"
#include "quarry/formats/orc/orc_tail.h"

/// SourceStatistics from an ORC file's tail (file or stripe statistics),
/// without reading stripes. Only exact values are kept:
///   - null count = rows - numberOfValues, for columns not under a LIST / MAP
///     (whose counts are of elements, not rows);
///   - integer (tinyint..bigint), boolean (from trueCount), date, string and
///     varchar minimum / maximum; a string bound the writer marks as a
///     truncated lowerBound / upperBound is not used;
///   - no bound for float / double (ORC records no NaN count, so a NaN could
///     hide behind them), char (padding), decimal, timestamp (older writers keep
///     milliseconds only) and binary;
///   - statistics fileStatistics / stripeStatistics refuse (absent, or the
///     all-zero statistics of writers without a row index) leave every column
///     unknown; the row count stays exact.
namespace quarry::engine {

class OrcFileStatistics {
 public:
  /// The statistics of the whole file (Footer.statistics).
  static SourceStatistics extract(const orc::OrcTail& tail, const orc::OrcSchema& schema);
  /// The statistics of stripes [first, first + count) (clamped), merged from
  /// their stripe statistics.
  static SourceStatistics extractStripes(const orc::OrcTail& tail, const orc::OrcSchema& schema,
                                         size_t first, size_t count);
  /// Converts the decoded statistics of every column (by column id) of a unit of
  /// `rowCount` rows.
  static SourceStatistics fromColumns(const std::vector<orc::OrcColumnStatistics>& columns,
                                      const orc::OrcSchema& schema, int64_t rowCount);
};

}  // namespace quarry::engine
