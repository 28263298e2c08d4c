#include "quarry/engine/exec/filter_exec.h"

#include <chrono>
#include <stdexcept>

#include "quarry/engine/expr/evaluator.h"

namespace quarry::engine {

FilterExec::FilterExec(OperatorPtr input, BoundExprPtr predicate)
    : input_(std::move(input)), predicate_(std::move(predicate)) {
  stats_.name = "FilterExec";
  if (predicate_->type.kind != TypeKind::kBoolean && predicate_->type.kind != TypeKind::kNull) {
    throw std::invalid_argument("FilterExec: the predicate " + predicate_->toString() +
                                " is of type " + predicate_->type.toString() + ", not boolean");
  }
}

std::optional<Page> FilterExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> result;
  std::vector<uint32_t> selected;
  while (std::optional<Page> page = input_->next()) {
    if (page->positionCount() == 0) continue;
    const Block mask = evaluate(*predicate_, *page, stats_.warnings);
    if (mask.type().kind == TypeKind::kNull) continue;  // NULL keeps nothing
    std::span<const uint8_t> values = mask.values<uint8_t>();
    selected.clear();
    // Null positions hold 0 (a Block's invariant), so the value alone decides.
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i]) selected.push_back(static_cast<uint32_t>(i));
    }
    if (selected.empty()) continue;
    result = selected.size() == page->positionCount() ? std::move(*page) : page->take(selected);
    break;
  }
  if (result) {
    ++stats_.pagesOut;
    stats_.rowsOut += result->positionCount();
  }
  stats_.nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

void FilterExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
