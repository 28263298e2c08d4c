#include "quarry/engine/plan/query_warnings.h"

#include <string>
#include <type_traits>
#include <variant>

#include "quarry/engine/expr/like_matcher.h"
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

void visit(const Expr& expr, std::vector<QueryWarning>& out) {
  std::visit(
      [&](const auto& node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, UnaryExpr> || std::is_same_v<T, IsNullExpr>) {
          visit(*node.operand, out);
        } else if constexpr (std::is_same_v<T, BinaryExpr>) {
          visit(*node.left, out);
          visit(*node.right, out);
        } else if constexpr (std::is_same_v<T, LikeExpr>) {
          visit(*node.operand, out);
          checkLike(node, expr.position, out);
        } else if constexpr (std::is_same_v<T, InExpr>) {
          visit(*node.operand, out);
          for (const Expr& e : node.list) visit(e, out);
        } else if constexpr (std::is_same_v<T, CaseExpr>) {
          for (const WhenClause& w : node.whens) {
            visit(*w.condition, out);
            visit(*w.value, out);
          }
          if (node.otherwise) visit(**node.otherwise, out);
        } else if constexpr (std::is_same_v<T, CallExpr>) {
          for (const Expr& e : node.args) visit(e, out);
        }
      },
      expr.node);
}

}  // namespace

std::vector<QueryWarning> queryWarnings(const Query& query) {
  std::vector<QueryWarning> out;
  for (const Command& command : query.commands) {
    std::visit(
        [&](const auto& c) {
          using T = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<T, WhereCommand>) {
            visit(c.condition, out);
          } else if constexpr (std::is_same_v<T, EvalCommand>) {
            for (const Assignment& a : c.assignments) visit(a.value, out);
          } else if constexpr (std::is_same_v<T, StatsCommand>) {
            for (const StatsItem& item : c.aggregates) visit(item.expr, out);
            for (const StatsItem& item : c.groups) visit(item.expr, out);
          } else if constexpr (std::is_same_v<T, SortCommand>) {
            for (const SortKey& key : c.keys) visit(key.expr, out);
          }
        },
        command.node);
  }
  return out;
}

}  // namespace quarry::engine
