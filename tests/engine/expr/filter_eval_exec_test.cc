#include <gtest/gtest.h>

#include "expr_test_support.h"
#include "quarry/engine/exec/eval_exec.h"
#include "quarry/engine/exec/filter_exec.h"

namespace quarry::engine {
namespace {

using testing::bindText;
using testing::column;
using testing::renderAll;
using V = std::vector<std::string>;

/// Returns the pages it was given, in order.
class PagesOperator final : public Operator {
 public:
  PagesOperator(Schema schema, std::vector<Page> pages)
      : schema_(std::move(schema)), pages_(std::move(pages)) {}
  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override {
    if (next_ == pages_.size()) return std::nullopt;
    return pages_[next_++];
  }
  void collectStats(std::vector<OperatorStats>& out) const override {
    out.push_back({"Pages", 0, 0, 0});
  }

 private:
  Schema schema_;
  std::vector<Page> pages_;
  size_t next_ = 0;
};

Schema schema() {
  return {{"x", DataType::int64()}, {"name", DataType::string()}};
}

Page page(std::vector<Scalar> xs, std::vector<Scalar> names) {
  const size_t n = xs.size();
  return Page({column(DataType::int64(), xs), column(DataType::string(), names)}, n);
}

OperatorPtr input() {
  std::vector<Page> pages;
  pages.push_back(page({int64_t{1}, int64_t{5}, std::monostate{}},
                       {std::string("a"), std::string("b"), std::string("c")}));
  pages.push_back(page({int64_t{0}, int64_t{-1}},
                       {std::string("d"), std::monostate{}}));  // nothing passes x > 2
  pages.push_back(
      page({int64_t{10}, int64_t{20}}, {std::string("e"), std::string("f")}));  // everything passes
  return std::make_unique<PagesOperator>(schema(), std::move(pages));
}

TEST(FilterExecTest, KeepsTrueRowsAndSkipsEmptyPages) {
  FilterExec filter(input(), bindText("x > 2", schema()));
  EXPECT_EQ(filter.schema(), schema());
  std::vector<std::vector<std::string>> xs;
  while (std::optional<Page> p = filter.next()) {
    ASSERT_GT(p->positionCount(), 0u);  // "never return a page of 0 positions"
    xs.push_back(renderAll(p->block(0)));
    EXPECT_EQ(p->block(1).size(), p->positionCount());
  }
  EXPECT_EQ(xs,
            (std::vector<V>{{"5"}, {"10", "20"}}));  // the null x is dropped: WHERE keeps true rows
  EXPECT_FALSE(filter.next());
  std::vector<OperatorStats> stats;
  filter.collectStats(stats);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].name, "FilterExec");
  EXPECT_EQ(stats[0].rowsOut, 3u);
  EXPECT_EQ(stats[0].pagesOut, 2u);
  EXPECT_GT(stats[0].nanos, 0);
  EXPECT_EQ(stats[1].name, "Pages");
}

TEST(FilterExecTest, NullPredicateKeepsNothing) {
  FilterExec filter(input(), bindText("NULL", schema()));
  EXPECT_FALSE(filter.next());
  FilterExec unknown(input(), bindText("x > 2 AND NULL", schema()));
  EXPECT_FALSE(unknown.next());
}

// WHERE keeps the rows where RLIKE is true: a null name (RLIKE null) is dropped,
// under NOT RLIKE too.
TEST(FilterExecTest, RlikeOnANullValueKeepsNothing) {
  const auto names = [](const char* condition) {
    FilterExec filter(input(), bindText(condition, schema()));
    V out;
    while (std::optional<Page> p = filter.next()) {
      for (const std::string& name : renderAll(p->block(1))) out.push_back(name);
    }
    return out;
  };
  EXPECT_EQ(names("name RLIKE \"[a-d]\""), (V{"a", "b", "c", "d"}));
  EXPECT_EQ(names("name NOT RLIKE \"[a-d]\""), (V{"e", "f"}));
}

TEST(FilterExecTest, RejectsANonBooleanPredicate) {
  EXPECT_THROW(FilterExec(input(), bindText("x + 1", schema())), std::invalid_argument);
}

TEST(EvalExecTest, AppendsNamedColumnsAfterTheInputs) {
  std::vector<std::pair<std::string, BoundExprPtr>> columns;
  columns.emplace_back("y", bindText("x * 2", schema()));
  columns.emplace_back("loud", bindText("to_upper(name)", schema()));
  EvalExec eval(input(), std::move(columns));
  const Schema expected = {{"x", DataType::int64()},
                           {"name", DataType::string()},
                           {"y", DataType::int64()},
                           {"loud", DataType::string()}};
  EXPECT_EQ(eval.schema(), expected);
  std::optional<Page> p = eval.next();
  ASSERT_TRUE(p);
  ASSERT_EQ(p->blockCount(), 4u);
  EXPECT_EQ(renderAll(p->block(0)), (V{"1", "5", "NULL"}));
  EXPECT_EQ(renderAll(p->block(2)), (V{"2", "10", "NULL"}));
  EXPECT_EQ(renderAll(p->block(3)), (V{"A", "B", "C"}));
  size_t rows = p->positionCount();
  while ((p = eval.next())) rows += p->positionCount();
  EXPECT_EQ(rows, 7u);
  std::vector<OperatorStats> stats;
  eval.collectStats(stats);
  EXPECT_EQ(stats[0].name, "EvalExec");
  EXPECT_EQ(stats[0].rowsOut, 7u);
  EXPECT_EQ(stats[0].pagesOut, 3u);
}

TEST(EvalExecTest, LaterExpressionReadsAnEarlierOneItContains) {
  // charge = price * (1 - discount) * (1 + tax) after disc_price = price * (1 - discount):
  // the subtree is read from disc_price's block, inside CASE (a subset of rows) too.
  std::vector<std::pair<std::string, BoundExprPtr>> columns;
  columns.emplace_back("y", bindText("x * 2", schema()));
  columns.emplace_back("z", bindText("x * 2 + 1", schema()));
  columns.emplace_back("w", bindText("CASE WHEN x > 2 THEN x * 2 ELSE 0 END", schema()));
  columns.emplace_back("v", bindText("x * 2 + 1 > 3", schema()));
  EvalExec eval(input(), std::move(columns));
  // The operator still reports the expressions as written.
  EXPECT_EQ(eval.columns()[1].second->toString(), "((x * 2) + 1)");
  std::vector<std::vector<V>> pages;
  while (std::optional<Page> p = eval.next()) {
    ASSERT_EQ(p->blockCount(), 6u);
    std::vector<V> blocks;
    for (size_t b = 2; b < 6; ++b) {
      EXPECT_EQ(p->block(b).size(), p->positionCount());
      blocks.push_back(renderAll(p->block(b)));
    }
    pages.push_back(blocks);
  }
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[0], (std::vector<V>{{"2", "10", "NULL"},
                                      {"3", "11", "NULL"},
                                      {"0", "10", "0"},
                                      {"false", "true", "NULL"}}));
  EXPECT_EQ(pages[1], (std::vector<V>{{"0", "-2"}, {"1", "-1"}, {"0", "0"}, {"false", "false"}}));
  EXPECT_EQ(pages[2],
            (std::vector<V>{{"20", "40"}, {"21", "41"}, {"20", "40"}, {"true", "true"}}));
}

TEST(EvalExecTest, ExpressionsThatDifferOnlyInTheirTimeSpanAreComputedApart) {
  // `1 day` and `1 hour` bind to the same literal count 1: the span tells them apart.
  std::vector<std::pair<std::string, BoundExprPtr>> columns;
  columns.emplace_back("a", bindText("to_datetime(x) + 1 day", schema()));
  columns.emplace_back("b", bindText("to_datetime(x) + 1 hour", schema()));
  columns.emplace_back("c", bindText("date_trunc(1 week, to_datetime(x))", schema()));
  columns.emplace_back("d", bindText("date_trunc(1 year, to_datetime(x))", schema()));
  EvalExec eval(input(), std::move(columns));
  std::optional<Page> p = eval.next();
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(renderAll(p->block(2)), (V{"TIMESTAMP '1970-01-02 00:00:00.001'",
                                       "TIMESTAMP '1970-01-02 00:00:00.005'", "NULL"}));
  EXPECT_EQ(renderAll(p->block(3)), (V{"TIMESTAMP '1970-01-01 01:00:00.001'",
                                       "TIMESTAMP '1970-01-01 01:00:00.005'", "NULL"}));
  EXPECT_EQ(renderAll(p->block(4)), (V{"TIMESTAMP '1969-12-29 00:00:00'",
                                       "TIMESTAMP '1969-12-29 00:00:00'", "NULL"}));
  EXPECT_EQ(renderAll(p->block(5)), (V{"TIMESTAMP '1970-01-01 00:00:00'",
                                       "TIMESTAMP '1970-01-01 00:00:00'", "NULL"}));
}

TEST(EvalExecTest, ExpressionReadsOneComputedByTheEvalExecBelow) {
  // One EvalExec per EVAL assignment: `EVAL y = x * 2 | EVAL z = x * 2 + 1`.
  std::vector<std::pair<std::string, BoundExprPtr>> first;
  first.emplace_back("y", bindText("x * 2", schema()));
  auto below = std::make_unique<EvalExec>(input(), std::move(first));
  const Schema middle = below->schema();
  std::vector<std::pair<std::string, BoundExprPtr>> second;
  second.emplace_back("z", bindText("x * 2 + 1", middle));
  second.emplace_back("twice", bindText("y * 2", middle));
  EvalExec eval(std::move(below), std::move(second));
  std::vector<V> zs;
  std::vector<V> twices;
  while (std::optional<Page> p = eval.next()) {
    ASSERT_EQ(p->blockCount(), 5u);
    zs.push_back(renderAll(p->block(3)));
    twices.push_back(renderAll(p->block(4)));
  }
  EXPECT_EQ(zs, (std::vector<V>{{"3", "11", "NULL"}, {"1", "-1"}, {"21", "41"}}));
  EXPECT_EQ(twices, (std::vector<V>{{"4", "20", "NULL"}, {"0", "-4"}, {"40", "80"}}));
}

}  // namespace
}  // namespace quarry::engine
