#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "quarry/engine/parse/token.h"

/// Values for a query's `?name` placeholders (ES|QL's named parameters): a
/// placeholder stands where a literal may, and its value becomes that literal's
/// tokens before parsing, so that a value is never read as query text:
///
///   FROM "trips.parquet" | WHERE vendor == ?vendor AND fare > ?min_fare
///   with vendor = "VTS" (a string literal) and min_fare = 10 (an integer)
///
/// Positional placeholders are ES|QL's `?1`, `?2` (numbered from 1) or `?` alone,
/// the n-th `?` being position n; a query uses one form or the other. A position
/// binds the parameter named by its number: {"1", value}.
///
/// A value is NULL, a boolean, a 64-bit integer, a double or a string. A negative
/// number binds in parentheses, `(-5)`, so that `x - ?n` stays a subtraction of n.
/// Errors point at the placeholder: a name without a value is a QueryError there.
namespace quarry::engine {

struct NullParameter {
  bool operator==(const NullParameter&) const = default;
};

using ParameterValue = std::variant<NullParameter, bool, int64_t, double, std::string>;

struct QueryParameter {
  std::string name;
  ParameterValue value;
};

using QueryParameters = std::vector<QueryParameter>;

/// Replaces every kParameter token of `tokens` by the tokens of its value. Throws
/// QueryError at a placeholder no parameter names and where `?` and `?1` are
/// mixed, InvalidArgument for a name
/// given twice or a double that is NaN or infinite (no literal writes one).
void bindParameters(std::vector<Token>& tokens, const QueryParameters& parameters);

}  // namespace quarry::engine
