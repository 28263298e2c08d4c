#pragma once

#include <span>
#include <string>

#include "quarry/engine/data/data_type.h"
#include "quarry/engine/expr/aggregator.h"
#include "quarry/engine/parse/ast.h"

/// The aggregates STATS knows by name, with their arity, and the constant
/// arguments some of them take after the first (ES|QL's signatures):
///
///   PERCENTILE(x, p)       p a number from 0 to 100 (AggregateSpec::quantile = p / 100)
///   TOP(x, n[, order])     n an integer from 1; order "asc" (the default) or "desc"
///   WEIGHTED_AVG(x, w)     w any numeric expression (a column, bound by the planner)
///
/// A constant is a literal (ES|QL requires a foldable value); anything else is a
/// QueryError at the argument.
namespace quarry::engine {

struct AggregateName {
  const char* name;  // as the parser lowers it
  AggregateFunction function;
  size_t minArgs = 1;
  size_t maxArgs = 1;
};

/// Every aggregate STATS takes, in the order the hints list them.
std::span<const AggregateName> statsAggregates();

/// The aggregates' names, upper case and comma separated ("COUNT, COUNT_DISTINCT, ...").
std::string statsAggregateList();

/// Checks the number of `call`'s arguments against `known` and reads its constant
/// arguments into `spec` (quantile, limit, descending). Throws QueryError at `at`.
void bindAggregateConstants(const CallExpr& call, const AggregateName& known, const Schema& schema,
                            const SourcePosition& at, AggregateSpec& spec);

}  // namespace quarry::engine
