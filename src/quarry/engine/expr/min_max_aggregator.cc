#include <string>
#include <type_traits>

#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"
#include "quarry/engine/data/value_order.h"

namespace quarry::engine {

namespace {

template <typename T, bool kMax>
class MinMaxAggregator final : public Aggregator {
 public:
  explicit MinMaxAggregator(const AggregateSpec& spec)
      : type_(spec.inputType), channel_(spec.inputChannel) {}

  void resize(size_t groups) override {
    values_.resize(groups);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    addValues(page.block(channel_), groupIds);
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    // The value column is null exactly where seen is false.
    addValues(page.block(channel_), groupIds);
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(writeFinal());
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override {
    Block out(type_);
    out.reserve(values_.size());
    for (size_t g = 0; g < values_.size(); ++g) {
      if (!seen_[g]) {
        out.appendNull();
      } else if constexpr (std::is_same_v<T, std::string>) {
        out.appendBytes(values_[g]);
      } else {
        out.append<T>(values_[g]);
      }
    }
    return out;
  }

 private:
  void addValues(const Block& block, std::span<const uint32_t> groupIds) {
    if (block.type().kind == TypeKind::kNull) return;
    for (size_t r = 0; r < block.size(); ++r) {
      if (block.isNull(r)) continue;
      const uint32_t g = groupIds[r];
      if constexpr (std::is_same_v<T, std::string>) {
        const std::string_view v = block.bytes(r);
        if (!seen_[g] ||
            (kMax ? compareBytes(v, values_[g]) > 0 : compareBytes(v, values_[g]) < 0)) {
          values_[g].assign(v);
        }
      } else {
        const T v = block.values<T>()[r];
        if (!seen_[g] ||
            (kMax ? compareValues(v, values_[g]) > 0 : compareValues(v, values_[g]) < 0)) {
          values_[g] = v;
        }
      }
      seen_[g] = 1;
    }
  }

  DataType type_;
  int channel_;
  std::vector<T> values_;
  std::vector<uint8_t> seen_;
};

template <bool kMax>
std::unique_ptr<Aggregator> makeMinMax(const AggregateSpec& spec) {
  if (spec.inputType.isBytes()) return std::make_unique<MinMaxAggregator<std::string, kMax>>(spec);
  std::unique_ptr<Aggregator> out;
  withFixedStorage(spec.inputType.kind, [&](auto zero) {
    out = std::make_unique<MinMaxAggregator<decltype(zero), kMax>>(spec);
  });
  if (!out) out = std::make_unique<MinMaxAggregator<uint8_t, kMax>>(spec);  // kNull: always null
  return out;
}

}  // namespace

std::unique_ptr<Aggregator> makeMinAggregator(const AggregateSpec& spec) { return makeMinMax<false>(spec); }

std::unique_ptr<Aggregator> makeMaxAggregator(const AggregateSpec& spec) { return makeMinMax<true>(spec); }

}  // namespace quarry::engine
