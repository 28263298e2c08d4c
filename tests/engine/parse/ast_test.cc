#include "quarry/engine/parse/ast.h"

#include <gtest/gtest.h>

namespace quarry::engine {
namespace {

Expr column(std::string name, SourcePosition position = {}) {
  return Expr{ColumnRef{Identifier{{std::move(name)}, position}}, position};
}

TEST(QueryAst, BoxCopiesItsValueDeeply) {
  Box<Expr> original(column("a"));
  Box<Expr> copy = original;
  std::get<ColumnRef>(copy->node).name.parts[0] = "b";
  EXPECT_EQ(original->as<ColumnRef>().name.parts[0], "a");
  EXPECT_FALSE(copy == original);
  copy = original;
  EXPECT_TRUE(copy == original);
}

TEST(QueryAst, EqualityComparesMeaningNotPositions) {
  const Expr here =
      Expr{BinaryExpr{BinaryOp::kAdd, column("a", {1, 1}), column("b", {1, 5})}, {1, 3}};
  const Expr there =
      Expr{BinaryExpr{BinaryOp::kAdd, column("a", {7, 2}), column("b", {8, 1})}, {7, 9}};
  EXPECT_EQ(here, there);
  const Expr other = Expr{BinaryExpr{BinaryOp::kSubtract, column("a"), column("b")}, {}};
  EXPECT_NE(here, other);
}

TEST(QueryAst, IdentifierJoinsPartsWithDots) {
  EXPECT_EQ((Identifier{{"_file", "path"}, {}}).dotted(), "_file.path");
  EXPECT_EQ((Identifier{{"a b"}, {}}).dotted(), "a b");
}

}  // namespace
}  // namespace quarry::engine
