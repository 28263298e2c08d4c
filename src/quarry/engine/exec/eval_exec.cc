#include "quarry/engine/exec/eval_exec.h"

#include <chrono>

#include "quarry/engine/expr/evaluator.h"

namespace quarry::engine {

EvalExec::EvalExec(OperatorPtr input, std::vector<std::pair<std::string, BoundExprPtr>> columns)
    : input_(std::move(input)), columns_(std::move(columns)), schema_(input_->schema()) {
  stats_.name = "EvalExec";
  for (const auto& [name, expr] : columns_) schema_.push_back(Field{name, expr->type});
}

std::optional<Page> EvalExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> page = input_->next();
  std::optional<Page> result;
  if (page) {
    const size_t n = page->positionCount();
    // Evaluate over the input's page: appended columns are not visible to the expressions.
    std::vector<Block> added;
    added.reserve(columns_.size());
    for (const auto& column : columns_) added.push_back(evaluate(*column.second, *page));
    std::vector<Block> blocks = std::move(page->blocks());
    for (Block& block : added) blocks.push_back(std::move(block));
    result = Page(std::move(blocks), n);
    ++stats_.pagesOut;
    stats_.rowsOut += n;
  }
  stats_.nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

void EvalExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
