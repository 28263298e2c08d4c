#pragma once

#include <string>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// ES|QL's multi-value functions: each reduces a list to one value per row,
/// skipping null elements, and is null for a null list and where no element is
/// non-null (an empty list, [null]).
///
///   mv_count(list)            int64: the non-null elements
///   mv_min(list), mv_max(list) the element type: the least / greatest (value_order.h)
///   mv_sum(list)              SUM's type of the element (int64, decimal(38,s), double)
///   mv_avg(list)              double
///   mv_first(list), mv_last(list)  the element type: the first / last non-null element
///
/// Example: mv_count([1, null, 3]) is 2, mv_first([null, 4, 5]) is 4, mv_max([]) is null.
/// A single value is a list of one, as in ES|QL: mv_count(x) is 1 (null for a
/// null x), mv_min(x) and mv_first(x) are x, mv_sum(x) is x in SUM's type. The
/// reductions are list_aggregator.h's.
///
/// And the functions that shape lists (null elements dropped; a null list, or a
/// list left without values, is null; a value is a list of one):
///   mv_median(list)           the middle value (numbers): of an even count the mean
///                             of the middle two, rounded down for integers
///                             (ES|QL); int64 for integers, else double
///   mv_concat(list, delim)    string: the string values joined by delim
///   mv_dedupe(list)           the distinct values, in the order of their first
///                             occurrence (ES|QL leaves the order unspecified)
///   mv_sort(list[, "asc"|"desc"])  the values in the engine's order (value_order.h)
///   mv_slice(list, start[, end])   the values at positions start..end inclusive,
///                             0-based, negative counting from the end (-1 the last);
///                             null where the range holds no value
///   mv_append(a, b)           a's values then b's (one element type)
///   mv_zip(a, b[, delim])     strings: a[i] delim b[i] pairwise (delim "," by
///                             default); past the shorter list, the longer's values
/// The list results keep the element type: mv_sort(x) of a value x is a list of one.
///
/// One function the binder builds and no query names (its `$` is no name's):
///   $single_value(list)       where an operator or a function that takes one value
///                             is given a list: its one non-null element; null where
///                             it has none, and null with ES|QL's warning
///                             ("single-value function encountered multi-value")
///                             where it has several (call_failures.h)
namespace quarry::engine {

/// The name of the function that makes a list one value (above).
inline constexpr const char* kSingleValueFunction = "$single_value";

/// Whether `name` (lower case) is one of the functions above.
bool isMvFunction(const std::string& name);

/// The result type of the call `call` (kind kCall, name and one child set);
/// throws QueryError at `line`, `column` for another argument.
DataType bindMvFunction(const BoundExpr& call, int line, int column);

/// Evaluates the bound call over its arguments' blocks (n positions each).
Block evaluateMvFunction(const BoundExpr& call, const CallArgs& args, size_t n);

/// Returns `list` (a list-typed expression) as $single_value(list), of the
/// element type, whose warnings name `site`.
BoundExprPtr singleValueOf(BoundExprPtr list, std::shared_ptr<const WarningSite> site);

/// Per list of `lists` its one non-null element; null where it has none or several.
Block singleValues(const Block& lists);

/// The non-null elements of `lists` at `row` (0 for a null list).
size_t listValueCount(const Block& lists, size_t row);

}  // namespace quarry::engine
