// The executor (exec/executor.h): how a plan's exchange runs its fragment.

#include <gtest/gtest.h>

#include <string>

#include "quarry/engine/query_engine.h"
#include "tests/support/build_paths.h"

namespace quarry::engine {
namespace {

/// late_a.parquet and late_b.parquet: two files, two splits; k is i % 5, null where i % 11 = 0.
std::string lateFiles() {
  return "FROM \"" + std::string(QUARRY_SOURCE_DIR) +
         "/tests/fixtures/engine_source/late_*.parquet\"";
}

const OperatorStats& statsOf(const QueryProfile& profile, const std::string& name) {
  for (const OperatorStats& stats : profile.operators) {
    if (stats.name == name) return stats;
  }
  throw std::logic_error("no operator " + name);
}

// exchange_exec.h: "an INITIAL aggregation then keeps one table per driver instead of one per
// split". One driver reads both splits: it sends each of the 6 groups up once, not once per split
// (12), and the answer is the same.
TEST(Executor, AnInitialAggregationRunsOncePerDriverOverItsSplits) {
  QueryOptions options;
  options.threads = 1;
  const PreparedQuery query =
      prepareQuery(lateFiles() + " | STATS c = COUNT(*) BY k | SORT k", options);
  std::vector<int64_t> counts;
  const QueryProfile profile = executeQuery(query, [&](const Page& page) {
    for (size_t r = 0; r < page.positionCount(); ++r)
      counts.push_back(page.block(0).values<int64_t>()[r]);
  });
  EXPECT_EQ(profile.splits, 2u);
  EXPECT_EQ(statsOf(profile, "AggregateExec[INITIAL]").rowsOut, 6u);
  EXPECT_EQ(statsOf(profile, "ExchangeExec").rowsOut, 6u);
  ASSERT_EQ(counts.size(), 6u);
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  EXPECT_EQ(total, 9000);
}

// executor.cc: not with COUNT_DISTINCT, whose per-driver sets would hold every value of the
// driver's splits and reach the merge only at the end (ClickBench's COUNT_DISTINCT(UserID)
// took 1.7x as long). Each split's INITIAL sends its 6 groups up: 12 rows.
TEST(Executor, AnInitialCountDistinctRunsOncePerSplit) {
  QueryOptions options;
  options.threads = 1;
  const PreparedQuery query =
      prepareQuery(lateFiles() + " | STATS d = COUNT_DISTINCT(id) BY k | SORT k", options);
  int64_t total = 0;
  size_t groups = 0;
  const QueryProfile profile = executeQuery(query, [&](const Page& page) {
    for (size_t r = 0; r < page.positionCount(); ++r, ++groups)
      total += page.block(0).values<int64_t>()[r];
  });
  EXPECT_EQ(profile.splits, 2u);
  EXPECT_EQ(statsOf(profile, "ExchangeExec").rowsOut, 12u);
  EXPECT_EQ(groups, 6u);
  EXPECT_EQ(total, 9000);  // every id distinct
}

}  // namespace
}  // namespace quarry::engine
