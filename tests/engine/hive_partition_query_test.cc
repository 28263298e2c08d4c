// Hive partition columns through whole queries: every command takes them, the
// WHERE prunes files by their paths before any is opened (the profile counts
// them), a partition column the file also has must agree with it, and the
// options turn them off or type them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/engine/query_engine.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"

namespace quarry::engine {
namespace {

std::string fixture(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name;
}

/// schema_a.parquet (id int32 1, name "a", amount, ts) under four partitions.
class HivePartitionQuery : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.valid());
    for (const char* folder : {"year=2023/month=06", "year=2024/month=06", "year=2024/month=12",
                               "year=__HIVE_DEFAULT_PARTITION__/month=06"}) {
      dir_.copy(fixture("schema_a.parquet"), std::string(folder) + "/part-0.parquet");
    }
  }

  std::string from(const std::string& with = "") const {
    return "FROM \"" + (dir_.path() / "**" / "*.parquet").string() + "\"" + with;
  }

  struct Result {
    Schema columns;
    std::vector<Page> pages;
    QueryProfile profile;
    size_t rows() const {
      size_t n = 0;
      for (const Page& page : pages) n += page.positionCount();
      return n;
    }
  };

  Result run(const std::string& query) const {
    QueryOptions options;
    const PreparedQuery prepared = prepareQuery(query, options);
    Result result;
    result.profile =
        executeQuery(prepared, [&](const Page& page) { result.pages.push_back(page); });
    result.columns = result.profile.columns;
    return result;
  }

  std::string errorOf(const std::string& query) const {
    try {
      run(query);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "(no error)";
  }

  quarry::testing::TempDir dir_{"quarry_hive"};
};

void expectMentions(const std::string& what, std::initializer_list<std::string> parts) {
  for (const std::string& part : parts)
    EXPECT_NE(what.find(part), std::string::npos) << part << " in: " << what;
}

TEST_F(HivePartitionQuery, PartitionColumnsFollowTheFileColumnsSortedByName) {
  const Result r = run(from() + " | SORT year NULLS LAST, month");
  ASSERT_EQ(r.columns.size(), 6u);
  EXPECT_EQ(r.columns[4].name, "month");
  EXPECT_TRUE(r.columns[4].type == DataType::string());
  EXPECT_EQ(r.columns[5].name, "year");
  EXPECT_TRUE(r.columns[5].type == DataType::int64());
  ASSERT_EQ(r.rows(), 4u);
  EXPECT_EQ(r.pages[0].block(5).values<int64_t>()[0], 2023);
  EXPECT_EQ(r.pages[0].block(4).bytes(0), "06");
  EXPECT_EQ(r.profile.files, 4u);
  EXPECT_EQ(r.profile.filesPrunedByPartition, 0u);
}

TEST_F(HivePartitionQuery, WherePrunesFilesBeforeTheirFootersAreRead) {
  // First: the readers keep footers in memory, and this query must read its own.
  const Result r = run(from() + " | WHERE year == 2024 AND month == \"06\" | KEEP id, year, month");
  EXPECT_EQ(r.rows(), 1u);
  EXPECT_EQ(r.profile.files, 1u);
  EXPECT_EQ(r.profile.filesPrunedByPartition, 3u);
  EXPECT_EQ(r.profile.footerRequests, 1u);  // one small file: one tail read
  const Result byPath =
      run(from() + " | WHERE _file.path LIKE \"*month=12*\" | STATS n = COUNT(*)");
  EXPECT_EQ(byPath.profile.files, 1u);
  EXPECT_EQ(byPath.profile.filesPrunedByPartition, 3u);
  EXPECT_EQ(byPath.pages.at(0).block(0).values<int64_t>()[0], 1);
}

TEST_F(HivePartitionQuery, EveryCommandTakesPartitionColumns) {
  const Result r =
      run(from() +
          " | EVAL next = year + 1 | STATS n = COUNT(*), top = MAX(next) BY month | SORT month");
  ASSERT_EQ(r.rows(), 2u);
  EXPECT_EQ(r.pages[0].block(0).values<int64_t>()[0], 3);     // month 06: three files
  EXPECT_EQ(r.pages[0].block(1).values<int64_t>()[0], 2025);  // the null year's next is null
  const Result min = run(from() + " | STATS lo = MIN(year), c = COUNT(year)");
  EXPECT_EQ(min.pages.at(0).block(0).values<int64_t>()[0], 2023);
  EXPECT_EQ(min.pages.at(0).block(1).values<int64_t>()[0], 3);
}

TEST_F(HivePartitionQuery, EveryFilePrunedStillGivesTheSchema) {
  const Result r = run(from() + " | WHERE year == 1999 | KEEP id, name");
  EXPECT_EQ(r.rows(), 0u);
  ASSERT_EQ(r.columns.size(), 2u);
  EXPECT_EQ(r.profile.files, 0u);
  EXPECT_EQ(r.profile.filesPrunedByPartition, 4u);
}

TEST_F(HivePartitionQuery, ExplainShowsThePrunedFiles) {
  QueryOptions options;
  const PreparedQuery prepared = prepareQuery(from() + " | WHERE year == 2024 | KEEP id", options);
  expectMentions(explainQuery(prepared),
                 {"files=2", "partitions=[month, year]", "2 files pruned by partition"});
}

TEST_F(HivePartitionQuery, OptionsTurnThemOffOrTypeThem) {
  expectMentions(errorOf(from(" WITH {\"hive_partitioning\": false}") + " | KEEP year"), {"year"});
  const Result r =
      run(from(" WITH {\"hive_types\": {\"year\": \"integer\", \"month\": \"bigint\"}}") +
          " | KEEP year, month");
  EXPECT_TRUE(r.columns[0].type == DataType::int32());
  EXPECT_TRUE(r.columns[1].type == DataType::int64());
  EXPECT_EQ(r.rows(), 4u);
  expectMentions(errorOf(from(" WITH {\"hive_types\": {\"year\": \"date\"}}")),
                 {"2023", "\"year\"", "date"});
}

TEST(HivePartitionConflict, AFileColumnMustAgreeWithThePath) {
  quarry::testing::TempDir dir("quarry_hive_conflict");
  ASSERT_TRUE(dir.valid());
  dir.copy(fixture("schema_a.parquet"), "id=1/a.parquet");  // id is 1 in the file: agrees
  const std::string glob = "FROM \"" + (dir.path() / "*" / "*.parquet").string() + "\"";
  QueryOptions options;
  {
    const PreparedQuery prepared = prepareQuery(glob + " | KEEP id", options);
    ASSERT_EQ(prepared.plan->schema.size(), 1u);
    EXPECT_TRUE(prepared.plan->schema[0].type == DataType::int64());  // the file's int32 widened
    size_t rows = 0;
    executeQuery(prepared, [&](const Page& page) { rows += page.positionCount(); });
    EXPECT_EQ(rows, 1u);
  }
  dir.copy(fixture("schema_a.parquet"), "id=2/a.parquet");  // disagrees
  const auto errorOf = [&](const std::string& tail) {
    try {
      executeQuery(prepareQuery(glob + tail, options), [](const Page&) {});
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  expectMentions(errorOf(" | KEEP id"), {"id=2/a.parquet", "\"id\"", "holds 1", "says 2"});
  // Grouped by it, no statistics answer for the path: the scan checks the
  // values (issue 29: "the same correctness rules as the ungrouped pushdown").
  expectMentions(errorOf(" | STATS n = COUNT(*), lo = MIN(name) BY id"),
                 {"id=2/a.parquet", "\"id\"", "holds 1", "says 2"});
  std::filesystem::remove(dir.path() / "id=2" / "a.parquet");
  {
    const PreparedQuery prepared =
        prepareQuery(glob + " | STATS n = COUNT(*), lo = MIN(name) BY id", options);
    const QueryProfile profile = executeQuery(prepared, [](const Page&) {});
    EXPECT_EQ(profile.rowGroupsAnsweredFromStatistics, 0u);
    EXPECT_EQ(profile.rowsReturned, 1u);
  }

  quarry::testing::TempDir typed("quarry_hive_types");
  typed.copy(fixture("schema_a.parquet"), "name=5/a.parquet");  // name is a string in the file
  std::string error = "(no error)";
  try {
    prepareQuery("FROM \"" + (typed.path() / "*" / "*.parquet").string() + "\"", options);
  } catch (const InvalidArgument& e) {
    error = e.what();
  }
  expectMentions(error, {"name=5/a.parquet", "\"name\"", "string", "int64"});
}

}  // namespace
}  // namespace quarry::engine
