// PushAggregatesToExternalSource unit by unit over real Parquet files (written
// here with the test writer): issue 9, "Beyond the plan": "mixed mode per row
// group — answer the row groups whose statistics are exact, scan only the
// others, merge both" and "WHERE-filtered COUNT/MIN/MAX answered from
// statistics where each row group ... is proven all-match or none-match,
// scanning only the undecided ones". Each result equals the same query forced
// to scan (a constant BY disables the rule).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quarry/cli/block_text.h"
#include "quarry/engine/query_engine.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"
#include "tests/formats/parquet/pruning_fixture.h"

namespace quarry::engine {
namespace {

using namespace quarry::parquet::testing;
using parquet::PhysicalType;

/// A directory under /tmp removed with the object.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/quarry_mixed_XXXXXX";
    if (::mkdtemp(pattern) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

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
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

struct Outcome {
  std::vector<std::string> rows;
  QueryProfile profile;
  std::string explain;
};

Outcome runQuery(const std::string& text) {
  QueryOptions options;
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
  TempDir dir;
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
  TempDir dir;
  const std::string file = writeFile(dir.path() / "filtered.parquet", true);
  // k > 150: row group 0 (1..100) matches no row, 1 (101..200) some, 2 (201..300) every row.
  const std::string query =
      " | WHERE k > 150 | STATS n = COUNT(*), c = COUNT(k), lo = MIN(k), hi = MAX(k)";
  const Outcome pushed = runQuery("FROM \"" + file + "\"" + query);
  EXPECT_NE(
      pushed.explain.find(
          "FileStatsSupplier per row group over 1 splits, else a scan, mixed, filter=gt(k, 150)"),
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

}  // namespace
}  // namespace quarry::engine
