#include "quarry/engine/plan/plan_building.h"

#include "quarry/engine/expr/expression_binder.h"

namespace quarry::engine::planning {

PlanNodePtr makeNode(PlanKind kind, PlanNodePtr input) {
  auto node = std::make_shared<PlanNode>();
  node->kind = kind;
  if (input) {
    node->schema = input->schema;
    node->children.push_back(std::move(input));
  }
  return node;
}

PlanNodePtr project(PlanNodePtr input, std::vector<int> channels, std::vector<std::string> names) {
  auto node = makeNode(PlanKind::kProject, input);
  node->schema.clear();
  for (size_t i = 0; i < channels.size(); ++i) {
    node->schema.push_back({names[i], input->schema[channels[i]].type});
  }
  node->channels = std::move(channels);
  return node;
}

/// Keeps every column but those in `dropped`.
PlanNodePtr projectWithout(PlanNodePtr input, const std::set<int>& dropped) {
  std::vector<int> channels;
  std::vector<std::string> names;
  for (size_t i = 0; i < input->schema.size(); ++i) {
    if (dropped.count(static_cast<int>(i))) continue;
    channels.push_back(static_cast<int>(i));
    names.push_back(input->schema[i].name);
  }
  return project(std::move(input), std::move(channels), std::move(names));
}

/// Appends columns computed by `evals` (bound against `input`'s schema).
PlanNodePtr eval(PlanNodePtr input, std::vector<std::pair<std::string, BoundExprPtr>> evals) {
  auto node = makeNode(PlanKind::kEval, input);
  for (const auto& [name, expr] : evals) node->schema.push_back({name, expr->type});
  node->evals = std::move(evals);
  return node;
}

/// Evaluates `expr` into a column of its own unless it is a plain column;
/// returns the channel. New columns are appended to `pending`, to be added by
/// one EvalExec. `scalarUse` names the use that refuses a list (requireScalar);
/// null where a list is taken (an aggregate's argument: its elements).
int channelFor(const Expr& expr, const Schema& schema, const std::string& tempName,
               std::vector<std::pair<std::string, BoundExprPtr>>& pending, const char* scalarUse) {
  BoundExprPtr bound = bindExpression(expr, schema);
  if (scalarUse != nullptr) requireScalar(*bound, expr.position, scalarUse);
  if (bound->kind == BoundExpr::Kind::kColumn) return bound->column;
  pending.emplace_back(tempName, std::move(bound));
  return static_cast<int>(schema.size() + pending.size() - 1);
}

}  // namespace quarry::engine::planning
