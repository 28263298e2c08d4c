// Issue 26, items 7 and 8, end to end: `quarry query` and `quarry print` write
// one table (table_writer.h) that streams, stops at a row cap with a footer and
// ends quietly when its reader goes away; their JSON writes numbers as numbers
// and a struct as one nested object in both commands.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"

namespace quarry::cli {
namespace {

using quarry::testing::runQuarry;
using quarry::testing::shellQuote;

std::string sample() {
  return std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet";
}
std::string allTypes() {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/all_types.parquet";
}
std::string from(const std::string& file) {
  return "FROM \"" + file + "\"";
}

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string lastLine(const std::string& text) {
  const size_t end = text.size() - 1;
  return text.substr(text.rfind('\n', end - 1) + 1);
}

// "a default row cap with a footer (\"10 of 3,000,000 rows; ...\")": the sample's
// 10,000 rows are known from its footer, so the footer tells them; the query
// stops after its first page (--profile's rows_returned: the rows pulled).
TEST(TableOutput, QueryShowsTheFirstFortyRowsAndTheTotalFromTheFooter) {
  const auto run = runQuarry({"query", "--profile", from(sample()) + " | KEEP trip_id, vendor"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(lines(run.out), 1 + 40 + 1u) << run.out;
  EXPECT_EQ(run.out.substr(0, run.out.find('\n')), "trip_id  vendor");
  EXPECT_EQ(
      lastLine(run.out),
      "(40 of 10,000 rows shown; --max-rows N shows more, 0 all; --format csv for every row)\n");
  const size_t at = run.err.find("\"rows_returned\":");
  ASSERT_NE(at, std::string::npos) << run.err;
  EXPECT_LT(std::stoull(run.err.substr(at + 16)), 10000u) << run.err;
}

TEST(TableOutput, AFilteredQueryIsNotCountedPastTheCap) {
  const auto run = runQuarry(
      {"query", "--max-rows", "3", from(sample()) + " | WHERE fare_amount > 10 | KEEP trip_id"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(lines(run.out), 1 + 3 + 1u) << run.out;
  EXPECT_EQ(lastLine(run.out),
            "(3 rows shown, more not counted; --max-rows N shows more, 0 all; --format csv for "
            "every row)\n");
}

TEST(TableOutput, MaxRowsZeroShowsEveryRowAndCsvIsNeverCapped) {
  const auto all = runQuarry({"query", "--max-rows", "0", from(sample()) + " | KEEP trip_id"});
  ASSERT_EQ(all.exitCode, 0) << all.err;
  EXPECT_EQ(lines(all.out), 1 + 10000 + 1u);
  EXPECT_EQ(lastLine(all.out), "(10,000 rows)\n");
  const auto csv = runQuarry({"query", "--format", "csv", from(sample()) + " | KEEP trip_id"});
  EXPECT_EQ(lines(csv.out), 1 + 10000u);
  const auto print = runQuarry({"print", "--columns", "trip_id", sample()});
  ASSERT_EQ(print.exitCode, 0) << print.err;
  EXPECT_EQ(lines(print.out), 1 + 40 + 1u);
  EXPECT_EQ(
      lastLine(print.out),
      "(40 of 10,000 rows shown; --max-rows N shows more, 0 all; --format csv for every row)\n");
}

// "numbers right-aligned everywhere": print and query give one table.
TEST(TableOutput, PrintAndQueryWriteTheSameTable) {
  const auto query =
      runQuarry({"query", "--max-rows", "5", "--threads", "1",
                 from(sample()) + " | KEEP trip_id, vendor, fare_amount, tip_amount"});
  const auto print = runQuarry(
      {"print", "--max-rows", "5", "--columns", "trip_id,vendor,fare_amount,tip_amount", sample()});
  ASSERT_EQ(query.exitCode, 0) << query.err;
  ASSERT_EQ(print.exitCode, 0) << print.err;
  EXPECT_EQ(query.out, print.out);
  EXPECT_EQ(query.out.substr(0, query.out.find('\n')), "trip_id  vendor  fare_amount  tip_amount");
  EXPECT_EQ(query.out.substr(query.out.find('\n') + 1, 9), "      1  ")
      << query.out;  // right-aligned
}

TEST(TableOutput, ColumnsFitTheWidthColumnsSays) {
  ::setenv("COLUMNS", "30", 1);
  const auto run =
      runQuarry({"query", "--max-rows", "3",
                 from(sample()) + " | KEEP trip_id, vendor, pickup_at, pickup_zone, dropoff_zone"});
  ::unsetenv("COLUMNS");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  size_t start = 0;
  for (int i = 0; i < 4; ++i) {  // the header and 3 rows
    const size_t end = run.out.find('\n', start);
    const std::string line = run.out.substr(start, end - start);
    // ASCII but the ellipsis (3 bytes, one column)
    const size_t ellipses = static_cast<size_t>(std::count(line.begin(), line.end(), '\xA6'));
    EXPECT_LE(line.size() - 2 * ellipses, 30u) << line;
    start = end + 1;
  }
  EXPECT_NE(run.out.find("\xE2\x80\xA6"), std::string::npos) << run.out;
}

// "Writing to a closed pipe (`| head -1`) must end the process promptly
// (SIGPIPE/EPIPE -> quiet exit)": with SIGPIPE ignored (as some parents leave
// it), every row asked for, and head gone after the first line.
TEST(TableOutput, AClosedPipeEndsTheQueryQuietly) {
  const std::string err = ::testing::TempDir() + "quarry-closed-pipe-" + std::to_string(::getpid());
  for (const char* format : {"table", "csv"}) {
    const std::string command =
        "trap '' PIPE; QUARRY_CACHE_DIR=off " + shellQuote(QUARRY_BINARY) +
        " query --max-rows 0 --format " + format + " " + shellQuote(from(sample())) + " 2>" +
        shellQuote(err) + " | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}; cat " + shellQuote(err);
    FILE* pipe = popen(("bash -c " + shellQuote(command)).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    pclose(pipe);
    // SIGPIPE's status (128 + 13) and no message ("cannot write the output").
    EXPECT_EQ(out, "141\n") << format;
  }
  std::remove(err.c_str());
}

// Item 8: "JSON output renders int64 and decimals as strings, and `query`
// flattens a struct (\"device.os\") where `print` nests it."
TEST(JsonOutput, QueryAndPrintWriteNumbersAsNumbersAndOneStructShape) {
  const auto query = runQuarry(
      {"query", "--format", "ndjson",
       from(allTypes()) + " | WHERE id == 0 | KEEP id, i64, u64, d4, d18, d38, st.a, st.b"});
  const auto print = runQuarry({"print", "--format", "ndjson", "--head", "1", "--columns",
                                "id,i64,u64,d4,d18,d38,st", allTypes()});
  ASSERT_EQ(query.exitCode, 0) << query.err;
  ASSERT_EQ(print.exitCode, 0) << print.err;
  const std::string expected =
      "{\"id\":0,\"i64\":-64,\"u64\":18446744073709551615,\"d4\":12.5,\"d18\":-123456789012.345,"
      "\"d38\":12345678901234567890.1234567891,\"st\":{\"a\":7,\"b\":\"x\"}}\n";
  EXPECT_EQ(query.out, expected);
  EXPECT_EQ(print.out, expected);
}

TEST(JsonOutput, BigNumbersBecomeStringsOnlyWithTheFlag) {
  const std::string expected =
      "{\"id\":1,\"i64\":\"-9223372036854775808\",\"u64\":0,\"d18\":0.000,\"d38\":-0.0000000001}\n";
  const auto query =
      runQuarry({"query", "--format", "ndjson", "--json-big-numbers-as-strings",
                 from(allTypes()) + " | WHERE id == 1 | KEEP id, i64, u64, d18, d38"});
  ASSERT_EQ(query.exitCode, 0) << query.err;
  EXPECT_EQ(query.out, expected);
  const auto print =
      runQuarry({"print", "--format", "ndjson", "--json-big-numbers-as-strings", "--columns",
                 "id,i64,u64,d18,d38", "--filter", "id = 1", allTypes()});
  ASSERT_EQ(print.exitCode, 0) << print.err;
  EXPECT_EQ(print.out, expected);
  const auto big = runQuarry({"query", "--format", "ndjson", "--json-big-numbers-as-strings",
                              from(allTypes()) + " | WHERE id == 0 | KEEP u64, d38"});
  EXPECT_EQ(big.out,
            "{\"u64\":\"18446744073709551615\",\"d38\":\"12345678901234567890.1234567891\"}\n");
}

}  // namespace
}  // namespace quarry::cli
