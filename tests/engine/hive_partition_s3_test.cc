// Hive partitions on S3 (issue 29): "On S3 the listing itself narrows:
// equalities on leading partition keys become a longer ListObjectsV2 prefix
// (`year=2024/` when `WHERE year == 2024`) ... explain shows ... the prefixes
// listed", and the acceptance's "the listing prefix is the narrowed one".
// Each narrowed answer equals the same question asked without narrowing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "quarry/engine/query_engine.h"
#include "tests/engine/fragment_test_support.h"
#include "tests/io/s3_test_server.h"
#include "tests/support/build_paths.h"
#include "tests/support/curl_client.h"
#include "tests/support/scoped_environment.h"
#include "tests/support/temp_dir.h"

namespace quarry::engine {
namespace {

class HivePartitionS3 : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.valid());
    const std::string fixture =
        std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/schema_a.parquet";
    for (const char* folder : {"sales/year=2023/month=06", "sales/year=2024/month=06",
                               "sales/year=2024/month=12", "sales/year=2025/month=01"}) {
      dir_.copy(fixture, std::string(folder) + "/part-0.parquet");
    }
    server_.serveDirectory("bucket", dir_.path());
    server_.configure(environment_);
  }

  struct Outcome {
    std::vector<std::string> rows;
    std::string explain;
    /// The `prefix` of each ListObjectsV2 request, as sent (percent-encoded).
    std::vector<std::string> listed;
    /// The objects any other request read, by key.
    std::set<std::string> objectsRead;
    QueryProfile profile;
  };

  Outcome run(const std::string& tail, const std::string& with = "",
              const std::string& from = "s3://bucket/sales/year=*/month=*/*.parquet") {
    server_.clearRequestLog();
    QueryOptions options;
    const PreparedQuery prepared = prepareQuery("FROM \"" + from + "\"" + with + tail, options);
    Outcome out;
    out.explain = explainQuery(prepared);
    out.profile =
        executeQuery(prepared, [&](const Page& page) { testing::appendRows(page, out.rows); });
    for (const std::string& request : server_.requestLog()) {
      if (request.find("list-type=2") == std::string::npos) {
        // The key as sent, its '=' percent-encoded.
        if (const size_t at = request.find("/bucket/"); at != std::string::npos) {
          std::string key = request.substr(at + 8);
          for (size_t eq; (eq = key.find("%3D")) != std::string::npos;) key.replace(eq, 3, "=");
          out.objectsRead.insert(key);
        }
        continue;
      }
      const size_t at = request.find("prefix=");
      out.listed.push_back(
          at == std::string::npos ? "" : request.substr(at + 7, request.find('&', at) - at - 7));
    }
    return out;
  }

  quarry::testing::TempDir dir_{"quarry_hive_s3"};
  quarry::testing::S3TestServerOptions options_;
  quarry::testing::S3TestServer server_{options_};
  quarry::testing::ScopedEnvironment environment_;
};

TEST_F(HivePartitionS3, EqualitiesOnTheLeadingKeysNarrowTheListingPrefix) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  const Outcome both = run(" | WHERE year == 2024 AND month == \"06\" | KEEP id, year, month");
  EXPECT_EQ(both.listed, (std::vector<std::string>{"sales%2Fyear%3D2024%2Fmonth%3D06%2F"}));
  EXPECT_NE(both.explain.find("listed=[s3://bucket/sales/year=2024/month=06/]"), std::string::npos)
      << both.explain;
  EXPECT_EQ(both.rows, (std::vector<std::string>{"1|2024|06"}));
  // The same question the listing cannot narrow (year is not an equality):
  // every folder is listed and the answer is the same.
  const Outcome whole =
      run(" | WHERE year >= 2024 AND year <= 2024 AND month == \"06\" | KEEP id, year, month");
  EXPECT_EQ(whole.listed, (std::vector<std::string>{"sales%2Fyear%3D"}));
  EXPECT_EQ(whole.rows, both.rows);
  EXPECT_EQ(whole.profile.filesPrunedByPartition, 3u);

  // The leading key alone, as IN of one value; the next folder stays a wildcard.
  const Outcome year = run(" | WHERE year IN (2024) | STATS n = COUNT(*) BY month | SORT month");
  EXPECT_EQ(year.listed, (std::vector<std::string>{"sales%2Fyear%3D2024%2Fmonth%3D"}));
  EXPECT_EQ(year.rows, (std::vector<std::string>{"1|06", "1|12"}));
  EXPECT_EQ(
      run(" | WHERE year > 2023 AND year < 2025 | STATS n = COUNT(*) BY month | SORT month").rows,
      year.rows);
}

TEST_F(HivePartitionS3, OnlyAValueWhosePathFormIsCertainNarrows) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  // A key after one without an equality, a double, and a key hive_types types
  // (where a folder `02024` would also read as 2024) list every folder.
  for (const std::string& where :
       {std::string(" | WHERE month == \"06\""), std::string(" | WHERE year == 2024.0")}) {
    const Outcome out = run(where + " | STATS n = COUNT(*)");
    EXPECT_EQ(out.listed, (std::vector<std::string>{"sales%2Fyear%3D"})) << where;
  }
  const Outcome typed = run(" | WHERE year == 2024 | STATS n = COUNT(*)",
                            " WITH {\"hive_types\": {\"year\": \"integer\"}}");
  EXPECT_EQ(typed.listed, (std::vector<std::string>{"sales%2Fyear%3D"}));
  EXPECT_EQ(typed.rows, (std::vector<std::string>{"2"}));
}

TEST_F(HivePartitionS3, ANarrowedListingOfNothingListsEveryFolder) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  // Nothing under year=1999: listed again whole, so the answer is the empty one
  // with the source's columns (not "the pattern matches no file").
  const Outcome none = run(" | WHERE year == 1999 | KEEP id, name");
  EXPECT_EQ(none.listed,
            (std::vector<std::string>{"sales%2Fyear%3D1999%2Fmonth%3D", "sales%2Fyear%3D"}));
  EXPECT_TRUE(none.rows.empty());
  EXPECT_EQ(none.profile.filesPrunedByPartition, 4u);
}

// The acceptance's "over 1,000 partitions, `WHERE year == 2024 AND month == 6`
// opens only that partition's files (requests counted exactly), `_file.path`
// filters prune likewise, and the listing prefix is the narrowed one", on S3.
TEST_F(HivePartitionS3, OverAThousandPartitionsOnlyTheWantedObjectsAreRequested) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  std::ifstream in(std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/schema_a.parquet",
                   std::ios::binary);
  const std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
  ASSERT_FALSE(bytes.empty());
  auto keyOf = [](int year, int month) {
    return "lake/year=" + std::to_string(year) + "/month=" + std::to_string(month) +
           "/part-0.parquet";
  };
  for (int year = 2000; year < 2100; ++year) {
    for (int month = 1; month <= 12; ++month) server_.putObject("bucket", keyOf(year, month), bytes);
  }
  const std::string lake = "s3://bucket/lake/year=*/month=*/*.parquet";
  const Outcome one = run(" | WHERE year == 2024 AND month == 6 | KEEP id, year, month", "", lake);
  EXPECT_EQ(one.listed, (std::vector<std::string>{"lake%2Fyear%3D2024%2Fmonth%3D6%2F"}));
  EXPECT_EQ(one.objectsRead, (std::set<std::string>{keyOf(2024, 6)}));
  EXPECT_EQ(one.rows, (std::vector<std::string>{"1|2024|6"}));
  // Requests counted exactly: those of the same object named alone.
  const Outcome alone = run(" | KEEP id", "", "s3://bucket/" + keyOf(2024, 6));
  EXPECT_EQ(one.profile.requests, alone.profile.requests);

  const Outcome path =
      run(" | WHERE _file.path LIKE \"*/year=2024/*\" | STATS n = COUNT(*)", "", lake);
  EXPECT_EQ(path.rows, (std::vector<std::string>{"12"}));
  EXPECT_EQ(path.profile.filesPrunedByPartition, 1188u);
  EXPECT_EQ(path.objectsRead.size(), 12u);
  for (const std::string& key : path.objectsRead)
    EXPECT_NE(key.find("/year=2024/"), std::string::npos) << key;
}

}  // namespace
}  // namespace quarry::engine
