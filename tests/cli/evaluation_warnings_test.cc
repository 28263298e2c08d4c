// `quarry query` prints ES|QL's warnings (issue 27: "a scalar function given a
// value it cannot use returns null with a warning") on stderr after the
// result, which stays on stdout alone and unchanged, over the bundled sample
// file (data/sample/trips.parquet: 10,000 rows in 3 row groups, run by two
// drivers whose warnings merge).

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"

namespace quarry::cli {
namespace {

using quarry::testing::runQuarry;

std::string from() {
  return "FROM \"" + std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet\"";
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(EvaluationWarnings, FailedRowsAreNullAndNamedOnStderrAfterTheResult) {
  const std::string query = from() +
                            " | EVAL r = trip_minutes / (passenger_count - passenger_count), "
                            "v = to_integer(vendor) | STATS n = COUNT(*), rn = COUNT(r), vn = "
                            "COUNT(v)";
  const std::string division = std::to_string(query.find("/ (") + 1);
  const std::string conversion = std::to_string(query.find("to_integer") + 1);
  const auto run = runQuarry({"query", "--threads", "2", "--format", "csv", query});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "n,rn,vn\n10000,0,0\n");  // the result alone
  const std::vector<std::string> lines = linesOf(run.err);
  // The division's warning first (it comes first in the query), its one message;
  // then to_integer's: one message per vendor, in the order the drivers met them.
  ASSERT_EQ(lines.size(), 6u) << run.err;
  EXPECT_EQ(lines[0], "quarry: warning: Line 1:" + division +
                          ": evaluation of [trip_minutes / (passenger_count - passenger_count)] "
                          "failed, treating result as null. Only first 20 failures recorded.");
  EXPECT_EQ(lines[1], "quarry: warning: Line 1:" + division + ": / by zero");
  EXPECT_EQ(lines[2], "quarry: warning: Line 1:" + conversion +
                          ": evaluation of [to_integer(vendor)] failed, treating result as null. "
                          "Only first 20 failures recorded.");
  std::vector<std::string> vendors(lines.begin() + 3, lines.end());
  std::sort(vendors.begin(), vendors.end());
  const std::string at = "quarry: warning: Line 1:" + conversion + ": Cannot parse number ";
  EXPECT_EQ(vendors, (std::vector<std::string>{at + "[CMT]", at + "[DDS]", at + "[VTS]"}));
}

TEST(EvaluationWarnings, AQueryWhoseRowsAllSucceedPrintsNothingOnStderr) {
  const auto run =
      runQuarry({"query", "--format", "csv", "ROW s = \"12\" | EVAL i = to_integer(s), q = 7 / i"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "s,i,q\n12,12,0\n");
  EXPECT_EQ(run.err, "");
}

// The JSON output keeps its shape: the warnings go to stderr there too.
TEST(EvaluationWarnings, JsonOutputKeepsItsShapeAndWarnsOnStderr) {
  const auto run =
      runQuarry({"query", "--format", "json", "ROW s = \"abc\" | EVAL i = to_integer(s)"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out.find("warning"), std::string::npos) << run.out;
  EXPECT_EQ(linesOf(run.err),
            (std::vector<std::string>{
                "quarry: warning: Line 1:26: evaluation of [to_integer(s)] failed, treating "
                "result as null. Only first 20 failures recorded.",
                "quarry: warning: Line 1:26: Cannot parse number [abc]"}));
}

}  // namespace
}  // namespace quarry::cli
