#pragma once

#include <type_traits>
#include <variant>

#include "quarry/engine/parse/ast.h"

/// Walks of the syntax tree that every pass over it shares: the direct children
/// of an expression, and the expressions a query's commands hold. A pass writes
/// only what it does with a node; which nodes have which children is said here
/// once.
namespace quarry::engine {

/// Calls `f(child)` for each direct child expression of `expr`, in the order
/// written. `E` is Expr or const Expr; the children are passed alike.
template <typename E, typename F>
requires std::is_same_v<std::remove_const_t<E>, Expr>
void forEachChild(E& expr, F&& f) {
  std::visit(
      [&](auto& node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, UnaryExpr> || std::is_same_v<T, IsNullExpr> ||
                      std::is_same_v<T, LikeExpr>) {
          f(*node.operand);
        } else if constexpr (std::is_same_v<T, BinaryExpr>) {
          f(*node.left);
          f(*node.right);
        } else if constexpr (std::is_same_v<T, InExpr>) {
          f(*node.operand);
          for (auto& e : node.list) f(e);
        } else if constexpr (std::is_same_v<T, CaseExpr>) {
          for (auto& w : node.whens) {
            f(*w.condition);
            f(*w.value);
          }
          if (node.otherwise) f(**node.otherwise);
        } else if constexpr (std::is_same_v<T, CallExpr>) {
          for (auto& e : node.args) f(e);
        }
      },
      expr.node);
}

/// Calls `f(node)` for `expr` and every expression below it, parents first.
template <typename F>
void forEachNode(const Expr& expr, F&& f) {
  f(expr);
  forEachChild(expr, [&](const Expr& child) { forEachNode(child, f); });
}

/// Calls `f(expr)` for each expression a command holds (WHERE's condition,
/// EVAL's values, STATS's aggregates, their filters and groupings, SORT's keys).
template <typename F>
void forEachCommandExpression(const Command& command, F&& f) {
  std::visit(
      [&](const auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, WhereCommand>) {
          f(c.condition);
        } else if constexpr (std::is_same_v<T, EvalCommand>) {
          for (const Assignment& a : c.assignments) f(a.value);
        } else if constexpr (std::is_same_v<T, StatsCommand>) {
          for (const StatsItem& item : c.aggregates) {
            f(item.expr);
            if (item.filter) f(*item.filter);
          }
          for (const StatsItem& item : c.groups) f(item.expr);
        } else if constexpr (std::is_same_v<T, SortCommand>) {
          for (const SortKey& key : c.keys) f(key.expr);
        }
      },
      command.node);
}

}  // namespace quarry::engine
