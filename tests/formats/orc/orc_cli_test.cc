// `quarry inspect` and `quarry print` on ORC files (recognised by the "ORC"
// magic at offset 0).
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/quarry_run.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

namespace fs = std::filesystem;
using quarry::testing::runQuarry;

std::string example(const std::string& name) {
  return (quarry::testing::testdataDir() / "orc" / "examples" / name).string();
}

#define QUARRY_SKIP_WITHOUT_ORC(path)                                                  \
  do {                                                                                 \
    if (!fs::exists(path)) GTEST_SKIP() << "SKIPPED LOUDLY: " << path << " not found"; \
  } while (0)

TEST(OrcCliTest, InspectSummarisesTheTail) {
  const std::string file = example("TestOrcFile.testSnappy.orc");
  QUARRY_SKIP_WITHOUT_ORC(file);
  const auto run = runQuarry({"inspect", file});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("SNAPPY"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("struct<int1:int,string1:string>"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("10000"), std::string::npos) << run.out;
}

TEST(OrcCliTest, InspectJsonListsStripes) {
  const std::string file = example("demo-12-zlib.orc");
  QUARRY_SKIP_WITHOUT_ORC(file);
  const auto run = runQuarry({"inspect", "rowgroups", "--json", file});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("\"stripes\""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"format\": \"ORC\""), std::string::npos) << run.out;
}

TEST(OrcCliTest, PrintWritesRowsAsNdjson) {
  const std::string file = example("TestOrcFile.testUnionAndTimestamp.orc");
  QUARRY_SKIP_WITHOUT_ORC(file);
  const auto run = runQuarry({"print", file, "--head", "2", "--format", "ndjson"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "{\"time\": \"2000-03-12 15:00:00.0\", \"union\": {\"tag\": 0, \"value\": 42}, "
            "\"decimal\": 12345678.654745600000000000}\n"
            "{\"time\": \"2000-03-20 12:00:00.123456789\", \"union\": {\"tag\": 1, \"value\": "
            "\"hello\"}, \"decimal\": -5643.234000000000000000}\n");
}

TEST(OrcCliTest, PrintCsvProjectsColumns) {
  const std::string file = example("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT_ORC(file);
  const auto run = runQuarry({"print", file, "--columns", "int1,string1", "--format", "csv"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "int1,string1\n65536,hi\n65536,bye\n");
}

// Issue 26: one table writer for every print -- numbers right-aligned, a row
// cap with a footer giving the total the ORC footer tells.
TEST(OrcCliTest, PrintTableAlignsNumbersRightAndCapsRows) {
  const std::string file = example("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT_ORC(file);
  const auto run = runQuarry({"print", file, "--columns", "int1,string1,double1"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            " int1  double1  string1\n"
            "65536      -15  hi\n"
            "65536       -5  bye\n"
            "(2 rows)\n");
  const std::string big = example("TestOrcFile.testUnionAndTimestamp.orc");
  const auto capped = runQuarry({"print", big, "--max-rows", "1", "--columns", "time"});
  ASSERT_EQ(capped.exitCode, 0) << capped.err;
  EXPECT_EQ(capped.out,
            "time\n2000-03-12 15:00:00.0\n(1 of 5,077 rows shown; --max-rows N shows more, 0 all; "
            "--format csv for every row)\n");
}

TEST(OrcCliTest, CorruptFileFailsWithOneLineNamingTheFile) {
  const std::string file = example("corrupt/negative_dict_entry_lengths.orc");
  QUARRY_SKIP_WITHOUT_ORC(file);
  const auto run = runQuarry({"print", file});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("negative_dict_entry_lengths.orc"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace quarry::cli
