#include "quarry/engine/exec/external_source_exec.h"

#include <chrono>

namespace quarry::engine {

ExternalSourceExec::ExternalSourceExec(Schema schema, std::vector<SplitTask> splits,
                                       ReadRequest request)
    : schema_(std::move(schema)), splits_(std::move(splits)), request_(std::move(request)) {
  if (request_.outputSchema.empty()) request_.outputSchema = schema_;
  stats_.name = "ExternalSourceExec";
}

std::optional<Page> ExternalSourceExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> out;
  while (!request_.limit || returned_ < *request_.limit) {
    if (!current_) {
      if (nextSplit_ >= splits_.size()) break;
      const SplitTask& task = splits_[nextSplit_++];
      ReadRequest request = request_;
      if (request.limit) *request.limit -= returned_;
      if (request_.metrics) ++request_.metrics->splits;
      current_ = task.reader->read(task.split, request);
    }
    std::optional<Page> page = (*current_)();
    if (!page) {
      current_.reset();
      continue;
    }
    if (page->positionCount() == 0) continue;
    out = std::move(page);
    break;
  }
  if (out) {
    returned_ += static_cast<int64_t>(out->positionCount());
    ++stats_.pagesOut;
    stats_.rowsOut += out->positionCount();
  } else {
    current_.reset();
  }
  stats_.nanos += std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  return out;
}

void ExternalSourceExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
}

}  // namespace quarry::engine
