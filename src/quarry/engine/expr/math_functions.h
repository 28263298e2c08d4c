#pragma once

#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// ES|QL's math functions. Every number argument may be int32, int64, uint64,
/// decimal or double; the double-valued functions convert it to the nearest
/// double first. A null argument gives null. Where ES|QL answers null with a
/// warning (a value outside the function's domain, a result that is not
/// finite), quarry answers null without one: it has no per-row warnings yet
/// (docs/ARCHITECTURE.md, "Departures from ES|QL").
///
///   pow(base, exponent)       double; null when the result is not finite
///                             (2^1024, 0^-1, (-8)^(1/3))
///   sqrt(x)                   double; null for x < 0 and x = +Infinity
///   cbrt(x), exp(x)           double (exp may overflow to +Infinity, as ES|QL's)
///   log10(x), log(x)          double; null for x <= 0; log is the natural logarithm
///   log(base, x)              double, log10(x) / log10(base) as ES|QL and DuckDB;
///                             null for base <= 0, base = 1 or x <= 0
///   floor(x), ceil(x)         integers unchanged (same type); double -> double;
///                             decimal(p,s) -> decimal(p,0) (DuckDB's type)
///   signum(x)                 double: -1, 1, or x itself for +-0 and NaN
///   pi(), e(), tau()          double constants
///   sin, cos, tan, asin, acos, atan, sinh, cosh, tanh (x)
///                             double, radians; asin and acos null outside
///                             [-1, 1]; sinh and cosh null when not finite
///   atan2(y, x)               double, the angle of the point (x, y)
///   greatest(a, ...), least(a, ...)
///                             the arguments' common type (type_rules.h: numbers,
///                             strings, booleans, dates and timestamps, times);
///                             null when any argument is null (ES|QL's rule;
///                             DuckDB's skips nulls); of equal values the first
///                             wins; NaN is above every double, as in comparisons
///
/// Example: pow(2, 10) is 1024.0, sqrt(-4) is null, floor(-1.25) of a
/// decimal(9,2) is -2 of decimal(9,0), greatest(1, 2.5, null) is null.
namespace quarry::engine {

/// Whether `name` (lower case) is one of the functions above.
bool isMathFunction(const std::string& name);

/// Checks the arguments of the call `call` (kind kCall, name and children set)
/// and returns its result type; throws QueryError at `line`, `column`.
DataType bindMathFunction(const BoundExpr& call, int line, int column);

/// Evaluates the bound call over its arguments' blocks (n positions each; a
/// call without arguments gives n values).
Block evaluateMathFunction(const BoundExpr& call, const CallArgs& args, size_t n);

}  // namespace quarry::engine
