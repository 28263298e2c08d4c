// MEDIAN, PERCENTILE and MEDIAN_ABSOLUTE_DEVIATION, exact: every non-null value
// of a group is kept as a double, and the final value is read from the values in
// ascending order (value_order.h: NaN last, -0.0 and +0.0 equal) as DuckDB's
// quantile_cont reads them. For n values and a quantile q (PERCENTILE's p / 100,
// MEDIAN's 0.5) the position is r = (n - 1) * q; lo and hi are the values at
// floor(r) and ceil(r), and the result is lo where r is whole, else
// lo * (1 - d) + hi * d with d = r - floor(r). Ties need no rule of their own:
// equal values are interchangeable wherever they sit.
//
// Example: PERCENTILE(x, 40) of 1, 2, 4, 10: r = 3 * 0.4 = 1.2, lo = 2, hi = 4,
// 2 * 0.8 + 4 * 0.2 = 2.4. MEDIAN: r = 1.5, 2 * 0.5 + 4 * 0.5 = 3.
// MEDIAN_ABSOLUTE_DEVIATION is the median of |x - MEDIAN(x)|: of 2, 1, 1, 7
// (ascending 1, 1, 2, 7) r = 1.5, so 1.5.
//
// The values are charged against the query's memory limit (memory_budget.h)
// before they are kept: a group of more values than the limit holds fails the
// query with MemoryLimitExceeded naming the aggregate.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "quarry/common/memory_budget.h"
#include "quarry/engine/data/value_order.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

bool lessDouble(double a, double b) {
  return compareDoubles(a, b) < 0;
}

/// The quantile `q` of `values` (not empty) as described above; reorders them.
double quantileOf(std::vector<double>& values, double q) {
  const double position = static_cast<double>(values.size() - 1) * q;
  const auto lower = static_cast<size_t>(std::floor(position));
  const auto upper = static_cast<size_t>(std::ceil(position));
  std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(lower), values.end(),
                   lessDouble);
  const double lo = values[lower];
  if (upper == lower) return lo;
  const double hi = *std::min_element(values.begin() + static_cast<ptrdiff_t>(lower) + 1,
                                      values.end(), lessDouble);
  const double d = position - static_cast<double>(lower);
  return lo * (1.0 - d) + hi * d;
}

class PercentileAggregator final : public Aggregator {
 public:
  explicit PercentileAggregator(const AggregateSpec& spec)
      : spec_(spec),
        what_("the values of " + std::string(aggregateName(spec.function)) + " (" + spec.name +
              ")") {}

  void resize(size_t groups) override { values_.resize(groups); }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    Block scratch;
    const Block& block = doublesOf(page.block(spec_.inputChannel), scratch);
    if (block.type().kind == TypeKind::kNull) return;
    charge(valueCount(block));
    const std::span<const double> values = block.values<double>();
    for (size_t r = 0; r < values.size(); ++r) {
      if (!block.isNull(r)) values_[groupIds[r]].push_back(values[r]);
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& sets = page.block(spec_.inputChannel);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (sets.isNull(r)) continue;
      const std::string_view bytes = sets.bytes(r);
      if (bytes.size() % sizeof(double) != 0) {
        throwCorruptValueSet(aggregateName(spec_.function), spec_.name,
                             "a value of fewer than 8 bytes",
                             bytes.size() - bytes.size() % sizeof(double), bytes.size());
      }
      const size_t count = bytes.size() / sizeof(double);
      charge(count);
      std::vector<double>& group = values_[groupIds[r]];
      const size_t from = group.size();
      group.resize(from + count);
      std::memcpy(group.data() + from, bytes.data(), bytes.size());
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    Block sets(DataType::binary());
    sets.reserve(values_.size());
    std::vector<uint8_t> seen(values_.size());
    for (size_t g = 0; g < values_.size(); ++g) {
      const std::vector<double>& group = values_[g];
      seen[g] = !group.empty();
      if (group.empty()) {
        sets.appendNull();
      } else {
        sets.appendBytes(std::string_view(reinterpret_cast<const char*>(group.data()),
                                          group.size() * sizeof(double)));
      }
    }
    out.push_back(std::move(sets));
    out.push_back(booleanBlock(seen));
  }

  Block writeFinal() const override {
    std::vector<double> deviations;
    return doubleBlock(values_.size(), [&](size_t g) -> std::optional<double> {
      std::vector<double>& group = values_[g];
      if (group.empty()) return std::nullopt;
      const double quantile = quantileOf(group, spec_.quantile);
      if (spec_.function != AggregateFunction::kMedianAbsoluteDeviation) return quantile;
      deviations.resize(group.size());
      for (size_t i = 0; i < group.size(); ++i) deviations[i] = std::fabs(group[i] - quantile);
      return quantileOf(deviations, 0.5);
    });
  }

 private:
  /// Charges `count` more values before they are kept.
  void charge(size_t count) {
    held_ += count * sizeof(double);
    charge_.atLeast(held_, what_.c_str());
  }

  AggregateSpec spec_;
  std::string what_;
  /// Per group its values. Mutable: the final values are read by reordering them.
  mutable std::vector<std::vector<double>> values_;
  uint64_t held_ = 0;
  MemoryCharge charge_;
};

}  // namespace

std::unique_ptr<Aggregator> makePercentileAggregator(const AggregateSpec& spec) {
  return std::make_unique<PercentileAggregator>(spec);
}

}  // namespace quarry::engine
