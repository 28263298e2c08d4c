// Runs `quarry print` (QUARRY_BINARY) on parquet-testing files and checks what a
// user or a script sees. The values themselves are compared with DuckDB's by
// tests/differential/read_values.mjs and print_csv.mjs.

#include <gtest/gtest.h>

#include <algorithm>
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

TEST(PrintCommand, CsvHasAHeaderAndDuckDbsTextForEachValue) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run =
      runQuarry({"print", "--format", "csv", "--head", "2", dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out,
            "id,bool_col,tinyint_col,smallint_col,int_col,bigint_col,float_col,double_col,"
            "date_string_col,string_col,timestamp_col\n"
            "4,true,0,0,0,0,0.0,0.0,03/01/09,0,2009-03-01 00:00:00\n"
            "5,false,1,1,1,10,1.1,10.1,03/01/09,1,2009-03-01 00:01:00\n");
}

TEST(PrintCommand, CsvQuotesNestedValuesAndLeavesNullEmpty) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"print", "--format", "csv", "--columns", "id,int_array,int_map",
                              dataFile("nullable.impala.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "id,int_array,int_map\n"
            "1,\"[1, 2, 3]\",\"{k1=1, k2=100}\"\n"
            "2,\"[NULL, 1, 2, NULL, 3, NULL]\",\"{k1=2, k2=NULL}\"\n"
            "3,[],{}\n"
            "4,,{}\n"
            "5,,{}\n"
            "6,,\n"
            "7,,\"{k1=NULL, k3=NULL}\"\n");
}

TEST(PrintCommand, NdjsonWritesOneTypedObjectPerRow) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run =
      runQuarry({"print", "--format", "ndjson", "--head", "1", dataFile("alltypes_plain.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // Issue 26: "JSON output renders int64 and decimals as strings" -- numbers now,
  // INT64 too (strings only past 2^53 with --json-big-numbers-as-strings).
  EXPECT_EQ(
      run.out,
      "{\"id\":4,\"bool_col\":true,\"tinyint_col\":0,\"smallint_col\":0,\"int_col\":0,"
      "\"bigint_col\":0,\"float_col\":0,\"double_col\":0,\"date_string_col\":\"03/01/09\","
      "\"string_col\":\"0\",\"timestamp_col\":\"2009-03-01 00:00:00\"}\n");
}

TEST(PrintCommand, NdjsonNestsStructsListsAndMaps) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run =
      runQuarry({"print", "--format", "ndjson", "--head", "1", "--columns",
                 "int_map,nested_struct.A,nested_struct.b", dataFile("nullable.impala.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "{\"int_map\":[{\"key\":\"k1\",\"value\":1},{\"key\":\"k2\",\"value\":100}],"
            "\"nested_struct\":{\"A\":1,\"b\":[1]}}\n");
}

TEST(PrintCommand, JsonIsOneValidArray) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"print", "--format", "json", dataFile("nullable.impala.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  std::string error;
  EXPECT_TRUE(JsonValidator(run.out).validate(&error)) << error << "\n" << run.out;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 7 + 2);
  const auto empty =
      runQuarry({"print", "--format", "json", "--head", "0", dataFile("nullable.impala.parquet")});
  EXPECT_EQ(empty.out, "[]\n");
}

TEST(PrintCommand, TableAlignsColumnsAndShowsNull) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry(
      {"print", "--columns", "id,int_array", "--head", "3", dataFile("nullable.impala.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // Numbers right-aligned, as query aligns them; the footer counts the rows.
  EXPECT_EQ(run.out,
            "id  int_array\n"
            " 1  [1, 2, 3]\n"
            " 2  [NULL, 1, 2, NULL, 3, NULL]\n"
            " 3  []\n"
            "(3 rows)\n");
}

TEST(PrintCommand, MapWithoutValueFieldPrintsItsKeysAsAList) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run = runQuarry({"print", "--format", "csv", dataFile("map_no_value.parquet")});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "my_map,my_map_no_v,my_list\n"
            "\"{1=NULL, 2=NULL, 3=NULL}\",\"[1, 2, 3]\",\"[1, 2, 3]\"\n"
            "\"{4=NULL, 5=NULL, 6=NULL}\",\"[4, 5, 6]\",\"[4, 5, 6]\"\n"
            "\"{7=NULL, 8=NULL, 9=NULL}\",\"[7, 8, 9]\",\"[7, 8, 9]\"\n");
}

TEST(PrintCommand, UnknownColumnFailsWithOneLineNamingIt) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run =
      runQuarry({"print", "--columns", "id,nosuch", dataFile("alltypes_plain.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("alltypes_plain.parquet"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no column 'nosuch' in "), std::string::npos) << run.err;
}

TEST(PrintCommand, CorruptFileFailsWithOneLineAndNoPartialJson) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto run =
      runQuarry({"print", "--format", "json", dataFile("datapage_v1-corrupt-checksum.parquet")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("CRC mismatch"), std::string::npos) << run.err;
}

TEST(PrintCommand, BadOptionsAreUsageErrors) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string file = dataFile("alltypes_plain.parquet");
  EXPECT_EQ(runQuarry({"print", "--format", "xml", file}).exitCode, 2);
  EXPECT_EQ(runQuarry({"print", "--head", "-1", file}).exitCode, 2);
  EXPECT_EQ(runQuarry({"print"}).exitCode, 2);
  EXPECT_EQ(runQuarry({"print", "--format", "CSV", "--head", "0", file}).out,
            "id,bool_col,tinyint_col,smallint_col,int_col,bigint_col,float_col,double_col,"
            "date_string_col,string_col,timestamp_col\n");
}

}  // namespace
}  // namespace quarry::cli
