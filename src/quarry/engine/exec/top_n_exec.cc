#include "quarry/engine/exec/top_n_exec.h"

#include <algorithm>
#include <numeric>

#include "quarry/common/error.h"
#include "quarry/engine/data/value_order.h"
#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

TopNExec::TopNExec(OperatorPtr input, std::vector<SortSpec> keys, std::optional<int64_t> limit)
    : input_(std::move(input)), keys_(std::move(keys)), limit_(limit) {
  stats_.name = "TopNExec";
  if (limit_ && *limit_ < 0)
    throw InvalidArgument("TopNExec: a negative limit: " + std::to_string(*limit_));
  const Schema& in = input_->schema();
  for (const SortSpec& key : keys_) {
    if (key.channel < 0 || static_cast<size_t>(key.channel) >= in.size()) {
      throw InvalidArgument("TopNExec: a sort key reads channel " + std::to_string(key.channel) +
                            " of an input of " + std::to_string(in.size()) + " columns");
    }
  }
  for (const Field& field : in) buffer_.emplace_back(field.type);
}

bool TopNExec::before(uint32_t a, uint32_t b) const {
  for (const SortSpec& key : keys_) {
    const Block& block = buffer_[key.channel];
    const bool nullA = block.isNull(a);
    const bool nullB = block.isNull(b);
    if (nullA || nullB) {
      if (nullA && nullB) continue;
      return nullA == key.nullsFirst;
    }
    const int c = compareNonNull(block, a, block, b);
    if (c != 0) return key.ascending ? c < 0 : c > 0;
  }
  // Ties keep their buffer order, which is their input order: stable.
  return a < b;
}

void TopNExec::sortBuffer(size_t keep) {
  std::vector<uint32_t> order(bufferRows_);
  std::iota(order.begin(), order.end(), 0u);
  const auto less = [this](uint32_t a, uint32_t b) { return before(a, b); };
  keep = std::min(keep, bufferRows_);
  if (keep < bufferRows_) {
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), less);
    order.resize(keep);
  } else {
    std::sort(order.begin(), order.end(), less);
  }
  for (Block& block : buffer_) block = block.take(order);
  bufferRows_ = keep;
}

void TopNExec::consumeInput() {
  if (limit_ && *limit_ == 0) return;
  const size_t limit = limit_ ? static_cast<size_t>(*limit_) : SIZE_MAX;
  // Compact at twice the limit (and not before 4096 rows) so each compaction pays for many rows.
  const size_t compactAt =
      limit <= (size_t{1} << 40) ? std::max<size_t>(2 * limit, 4096) : SIZE_MAX;
  while (std::optional<Page> page = input_->next()) {
    for (size_t c = 0; c < buffer_.size(); ++c) buffer_[c].appendAll(page->block(c));
    bufferRows_ += page->positionCount();
    if (bufferRows_ >= compactAt) sortBuffer(limit);
  }
  sortBuffer(limit);
}

std::optional<Page> TopNExec::next() {
  OperatorTimer timer(stats_.nanos);
  if (!consumed_) {
    consumed_ = true;
    consumeInput();
  }
  if (outputOffset_ >= bufferRows_) {
    buffer_.clear();
    return std::nullopt;
  }
  const size_t length = std::min(kOutputPageRows, bufferRows_ - outputOffset_);
  std::vector<Block> blocks;
  if (outputOffset_ == 0 && length == bufferRows_) {
    blocks = std::move(buffer_);
    buffer_.clear();
    bufferRows_ = 0;
  } else {
    for (const Block& block : buffer_) blocks.push_back(block.slice(outputOffset_, length));
    outputOffset_ += length;
  }
  ++stats_.pagesOut;
  stats_.rowsOut += length;
  return Page(std::move(blocks), length);
}

void TopNExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
