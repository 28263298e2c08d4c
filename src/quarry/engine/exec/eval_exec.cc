#include "quarry/engine/exec/eval_exec.h"

#include <bit>
#include <chrono>
#include <memory>
#include <string>

#include "quarry/engine/expr/evaluator.h"

namespace quarry::engine {

namespace {

bool sameLiteral(const Scalar& a, const Scalar& b) {
  // Doubles by bits: 0.0 and -0.0 are different literals, a NaN the same one.
  if (std::holds_alternative<double>(a) && std::holds_alternative<double>(b)) {
    return std::bit_cast<uint64_t>(std::get<double>(a)) ==
           std::bit_cast<uint64_t>(std::get<double>(b));
  }
  return a == b;
}

/// Whether `a` and `b` compute the same values over the same page: equal trees,
/// columns by index.
bool sameExpression(const BoundExpr& a, const BoundExpr& b) {
  if (a.kind != b.kind || !(a.type == b.type) || a.column != b.column || a.name != b.name ||
      !sameLiteral(a.literal, b.literal) || a.unaryOp != b.unaryOp || a.binaryOp != b.binaryOp ||
      a.negated != b.negated || a.pattern != b.pattern || a.timeSpan != b.timeSpan ||
      a.children.size() != b.children.size()) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!sameExpression(*a.children[i], *b.children[i])) return false;
  }
  return true;
}

/// An expression whose values are a block of the page: its column index.
struct Computed {
  const BoundExpr* expr;
  int column;
};

/// Returns `expr` with each subtree that is a computed expression replaced by a
/// reference to its block; `expr` itself when there is none.
BoundExprPtr reuseComputed(const BoundExprPtr& expr, const std::vector<Computed>& computed) {
  if (expr->kind == BoundExpr::Kind::kColumn || expr->kind == BoundExpr::Kind::kLiteral) {
    return expr;
  }
  for (const Computed& c : computed) {
    if (sameExpression(*c.expr, *expr)) {
      auto reference = std::make_shared<BoundExpr>();
      reference->kind = BoundExpr::Kind::kColumn;
      reference->type = expr->type;
      reference->column = c.column;
      reference->name = expr->toString();
      return reference;
    }
  }
  std::vector<BoundExprPtr> children;
  children.reserve(expr->children.size());
  bool changed = false;
  for (const BoundExprPtr& child : expr->children) {
    children.push_back(reuseComputed(child, computed));
    changed |= children.back() != child;
  }
  if (!changed) return expr;
  auto copy = std::make_shared<BoundExpr>(*expr);
  copy->children = std::move(children);
  return copy;
}

}  // namespace

EvalExec::EvalExec(OperatorPtr input, std::vector<std::pair<std::string, BoundExprPtr>> columns)
    : input_(std::move(input)), columns_(std::move(columns)), schema_(input_->schema()) {
  stats_.name = "EvalExec";
  // Blocks an EvalExec directly below appended keep their positions in our
  // input (each appends after its input's columns), as do the ones we append.
  std::vector<Computed> computed;
  for (const Operator* below = input_.get(); const auto* eval = dynamic_cast<const EvalExec*>(below);
       below = eval->input_.get()) {
    const size_t first = eval->schema().size() - eval->columns_.size();
    for (size_t k = 0; k < eval->columns_.size(); ++k) {
      computed.push_back(Computed{eval->columns_[k].second.get(), static_cast<int>(first + k)});
    }
  }
  for (const auto& [name, expr] : columns_) {
    evaluated_.push_back(reuseComputed(expr, computed));
    computed.push_back(Computed{expr.get(), static_cast<int>(schema_.size())});
    schema_.push_back(Field{name, expr->type});
  }
}

std::optional<Page> EvalExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> page = input_->next();
  std::optional<Page> result;
  if (page) {
    const size_t n = page->positionCount();
    // The expressions see the input's columns; a reused subtree reads an appended block.
    for (const BoundExprPtr& expr : evaluated_) {
      Block block = evaluate(*expr, *page, stats_.warnings);
      page->blocks().push_back(std::move(block));
    }
    result = std::move(page);
    ++stats_.pagesOut;
    stats_.rowsOut += n;
  }
  stats_.nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

void EvalExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
