#include <gtest/gtest.h>

#include "page_builder.h"
#include "quarry/common/error.h"
#include "quarry/engine/exec/limit_exec.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/exec/project_exec.h"

namespace quarry::engine {
namespace {

using testing::drain;
using testing::i64;
using testing::pageOfRows;
using testing::Row;
using testing::sourceOf;
using testing::str;

const Schema kSchema{{"n", DataType::int64()}};

/// A source of pages of 10 rows numbered from 0 that never ends, counting the pages it made.
OperatorPtr endlessSource(std::shared_ptr<int> pulled) {
  return std::make_unique<LocalSourceExec>(
      kSchema,
      [pulled]() -> std::optional<Page> {
        std::vector<Row> rows;
        for (int64_t i = 0; i < 10; ++i) rows.push_back({i64(*pulled * 10 + i)});
        ++*pulled;
        return pageOfRows(kSchema, rows);
      },
      "endless");
}

TEST(LimitExec, StopsPullingItsInputOnceSatisfied) {
  auto pulled = std::make_shared<int>(0);
  LimitExec limit(endlessSource(pulled), 25);
  const std::vector<Row> rows = drain(limit);
  ASSERT_EQ(rows.size(), 25u);
  EXPECT_EQ(rows.back(), (Row{i64(24)}));
  EXPECT_EQ(*pulled, 3);
  EXPECT_FALSE(limit.next().has_value());
  EXPECT_EQ(*pulled, 3);
  std::vector<OperatorStats> stats;
  limit.collectStats(stats);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].name, "LimitExec");
  EXPECT_EQ(stats[0].rowsOut, 25u);
  EXPECT_EQ(stats[0].pagesOut, 3u);
  EXPECT_EQ(stats[1].rowsOut, 30u);
}

TEST(LimitExec, LimitZeroNeverPullsAndExactLimitNeedsNoMore) {
  auto pulled = std::make_shared<int>(0);
  LimitExec zero(endlessSource(pulled), 0);
  EXPECT_TRUE(drain(zero).empty());
  EXPECT_EQ(*pulled, 0);
  LimitExec exact(endlessSource(pulled), 20);
  EXPECT_EQ(drain(exact).size(), 20u);
  EXPECT_EQ(*pulled, 2);
  EXPECT_THROW(LimitExec(endlessSource(pulled), -1), InvalidArgument);
}

TEST(ProjectExec, ReordersRenamesAndRepeatsColumns) {
  const Schema schema{
      {"a", DataType::int64()}, {"b", DataType::string()}, {"c", DataType::int64()}};
  ProjectExec project(
      sourceOf(schema,
               {pageOfRows(schema, {{i64(1), str("x"), i64(3)}, {i64(4), str("y"), i64(6)}})}),
      {2, 1, 2}, {"c", "renamed", "again"});
  EXPECT_EQ(project.schema(), (Schema{{"c", DataType::int64()},
                                      {"renamed", DataType::string()},
                                      {"again", DataType::int64()}}));
  EXPECT_EQ(drain(project),
            (std::vector<Row>{{i64(3), str("x"), i64(3)}, {i64(6), str("y"), i64(6)}}));
  std::vector<OperatorStats> stats;
  project.collectStats(stats);
  EXPECT_EQ(stats[0].name, "ProjectExec");
  EXPECT_EQ(stats[0].rowsOut, 2u);
  EXPECT_THROW(ProjectExec(sourceOf(schema, {}), {3}, {"x"}), InvalidArgument);
  EXPECT_THROW(ProjectExec(sourceOf(schema, {}), {0}, {}), InvalidArgument);
}

TEST(LocalSourceExec, SkipsEmptyPagesAndCountsWhatItReturns) {
  std::vector<Page> pages{pageOfRows(kSchema, {}), pageOfRows(kSchema, {{i64(1)}, {i64(2)}}),
                          pageOfRows(kSchema, {}), pageOfRows(kSchema, {{i64(3)}})};
  OperatorPtr source = sourceOf(kSchema, std::move(pages));
  EXPECT_EQ(drain(*source), (std::vector<Row>{{i64(1)}, {i64(2)}, {i64(3)}}));
  EXPECT_FALSE(source->next().has_value());
  std::vector<OperatorStats> stats;
  source->collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].name, "LocalSourceExec");
  EXPECT_EQ(stats[0].pagesOut, 2u);
  EXPECT_EQ(stats[0].rowsOut, 3u);
  EXPECT_EQ(static_cast<LocalSourceExec&>(*source).description(), "test pages");
}

}  // namespace
}  // namespace quarry::engine
