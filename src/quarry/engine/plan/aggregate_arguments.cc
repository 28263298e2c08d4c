#include "quarry/engine/plan/aggregate_arguments.h"

#include <cctype>
#include <cstdint>
#include <variant>

#include "quarry/common/error.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

namespace {

constexpr AggregateName kAggregates[] = {
    {"count", AggregateFunction::kCount},
    {"count_distinct", AggregateFunction::kCountDistinct, 1, 2},
    {"min", AggregateFunction::kMin},
    {"max", AggregateFunction::kMax},
    {"sum", AggregateFunction::kSum},
    {"avg", AggregateFunction::kAvg},
    {"median", AggregateFunction::kMedian},
    {"percentile", AggregateFunction::kPercentile, 2, 2},
    {"median_absolute_deviation", AggregateFunction::kMedianAbsoluteDeviation},
    {"std_dev", AggregateFunction::kStdDev},
    {"variance", AggregateFunction::kVariance},
    {"weighted_avg", AggregateFunction::kWeightedAvg, 2, 2},
    {"values", AggregateFunction::kValues},
    {"top", AggregateFunction::kTop, 2, 3},
};

std::string upper(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

[[noreturn]] void failArgument(const AggregateName& known, const Expr& arg,
                               const std::string& what) {
  throw QueryError(upper(known.name) + "'s " + what + ", not `" + printExpr(arg) + "`",
                   arg.position.line, arg.position.column);
}

/// The literal `arg` binds to; QueryError (`what`) for anything else.
BoundExprPtr literalOf(const AggregateName& known, const Expr& arg, const Schema& schema,
                       const std::string& what) {
  BoundExprPtr bound = bindExpression(arg, schema);
  if (bound->kind != BoundExpr::Kind::kLiteral ||
      std::holds_alternative<std::monostate>(bound->literal)) {
    failArgument(known, arg, what);
  }
  return bound;
}

/// PERCENTILE's p / 100, computed so that it is the double nearest the exact
/// quotient (one division of exact operands), as DuckDB reads `quantile_cont(x, 0.999)`.
double quantileOf(const AggregateName& known, const Expr& arg, const Schema& schema) {
  const char* what = "percentile must be a number from 0 to 100";
  const BoundExprPtr p = literalOf(known, arg, schema, what);
  double quantile = -1;
  if (const auto* v = std::get_if<int32_t>(&p->literal)) {
    quantile = static_cast<double>(*v) / 100.0;
  } else if (const auto* v64 = std::get_if<int64_t>(&p->literal)) {
    if (*v64 >= 0 && *v64 <= 100) quantile = static_cast<double>(*v64) / 100.0;
  } else if (const auto* d = std::get_if<Int128>(&p->literal);
             d && p->type.kind == TypeKind::kDecimal) {
    quantile = decimalToDouble(*d, p->type.scale + 2);
  } else if (const auto* f = std::get_if<double>(&p->literal)) {
    quantile = *f / 100.0;
  }
  if (!(quantile >= 0.0 && quantile <= 1.0)) failArgument(known, arg, what);
  return quantile;
}

}  // namespace

std::span<const AggregateName> statsAggregates() {
  return kAggregates;
}

std::string statsAggregateList() {
  std::string out;
  for (const AggregateName& a : kAggregates) out += (out.empty() ? "" : ", ") + upper(a.name);
  return out;
}

void bindAggregateConstants(const CallExpr& call, const AggregateName& known, const Schema& schema,
                            const SourcePosition& at, AggregateSpec& spec) {
  const size_t n = call.args.size();
  if (n < known.minArgs || n > known.maxArgs) {
    const std::string count =
        known.minArgs == known.maxArgs
            ? std::to_string(known.minArgs)
            : std::to_string(known.minArgs) + " or " + std::to_string(known.maxArgs);
    throw QueryError("aggregate `" + std::string(known.name) + "` takes " + count +
                         (known.maxArgs == 1 ? " argument" : " arguments"),
                     at.line, at.column);
  }
  switch (known.function) {
    case AggregateFunction::kCountDistinct:
      // ES|QL's precision threshold, up to which its HyperLogLog++ counts are near
      // exact: quarry counts exactly at any threshold, so it is checked, not used.
      if (n == 2) {
        const char* what = "precision must be a non-negative integer";
        const BoundExprPtr precision = literalOf(known, call.args[1], schema, what);
        const auto* v32 = std::get_if<int32_t>(&precision->literal);
        const auto* v64 = std::get_if<int64_t>(&precision->literal);
        if (!(v32 && *v32 >= 0) && !(v64 && *v64 >= 0)) failArgument(known, call.args[1], what);
      }
      break;
    case AggregateFunction::kPercentile:
      spec.quantile = quantileOf(known, call.args[1], schema);
      break;
    case AggregateFunction::kTop: {
      const char* what = "limit must be an integer from 1";
      const BoundExprPtr limit = literalOf(known, call.args[1], schema, what);
      const auto* v = std::get_if<int32_t>(&limit->literal);
      if (v == nullptr || *v < 1) failArgument(known, call.args[1], what);
      spec.limit = *v;
      if (n == 3) {
        const char* orderWhat = "order must be \"asc\" or \"desc\"";
        const BoundExprPtr order = literalOf(known, call.args[2], schema, orderWhat);
        const auto* text = std::get_if<std::string>(&order->literal);
        const std::string lowered = text ? upper(*text) : "";
        if (lowered != "ASC" && lowered != "DESC") failArgument(known, call.args[2], orderWhat);
        spec.descending = lowered == "DESC";
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace quarry::engine
