// `quarry query` and `quarry explain` end to end over the bundled sample file
// (data/sample/trips.parquet, 10,000 rows in 3 row groups). Expected values are
// DuckDB's answers to the same questions in SQL.

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "quarry/formats/parquet/footer.h"
#include "tests/cli/quarry_run.h"
#include "tests/io/nginx_server.h"
#include "tests/support/build_paths.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

using quarry::testing::runQuarry;

std::string sample() { return std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet"; }

std::string from() { return "FROM \"" + sample() + "\""; }

// The metadata cache (QUARRY_CACHE_DIR): a second query of the same FROM takes
// the footer from it (no request, the same answer); --no-metadata-cache and
// QUARRY_CACHE_DIR=off neither use nor write it. The sample file is part of the
// checkout, older than the stamps' one-second margin.
TEST(QueryCommand, TheMetadataCacheAnswersARepeatedQueryWithoutReadingTheFooter) {
  const std::string dir = ::testing::TempDir() + "quarry-cli-cache-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const std::string query = from() + " | STATS n = COUNT(*), hi = MAX(trip_id)";
  auto run = [&](const std::string& cacheDir, std::vector<std::string> flags) {
    std::vector<std::string> args{"query", "--profile", "--format", "csv"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(query);
    ::setenv("QUARRY_CACHE_DIR", cacheDir.c_str(), 1);
    const auto result = runQuarry(args);
    ::unsetenv("QUARRY_CACHE_DIR");
    return result;
  };
  const auto first = run(dir, {});
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_NE(first.err.find("\"footers\":{\"bytes_read\":"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find(",\"requests\":1,\"from_metadata_cache\":0}"), std::string::npos)
      << first.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/metadata"));

  const auto second = run(dir, {});
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  EXPECT_EQ(second.out, "n,hi\n10000,10000\n");
  EXPECT_NE(
      second.err.find("\"footers\":{\"bytes_read\":0,\"requests\":0,\"from_metadata_cache\":1}"),
      std::string::npos)
      << second.err;

  const auto bypassed = run(dir, {"--no-metadata-cache"});
  ASSERT_EQ(bypassed.exitCode, 0) << bypassed.err;
  EXPECT_EQ(bypassed.out, first.out);
  EXPECT_NE(bypassed.err.find(",\"requests\":1,\"from_metadata_cache\":0}"), std::string::npos)
      << bypassed.err;

  std::filesystem::remove_all(dir);
  const auto off = run("off", {});
  ASSERT_EQ(off.exitCode, 0) << off.err;
  EXPECT_NE(off.err.find("\"from_metadata_cache\":0}"), std::string::npos) << off.err;
  EXPECT_FALSE(std::filesystem::exists("off"));
  EXPECT_FALSE(std::filesystem::exists(dir));
}

// "refuse (warn once on stderr, run uncached) a cache directory writable by
// group/others": each query says why, answers from the file, and keeps nothing.
TEST(QueryCommand, AMetadataCacheDirectoryOthersCanWriteIsRefusedWithAWarning) {
  const std::string dir =
      ::testing::TempDir() + "quarry-cli-open-cache-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/metadata");
  ASSERT_EQ(::chmod((dir + "/metadata").c_str(), 0777), 0);
  ::setenv("QUARRY_CACHE_DIR", dir.c_str(), 1);
  for (int i = 0; i < 2; ++i) {
    const auto run =
        runQuarry({"query", "--profile", "--format", "csv", from() + " | STATS n = COUNT(*)"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, "n\n10000\n");
    EXPECT_NE(run.err.find("quarry: warning: the metadata cache directory " + dir +
                           "/metadata is writable by its group or others (mode 0777"),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("\"from_metadata_cache\":0}"), std::string::npos) << run.err;
  }
  ::unsetenv("QUARRY_CACHE_DIR");
  EXPECT_TRUE(std::filesystem::is_empty(dir + "/metadata"));
  std::filesystem::remove_all(dir);
}

// DuckDB: SELECT vendor, count(*) AS trips, sum(fare_amount) AS fares FROM ... WHERE
// trip_distance > 2.0 AND payment_type = 'card' GROUP BY vendor ORDER BY trips DESC
TEST(QueryCommand, GroupedStatsAsCsvMatchDuckDb) {
  const auto run = runQuarry({"query", "--format", "csv",
                              from() + " | WHERE trip_distance > 2.0 AND payment_type == \"card\""
                                       " | STATS trips = COUNT(*), fares = SUM(fare_amount) BY vendor"
                                       " | SORT trips DESC"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "trips,fares,vendor\n"
            "1511,35655.75,VTS\n"
            "1464,35335.00,DDS\n"
            "1447,34634.00,CMT\n");
}

// DuckDB: SELECT trip_id, pickup_at, fare_amount, tip_amount, disputed FROM ...
// WHERE vendor = 'CMT' ORDER BY fare_amount DESC, trip_id LIMIT 3
TEST(QueryCommand, SortLimitAndKeepRenderValuesAsDuckDb) {
  const auto run = runQuarry({"query", "--format", "csv",
                              from() + " | WHERE vendor == \"CMT\" | SORT fare_amount DESC, trip_id | LIMIT 3"
                                       " | KEEP trip_id, pickup_at, fare_amount, tip_amount, disputed"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "trip_id,pickup_at,fare_amount,tip_amount,disputed\n"
            "6613,2024-03-20 17:53:00,64.75,13.5,false\n"
            "4981,2024-03-15 20:56:00,63.25,5.75,false\n"
            "6813,2024-03-21 08:14:00,63.25,0.25,false\n");
}

TEST(QueryCommand, ProfileIsOneJsonObjectOnStderrAfterTheResult) {
  const auto run = runQuarry({"query", "--profile", "--format", "csv", from() + " | STATS n = COUNT(*)"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "n\n10000\n");
  for (const char* key : {"\"elapsed_ms\":", "\"files\":{\"read\":1,\"pruned_by_partition\":0}", "\"splits\":", "\"row_groups\":{\"total\":",
                          "\"pruned_by_statistics\":", "\"pruned_by_bloom\":", "\"pruned_by_dictionary\":",
                          "\"answered_from_statistics\":", "\"pages\":{\"total\":", "\"skipped\":",
                          "\"bytes_read\":", "\"requests\":", "\"rows_decoded\":", "\"rows_returned\":1",
                          "\"operators\":[{\"name\":", "\"columns\":[{\"name\":\"n\",\"type\":\"int64\"}]"}) {
    EXPECT_NE(run.err.find(key), std::string::npos) << key << " in " << run.err;
  }
  EXPECT_EQ(run.err.front(), '{');
  EXPECT_EQ(run.err.substr(run.err.size() - 2), "}\n");
}

TEST(QueryCommand, ExplainShowsThePlanBeforeAndAfterTheOptimizer) {
  const auto run = runQuarry({"explain", from() + " | WHERE trip_id < 100 | STATS m = MAX(fare_amount)"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const size_t before = run.out.find("== physical plan");
  const size_t after = run.out.find("== optimized physical plan");
  ASSERT_NE(before, std::string::npos) << run.out;
  ASSERT_NE(after, std::string::npos) << run.out;
  EXPECT_NE(run.out.find("AggregateExec[FINAL]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("AggregateExec[INITIAL]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("PushFiltersToSource: applied"), std::string::npos) << run.out;
  // Only the optimized plan reads two columns and hands the source the filter.
  EXPECT_NE(run.out.find("columns=[trip_id, fare_amount], filter=lt(trip_id, 100)", after), std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("filter=", before), run.out.find("filter=", after)) << run.out;
}

// aggregate-pushdown-plan.txt: "All splits have statistics -> precompute from
// stats, no scanning". The same aggregates grouped by a constant cannot be
// pushed and scan: both give DuckDB's answer (SELECT count(*), min(trip_id),
// max(pickup_zone), count(tip_amount) FROM 'trips.parquet').
TEST(QueryCommand, UngroupedCountMinMaxAreAnsweredFromStatisticsWithoutReadingData) {
  const std::string stats = " | STATS n = COUNT(*), lo = MIN(trip_id), hi = MAX(pickup_zone), c = COUNT(tip_amount)";
  const auto explain = runQuarry({"explain", from() + stats});
  ASSERT_EQ(explain.exitCode, 0) << explain.err;
  EXPECT_NE(explain.out.find("PushAggregatesToExternalSource: applied"), std::string::npos) << explain.out;
  EXPECT_NE(explain.out.find("LocalSourceExec[statistics of 1 splits]"), std::string::npos) << explain.out;

  const auto pushed = runQuarry({"query", "--profile", "--format", "csv", from() + stats});
  ASSERT_EQ(pushed.exitCode, 0) << pushed.err;
  EXPECT_EQ(pushed.out, "n,lo,hi,c\n10000,1,Williamsburg,7002\n");
  EXPECT_NE(pushed.err.find("\"answered_from_statistics\":3"), std::string::npos) << pushed.err;
  // What the query read is the footer's one tail read (the file is larger): no data page.
  const std::string tail = std::to_string(quarry::parquet::kFooterTailReadSize);
  EXPECT_NE(pushed.err.find("\"bytes_read\":" + tail +
                            ",\"requests\":1,\"footers\":{\"bytes_read\":" + tail +
                            ",\"requests\":1,\"from_metadata_cache\":0}"),
            std::string::npos)
      << pushed.err;
  EXPECT_NE(pushed.err.find("\"rows_decoded\":0,"), std::string::npos) << pushed.err;

  const auto scanned = runQuarry({"query", "--format", "csv", from() + stats + " BY k = 1 | DROP k"});
  ASSERT_EQ(scanned.exitCode, 0) << scanned.err;
  EXPECT_EQ(scanned.out, pushed.out);

  const auto grouped = runQuarry({"explain", from() + stats + " BY vendor"});
  EXPECT_NE(grouped.out.find("PushAggregatesToExternalSource: no change (the aggregate is grouped by vendor, "
                             "not a partition column)"),
            std::string::npos)
      << grouped.out;
}

// Sources are URIs as well as paths: the same query over HTTP gives the same
// answer, and a query answered from statistics costs one request (the footer's
// suffix GET) and reads no data.
TEST(QueryCommand, RemoteFilesAnswerAsLocalOnes) {
  using quarry::testing::NginxServer;
  if (!NginxServer::available()) GTEST_SKIP() << "SKIPPED LOUDLY: nginx not installed";
  const std::string grouped = " | STATS trips = COUNT(*), fares = SUM(fare_amount) BY vendor | SORT vendor";
  const auto local = runQuarry({"query", "--format", "csv", from() + grouped});
  ASSERT_EQ(local.exitCode, 0) << local.err;
  {
    NginxServer server(std::string(QUARRY_SOURCE_DIR) + "/data/sample");
    ASSERT_TRUE(server.running()) << "nginx did not start: " << server.startError();
    const auto remote =
        runQuarry({"query", "--format", "csv", "FROM \"" + server.url("trips.parquet") + "\"" + grouped});
    ASSERT_EQ(remote.exitCode, 0) << remote.err;
    EXPECT_EQ(remote.out, local.out);
  }
  NginxServer server(std::string(QUARRY_SOURCE_DIR) + "/data/sample");
  ASSERT_TRUE(server.running()) << "nginx did not start: " << server.startError();
  const auto pushed = runQuarry({"query", "--profile", "--format", "csv",
                                 "FROM \"" + server.url("trips.parquet") + "\" | STATS n = COUNT(*)"});
  ASSERT_EQ(pushed.exitCode, 0) << pushed.err;
  EXPECT_EQ(pushed.out, "n\n10000\n");
  EXPECT_EQ(server.requestCountReaching(2, std::chrono::milliseconds(300)), 1u);
}

TEST(QueryCommand, ABadQueryExitsWith2AndPointsAtTheError) {
  const auto run = runQuarry({"query", from() + " | KEEP vendr"});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("unknown column vendr"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("did you mean vendor?"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("^"), std::string::npos) << run.err;
}

// Issue 27: "A query using LIKE with `%` (SQL's wildcard) gets a hint that
// ES|QL's wildcard is `*`." The query runs all the same: `%` matches itself.
// Issue 27: "`?` and `?name` query parameters with `--param name=value` on the CLI".
TEST(QueryCommand, ParamsBindNamedAndPositionalPlaceholders) {
  const auto run = runQuarry({"query", "--format", "csv", "--param", "vendor=CMT", "--param", "4",
                              "--param", "tip=\"x\"",
                              from() + " | WHERE vendor == ?vendor AND trip_id < ? | EVAL t = ?tip "
                                       "| KEEP trip_id, vendor, t | SORT trip_id"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "trip_id,vendor,t\n3,CMT,x\n");  // trips 1 and 2 are VTS's
  const auto numbered = runQuarry({"query", "--format", "csv", "--param", "2", "--param", "10",
                                   "--param", "null", "ROW a = ?2 - ?1, b = ?3"});
  ASSERT_EQ(numbered.exitCode, 0) << numbered.err;
  EXPECT_EQ(numbered.out, "a,b\n8,\n");
  // A negative value is a value, not an option.
  const auto negative = runQuarry({"query", "--format", "csv", "--param", "-5", "--param=-2.5", "ROW a = ?, b = ?"});
  ASSERT_EQ(negative.exitCode, 0) << negative.err;
  EXPECT_EQ(negative.out, "a,b\n-5,-2.5\n");
  // An unbound parameter is an error naming it.
  const auto unbound = runQuarry({"query", "--param", "cty=Paris", "ROW a = ?city"});
  EXPECT_EQ(unbound.exitCode, 2);
  EXPECT_NE(unbound.err.find("no value for parameter ?city"), std::string::npos) << unbound.err;
  EXPECT_NE(unbound.err.find("did you mean ?cty?"), std::string::npos) << unbound.err;
}

TEST(QueryCommand, ALikeWithSqlWildcardsRunsWithAWarningNamingEsqlWildcards) {
  const auto run = runQuarry({"query", "--format", "csv",
                              from() + " | WHERE payment_type LIKE \"c%\" | STATS n = COUNT(*)"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "n\n0\n");
  EXPECT_NE(run.err.find("quarry: warning: LIKE \"c%\" has no ES|QL wildcard"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("hint: ES|QL's LIKE wildcards are * (any run of characters) and ? (one "
                         "character); for SQL's meaning write LIKE \"c*\""),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("^"), std::string::npos) << run.err;
  const auto esql = runQuarry({"query", "--format", "csv",
                               from() + " | WHERE payment_type LIKE \"c*\" | STATS n = COUNT(*)"});
  ASSERT_EQ(esql.exitCode, 0) << esql.err;
  EXPECT_EQ(esql.out, "n\n7939\n");
  EXPECT_EQ(esql.err, "");
  const auto explain = runQuarry({"explain", from() + " | WHERE payment_type NOT LIKE \"_ash\""});
  ASSERT_EQ(explain.exitCode, 0) << explain.err;
  EXPECT_NE(explain.err.find("warning: NOT LIKE \"_ash\""), std::string::npos) << explain.err;
}

// A map (or another column quarry leaves out) named in a query is not "unknown".
TEST(QueryCommand, NamingAMapColumnSaysQuarryDoesNotReadItYet) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string file = (quarry::testing::parquetTestingDir() / "data" / "nested_maps.snappy.parquet").string();
  const auto run = runQuarry({"query", "FROM \"" + file + "\" | KEEP a, b"});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("column a is a MAP, which quarry does not read yet"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("in " + file), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("^"), std::string::npos) << run.err;
}

TEST(QueryCommand, AMissingFileExitsWith1NamingIt) {
  const auto run = runQuarry({"query", "FROM \"/nonexistent/x.parquet\" | LIMIT 1"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("/nonexistent/x.parquet"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace quarry::cli
