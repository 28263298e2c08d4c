#pragma once

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/bound_expr.h"

/// Keeps the rows of its input where a boolean predicate is true (null and
/// false rows go). Pages where no row survives are skipped, so next() never
/// returns an empty page; a page where every row survives passes unchanged.
namespace quarry::engine {

class FilterExec final : public Operator {
 public:
  /// `predicate` is bound against input->schema() and boolean-typed.
  FilterExec(OperatorPtr input, BoundExprPtr predicate);

  const Schema& schema() const override { return input_->schema(); }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;
  const BoundExpr& predicate() const { return *predicate_; }

 private:
  OperatorPtr input_;
  BoundExprPtr predicate_;
  OperatorStats stats_;
};

}  // namespace quarry::engine
