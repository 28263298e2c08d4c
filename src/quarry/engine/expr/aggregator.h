#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"

/// Aggregate functions and their accumulators. An aggregation runs in one of four
/// modes (AggregatorMode): SINGLE turns raw rows into final values; INITIAL turns
/// raw rows into intermediate columns; INTERMEDIATE merges intermediate columns
/// into intermediate columns; FINAL merges intermediate columns into final values.
/// Splitting the input among several INITIAL aggregations whose outputs one FINAL
/// aggregation merges gives what SINGLE gives over all of it.
///
/// Intermediate layouts (column names are the aggregate's name plus the suffix):
///
///   COUNT(*), COUNT(x)  [$count: int64, $seen: boolean]
///       count: rows (COUNT(*)) or non-null values (COUNT(x)); seen: the group got
///       at least one input row. Final: count, 0 over no rows.
///   MIN(x), MAX(x)      [$value: type of x, $seen: boolean]
///       value: the least/greatest non-null value (null when none); seen: a
///       non-null value was found. Final: value, null when none.
///   SUM(x)              [$sum: result type, $seen: boolean]
///       sum: the exact running sum (int64 for int32/int64, decimal(38,0) for
///       uint64, decimal(38,s) for decimal(p,s), double for double); seen: a
///       non-null value was added. Final: sum, null when none. An int64 sum that
///       overflows, or a decimal sum beyond 38 digits, is an InvalidArgument.
///   AVG(x)              [$sum: decimal(38,s) or double, $count: int64]
///       sum: the exact sum of the non-null values (decimal(38,0) for integers,
///       decimal(38,s) for decimal(p,s), double for double); count: their number.
///       Final: double, sum / (count * 10^s) divided in long double; null when
///       count is 0.
///   COUNT_DISTINCT(x)   [$values: binary, $seen: boolean]
///       values: the group's set of distinct non-null values, serialized as a
///       little-endian uint32 count, then per value a little-endian uint32
///       length and the value's canonical bytes, values in no order. Canonical
///       bytes: fixed-width kinds their storage value little-endian (doubles with
///       -0.0 written as +0.0 and every NaN as one quiet NaN, so they count once);
///       string, binary and uuid their bytes. seen: the group got at least one
///       input row. Final: int64, the set's size.
///   MEDIAN(x), PERCENTILE(x, p), MEDIAN_ABSOLUTE_DEVIATION(x)
///                       [$values: binary, $seen: boolean]
///       values: every non-null value of the group as a double (integers and
///       decimals converted as TO_DOUBLE converts them), 8 bytes little-endian
///       each, in no order; null when the group has none. seen: the group got a
///       value. Final: double (percentile_aggregator.cc), null when none.
///   STD_DEV(x), VARIANCE(x) [$count: int64, $mean: double, $m2: double]
///       count: the non-null values; mean: their mean; m2: the sum of their
///       squared differences from the mean (Welford), merged by Chan's formula.
///       Final: double, m2 / count (VARIANCE) or its square root (STD_DEV), the
///       population's; null when count is 0.
///   WEIGHTED_AVG(x, w)  [$sum: double, $weight: double, $seen: boolean]
///       sum: the sum of x * w over the rows where both are non-null; weight:
///       the sum of the non-null weights; seen: a product was added. Final:
///       double, sum / weight; null when nothing was seen or the weight is 0.
///   VALUES(x), TOP(x, n, order)
///                       [$values: binary, $seen: boolean]
///       values: VALUES the group's distinct non-null values, TOP its n first
///       non-null values in the order (duplicates kept), serialized as a
///       little-endian uint32 count, then per value its storage bytes (fixed
///       widths) or a little-endian uint32 length and its bytes (string, binary,
///       uuid), in no order; null when the group has none. seen: the group got a
///       value. Final: list of x's type, in ascending order (VALUES, TOP "asc")
///       or descending (TOP "desc"), null when none.
namespace quarry::engine {

enum class AggregatorMode : uint8_t { kSingle, kInitial, kIntermediate, kFinal };
enum class AggregateFunction : uint8_t {
  kCountStar,
  kCount,
  kCountDistinct,
  kMin,
  kMax,
  kSum,
  kAvg,
  kMedian,
  kPercentile,
  kMedianAbsoluteDeviation,
  kStdDev,
  kVariance,
  kWeightedAvg,
  kValues,
  kTop
};

struct AggregateSpec {
  AggregateFunction function;
  /// SINGLE/INITIAL: the argument's channel (-1 for COUNT(*));
  /// INTERMEDIATE/FINAL: the channel of the first intermediate column.
  int inputChannel = -1;
  /// The argument's type (as bound), whatever the mode.
  DataType inputType;
  /// The output name (final value; intermediate columns get name + "$count" etc.).
  std::string name;
  /// PERCENTILE: the percentile as a fraction of 1 (PERCENTILE(x, 90) is 0.9);
  /// MEDIAN and MEDIAN_ABSOLUTE_DEVIATION: 0.5.
  double quantile = 0.5;
  /// TOP: how many values, and whether the greatest come first ("desc").
  int64_t limit = 0;
  bool descending = false;
  /// WEIGHTED_AVG in SINGLE/INITIAL: the weight's channel and type (-1 otherwise).
  int weightChannel = -1;
  DataType weightType = DataType::null();
};

/// Returns the final value's type of `f` over `input`; throws InvalidArgument when
/// `f` does not accept `input` (SUM of a string, MIN of ...).
DataType aggregateResultType(AggregateFunction f, const DataType& input);
/// Returns the intermediate columns of `spec`, as documented above.
std::vector<Field> intermediateFields(const AggregateSpec& spec);
/// Returns the aggregate's name as the language spells it: "COUNT", "MIN", ...
const char* aggregateName(AggregateFunction f);
/// Names a mode as plans show it: "SINGLE", "INITIAL", "INTERMEDIATE", "FINAL".
const char* aggregatorModeName(AggregatorMode mode);

/// The accumulators of one aggregate for every group of an aggregation. Groups
/// are numbered densely from 0; rows name their group through a group id per row.
class Aggregator {
 public:
  virtual ~Aggregator() = default;
  /// Grows the state to `groups` groups; new groups start empty.
  virtual void resize(size_t groups) = 0;
  /// Adds raw rows: row r of `page` goes to group groupIds[r].
  virtual void addInput(const Page& page, std::span<const uint32_t> groupIds) = 0;
  /// Merges intermediate rows: row r of `page` goes to group groupIds[r].
  virtual void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) = 0;
  /// Appends the intermediate columns of every group, in group order.
  virtual void writeIntermediate(std::vector<Block>& out) const = 0;
  /// Returns the final values of every group, in group order.
  virtual Block writeFinal() const = 0;
};

/// Returns the accumulators of `spec` (channels and types as in its spec).
std::unique_ptr<Aggregator> makeAggregator(const AggregateSpec& spec);

}  // namespace quarry::engine
