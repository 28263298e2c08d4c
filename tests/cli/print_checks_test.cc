// Issue 26, item 9: print and convert name the file and the nearest column for a
// misspelt --columns name, and check every file's schema before the first row.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"

namespace quarry::cli {
namespace {

namespace fs = std::filesystem;
using quarry::testing::runQuarry;

std::string sample() {
  return std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet";
}
std::string otherSchema() {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/predicate_types.parquet";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PrintChecks, AMisspeltColumnNamesTheFileAndTheNearestColumn) {
  // Issue 26: "`print --columns vendr` has no did-you-mean".
  for (const char* command : {"print", "convert"}) {
    std::vector<std::string> args = {command, sample(), "--columns", "fare_amount,vendr"};
    if (std::string(command) == "convert") args.insert(args.end(), {"--to", "csv"});
    const auto run = runQuarry(args);
    EXPECT_EQ(run.exitCode, 1) << command;
    EXPECT_EQ(run.out, "") << command;
    EXPECT_EQ(run.err, "quarry: no column 'vendr' in " + sample() + "; did you mean 'vendor'?\n")
        << command;
  }
  const auto far = runQuarry({"print", sample(), "--columns", "zzzzzzzz"});
  EXPECT_EQ(far.exitCode, 1);
  EXPECT_EQ(far.err, "quarry: no column 'zzzzzzzz' in " + sample() + "\n");
}

TEST(PrintChecks, PrintChecksEverySchemaBeforeItPrintsARow) {
  // Issue 26: "`print` over files with clashing schemas prints the first file's rows
  // and then fails (check every schema before printing anything)".
  for (const char* format : {"csv", "ndjson", "table"}) {
    const auto run = runQuarry({"print", sample(), otherSchema(), "--format", format});
    EXPECT_EQ(run.exitCode, 1) << format;
    EXPECT_EQ(run.out, "") << format;
    EXPECT_TRUE(contains(run.err, otherSchema())) << run.err;
    EXPECT_TRUE(contains(run.err, "the schema differs from that of " + sample())) << run.err;
  }
  const auto convert = runQuarry({"convert", sample(), sample(), otherSchema(), "--to", "csv"});
  EXPECT_EQ(convert.exitCode, 1);
  EXPECT_EQ(convert.out, "");

  // Files that agree still print as one output.
  const auto same =
      runQuarry({"print", sample(), sample(), "--format", "csv", "--columns", "trip_id"});
  ASSERT_EQ(same.exitCode, 0) << same.err;
  EXPECT_EQ(std::count(same.out.begin(), same.out.end(), '\n'), 20001)
      << "one header, 2 x 10,000 rows";
}

}  // namespace
}  // namespace quarry::cli
