#pragma once

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/bound_expr.h"

/// Appends one column per expression to every page of its input, after the
/// input's columns, named as given and typed as the expression. Each
/// expression is bound against the input's schema (not against the columns
/// appended before it: the planner binds a later EVAL assignment against an
/// EvalExec of its own when it refers to an earlier one).
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
  Schema schema_;
  OperatorStats stats_;
};

}  // namespace quarry::engine
