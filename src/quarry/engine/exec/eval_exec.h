#pragma once

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/bound_expr.h"

/// Appends one column per expression to every page of its input, after the
/// input's columns, named as given and typed as the expression. Each
/// expression is bound against the input's schema (not against the columns
/// appended before it: the planner binds a later EVAL assignment against an
/// EvalExec of its own when it refers to an earlier one). An expression that
/// contains one computed before it, here or by an EvalExec directly below, as a
/// subtree (`charge = price * (1 - discount) * (1 + tax)` after `disc_price =
/// price * (1 - discount)`) reads that column's block instead of computing the
/// subtree again.
namespace quarry::engine {

class EvalExec final : public Operator {
 public:
  EvalExec(OperatorPtr input, std::vector<std::pair<std::string, BoundExprPtr>> columns);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;
  const std::vector<std::pair<std::string, BoundExprPtr>>& columns() const { return columns_; }

 private:
  OperatorPtr input_;
  std::vector<std::pair<std::string, BoundExprPtr>> columns_;
  /// columns_' expressions as evaluated: over the input's blocks followed by the
  /// blocks already appended, an earlier expression's subtree read from its block.
  std::vector<BoundExprPtr> evaluated_;
  Schema schema_;
  OperatorStats stats_;
};

}  // namespace quarry::engine
