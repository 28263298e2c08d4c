// `quarry print` / `quarry convert` --filter on ORC files (literals typed by the
// ORC column: parseOrcFilterExpression), and one open per object: the format
// is told from the object the reader then uses, so a small remote file costs
// one request whatever the command.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/io/nginx_server.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

namespace fs = std::filesystem;
using quarry::testing::NginxServer;
using quarry::testing::runQuarry;

std::string example(const std::string& name) {
  return (quarry::testing::testdataDir() / "orc" / "examples" / name).string();
}

size_t lineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

#define QUARRY_SKIP_WITHOUT(path)                                                      \
  do {                                                                                 \
    if (!fs::exists(path)) GTEST_SKIP() << "SKIPPED LOUDLY: " << path << " not found"; \
  } while (0)

// Expected rows below are read off the ORC project's expected/*.jsn.gz files.
// query-controls.txt, "Supported filter predicates": comparisons, IN, IS NULL,
// AND / OR / NOT over columns.
TEST(OrcFilterCliTest, FiltersIntegerStringAndBooleanColumns) {
  const std::string file = example("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT(file);
  auto run = runQuarry({"print", file, "--columns", "byte1,string1", "--format", "csv",
                        "--filter", "byte1 >= 50 AND string1 = 'bye'"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "byte1,string1\n100,bye\n");

  run = runQuarry({"print", file, "--columns", "string1", "--format", "csv", "--filter",
                   "boolean1 = FALSE OR double1 < -10"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "string1\nhi\n");

  // bigint: a 64-bit literal; NOT IN over strings.
  run = runQuarry({"print", file, "--columns", "string1", "--format", "csv", "--filter",
                   "long1 = 9223372036854775807 AND string1 NOT IN ('hi')"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "string1\nbye\n");
}

TEST(OrcFilterCliTest, TypesDateAndTimestampLiteralsByOrcType) {
  const std::string file = example("TestOrcFile.testDate1900.orc");
  QUARRY_SKIP_WITHOUT(file);
  // date: text is a Date; timestamp (no time zone): text is a LocalDateTime.
  const auto run =
      runQuarry({"print", file, "--format", "csv", "--filter",
                 "date = '1950-12-25' AND time < '1950-05-05 12:34:56.1005'"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(lineCount(run.out), 1u + 5u) << run.out;  // header + 5 rows
  EXPECT_NE(run.out.find("1950-05-05 12:34:56.1004"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("1950-05-05 12:34:56.1005"), std::string::npos) << run.out;
}

TEST(OrcFilterCliTest, TypesDecimalLiteralsAndIsNull) {
  const std::string file = example("decimal.orc");
  QUARRY_SKIP_WITHOUT(file);
  auto run = runQuarry({"print", file, "--format", "csv", "--filter", "_col0 >= 1999.2"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(lineCount(run.out), 2u) << run.out;
  EXPECT_NE(run.out.find("1999.2"), std::string::npos) << run.out;

  run = runQuarry({"convert", file, "--to", "ndjson", "--filter", "_col0 IS NULL"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(lineCount(run.out), 2000u);
}

TEST(OrcFilterCliTest, RefusesALiteralTheColumnCannotTake) {
  const std::string file = example("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT(file);
  auto run = runQuarry({"print", file, "--filter", "int1 = 'abc'"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("int1"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("abc"), std::string::npos) << run.err;

  run = runQuarry({"print", file, "--filter", "nope = 1"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("nope"), std::string::npos) << run.err;

  // query-controls.txt, Limits: tail is rejected "with a filter".
  run = runQuarry({"print", file, "--tail", "1", "--filter", "int1 > 1"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("--tail"), std::string::npos) << run.err;
}

/// Runs `quarry ARGS... URL` against nginx serving the test data and returns
/// how many requests nginx logged (waiting briefly for a late log line).
size_t requestsOf(const std::vector<std::string>& args, const std::string& relativePath) {
  NginxServer server(quarry::testing::testdataDir());
  EXPECT_TRUE(server.running()) << "nginx did not start: " << server.startError();
  std::vector<std::string> all = args;
  all.push_back(server.url(relativePath));
  const auto run = runQuarry(all);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  return server.requestCountReaching(2, std::chrono::milliseconds(300));
}

// Issue 6, "Opening a file costs one request": telling Parquet from ORC reads
// the object the reader then uses, so a file inside the first suffix GET (64
// KiB) costs exactly one request in every command.
TEST(OrcFilterCliTest, OneRequestPerSmallRemoteFile) {
  if (!NginxServer::available()) GTEST_SKIP() << "SKIPPED LOUDLY: nginx not installed";
  const std::string parquet = "parquet-testing/data/alltypes_plain.parquet";
  const std::string orc = "orc/examples/TestOrcFile.test1.orc";
  QUARRY_SKIP_WITHOUT(quarry::testing::testdataDir() / parquet);
  QUARRY_SKIP_WITHOUT(quarry::testing::testdataDir() / orc);
  for (const std::string& path : {parquet, orc}) {
    EXPECT_EQ(requestsOf({"print", "--format", "csv"}, path), 1u) << path;
    EXPECT_EQ(requestsOf({"schema"}, path), 1u) << path;
    EXPECT_EQ(requestsOf({"inspect"}, path), 1u) << path;
  }
}

}  // namespace
}  // namespace quarry::cli
