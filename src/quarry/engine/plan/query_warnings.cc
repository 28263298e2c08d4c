#include "quarry/engine/plan/query_warnings.h"

#include <string>

#include "quarry/engine/expr/like_matcher.h"
#include "quarry/engine/parse/expr_walk.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {
namespace {

/// The pattern with SQL's wildcards read as ES|QL's: % as *, _ as ?.
std::string withEsqlWildcards(std::string_view pattern) {
  std::string out(pattern);
  for (char& c : out) {
    if (c == '%') c = '*';
    if (c == '_') c = '?';
  }
  return out;
}

void checkLike(const LikeExpr& like, const SourcePosition& at, std::vector<QueryWarning>& out) {
  if (like.regex || like.pattern.find_first_of("%_") == std::string::npos ||
      LikeMatcher::hasWildcard(like.pattern))
    return;
  const std::string op = like.negated ? "NOT LIKE " : "LIKE ";
  std::string hint =
      "ES|QL's LIKE wildcards are * (any run of characters) and ? (one character); for SQL's "
      "meaning write ";
  hint += op + quoteString(withEsqlWildcards(like.pattern));
  out.push_back(QueryWarning{
      op + quoteString(like.pattern) + " has no ES|QL wildcard: its % and _ match themselves",
      at.line, at.column, std::move(hint)});
}

}  // namespace

std::vector<QueryWarning> queryWarnings(const Query& query) {
  std::vector<QueryWarning> out;
  for (const Command& command : query.commands) {
    forEachCommandExpression(command, [&](const Expr& top) {
      forEachNode(top, [&](const Expr& expr) {
        if (expr.is<LikeExpr>()) checkLike(expr.as<LikeExpr>(), expr.position, out);
      });
    });
  }
  return out;
}

}  // namespace quarry::engine
