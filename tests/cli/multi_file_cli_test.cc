// Several FILE arguments and glob patterns in `quarry print`, `convert` and
// `inspect` (issue 6, "Globs: ... local directories, `**` recursive; HTTP takes
// explicit lists"): the rows of all files in turn as one output, one CSV
// header; files of different schemas refused naming both; a pattern matching
// nothing is an error naming the pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/support/temp_dir.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

namespace fs = std::filesystem;
using quarry::testing::runQuarry;
using quarry::testing::TempDir;

fs::path parquetFile(const std::string& name) {
  return quarry::testing::parquetTestingDir() / "data" / name;
}
fs::path orcFile(const std::string& name) {
  return quarry::testing::testdataDir() / "orc" / "examples" / name;
}

size_t lineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

#define QUARRY_SKIP_WITHOUT(path)                                                      \
  do {                                                                                 \
    if (!fs::exists(path)) GTEST_SKIP() << "SKIPPED LOUDLY: " << path << " not found"; \
  } while (0)

// alltypes_plain.parquet holds 8 rows (ids 4..7, 2, 3, 0, 1).
TEST(MultiFileCliTest, PrintsTheRowsOfEveryGlobMatchWithOneCsvHeader) {
  const fs::path source = parquetFile("alltypes_plain.parquet");
  QUARRY_SKIP_WITHOUT(source);
  TempDir dir("quarry_multi_file");
  dir.copy(source, "a.parquet");
  dir.copy(source, "x/2024/b.parquet");
  dir.copy(source, "x/c.txt");  // matched by no pattern below
  const std::string pattern = (dir.path() / "**" / "*.parquet").string();
  const auto run = runQuarry({"print", pattern, "--columns", "id", "--format", "csv"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "id\n4\n5\n6\n7\n2\n3\n0\n1\n"
            "4\n5\n6\n7\n2\n3\n0\n1\n");

  // --head counts over all files; ? and [...] as the shell has them.
  const auto head = runQuarry({"print", (dir.path() / "?.parq[a-z]et").string(),
                               (dir.path() / "x" / "*" / "b.parquet").string(), "--columns",
                               "id", "--head", "10", "--format", "csv"});
  ASSERT_EQ(head.exitCode, 0) << head.err;
  EXPECT_EQ(head.out, "id\n4\n5\n6\n7\n2\n3\n0\n1\n4\n5\n");
}

TEST(MultiFileCliTest, ConvertWritesOneNdjsonStreamAndOneJsonArray) {
  const fs::path source = parquetFile("alltypes_plain.parquet");
  QUARRY_SKIP_WITHOUT(source);
  const auto run = runQuarry({"convert", source.string(), source.string(), "--to", "ndjson",
                              "--columns", "id", "--filter", "id < 2"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "{\"id\":0}\n{\"id\":1}\n{\"id\":0}\n{\"id\":1}\n");

  const auto json = runQuarry(
      {"print", source.string(), source.string(), "--columns", "id", "--format", "json"});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_EQ(occurrences(json.out, "["), 1u) << json.out;
  EXPECT_EQ(occurrences(json.out, "{\"id\":"), 16u) << json.out;
}

TEST(MultiFileCliTest, PrintsSeveralOrcFilesAsOneOutput) {
  const fs::path source = orcFile("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT(source);
  const auto run = runQuarry({"print", source.string(), source.string(), "--columns", "string1",
                              "--format", "csv", "--head", "3"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "string1\nhi\nbye\nhi\n");
}

TEST(MultiFileCliTest, RefusesFilesWhoseSchemasDifferNamingBoth) {
  const fs::path first = parquetFile("alltypes_plain.parquet");
  const fs::path second = parquetFile("int32_decimal.parquet");
  const fs::path orc = orcFile("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT(first);
  QUARRY_SKIP_WITHOUT(second);
  QUARRY_SKIP_WITHOUT(orc);
  auto run = runQuarry({"print", first.string(), second.string(), "--format", "csv"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find(first.string()), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(second.string()), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("schema"), std::string::npos) << run.err;

  run = runQuarry({"print", orc.string(), first.string(), "--format", "csv"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find(first.string()), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(orc.string()), std::string::npos) << run.err;
}

TEST(MultiFileCliTest, APatternMatchingNothingIsAnErrorNamingIt) {
  TempDir dir("quarry_multi_file");
  const std::string pattern = (dir.path() / "*.parquet").string();
  for (const char* command : {"print", "inspect"}) {
    const auto run = runQuarry({command, pattern});
    EXPECT_EQ(run.exitCode, 1) << command;
    EXPECT_NE(run.err.find(pattern), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("matches no file"), std::string::npos) << run.err;
  }
}

TEST(MultiFileCliTest, TailReadsOneFile) {
  const fs::path source = parquetFile("alltypes_plain.parquet");
  QUARRY_SKIP_WITHOUT(source);
  const auto run = runQuarry({"print", source.string(), source.string(), "--tail", "1"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("--tail"), std::string::npos) << run.err;
}

TEST(MultiFileCliTest, InspectsSeveralFilesInTurn) {
  const fs::path parquet = parquetFile("alltypes_plain.parquet");
  const fs::path orc = orcFile("TestOrcFile.test1.orc");
  QUARRY_SKIP_WITHOUT(parquet);
  QUARRY_SKIP_WITHOUT(orc);
  const auto text = runQuarry({"inspect", parquet.string(), orc.string()});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("== " + parquet.string() + " ==\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\n== " + orc.string() + " ==\n"), std::string::npos) << text.out;

  const auto json = runQuarry({"inspect", "rowgroups", "--json", parquet.string(), orc.string()});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  ASSERT_GE(json.out.size(), 4u);
  EXPECT_EQ(json.out.substr(0, 2), "[\n") << json.out;
  EXPECT_EQ(json.out.substr(json.out.size() - 2), "]\n") << json.out;
  EXPECT_GE(lineCount(json.out), 4u);
}

}  // namespace
}  // namespace quarry::cli
