#include "quarry/engine/exec/local_source_exec.h"

#include <stdexcept>

#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

LocalSourceExec::LocalSourceExec(Schema schema, LocalSupplier supplier, std::string description)
    : schema_(std::move(schema)),
      supplier_(std::move(supplier)),
      description_(std::move(description)) {}

std::optional<Page> LocalSourceExec::next() {
  OperatorTimer timer(stats_.nanos);
  while (!done_) {
    std::optional<Page> page = supplier_();
    if (!page) {
      done_ = true;
      break;
    }
    if (page->positionCount() == 0) continue;
    if (page->blockCount() != schema_.size()) {
      throw std::logic_error("LocalSourceExec (" + description_ + "): a page of " +
                             std::to_string(page->blockCount()) + " columns for a schema of " +
                             std::to_string(schema_.size()));
    }
    ++stats_.pagesOut;
    stats_.rowsOut += page->positionCount();
    return page;
  }
  return std::nullopt;
}

void LocalSourceExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
}

}  // namespace quarry::engine
