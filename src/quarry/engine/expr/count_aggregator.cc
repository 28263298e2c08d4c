#include "quarry/common/growable_array.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

class CountAggregator final : public Aggregator {
 public:
  explicit CountAggregator(const AggregateSpec& spec)
      : star_(spec.function == AggregateFunction::kCountStar), channel_(spec.inputChannel) {}

  void resize(size_t groups) override {
    counts_.resize(groups, 0);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const size_t n = page.positionCount();
    if (counts_.size() == 1) {  // one group: every row's id is 0
      if (n == 0) return;
      seen_[0] = 1;
      counts_[0] += static_cast<int64_t>(star_ ? n : valueCount(page.block(channel_)));
      return;
    }
    if (star_ || !page.block(channel_).hasNulls()) {
      for (size_t r = 0; r < n; ++r) {
        ++counts_[groupIds[r]];
        seen_[groupIds[r]] = 1;
      }
      return;
    }
    const Block& block = page.block(channel_);
    for (size_t r = 0; r < n; ++r) {
      counts_[groupIds[r]] += block.isNull(r) ? 0 : 1;
      seen_[groupIds[r]] = 1;
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& counts = page.block(channel_);
    const Block& seen = page.block(channel_ + 1);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (!counts.isNull(r)) counts_[groupIds[r]] += counts.values<int64_t>()[r];
      if (flagAt(seen, r)) seen_[groupIds[r]] = 1;
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(int64Block(counts_));
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override { return int64Block(counts_); }

 private:
  bool star_;
  int channel_;
  GrowableArray<int64_t> counts_;
  GrowableArray<uint8_t> seen_;
};

}  // namespace

std::unique_ptr<Aggregator> makeCountAggregator(const AggregateSpec& spec) {
  return std::make_unique<CountAggregator>(spec);
}

}  // namespace quarry::engine
