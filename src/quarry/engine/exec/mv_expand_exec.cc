#include "quarry/engine/exec/mv_expand_exec.h"

#include <chrono>
#include <stdexcept>

namespace quarry::engine {

MvExpandExec::MvExpandExec(OperatorPtr input, int channel)
    : input_(std::move(input)), channel_(channel), schema_(input_->schema()) {
  stats_.name = "MvExpandExec";
  if (channel_ < 0 || static_cast<size_t>(channel_) >= schema_.size() ||
      !schema_[channel_].type.isList()) {
    throw std::invalid_argument("MvExpandExec: channel " + std::to_string(channel_) +
                                " is not a list column");
  }
  schema_[channel_].type = schema_[channel_].type.elementType();
}

std::optional<Page> MvExpandExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> result;
  if (std::optional<Page> page = input_->next()) {
    const Block& lists = page->block(static_cast<size_t>(channel_));
    const Block& elements = lists.listElements();
    const std::span<const uint64_t> offsets = lists.listOffsets();
    const size_t n = page->positionCount();
    // Per output row, its input row and its element (kNoElement: a null row).
    constexpr uint32_t kNoElement = UINT32_MAX;
    std::vector<uint32_t> rows;
    std::vector<uint32_t> picked;
    rows.reserve(n);
    picked.reserve(n);
    bool nullRows = false;
    for (size_t r = 0; r < n; ++r) {
      const uint64_t first = lists.isNull(r) ? 0 : offsets[r];
      const uint64_t last = lists.isNull(r) ? 0 : offsets[r + 1];
      if (first == last) {
        rows.push_back(static_cast<uint32_t>(r));
        picked.push_back(kNoElement);
        nullRows = true;
        continue;
      }
      for (uint64_t e = first; e < last; ++e) {
        rows.push_back(static_cast<uint32_t>(r));
        picked.push_back(static_cast<uint32_t>(e));
      }
    }
    Block expanded(schema_[channel_].type);
    if (!nullRows) {
      expanded = elements.take(picked);
    } else {
      expanded.reserve(picked.size());
      for (uint32_t e : picked) {
        if (e == kNoElement) {
          expanded.appendNull();
        } else {
          expanded.appendFrom(elements, e);
        }
      }
    }
    std::vector<Block> blocks;
    blocks.reserve(page->blockCount());
    for (size_t c = 0; c < page->blockCount(); ++c) {
      if (c == static_cast<size_t>(channel_)) {
        blocks.push_back(std::move(expanded));
      } else {
        blocks.push_back(page->block(c).take(rows));
      }
    }
    result = Page(std::move(blocks), rows.size());
    ++stats_.pagesOut;
    stats_.rowsOut += rows.size();
  }
  stats_.nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

void MvExpandExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
