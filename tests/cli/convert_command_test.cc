// Runs `quarry convert`, `quarry print --tail / --filter`, `quarry schema` and
// the terminal check of `quarry dive` (QUARRY_BINARY) on parquet-testing and ORC
// files. convert's CSV against DuckDB's COPY TO is differential_convert_csv.

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/cli/json_validator.h"
#include "tests/cli/quarry_run.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

using testing::runQuarry;

std::string dataFile(const std::string& name) {
  return (quarry::testing::parquetTestingDir() / "data" / name).string();
}

std::string orcFile(const std::string& name) {
  return (quarry::testing::testdataDir() / "orc" / "examples" / name).string();
}

// alltypes_plain.parquet holds ids 4 5 6 7 2 3 0 1, in that order.
TEST(ConvertCommand, CsvIsPrintsCsv) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto convert = runQuarry({"convert", dataFile("alltypes_plain.parquet"), "--to", "csv"});
  const auto print = runQuarry({"print", "--format", "csv", dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(convert.exitCode, 0) << convert.err;
  EXPECT_EQ(convert.out, print.out);
  EXPECT_EQ(convert.err, "");
}

TEST(ConvertCommand, NdjsonWithColumnsAndFilter) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"convert", dataFile("alltypes_plain.parquet"), "--to", "ndjson",
                              "--columns", "id,bool_col", "--filter", "id >= 5 AND id < 7"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "{\"id\":5,\"bool_col\":false}\n{\"id\":6,\"bool_col\":true}\n");
}

TEST(ConvertCommand, OutputFileHoldsWhatStdoutWould) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::filesystem::path out = std::filesystem::temp_directory_path() /
                                    ("quarry_convert_" + std::to_string(getpid()) + ".csv");
  const auto run = runQuarry({"convert", dataFile("alltypes_plain.parquet"), "--to", "csv",
                              "--columns", "id", "--tail", "2", "-o", out.string()});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "");
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(out);
  EXPECT_EQ(text, "id\n0\n1\n");
}

TEST(ConvertCommand, ToIsRequiredAndChecked) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  EXPECT_EQ(runQuarry({"convert", dataFile("alltypes_plain.parquet")}).exitCode, 2);
  EXPECT_EQ(runQuarry({"convert", dataFile("alltypes_plain.parquet"), "--to", "xml"}).exitCode, 2);
}

// query-controls.txt, Limits: "tail(n) reads the last n rows of the file"; head
// "applies after skip or tail".
TEST(PrintCommand, TailPrintsTheLastRowsAndHeadAppliesAfterIt) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto tail = runQuarry({"print", "--format", "csv", "--columns", "id", "--tail", "3",
                               dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(tail.exitCode, 0) << tail.err;
  EXPECT_EQ(tail.out, "id\n3\n0\n1\n");
  const auto both = runQuarry({"print", "--format", "csv", "--columns", "id", "--tail", "3",
                               "--head", "1", dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(both.out, "id\n3\n");
  const auto more = runQuarry({"print", "--format", "csv", "--columns", "id", "--tail", "100",
                               dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(more.out, "id\n4\n5\n6\n7\n2\n3\n0\n1\n");
}

// query-controls.txt, Limits: tail is rejected "with a filter".
TEST(PrintCommand, TailWithFilterIsRefusedInOneLine) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run =
      runQuarry({"print", "--tail", "1", "--filter", "id > 1", dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("tail"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST(PrintCommand, FilterSyntaxErrorNamesThePosition) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"print", "--filter", "id >> 3", dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("alltypes_plain.parquet"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--filter: expected a literal"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("position 5"), std::string::npos) << run.err;
}

TEST(PrintCommand, FilterOnAnUnknownColumnNamesIt) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"print", "--filter", "nope = 1", dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("nope"), std::string::npos) << run.err;
}

TEST(PrintCommand, TailOnOrcPrintsTheLastRows) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string file = orcFile("TestOrcFile.test1.orc");
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "SKIPPED LOUDLY: no " << file;
  const auto all = runQuarry({"print", "--format", "ndjson", file});
  const auto tail = runQuarry({"print", "--format", "ndjson", "--tail", "1", file});
  ASSERT_EQ(tail.exitCode, 0) << tail.err;
  ASSERT_FALSE(tail.out.empty());
  EXPECT_EQ(std::count(tail.out.begin(), tail.out.end(), '\n'), 1);
  EXPECT_TRUE(all.out.ends_with(tail.out)) << tail.out;
}

TEST(SchemaCommand, ParquetTreeHasTypesRepetitionAndLevels) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"schema", dataFile("nullable.impala.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("optional int64 id;  -- def 1 rep 0, column 0\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("optional group int_array (LIST) {  -- def 1 rep 0\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("optional int32 element;  -- def 3 rep 1, column 1\n"), std::string::npos)
      << run.out;
}

TEST(SchemaCommand, JsonIsOneDocumentWithLevels) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"schema", "--format", "json", dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_TRUE(isValidJson(run.out)) << run.out;
  EXPECT_NE(run.out.find("\"format\": \"parquet\""), std::string::npos);
  EXPECT_NE(run.out.find("\"max_definition_level\": 1"), std::string::npos);
}

TEST(SchemaCommand, OrcShowsEachTypeWithItsColumnId) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string file = orcFile("TestOrcFile.test1.orc");
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "SKIPPED LOUDLY: no " << file;
  const auto run = runQuarry({"schema", file});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("(ORC)"), std::string::npos);
  EXPECT_NE(run.out.find("boolean1: boolean  -- column 1\n"), std::string::npos) << run.out;
  const auto json = runQuarry({"schema", "--format", "json", file});
  EXPECT_TRUE(isValidJson(json.out)) << json.out;
}

TEST(SchemaCommand, MissingFileIsOneLine) {
  const auto run = runQuarry({"schema", "/nonexistent/x.parquet"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("/nonexistent/x.parquet"), std::string::npos);
}

TEST(DiveCommand, RefusesWithoutATerminalInOneLine) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // runQuarry's stdout is a pipe: not a terminal.
  const auto run = runQuarry({"dive", dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "quarry dive: needs a terminal (stdin and stdout must be a TTY); use 'quarry inspect' "
            "or 'quarry schema' in scripts\n");
}

}  // namespace
}  // namespace quarry::cli
