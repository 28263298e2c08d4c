// Runs the built `quarry` binary (QUARRY_BINARY) on parquet-testing files and
// checks what a user or a script sees: stdout, the one stderr line, the exit code.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/json_validator.h"
#include "tests/cli/quarry_run.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

using RunResult = testing::QuarryRun;
using testing::runQuarry;

std::string dataFile(const std::string& name) {
  return (testing::parquetTestingDir() / "data" / name).string();
}

size_t lineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(InspectCommand, FileSummaryReportsRowsRowGroupsAndColumns) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run = runQuarry({"inspect", dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_TRUE(std::regex_search(run.out, std::regex("\nrows +8\n"))) << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("\nrow groups +1\n"))) << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("\ncolumns +11\n"))) << run.out;
  EXPECT_NE(run.out.find("created by      impala version 1.3.0-INTERNAL"), std::string::npos);
  EXPECT_NE(run.out.find("optional int96 timestamp_col;"), std::string::npos) << run.out;
}

TEST(InspectCommand, JsonSummaryCarriesTopLevelNumRows) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run = runQuarry({"inspect", "--json", dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::string error;
  ASSERT_TRUE(isValidJson(run.out, &error)) << error << "\n" << run.out;
  EXPECT_EQ(topLevelMember(run.out, "num_rows"), "8");
  EXPECT_EQ(topLevelMember(run.out, "num_row_groups"), "1");
  EXPECT_EQ(topLevelMember(run.out, "version"), "1");
  for (const char* key :
       {"file", "file_size", "created_by", "columns", "schema", "key_value_metadata"}) {
    EXPECT_FALSE(topLevelMember(run.out, key).empty()) << key;
  }
}

TEST(InspectCommand, RowsAreTheRowGroupsSumWhenTheFooterSaysOtherwise) {
  // parquet-rs 0.3.0 wrote num_rows 0 in the footer of a file with 6 rows.
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run = runQuarry({"inspect", "--json", dataFile("repeated_no_annotation.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(topLevelMember(run.out, "num_rows"), "6");
  EXPECT_EQ(topLevelMember(run.out, "footer_num_rows"), "0");
  const RunResult text = runQuarry({"inspect", dataFile("repeated_no_annotation.parquet")});
  EXPECT_NE(text.out.find("footer's num_rows says 0"), std::string::npos) << text.out;
}

TEST(InspectCommand, EveryViewPrintsOneValidJsonDocument) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  for (const char* file : {"alltypes_tiny_pages.parquet", "data_index_bloom_encoding_stats.parquet",
                           "nested_maps.snappy.parquet", "binary_truncated_min_max.parquet",
                           "datapage_v2.snappy.parquet"}) {
    for (const std::vector<std::string>& view :
         {std::vector<std::string>{}, {"rowgroups"}, {"columns"}, {"pages"}}) {
      std::vector<std::string> args{"inspect"};
      args.insert(args.end(), view.begin(), view.end());
      args.push_back("--json");
      args.push_back(dataFile(file));
      const RunResult run = runQuarry(args);
      const std::string what = std::string(file) + " " + (view.empty() ? "" : view[0]);
      ASSERT_EQ(run.exitCode, 0) << what << ": " << run.err;
      std::string error;
      EXPECT_TRUE(isValidJson(run.out, &error)) << what << ": " << error;
      EXPECT_FALSE(topLevelMember(run.out, "num_rows").empty()) << what;
    }
  }
}

TEST(InspectCommand, ColumnsViewShowsStatisticsBloomFilterAndPageIndexLocations) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run =
      runQuarry({"inspect", "columns", dataFile("data_index_bloom_encoding_stats.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("min_value +\"Hello\"\n"))) << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("max_value +\"today\"\n"))) << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("null_count +0\n"))) << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("encoding stats +DATA_PAGE PLAIN x1\n")));
  EXPECT_TRUE(std::regex_search(run.out, std::regex("bloom filter +offset 192, length -\n")));
  EXPECT_TRUE(std::regex_search(run.out, std::regex("column index +offset 156, length 25\n")));
  EXPECT_TRUE(std::regex_search(run.out, std::regex("offset index +offset 181, length 11\n")));
}

TEST(InspectCommand, PagesViewWalksPagesAndShowsPageIndex) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run =
      runQuarry({"inspect", "pages", dataFile("data_index_bloom_encoding_stats.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("1 page in bytes 4..156 (152 bytes)"), std::string::npos) << run.out;
  // One v1 data page: offset 4, PLAIN, header 25 bytes, 127 compressed, 14 values, crc.
  EXPECT_TRUE(std::regex_search(
      run.out, std::regex("0 +4 +DATA_PAGE +PLAIN +RLE/BIT_PACKED +25 +127 +138 +14 +yes")))
      << run.out;
  EXPECT_NE(run.out.find("page index: offset index, column index (boundary order ASCENDING)"),
            std::string::npos);
  EXPECT_TRUE(std::regex_search(run.out, std::regex("0 +4 +152 +0 +no +\"Hello\" +\"today\" +0\n")))
      << run.out;
}

TEST(InspectCommand, PagesViewOfTinyPagesMatchesItsOffsetIndex) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run =
      runQuarry({"inspect", "pages", "--json", dataFile("alltypes_tiny_pages.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  ASSERT_TRUE(isValidJson(run.out));
  // Column id: 325 data pages walked, and an offset index locating each of them.
  EXPECT_NE(run.out.find("\"offset_index\": {"), std::string::npos);
  EXPECT_NE(run.out.find("{\"offset\": 4, \"compressed_page_size\": 109, \"first_row_index\": 0}"),
            std::string::npos);
  EXPECT_NE(run.out.find("{\"offset\": 113, \"compressed_page_size\": 109, "
                         "\"first_row_index\": 21}"),
            std::string::npos);
  EXPECT_NE(run.out.find("\"boundary_order\": \"ASCENDING\""), std::string::npos);
}

TEST(InspectCommand, NanBoundIsShownAsCarried) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult text = runQuarry({"inspect", "columns", dataFile("nan_in_stats.parquet")});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_TRUE(std::regex_search(text.out, std::regex("min_value +1.0\n"))) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex("max_value +NaN\n"))) << text.out;
  const RunResult json =
      runQuarry({"inspect", "columns", "--json", dataFile("nan_in_stats.parquet")});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_NE(json.out.find("\"max_value\": {\"value\": \"NaN\", \"hex\": \"000000000000f87f\"}"),
            std::string::npos)
      << json.out;
}

TEST(InspectCommand, LongKeyValueMetadataIsCutInTextAndWholeInJson) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult text = runQuarry({"inspect", dataFile("nested_maps.snappy.parquet")});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("(truncated; 353 bytes in all, --json shows it whole)"),
            std::string::npos)
      << text.out;
  const RunResult json = runQuarry({"inspect", "--json", dataFile("nested_maps.snappy.parquet")});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_NE(json.out.find("\\\"metadata\\\":{}}]}\"}"), std::string::npos) << json.out;
}

TEST(InspectCommand, MetadataDefectsInBadDataFailWithOneLineNamingFileAndProblem) {
  // bad_data/ files whose defect lies in the footer; the others' defects lie in
  // pages, which reading (not inspecting the footer) rejects.
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::vector<std::pair<const char*, const char*>> files = {
      {"PARQUET-1481.parquet", "unknown physical type"},
      {"ARROW-GH-41317.parquet", "ColumnMetaData.encodings missing"}};
  for (const auto& [name, problem] : files) {
    const std::string path = (testing::parquetTestingDir() / "bad_data" / name).string();
    const RunResult run = runQuarry({"inspect", path});
    EXPECT_EQ(run.exitCode, 1) << name;
    EXPECT_EQ(lineCount(run.err), 1u) << run.err;
    EXPECT_TRUE(run.err.starts_with("quarry: " + path + ": ")) << run.err;
    EXPECT_NE(run.err.find(problem), std::string::npos) << run.err;
  }
}

TEST(InspectCommand, EncryptedFileFailsWithOneLineAboutEncryption) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  for (const char* file : {"uniform_encryption.parquet.encrypted",
                           "encrypt_columns_plaintext_footer.parquet.encrypted"}) {
    for (const char* view : {"rowgroups", "pages"}) {
      const RunResult run = runQuarry({"inspect", view, "--json", dataFile(file)});
      EXPECT_EQ(run.exitCode, 1) << file;
      EXPECT_EQ(run.out, "") << file;
      EXPECT_EQ(lineCount(run.err), 1u) << run.err;
      EXPECT_NE(run.err.find("encrypt"), std::string::npos) << run.err;
      EXPECT_TRUE(run.err.starts_with("quarry: " + dataFile(file) + ": ")) << run.err;
    }
  }
}

TEST(InspectCommand, MissingFileFailsWithOneLineNamingIt) {
  const std::string path = "/nonexistent/quarry/missing.parquet";
  const RunResult run = runQuarry({"inspect", path});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_TRUE(run.err.starts_with("quarry: " + path + ": ")) << run.err;
  // The path is named once, not once by the CLI and again by the storage layer.
  EXPECT_EQ(run.err.find(path), run.err.rfind(path)) << run.err;
}

TEST(InspectCommand, CorruptPageNamesRowGroupColumnAndOffset) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run = runQuarry({"inspect", "pages", dataFile("nation.dict-malformed.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("row group 0, column 1 'name'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("offset 421"), std::string::npos) << run.err;
  // The text shown before the defect is kept; a JSON document never is half-written.
  EXPECT_NE(run.out.find("Row group 0, column 0: nation_key"), std::string::npos);
  const RunResult json =
      runQuarry({"inspect", "pages", "--json", dataFile("nation.dict-malformed.parquet")});
  EXPECT_EQ(json.exitCode, 1);
  EXPECT_EQ(json.out, "");
}

TEST(InspectCommand, NonParquetFileFailsWithOneLine) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const RunResult run = runQuarry({"inspect", dataFile("README.md")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(lineCount(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find("PAR1"), std::string::npos) << run.err;
}

TEST(InspectCommand, UsageErrorsExitWithTwo) {
  EXPECT_EQ(runQuarry({}).exitCode, 2);
  EXPECT_EQ(runQuarry({"inspect"}).exitCode, 2);
  EXPECT_EQ(runQuarry({"inspect", "pages"}).exitCode, 2);
  EXPECT_EQ(runQuarry({"inspect", "--no-such-flag", "x.parquet"}).exitCode, 2);
  EXPECT_EQ(runQuarry({"inspect", "rowgroups", "--no-such-flag", "x.parquet"}).exitCode, 2);
  // Several FILE arguments are no usage error: inspect takes file lists and
  // globs (tests/cli/multi_file_cli_test.cc).
}

TEST(InspectCommand, HelpAndVersionExitWithZero) {
  const RunResult version = runQuarry({"--version"});
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_TRUE(version.out.starts_with("quarry ")) << version.out;
  const RunResult help = runQuarry({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("inspect"), std::string::npos);
  const RunResult inspectHelp = runQuarry({"inspect", "--help"});
  EXPECT_EQ(inspectHelp.exitCode, 0);
  EXPECT_NE(inspectHelp.out.find("rowgroups"), std::string::npos);
  EXPECT_NE(inspectHelp.out.find("--json"), std::string::npos);
}

// main registers only the subcommand argv[1] names (start-up of every query):
// the help, a mistyped name and options before the subcommand still see them all.
TEST(InspectCommand, EverySubcommandIsListedUnlessOneIsNamed) {
  const RunResult help = runQuarry({"--help"});
  for (const char* name : {"inspect", "print", "convert", "schema", "dive", "query", "explain", "serve"}) {
    EXPECT_NE(help.out.find(std::string("\n  ") + name + " "), std::string::npos) << name << " in\n" << help.out;
  }
  const RunResult queryHelp = runQuarry({"query", "--help"});
  EXPECT_EQ(queryHelp.exitCode, 0);
  EXPECT_NE(queryHelp.out.find("--threads"), std::string::npos) << queryHelp.out;
  const RunResult typo = runQuarry({"qurey", "x"});
  EXPECT_EQ(typo.exitCode, 2);
}

}  // namespace
}  // namespace quarry::cli
