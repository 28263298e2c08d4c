#include "quarry/engine/exec/project_exec.h"

#include "quarry/common/error.h"
#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

ProjectExec::ProjectExec(OperatorPtr input, std::vector<int> channels,
                         std::vector<std::string> names)
    : input_(std::move(input)), channels_(std::move(channels)) {
  if (names.size() != channels_.size()) {
    throw InvalidArgument("ProjectExec: " + std::to_string(channels_.size()) + " channels but " +
                          std::to_string(names.size()) + " names");
  }
  const Schema& in = input_->schema();
  for (size_t i = 0; i < channels_.size(); ++i) {
    const int channel = channels_[i];
    if (channel < 0 || static_cast<size_t>(channel) >= in.size()) {
      throw InvalidArgument("ProjectExec: column " + names[i] + " reads channel " +
                            std::to_string(channel) + " of an input of " +
                            std::to_string(in.size()) + " columns");
    }
    schema_.push_back({std::move(names[i]), in[channel].type});
    bool again = false;
    for (size_t k = i + 1; k < channels_.size(); ++k) again |= channels_[k] == channel;
    usedAgain_.push_back(again);
  }
}

std::optional<Page> ProjectExec::next() {
  OperatorTimer timer(stats_.nanos);
  std::optional<Page> page = input_->next();
  if (!page) return std::nullopt;
  const size_t rows = page->positionCount();
  std::vector<Block> blocks;
  blocks.reserve(channels_.size());
  for (size_t i = 0; i < channels_.size(); ++i) {
    Block& block = page->block(channels_[i]);
    blocks.push_back(usedAgain_[i] ? block : std::move(block));
  }
  ++stats_.pagesOut;
  stats_.rowsOut += rows;
  return Page(std::move(blocks), rows);
}

void ProjectExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
