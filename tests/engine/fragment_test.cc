// planFragment: the data node's part of a plan, planned again from the query
// text over the splits a coordinator assigned (aggregate-pushdown-plan.txt,
// "Each data node decides independently").

#include "quarry/engine/fragment.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "quarry/common/error.h"
#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/temporal_functions.h"
#include "tests/engine/fragment_test_support.h"

namespace quarry::engine {
namespace {

using testing::coordinatorSplits;
using testing::exchangeOf;
using testing::inProcessRows;
using testing::rowsOverExchangePages;
using testing::ScratchDir;

class FragmentTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::copyFixture(dir_.path(), 3); }

  std::string from() const { return "FROM \"" + dir_.str() + "/*.parquet\""; }

  PreparedQuery prepare(const std::string& text) {
    QueryOptions options;
    options.threads = 2;
    return prepareQuery(text, options);
  }

  FragmentSpec spec(const PreparedQuery& prepared, const std::string& text,
                    std::vector<FileSplit> splits) {
    return FragmentSpec{text, prepared.source.schema, std::move(splits), 2, prepared.nowMillis, {},
                        {}};
  }

  /// Runs `fragment` as a data node does: once per split, or once for all.
  static std::vector<Page> run(const Fragment& fragment) {
    std::vector<Page> pages;
    auto drain = [&](OperatorPtr root) {
      while (std::optional<Page> page = root->next()) pages.push_back(std::move(*page));
    };
    if (fragment.perSplit) {
      for (const SplitTask& split : fragment.splits) drain(buildOperators(*fragment.plan, &split));
    } else {
      drain(buildOperators(*fragment.plan));
    }
    return pages;
  }

  ScratchDir dir_{"quarry-fragment-test"};
};

TEST_F(FragmentTest, StatsFragmentIsInitialAggregateOverOnlyTheNodesSplits) {
  const std::string text = from() + " | STATS n = COUNT(*), total = SUM(id) BY v";
  const PreparedQuery prepared = prepare(text);
  const std::vector<FileSplit> all = coordinatorSplits(prepared);
  ASSERT_EQ(all.size(), 3u);
  const std::vector<FileSplit> mine = {all[2], all[0]};

  const Fragment fragment = planFragment(spec(prepared, text, mine));
  ASSERT_EQ(fragment.plan->kind, PlanKind::kAggregate);
  EXPECT_EQ(fragment.plan->mode, AggregatorMode::kInitial);
  const PlanNode& source = *fragment.plan->input();
  ASSERT_EQ(source.kind, PlanKind::kExternalSource);
  ASSERT_EQ(source.splits.size(), 2u);
  EXPECT_EQ(source.splits[0].split, all[2]);
  EXPECT_EQ(source.splits[1].split, all[0]);
  EXPECT_TRUE(fragment.perSplit);
  ASSERT_EQ(fragment.splits.size(), 2u);
  EXPECT_EQ(fragment.splits[0].split, all[2]);
  EXPECT_EQ(fragment.splits[0].reader->name(), "parquet");
  // The pages it makes are what the coordinator's exchange expects.
  EXPECT_EQ(fragment.plan->schema, exchangeOf(*prepared.plan)->input()->schema);
}

TEST_F(FragmentTest, UngroupedCountOverSplitsWithStatisticsIsALocalSource) {
  // "When every split carries statistics the rule computes the page itself (Phase 2)."
  const std::string text = from() + " | STATS n = COUNT(*), lo = MIN(id)";
  const PreparedQuery prepared = prepare(text);
  std::vector<FileSplit> splits = coordinatorSplits(prepared);
  for (const FileSplit& split : splits) ASSERT_NE(split.statistics, nullptr);
  const Fragment fragment = planFragment(spec(prepared, text, {splits[1]}));
  EXPECT_EQ(fragment.plan->kind, PlanKind::kLocalSource);
  EXPECT_FALSE(fragment.perSplit);
  bool fired = false;
  for (const RuleOutcome& rule : fragment.rules)
    fired |= rule.rule == "PushAggregatesToExternalSource" && rule.changed;
  EXPECT_TRUE(fired);
}

TEST_F(FragmentTest, FragmentsPerSplitMergedByFinalEqualTheInProcessResult) {
  const std::string text =
      from() + " | WHERE id % 3 != 0 | STATS n = COUNT(*), total = SUM(id), hi = MAX(s) BY v";
  const PreparedQuery prepared = prepare(text);
  const std::vector<FileSplit> all = coordinatorSplits(prepared);
  // Two "nodes": one gets split 0, the other splits 1 and 2.
  std::vector<Page> pages = run(planFragment(spec(prepared, text, {all[0]})));
  for (Page& page : run(planFragment(spec(prepared, text, {all[1], all[2]}))))
    pages.push_back(std::move(page));
  const std::vector<std::string> expected = inProcessRows(prepared);
  ASSERT_EQ(expected.size(), 101u);  // v in 0..99 and null
  EXPECT_EQ(rowsOverExchangePages(prepared, std::move(pages)), expected);
}

TEST_F(FragmentTest, MixedPushdownAcrossNodesMergesExactly) {
  // One node answers from statistics, the other (splits without statistics)
  // reads footers or scans: the FINAL merge is exact either way.
  const std::string text =
      from() + " | STATS n = COUNT(*), c = COUNT(v), lo = MIN(v), hi = MAX(id)";
  const PreparedQuery prepared = prepare(text);
  std::vector<FileSplit> all = coordinatorSplits(prepared);
  FileSplit bare = all[2];
  bare.statistics.reset();
  const Fragment answered = planFragment(spec(prepared, text, {all[0], all[1]}));
  const Fragment other = planFragment(spec(prepared, text, {bare}));
  EXPECT_EQ(answered.plan->kind, PlanKind::kLocalSource);
  std::vector<Page> pages = run(answered);
  for (Page& page : run(other)) pages.push_back(std::move(page));
  // (A prepared plan answered from statistics runs once: the in-process result
  // is taken from a second preparation.)
  EXPECT_EQ(inProcessRows(prepare(text)), std::vector<std::string>{"30000|25713|0|9999"});
  EXPECT_EQ(rowsOverExchangePages(prepared, std::move(pages)),
            std::vector<std::string>{"30000|25713|0|9999"});
}

TEST_F(FragmentTest, PartitionGroupsFromStatisticsMergeExactlyAtTheCoordinator) {
  // Issue 29: grouped answers from statistics are "INITIAL layout per group so
  // the cluster's FINAL merges them": one node answers its files' groups from
  // statistics, the other (a split without statistics) reads footers and scans.
  ScratchDir dir("quarry-grouped-fragment-test");
  const std::filesystem::path source = std::filesystem::path(QUARRY_SOURCE_DIR) /
                                       "tests/fixtures/engine_source/multi_row_groups.parquet";
  for (const char* file : {"g=1/part0.parquet", "g=2/part1.parquet", "g=1/part2.parquet"}) {
    std::filesystem::create_directories((dir.path() / file).parent_path());
    std::filesystem::copy_file(source, dir.path() / file);
  }
  const std::string from = "FROM \"" + dir.str() + "/*/*.parquet\"";
  const std::string stats = " | STATS n = COUNT(*), lo = MIN(v), hi = MAX(s) BY g";
  const std::string text = from + stats;
  const PreparedQuery prepared = prepare(text);
  std::vector<FileSplit> all = coordinatorSplits(prepared);
  ASSERT_EQ(all.size(), 3u);
  FileSplit bare = all[2];
  bare.statistics.reset();
  const Fragment answered = planFragment(spec(prepared, text, {all[0], all[1]}));
  const Fragment other = planFragment(spec(prepared, text, {bare}));
  ASSERT_EQ(answered.plan->kind, PlanKind::kLocalSource);
  EXPECT_NE(answered.plan->description.find("by partition [g]"), std::string::npos)
      << answered.plan->description;
  EXPECT_EQ(answered.plan->schema, exchangeOf(*prepared.plan)->input()->schema);
  std::vector<Page> pages = run(answered);
  for (Page& page : run(other)) pages.push_back(std::move(page));
  // The same query forced to scan (EVAL between the source and STATS).
  const std::vector<std::string> expected = inProcessRows(prepare(from + " | EVAL k = 1" + stats));
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(inProcessRows(prepare(text)), expected);
  EXPECT_EQ(rowsOverExchangePages(prepared, std::move(pages)), expected);
}

TEST_F(FragmentTest, PrunedColumnsMatchTheCoordinatorsExchange) {
  // The coordinator optimizes the whole plan; the fragment's columns must be
  // the ones its exchange expects, not every column of the source.
  const std::string text = from() + " | LIMIT 7 | KEEP s";
  const PreparedQuery prepared = prepare(text);
  const Fragment fragment = planFragment(spec(prepared, text, coordinatorSplits(prepared)));
  EXPECT_EQ(fragment.plan->schema, exchangeOf(*prepared.plan)->input()->schema);
  ASSERT_EQ(fragment.plan->schema.size(), 1u);
  EXPECT_EQ(fragment.plan->schema[0].name, "s");
  EXPECT_EQ(rowsOverExchangePages(prepared, run(fragment)).size(), 7u);
}

// NOW() is "the current date and time" of the query: one instant for every row,
// split and node. The coordinator takes it once (PreparedQuery::nowMillis) and
// sends it with the fragment, whose planning binds NOW() to it.
TEST_F(FragmentTest, NowIsTheCoordinatorsInstantOnEveryNodeAndRow) {
  const std::string text =
      from() + " | EVAL t = to_long(now()) | STATS lo = MIN(t), hi = MAX(t), n = COUNT(*)";
  QueryOptions options;
  options.nowMillis = 1'717'243'200'123;
  const PreparedQuery prepared = prepareQuery(text, options);
  EXPECT_EQ(prepared.nowMillis, 1'717'243'200'123);
  const std::vector<std::string> expected = {"1717243200123|1717243200123|30000"};
  EXPECT_EQ(inProcessRows(prepared), expected);

  const std::vector<FileSplit> all = coordinatorSplits(prepared);
  std::vector<Page> pages;
  for (const FileSplit& split : all) {
    for (Page& page : run(planFragment(spec(prepared, text, {split}))))
      pages.push_back(std::move(page));
  }
  EXPECT_EQ(rowsOverExchangePages(prepared, std::move(pages)), expected);

  // A node binds NOW() to the instant it is sent, not to its own clock.
  FragmentSpec other = spec(prepared, text, all);
  other.nowMillis = 5;
  EXPECT_EQ(rowsOverExchangePages(prepared, run(planFragment(other))),
            (std::vector<std::string>{"5|5|30000"}));
}

TEST_F(FragmentTest, NowWithoutAPinnedInstantIsTheWallClockWhenTheQueryStarts) {
  const int64_t before = QueryClock::wallClockMillis();
  const PreparedQuery prepared =
      prepare(from() + " | EVAL t = to_long(now()) | STATS lo = MIN(t), hi = MAX(t)");
  const std::vector<std::string> rows = inProcessRows(prepared);
  const int64_t after = QueryClock::wallClockMillis();
  ASSERT_EQ(rows.size(), 1u);
  const size_t bar = rows[0].find('|');
  const int64_t lo = std::stoll(rows[0].substr(0, bar));
  const int64_t hi = std::stoll(rows[0].substr(bar + 1));
  EXPECT_EQ(lo, hi);
  EXPECT_EQ(lo, prepared.nowMillis);
  EXPECT_LE(before, lo);
  EXPECT_LE(lo, after);
}

TEST_F(FragmentTest, RefusesABadQueryAndAnUnknownFormat) {
  const std::string text = from() + " | STATS n = COUNT(*)";
  const PreparedQuery prepared = prepare(text);
  std::vector<FileSplit> splits = coordinatorSplits(prepared);
  EXPECT_THROW(planFragment(spec(prepared, from() + " | WHERE nope > 1", splits)), QueryError);
  splits[0].format = "csv";
  try {
    planFragment(spec(prepared, text, splits));
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("csv"), std::string::npos) << e.what();
  }
}

// A LOOKUP JOIN runs above the exchange, on the coordinator: the node plans with
// the file's schema alone (FragmentSpec::lookupSchemas, the file never opened), and
// its fragment makes the columns the coordinator's exchange expects.
TEST_F(FragmentTest, ALookupJoinsFragmentIsPlannedWithTheFilesSchemaAlone) {
  const std::string zones = std::string(QUARRY_SOURCE_DIR) + "/data/sample/zones.parquet";
  const std::string text = from() + " | RENAME s AS zone | LOOKUP JOIN \"" + zones +
                           "\" ON zone | STATS n = COUNT(*) BY borough";
  const PreparedQuery prepared = prepare(text);
  ASSERT_EQ(prepared.lookups.size(), 1u);
  FragmentSpec withSchemas = spec(prepared, text, coordinatorSplits(prepared));
  withSchemas.lookupSchemas[zones] = prepared.lookups.at(zones)->schema;
  const Fragment fragment = planFragment(withSchemas);
  EXPECT_EQ(fragment.plan->schema, exchangeOf(*prepared.plan)->input()->schema);
  EXPECT_EQ(explain(*fragment.plan).find("LookupJoinExec"), std::string::npos)
      << explain(*fragment.plan);
  EXPECT_THROW(planFragment(spec(prepared, text, coordinatorSplits(prepared))), InvalidArgument);
}

}  // namespace
}  // namespace quarry::engine
