#pragma once

#include <string>
#include <string_view>

#include "quarry/common/error.h"

namespace quarry::engine {

/// Something a query does that is valid but likely not what its author meant
/// (a LIKE pattern written with SQL's wildcards): where, what, and a hint.
struct QueryWarning {
  std::string message;
  int line = 0;
  int column = 0;
  std::string hint;
};

/// Renders a QueryError for a person, with the query line it points into and a
/// caret under the column:
///
///   error: expected ',' or ')' to close the call of round at line 1, column 34, found end of query
///     at line 1, column 39:
///     FROM "t.parquet" | EVAL r = round(x, 2
///                                           ^
///   hint: separate arguments with ',' and end the call with ')'
///
/// Tabs before the column are kept in the caret line so that it lines up.
std::string renderQueryError(const QueryError& error, std::string_view query);

/// Renders a QueryWarning as renderQueryError renders an error, headed
/// "warning:" instead of "error:".
std::string renderQueryWarning(const QueryWarning& warning, std::string_view query);

}  // namespace quarry::engine
