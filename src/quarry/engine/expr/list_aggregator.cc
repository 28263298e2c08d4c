#include "quarry/engine/expr/list_aggregator.h"

#include <numeric>
#include <stdexcept>
#include <vector>

namespace quarry::engine {
namespace {

/// Feeds an element-typed aggregator: each element of a row is a row of its
/// own, in the row's group.
class ListElementsAggregator final : public Aggregator {
 public:
  explicit ListElementsAggregator(const AggregateSpec& spec) : channel_(spec.inputChannel) {
    if (!spec.inputType.isList())
      throw std::logic_error("ListElementsAggregator: a " + spec.inputType.toString());
    AggregateSpec element = spec;
    element.inputType = spec.inputType.elementType();
    inner_ = makeAggregator(element);
  }

  void resize(size_t groups) override { inner_->resize(groups); }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    addLists(page.block(static_cast<size_t>(channel_)), groupIds);
  }

  /// Adds the elements of `lists`, position r's to group groupIds[r].
  void addLists(const Block& lists, std::span<const uint32_t> groupIds) {
    std::vector<uint32_t> positions;
    std::vector<uint32_t> elementGroups;
    const std::span<const uint64_t> offsets = lists.listOffsets();
    for (size_t r = 0; r < lists.size(); ++r) {
      if (lists.isNull(r)) continue;  // a null list's range is not read
      for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
        positions.push_back(static_cast<uint32_t>(e));
        elementGroups.push_back(groupIds[r]);
      }
    }
    if (positions.empty()) return;
    // The inner aggregator reads its channel: null-typed blocks (which store
    // nothing) stand in for the columns before it.
    const size_t n = positions.size();
    std::vector<Block> blocks;
    blocks.reserve(static_cast<size_t>(channel_) + 1);
    for (int c = 0; c < channel_; ++c) blocks.push_back(Block::nulls(DataType::null(), n));
    blocks.push_back(lists.listElements().take(positions));
    inner_->addInput(Page(std::move(blocks), n), elementGroups);
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    inner_->addIntermediate(page, groupIds);
  }
  void writeIntermediate(std::vector<Block>& out) const override { inner_->writeIntermediate(out); }
  Block writeFinal() const override { return inner_->writeFinal(); }

 private:
  int channel_;
  std::unique_ptr<Aggregator> inner_;
};

}  // namespace

std::unique_ptr<Aggregator> makeListAggregator(const AggregateSpec& spec) {
  return std::make_unique<ListElementsAggregator>(spec);
}

Block aggregateEachList(AggregateFunction f, const Block& lists) {
  AggregateSpec spec;
  spec.function = f;
  spec.inputChannel = 0;
  spec.inputType = lists.type();
  spec.name = "mv";
  ListElementsAggregator aggregator(spec);
  const size_t n = lists.size();
  aggregator.resize(n);
  std::vector<uint32_t> rows(n);
  std::iota(rows.begin(), rows.end(), 0u);
  aggregator.addLists(lists, rows);
  Block out = aggregator.writeFinal();
  if (f != AggregateFunction::kCount && f != AggregateFunction::kCountDistinct) return out;
  // A count of 0 is a list without a value: null, as for the other functions.
  std::vector<uint8_t> validity(n);
  const std::span<const int64_t> counts = out.values<int64_t>();
  for (size_t r = 0; r < n; ++r) validity[r] = counts[r] != 0;
  out.setValidity(std::move(validity));
  return out;
}

}  // namespace quarry::engine
