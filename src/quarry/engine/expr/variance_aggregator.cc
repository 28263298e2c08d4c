// STD_DEV and VARIANCE: the population's (ES|QL's STD_DEV and VARIANCE divide by
// n; DuckDB's stddev_pop and var_pop). Each group keeps a count, a mean and m2,
// the sum of squared differences from the mean, updated per value by Welford's
// recurrence and merged by Chan's formula, both written as DuckDB writes them, so
// that no sum of squares cancels catastrophically:
//
//   add x:     n += 1; mean' = mean + (x - mean) / n; m2 += (x - mean') * (x - mean)
//   merge b:   n = na + nb; mean = (nb * mean_b + na * mean_a) / n;
//              m2 = m2_a + m2_b + (mean_b - mean_a)^2 * na * nb / n
//
// Final: VARIANCE = m2 / n (0 for one value), STD_DEV its square root; null
// without a value. Example: 2, 4, 4, 4, 5, 5, 7, 9 have mean 5 and m2 32:
// VARIANCE 4, STD_DEV 2.

#include <cmath>
#include <vector>

#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

class VarianceAggregator final : public Aggregator {
 public:
  explicit VarianceAggregator(const AggregateSpec& spec)
      : channel_(spec.inputChannel), stdDev_(spec.function == AggregateFunction::kStdDev) {}

  void resize(size_t groups) override {
    counts_.resize(groups, 0);
    means_.resize(groups, 0.0);
    m2s_.resize(groups, 0.0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    Block scratch;
    const Block& block = doublesOf(page.block(channel_), scratch);
    if (block.type().kind == TypeKind::kNull) return;
    const std::span<const double> values = block.values<double>();
    for (size_t r = 0; r < values.size(); ++r) {
      if (block.isNull(r)) continue;
      const uint32_t g = groupIds[r];
      const double x = values[r];
      const int64_t count = ++counts_[g];
      const double mean = means_[g] + (x - means_[g]) / static_cast<double>(count);
      m2s_[g] += (x - mean) * (x - means_[g]);
      means_[g] = mean;
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& counts = page.block(channel_);
    const Block& means = page.block(channel_ + 1);
    const Block& m2s = page.block(channel_ + 2);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (counts.isNull(r) || means.isNull(r) || m2s.isNull(r)) continue;
      const int64_t other = counts.values<int64_t>()[r];
      if (other == 0) continue;
      const uint32_t g = groupIds[r];
      const double otherMean = means.values<double>()[r];
      const double otherM2 = m2s.values<double>()[r];
      if (counts_[g] == 0) {
        counts_[g] = other;
        means_[g] = otherMean;
        m2s_[g] = otherM2;
        continue;
      }
      const auto na = static_cast<double>(counts_[g]);
      const auto nb = static_cast<double>(other);
      const double n = na + nb;
      const double delta = otherMean - means_[g];
      means_[g] = (nb * otherMean + na * means_[g]) / n;
      m2s_[g] = otherM2 + m2s_[g] + delta * delta * nb * na / n;
      counts_[g] += other;
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(int64Block(counts_));
    out.push_back(Block::fromValues(DataType::float64(), means_));
    out.push_back(Block::fromValues(DataType::float64(), m2s_));
  }

  Block writeFinal() const override {
    return doubleBlock(counts_.size(), [this](size_t g) -> std::optional<double> {
      if (counts_[g] == 0) return std::nullopt;
      const double variance = counts_[g] > 1 ? m2s_[g] / static_cast<double>(counts_[g]) : 0.0;
      return stdDev_ ? std::sqrt(variance) : variance;
    });
  }

 private:
  int channel_;
  bool stdDev_;
  std::vector<int64_t> counts_;
  std::vector<double> means_;
  std::vector<double> m2s_;
};

}  // namespace

std::unique_ptr<Aggregator> makeVarianceAggregator(const AggregateSpec& spec) {
  return std::make_unique<VarianceAggregator>(spec);
}

}  // namespace quarry::engine
