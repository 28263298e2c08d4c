#pragma once

#include <vector>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/parse/query_diagnostic.h"

/// What a valid query likely does not mean, found before it runs: the CLI
/// prints these on stderr ("quarry: warning: ...") and runs the query anyway.
///
/// A LIKE whose pattern has SQL's wildcards (`%`, `_`) and none of ES|QL's
/// (`*`, `?`) matches those characters literally, so `url LIKE "%google%"`
/// matches nothing a SQL user expects; the warning names ES|QL's wildcards and
/// the pattern with them (`"*google*"`).
namespace quarry::engine {

/// Returns the warnings for `query`, in the order of the query's text.
std::vector<QueryWarning> queryWarnings(const Query& query);

}  // namespace quarry::engine
