#include "quarry/engine/exec/limit_exec.h"

#include "quarry/common/error.h"
#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

LimitExec::LimitExec(OperatorPtr input, int64_t limit)
    : input_(std::move(input)), remaining_(limit) {
  if (limit < 0) throw InvalidArgument("LimitExec: a negative limit: " + std::to_string(limit));
}

std::optional<Page> LimitExec::next() {
  OperatorTimer timer(stats_.nanos);
  if (remaining_ <= 0) return std::nullopt;
  std::optional<Page> page = input_->next();
  if (!page) {
    remaining_ = 0;
    return std::nullopt;
  }
  if (static_cast<int64_t>(page->positionCount()) > remaining_) {
    page = page->slice(0, static_cast<size_t>(remaining_));
  }
  remaining_ -= static_cast<int64_t>(page->positionCount());
  ++stats_.pagesOut;
  stats_.rowsOut += page->positionCount();
  return page;
}

void LimitExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
