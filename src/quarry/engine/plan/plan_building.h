#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/parse/ast.h"
#include "quarry/engine/plan/plan_node.h"

/// The pieces the planner builds a plan from, shared by planner.cc (the
/// commands) and stats_planning.cc (STATS ... BY): a node over an input, the
/// projections, an EvalExec of new columns, and an expression's channel.
namespace quarry::engine::planning {

/// A node of `kind` over `input`, with `input`'s schema.
PlanNodePtr makeNode(PlanKind kind, PlanNodePtr input);

/// Keeps `channels` of `input` under `names`.
PlanNodePtr project(PlanNodePtr input, std::vector<int> channels, std::vector<std::string> names);

/// Keeps every column but those in `dropped`.
PlanNodePtr projectWithout(PlanNodePtr input, const std::set<int>& dropped);

/// Appends columns computed by `evals` (bound against `input`'s schema).
PlanNodePtr eval(PlanNodePtr input, std::vector<std::pair<std::string, BoundExprPtr>> evals);

/// Evaluates `expr` into a column of its own unless it is a plain column;
/// returns the channel. New columns are appended to `pending`, to be added by
/// one EvalExec. `scalarUse` names the use that refuses a list (requireScalar);
/// null where a list is taken (an aggregate's argument: its elements).
int channelFor(const Expr& expr, const Schema& schema, const std::string& tempName,
               std::vector<std::pair<std::string, BoundExprPtr>>& pending, const char* scalarUse);

}  // namespace quarry::engine::planning
