// WEIGHTED_AVG(x, w): SUM(x * w) / SUM(w), the form ES|QL rewrites it to, in
// doubles. The weights of the rows whose x is null count in SUM(w) as they do
// there; a row whose w is null adds nothing. Null when no row has both x and w, or
// when the weights sum to 0 (a division by zero, null as ES|QL's).
//
// Example: x 1, 2, null and w 3, 1, 4: (1 * 3 + 2 * 1) / (3 + 1 + 4) = 0.625.

#include <vector>

#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

class WeightedAvgAggregator final : public Aggregator {
 public:
  explicit WeightedAvgAggregator(const AggregateSpec& spec)
      : valueChannel_(spec.inputChannel), weightChannel_(spec.weightChannel) {}

  void resize(size_t groups) override {
    sums_.resize(groups, 0.0);
    weights_.resize(groups, 0.0);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    Block valueScratch;
    Block weightScratch;
    const Block& values = doublesOf(page.block(valueChannel_), valueScratch);
    const Block& weights = doublesOf(page.block(weightChannel_), weightScratch);
    if (weights.type().kind == TypeKind::kNull) return;
    const bool noValues = values.type().kind == TypeKind::kNull;
    const std::span<const double> w = weights.values<double>();
    for (size_t r = 0; r < w.size(); ++r) {
      if (weights.isNull(r)) continue;
      const uint32_t g = groupIds[r];
      weights_[g] += w[r];
      if (noValues || values.isNull(r)) continue;
      sums_[g] += values.values<double>()[r] * w[r];
      seen_[g] = 1;
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& sums = page.block(valueChannel_);
    const Block& weights = page.block(valueChannel_ + 1);
    const Block& seen = page.block(valueChannel_ + 2);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      const uint32_t g = groupIds[r];
      if (!weights.isNull(r)) weights_[g] += weights.values<double>()[r];
      if (!flagAt(seen, r) || sums.isNull(r)) continue;
      sums_[g] += sums.values<double>()[r];
      seen_[g] = 1;
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(Block::fromValues(DataType::float64(), sums_));
    out.push_back(Block::fromValues(DataType::float64(), weights_));
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override {
    return doubleBlock(sums_.size(), [this](size_t g) -> std::optional<double> {
      if (!seen_[g] || weights_[g] == 0.0) return std::nullopt;
      return sums_[g] / weights_[g];
    });
  }

 private:
  int valueChannel_;
  int weightChannel_;
  std::vector<double> sums_;
  std::vector<double> weights_;
  std::vector<uint8_t> seen_;
};

}  // namespace

std::unique_ptr<Aggregator> makeWeightedAvgAggregator(const AggregateSpec& spec) {
  return std::make_unique<WeightedAvgAggregator>(spec);
}

}  // namespace quarry::engine
