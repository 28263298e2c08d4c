// PushAggregatesToExternalSource unit by unit over real Parquet files (written
// here with the test writer): issue 9, "Beyond the plan": "mixed mode per row
// group — answer the row groups whose statistics are exact, scan only the
// others, merge both" and "WHERE-filtered COUNT/MIN/MAX answered from
// statistics where each row group ... is proven all-match or none-match,
// scanning only the undecided ones". Each result equals the same query forced
// to scan (a constant BY disables the rule).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "quarry/cli/block_text.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/optimizer/local_optimizer.h"
#include "quarry/engine/query_engine.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"
#include "tests/formats/parquet/pruning_fixture.h"
#include "tests/support/fixture_file.h"
#include "tests/support/temp_dir.h"

namespace quarry::engine {
namespace {

using namespace quarry::parquet::testing;
using parquet::PhysicalType;
using quarry::testing::TempDir;

/// Three row groups of an optional INT64 column k holding 1..100, 101..200 and
/// 201..300; the middle one records statistics only when `middleStatistics`.
std::string writeFile(const std::filesystem::path& path, bool middleStatistics) {
  ParquetFixtureWriter w;
  w.column(leafElement("k", PhysicalType::INT64));
  for (int64_t g = 0; g < 3; ++g) {
    std::vector<Raw> values;
    for (int64_t v = g * 100 + 1; v <= g * 100 + 100; ++v) values.push_back(le<int64_t>(v));
    std::optional<parquet::Statistics> stats;
    if (g != 1 || middleStatistics)
      stats = boundsOf(le<int64_t>(g * 100 + 1), le<int64_t>(g * 100 + 100), 0);
    w.rowGroup({FixtureChunk{std::move(values), stats, std::nullopt}});
  }
  const std::vector<uint8_t> bytes = w.bytes();
  quarry::testing::writeFileBytes(path, bytes);
  return path.string();
}

struct Outcome {
  std::vector<std::string> rows;
  QueryProfile profile;
  std::string explain;
};

Outcome runQuery(const std::string& text, int threads = 2) {
  QueryOptions options;
  options.threads = threads;
  PreparedQuery query = prepareQuery(text, options);
  Outcome out;
  out.explain = explainQuery(query);
  out.profile = executeQuery(query, [&](const Page& page) {
    for (size_t r = 0; r < page.positionCount(); ++r) {
      std::string row;
      for (size_t c = 0; c < page.blockCount(); ++c) {
        if (c > 0) row += '|';
        cli::appendBlockText(page.block(c), r, row);
      }
      out.rows.push_back(row);
    }
  });
  return out;
}

TEST(MixedStatistics, ARowGroupWithoutStatisticsIsScannedAndTheOthersAnswered) {
  TempDir dir("quarry_mixed");
  const std::string file = writeFile(dir.path() / "mixed.parquet", false);
  const std::string stats = " | STATS n = COUNT(*), c = COUNT(k), lo = MIN(k), hi = MAX(k)";
  const Outcome pushed = runQuery("FROM \"" + file + "\"" + stats);
  EXPECT_NE(
      pushed.explain.find(
          "LocalSourceExec[FileStatsSupplier per row group over 1 splits, else a scan, mixed]"),
      std::string::npos)
      << pushed.explain;
  EXPECT_EQ(pushed.rows, (std::vector<std::string>{"300|300|1|300"}));
  EXPECT_EQ(pushed.profile.rowGroupsAnsweredFromStatistics, 2u);
  EXPECT_EQ(pushed.profile.rowsDecoded, 100u);  // only the middle row group's rows
  EXPECT_EQ(pushed.profile.rowGroupsTotal, 3u);

  const Outcome scanned = runQuery("FROM \"" + file + "\"" + stats + " BY one = 1 | DROP one");
  EXPECT_EQ(scanned.rows, pushed.rows);
  EXPECT_EQ(scanned.profile.rowGroupsAnsweredFromStatistics, 0u);
  EXPECT_EQ(scanned.profile.rowsDecoded, 300u);
}

TEST(MixedStatistics, AFilterSkipsNoneMatchAnswersAllMatchAndScansTheUndecided) {
  TempDir dir("quarry_mixed");
  const std::string file = writeFile(dir.path() / "filtered.parquet", true);
  // k > 150: row group 0 (1..100) matches no row, 1 (101..200) some, 2 (201..300) every row.
  const std::string query =
      " | WHERE k > 150 | STATS n = COUNT(*), c = COUNT(k), lo = MIN(k), hi = MAX(k)";
  const Outcome pushed = runQuery("FROM \"" + file + "\"" + query);
  EXPECT_NE(pushed.explain.find("FileStatsSupplier per row group and page over 1 splits, else a "
                                "scan, mixed, filter=gt(k, 150)"),
            std::string::npos)
      << pushed.explain;
  EXPECT_EQ(pushed.rows, (std::vector<std::string>{"150|150|151|300"}));
  EXPECT_EQ(pushed.profile.rowGroupsAnsweredFromStatistics, 1u);
  EXPECT_EQ(pushed.profile.rowGroupsPrunedByStatistics, 1u);
  EXPECT_EQ(pushed.profile.rowsDecoded, 100u);  // only row group 1

  const Outcome scanned = runQuery("FROM \"" + file + "\"" + query + " BY one = 1 | DROP one");
  EXPECT_EQ(scanned.rows, pushed.rows);
  EXPECT_EQ(scanned.profile.rowGroupsAnsweredFromStatistics, 0u);

  // Every row group decided: nothing is read.
  const Outcome decided =
      runQuery("FROM \"" + file + "\" | WHERE k > 100 | STATS n = COUNT(*), lo = MIN(k)");
  EXPECT_EQ(decided.rows, (std::vector<std::string>{"200|101"}));
  EXPECT_EQ(decided.profile.rowGroupsAnsweredFromStatistics, 2u);
  EXPECT_EQ(decided.profile.rowsDecoded, 0u);
  EXPECT_EQ(decided.profile.bytesRead, 0u);  // the footer is the one read at resolution
}

/// One row group of 300 rows with a page index: k = 1..300 in pages of 50
/// rows; v = 2k, null where k <= 40, in pages of 75 rows (boundaries unlike
/// k's). Both chunks record statistics.
std::string writePagedFile(const std::filesystem::path& path) {
  std::vector<Raw> k, v;
  for (int32_t row = 0; row < 300; ++row) {
    k.push_back(i32(row + 1));
    v.push_back(row + 1 <= 40 ? Raw{} : Raw{i32(2 * (row + 1))});
  }
  FixtureChunk kChunk = pagedInt32(k, {50, 50, 50, 50, 50, 50});
  kChunk.statistics = boundsOf(i32(1), i32(300), 0);
  FixtureChunk vChunk = pagedInt32(v, {75, 75, 75, 75});
  vChunk.statistics = boundsOf(i32(82), i32(600), 40);
  ParquetFixtureWriter w;
  w.column(leafElement("k", PhysicalType::INT32)).column(leafElement("v", PhysicalType::INT32));
  w.rowGroup({std::move(kChunk), std::move(vChunk)});
  const std::vector<uint8_t> bytes = w.bytes();
  quarry::testing::writeFileBytes(path, bytes);
  return path.string();
}

// Issue 9: "WHERE-filtered COUNT/MIN/MAX answered from statistics where each
// row group (or page, through the page index) is proven all-match or
// none-match, scanning only the undecided ones."
TEST(MixedStatistics, PagesAFilterDecidesAreAnsweredAndOnlyTheUndecidedRowsScanned) {
  TempDir dir("quarry_mixed");
  const std::string file = writePagedFile(dir.path() / "paged.parquet");
  // k > 120: k's pages [0, 50) and [50, 100) match no row, [100, 150) some,
  // [150, 300) every row; each later page of k is answered whole.
  const std::string query =
      " | WHERE k > 120 | STATS n = COUNT(*), c = COUNT(k), lo = MIN(k), hi = MAX(k)";
  const Outcome pushed = runQuery("FROM \"" + file + "\"" + query);
  EXPECT_EQ(pushed.rows, (std::vector<std::string>{"180|180|121|300"}));
  EXPECT_EQ(pushed.profile.pagesAnsweredFromStatistics, 3u);
  EXPECT_EQ(pushed.profile.rowsDecoded, 50u);  // rows [100, 150) only
  EXPECT_EQ(pushed.profile.rowGroupsTotal, 1u);
  // Past the footer: the page index once (the scan of [100, 150) is served the
  // bytes the decision read), then the pages of [100, 150).
  EXPECT_EQ(pushed.profile.requests - pushed.profile.footerRequests, 2u);
  const Outcome scanned = runQuery("FROM \"" + file + "\"" + query + " BY one = 1 | DROP one");
  EXPECT_EQ(scanned.rows, pushed.rows);
  EXPECT_EQ(scanned.profile.pagesAnsweredFromStatistics, 0u);
  EXPECT_EQ(scanned.profile.rowsDecoded, 200u);  // its page index skips [0, 100) too
}

TEST(MixedStatistics, APageCountsNullsOfPartOfItOnlyWhenItHasNoneOrOnlyNulls) {
  TempDir dir("quarry_mixed");
  const std::string file = writePagedFile(dir.path() / "paged.parquet");
  // k > 120, cut at k's and v's page boundaries: [150, 200) lies in v's page
  // [150, 225), which has no null: COUNT(v) there is its row count.
  const std::string counts = " | WHERE k > 120 | STATS n = COUNT(*), c = COUNT(v)";
  const Outcome pushed = runQuery("FROM \"" + file + "\"" + counts);
  EXPECT_EQ(pushed.rows, (std::vector<std::string>{"180|180"}));
  EXPECT_EQ(pushed.profile.pagesAnsweredFromStatistics,
            4u);  // [150, 200) [200, 225) [225, 250) [250, 300)
  EXPECT_EQ(pushed.profile.rowsDecoded, 50u);
  // k > 20: [50, 75) matches in every row but lies in v's page [0, 75), which
  // has 40 nulls: how many fall in [50, 75) is unknown, so it is scanned.
  const std::string nulls = " | WHERE k > 20 | STATS n = COUNT(*), c = COUNT(v)";
  const Outcome partNull = runQuery("FROM \"" + file + "\"" + nulls);
  EXPECT_EQ(partNull.rows, (std::vector<std::string>{"280|260"}));
  EXPECT_EQ(partNull.profile.rowsDecoded, 75u);  // [0, 75)
  EXPECT_EQ(runQuery("FROM \"" + file + "\"" + nulls + " BY one = 1 | DROP one").rows,
            partNull.rows);
}

TEST(MixedStatistics, AMetadataColumnIsNeverNull) {
  TempDir dir("quarry_mixed");
  const std::string file = writePagedFile(dir.path() / "paged.parquet");
  // _file.path is in no file's statistics, yet holds a value in every row.
  for (const std::string where : {"", " | WHERE k > 120"}) {
    const std::string query =
        where + " | STATS c = COUNT(_file.path), s = COUNT(_file.size), n = COUNT(*)";
    const Outcome pushed = runQuery("FROM \"" + file + "\"" + query);
    EXPECT_EQ(pushed.rows,
              (std::vector<std::string>{where.empty() ? "300|300|300" : "180|180|180"}));
    EXPECT_EQ(runQuery("FROM \"" + file + "\"" + query + " BY one = 1 | DROP one").rows,
              pushed.rows);
  }
  EXPECT_EQ(runQuery("FROM \"" + file + "\" | STATS c = COUNT(_file.path)").profile.rowsDecoded,
            0u);
}

TEST(MixedStatistics, APageBoundsMinAndMaxOnlyOfExactlyItsRows) {
  TempDir dir("quarry_mixed");
  const std::string file = writePagedFile(dir.path() / "paged.parquet");
  // k > 100: every segment from row 150 on matches, but each lies in part of a
  // page of v ([150, 225), [225, 300)), whose bounds are of other rows too.
  const std::string query = " | WHERE k > 100 | STATS lo = MIN(v), hi = MAX(v)";
  const Outcome pushed = runQuery("FROM \"" + file + "\"" + query);
  EXPECT_EQ(pushed.rows, (std::vector<std::string>{"202|600"}));
  EXPECT_EQ(pushed.profile.pagesAnsweredFromStatistics, 0u);
  EXPECT_EQ(runQuery("FROM \"" + file + "\"" + query + " BY one = 1 | DROP one").rows, pushed.rows);
  // The filter column's own pages are whole segments: k > 225 answers k's
  // page [250, 300) and scans [200, 250).
  const Outcome own = runQuery("FROM \"" + file +
                               "\" | WHERE k > 225 | STATS lo = MIN(k), hi = MAX(k), n = COUNT(*)");
  EXPECT_EQ(own.rows, (std::vector<std::string>{"226|300|75"}));
  EXPECT_EQ(own.profile.pagesAnsweredFromStatistics, 1u);
  EXPECT_EQ(own.profile.rowsDecoded, 50u);
}

// Issue 29: "STATS COUNT(*), COUNT(x), MIN(x), MAX(x) BY <partition columns>
// answered from footer statistics when each file belongs to one group: no data
// page read, mixed mode per file where some files lack exact statistics (those
// are scanned), ... INITIAL layout per group so the cluster's FINAL merges them.
// Also under a WHERE that mixes partition conjuncts and column conjuncts decided
// per row group as today."
class GroupedStatistics : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.valid());
    for (const char* folder : {"p=1", "p=2", "p=3", "p=4"})
      std::filesystem::create_directories(dir_.path() / folder);
    writeFile(dir_.path() / "p=1" / "a.parquet", true);
    writeFile(dir_.path() / "p=1" / "b.parquet", true);
    writeFile(dir_.path() / "p=2" / "a.parquet", false);  // its middle row group has no statistics
    writeFile(dir_.path() / "p=3" / "a.parquet", true);
    // p=4 holds a file of no row group (no split): no group, as DuckDB finds none.
    ParquetFixtureWriter empty;
    empty.column(leafElement("k", PhysicalType::INT64));
    quarry::testing::writeFileBytes(dir_.path() / "p=4" / "empty.parquet", empty.bytes());
  }
  std::string from() const { return "FROM \"" + (dir_.path() / "*" / "*.parquet").string() + "\""; }

  TempDir dir_{"quarry_grouped"};
};

constexpr const char* kGroupedStats =
    " | STATS n = COUNT(*), c = COUNT(k), lo = MIN(k), hi = MAX(k) BY p";

TEST_F(GroupedStatistics, EachGroupIsAnsweredFromItsFilesAndTheUndecidedRowGroupsScanned) {
  for (int threads : {1, 2}) {  // the scan of the undecided units on one or two threads
    const Outcome pushed = runQuery(from() + kGroupedStats + " | SORT p", threads);
    EXPECT_NE(pushed.explain.find(
                  "LocalSourceExec[by partition [p], statistics of 3 splits, FileStatsSupplier "
                  "per row group over 1 splits, else a scan, mixed]"),
              std::string::npos)
        << pushed.explain;
    EXPECT_EQ(pushed.rows,
              (std::vector<std::string>{"600|600|1|300|1", "300|300|1|300|2", "300|300|1|300|3"}))
        << threads;
    EXPECT_EQ(pushed.profile.rowGroupsAnsweredFromStatistics, 11u);  // 3 files whole, 2 of p=2's 3
    EXPECT_EQ(pushed.profile.rowsDecoded, 100u);                     // p=2's middle row group only

    const Outcome scanned =
        runQuery(from() + " | EVAL one = 1" + kGroupedStats + " | SORT p", threads);
    EXPECT_EQ(scanned.rows, pushed.rows);
    EXPECT_EQ(scanned.profile.rowGroupsAnsweredFromStatistics, 0u);
    EXPECT_EQ(scanned.profile.rowsDecoded, 1200u);
  }
}

TEST_F(GroupedStatistics, FilesWithExactStatisticsAreAnsweredAtPlanningReadingNoData) {
  for (int threads : {1, 2}) {
    const Outcome pushed =
        runQuery(from() + " | WHERE p != 2" + kGroupedStats + " | SORT p", threads);
    EXPECT_NE(pushed.explain.find(
                  "LocalSourceExec[by partition [p], statistics of 3 splits, by path=(p != 2)]"),
              std::string::npos)
        << pushed.explain;
    EXPECT_EQ(pushed.rows, (std::vector<std::string>{"600|600|1|300|1", "300|300|1|300|3"}));
    EXPECT_EQ(pushed.profile.filesPrunedByPartition, 1u);
    EXPECT_EQ(pushed.profile.rowsDecoded, 0u);
    EXPECT_EQ(pushed.profile.bytesRead, pushed.profile.footerBytesRead);  // no data byte
    EXPECT_EQ(
        runQuery(from() + " | WHERE p != 2 | EVAL one = 1" + kGroupedStats + " | SORT p", threads)
            .rows,
        pushed.rows);
  }
}

TEST_F(GroupedStatistics, AWhereOfPartitionAndFileColumnsPrunesByPathAndDecidesRowGroups) {
  // p <= 2 prunes p=3 and p=4 by path; k > 150 skips every row group 0,
  // answers every row group 2, and leaves each row group 1 to its pages (none
  // here: scanned).
  const std::string query = " | WHERE p <= 2 AND k > 150";
  const Outcome pushed = runQuery(from() + query + kGroupedStats + " | SORT p");
  EXPECT_NE(pushed.explain.find("by partition [p]"), std::string::npos) << pushed.explain;
  EXPECT_EQ(pushed.rows, (std::vector<std::string>{"300|300|151|300|1", "150|150|151|300|2"}));
  EXPECT_EQ(pushed.profile.filesPrunedByPartition, 2u);
  EXPECT_EQ(pushed.profile.rowGroupsPrunedByStatistics, 3u);
  EXPECT_EQ(pushed.profile.rowGroupsAnsweredFromStatistics, 3u);
  EXPECT_EQ(pushed.profile.rowsDecoded, 300u);
  EXPECT_EQ(runQuery(from() + query + " | EVAL one = 1" + kGroupedStats + " | SORT p").rows,
            pushed.rows);
  // Every row group matching no row: no group at all, as a scan finds none.
  EXPECT_TRUE(runQuery(from() + " | WHERE k > 1000" + kGroupedStats).rows.empty());
}

TEST_F(GroupedStatistics, AKeyThatIsNotOnlyAPartitionColumnKeepsTheScan) {
  QueryOptions options;
  std::string why;
  for (const char* by : {" BY p, k", " BY k"}) {
    const PreparedQuery prepared = prepareQuery(from() + " | STATS n = COUNT(*)" + by, options);
    const std::string text = explainQuery(prepared);
    EXPECT_NE(
        text.find("PushAggregatesToExternalSource: no change (the aggregate is grouped by k, not a "
                  "partition column)"),
        std::string::npos)
        << text;
  }
}

/// A format reader that passes every call to another, except that units() waits
/// until `width` calls are in it at once (or, the first time that does not happen
/// within a minute, no longer), counting the most it held at once.
class UnitsConcurrencyProbe final : public FormatReader {
 public:
  UnitsConcurrencyProbe(const FormatReader& inner, int width) : inner_(inner), width_(width) {}

  const std::string& name() const override { return inner_.name(); }
  SourceMetadata metadata(const std::string& uri) const override { return inner_.metadata(uri); }
  LocalSupplier read(const FileSplit& split, const ReadRequest& request) const override {
    return inner_.read(split, request);
  }
  AggregatePushdownSupport aggregatePushdownSupport() const override {
    return inner_.aggregatePushdownSupport();
  }
  std::vector<UnitSegment> segments(const FileSplit& unit, const parquet::FilterPredicate& filter,
                                    std::span<const std::string> columns,
                                    ScanMetrics* metrics) const override {
    return inner_.segments(unit, filter, columns, metrics);
  }
  std::vector<FileSplit> units(const FileSplit& split) const override {
    {
      std::unique_lock lock(mutex_);
      ++inside_;
      most_ = std::max(most_, inside_);
      changed_.notify_all();
      if (!changed_.wait_for(lock, std::chrono::minutes(1),
                             [&] { return released_ || most_ >= width_; })) {
        released_ = true;  // one wait is enough to tell
      }
      --inside_;
    }
    return inner_.units(split);
  }

  int most() const {
    std::lock_guard lock(mutex_);
    return most_;
  }

 private:
  const FormatReader& inner_;
  const int width_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  mutable int inside_ = 0, most_ = 0;
  mutable bool released_ = false;
};

// The splits a filter leaves undecided have their footers read when the plan
// runs, before any of them is scanned: as many at a time as the plan has threads
// (mixed_statistics_supplier.h), not one after the other on the thread that runs
// the plan.
TEST(MixedStatistics, TheUndecidedSplitsAreDecidedAsManyAtATimeAsThePlanHasThreads) {
  TempDir dir("quarry_mixed");
  for (const char* name : {"a.parquet", "b.parquet", "c.parquet", "d.parquet"})
    writeFile(dir.path() / name, true);
  QueryOptions options;
  options.threads = 2;
  options.keepUnoptimizedPlan = true;
  // k > 150: in each file row group 0 matches no row, 1 some, 2 every row.
  const PreparedQuery query = prepareQuery(
      "FROM \"" + (dir.path() / "*.parquet").string() + "\" | WHERE k > 150 | STATS n = COUNT(*)",
      options);
  ASSERT_NE(query.unoptimized, nullptr);
  PlanNodePtr plan = query.unoptimized->clone();
  PlanNode& source = chainBottom(*plan);
  ASSERT_EQ(source.kind, PlanKind::kExternalSource);
  ASSERT_EQ(source.splits.size(), 4u);  // one split of three row groups per file
  UnitsConcurrencyProbe probe(*source.splits.front().reader, 2);
  for (SplitTask& task : source.splits) task.reader = &probe;
  optimize(*plan);
  const OperatorPtr root = buildOperators(*plan);
  std::vector<std::string> counts;
  while (std::optional<Page> page = root->next()) {
    for (size_t r = 0; r < page->positionCount(); ++r)
      cli::appendBlockText(page->block(0), r, counts.emplace_back());
  }
  EXPECT_EQ(counts, (std::vector<std::string>{"600"}));
  EXPECT_EQ(probe.most(), 2);
}

}  // namespace
}  // namespace quarry::engine
