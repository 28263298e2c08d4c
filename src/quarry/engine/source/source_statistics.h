#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "quarry/common/values.h"

/// What a file (or a split of one) is known to hold without reading its data:
/// an exact row count and, per column, an exact null count and exact minimum /
/// maximum where the file's statistics prove them. Everything optional stays
/// unknown rather than guessed (ARCHITECTURE.md, "Statistics are bounds unless
/// proven exact"): an aggregate answered from these values must equal the scan.
namespace quarry::engine {

/// A typed statistic value. Integers of every width and signedness are widened
/// to int64 (a value that does not fit is left unknown); floating-point values
/// to double; strings and binary values are their bytes, compared unsigned.
using StatisticValue = std::variant<bool, int64_t, double, std::string, Date, Instant>;

/// Orders two values of the same alternative (doubles by IEEE total order, so
/// -0.0 < +0.0); nullopt when the alternatives differ.
std::optional<std::strong_ordering> compareStatisticValues(const StatisticValue& a,
                                                           const StatisticValue& b);

/// Renders a value for messages and tests ("42", "1.5", "'abc'", a date, an instant).
std::string toString(const StatisticValue& value);

/// One column's statistics over a unit of `rowCount` rows.
struct ColumnStatistics {
  /// Exact number of null values; unknown when any part of the unit lacks it.
  std::optional<int64_t> nullCount;
  /// Exact minimum / maximum of the non-null values. Absent either because it is
  /// unknown, or because the column holds no non-null value (nullCount ==
  /// rowCount): allNull() tells the two apart.
  std::optional<StatisticValue> min;
  std::optional<StatisticValue> max;

  bool operator==(const ColumnStatistics&) const = default;
};

/// Statistics of one file or split: an exact row count and columns by dotted name.
struct SourceStatistics {
  int64_t rowCount = 0;
  std::map<std::string, ColumnStatistics> columns;

  /// True when `column` is known to hold only nulls (its MIN / MAX are null).
  bool allNull(const std::string& column) const;
  /// The statistics of `column`, or nullptr when the unit says nothing of it.
  const ColumnStatistics* find(const std::string& column) const;

  bool operator==(const SourceStatistics&) const = default;
};

/// Merges the statistics of two disjoint units: row and null counts summed, min
/// of the minimums, max of the maximums. Any unknown part makes the merged part
/// unknown; a column only one side knows becomes unknown (all fields absent); a
/// side whose column is all-null contributes no bound; values of different
/// kinds make the bound unknown. Throws CorruptFile when the row counts overflow.
SourceStatistics merge(const SourceStatistics& a, const SourceStatistics& b);

/// Merges one column's statistics of units with `aRows` and `bRows` rows.
ColumnStatistics mergeColumn(const ColumnStatistics& a, int64_t aRows, const ColumnStatistics& b,
                             int64_t bRows);
/// mergeColumn into `a`, copying nothing that `a` keeps.
void mergeColumnInto(ColumnStatistics& a, int64_t aRows, const ColumnStatistics& b, int64_t bRows);

}  // namespace quarry::engine
