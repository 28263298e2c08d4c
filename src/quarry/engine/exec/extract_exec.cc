#include "quarry/engine/exec/extract_exec.h"

#include <chrono>
#include <stdexcept>

namespace quarry::engine {

ExtractExec::ExtractExec(OperatorPtr input, int channel,
                         std::shared_ptr<const RowExtractor> extractor)
    : input_(std::move(input)),
      channel_(channel),
      extractor_(std::move(extractor)),
      schema_(input_->schema()) {
  stats_.name = extractor_->operatorName();
  if (channel_ < 0 || static_cast<size_t>(channel_) >= schema_.size() ||
      schema_[channel_].type.kind != TypeKind::kString) {
    throw std::invalid_argument(std::string(extractor_->operatorName()) + ": channel " +
                                std::to_string(channel_) + " is not a string column");
  }
  for (const Field& field : extractor_->fields()) schema_.push_back(field);
}

std::optional<Page> ExtractExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> page = input_->next();
  if (page) {
    const size_t n = page->positionCount();
    std::vector<Block> extracted;
    for (const Field& field : extractor_->fields()) {
      extracted.emplace_back(field.type);
      extracted.back().reserve(n);
    }
    extractor_->extract(page->block(static_cast<size_t>(channel_)), extracted);
    for (Block& block : extracted) page->blocks().push_back(std::move(block));
    ++stats_.pagesOut;
    stats_.rowsOut += n;
  }
  stats_.nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return page;
}

void ExtractExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
