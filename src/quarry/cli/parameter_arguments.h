#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/parse/query_parameters.h"

/// `quarry query --param name=value --param value ...`: the values of a query's
/// placeholders (engine/parse/query_parameters.h). `name=value` (a name is
/// `[A-Za-z_][A-Za-z0-9_]*`) binds `?name`; a value without a name is the next
/// positional value, bound by the n-th `?` or by `?n`. A value is typed as
/// ES|QL types a JSON parameter: `null`, `true` / `false` (any case), an integer
/// that fits in 64 bits, a finite decimal or exponent number (a double), else a
/// string; a value in double quotes is the string inside them (`"42"`).
///
///   --param city=Paris --param limit=10 --param 2.5   ->   ?city = "Paris",
///   ?limit = 10, the first positional value (? or ?1) = 2.5
namespace quarry::cli {

engine::QueryParameters parameterArguments(const std::vector<std::string>& arguments);

/// The value `text` stands for, typed as above.
engine::ParameterValue parameterValue(std::string_view text);

}  // namespace quarry::cli
