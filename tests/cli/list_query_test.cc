// `quarry query` over LIST columns (tests/fixtures/engine_source/lists.parquet):
// lists pass through the commands that move rows, render as DuckDB 1.5 renders
// the same lists (csv: COPY ... TO csv; json: arrays of the element's JSON), test
// IS NULL, are their one value to an operator or a single-value function (null
// with a warning for several), and every other use is a plan-time error pointing
// at the list.

#include <gtest/gtest.h>

#include <string>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"

namespace quarry::cli {
namespace {

using quarry::testing::runQuarry;

std::string from() {
  return "FROM \"" + std::string(QUARRY_SOURCE_DIR) +
         "/tests/fixtures/engine_source/lists.parquet\"";
}

// DuckDB: COPY (SELECT id, li, ld, ls FROM ... WHERE id < 6 OR id = 11 ORDER BY id) TO 'o.csv'
TEST(ListQuery, CsvRendersListsAsDuckDb) {
  const auto run =
      runQuarry({"query", "--format", "csv",
                 from() + " | WHERE id < 6 OR id == 11 | SORT id | KEEP id, li, ld, ls"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "id,li,ld,ls\n"
            "0,,,\n"
            "1,[],\"[0.5, NULL]\",[]\n"
            "2,[NULL],\"[1.0, NULL]\",\"[s2, NULL, 'x,y']\"\n"
            "3,\"[3, 4, 5]\",,\"[s3, NULL, 'x,y']\"\n"
            "4,\"[4, 5, 6]\",\"[2.0, NULL]\",\"[s4, NULL, 'x,y']\"\n"
            "5,\"[5, 6, NULL]\",\"[2.5, NULL]\",\"[s5, NULL, 'x,y']\"\n"
            "11,\"[11, 12, 13]\",\"[5.5, NULL]\",\n");
}

TEST(ListQuery, JsonRendersListsAsArrays) {
  const auto run = runQuarry({"query", "--format", "ndjson",
                              from() + " | WHERE id IN (0, 1, 2, 5) | SORT id | KEEP id, li, ls"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out,
            "{\"id\":0,\"li\":null,\"ls\":null}\n"
            "{\"id\":1,\"li\":[],\"ls\":[]}\n"
            "{\"id\":2,\"li\":[null],\"ls\":[\"s2\",null,\"x,y\"]}\n"
            "{\"id\":5,\"li\":[5,6,null],\"ls\":[\"s5\",null,\"x,y\"]}\n");
}

// DuckDB: SELECT id, li FROM ... WHERE li IS NULL AND id < 30 ORDER BY id: 0, 7, 14, 21, 28.
TEST(ListQuery, IsNullTestsTheListNotItsElements) {
  const auto run = runQuarry(
      {"query", "--format", "csv", from() + " | WHERE li IS NULL AND id < 30 | SORT id | KEEP id"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "id\n0\n7\n14\n21\n28\n");
  // An empty list ([], id 1) and a list of a null ([NULL], id 2) are not null.
  const auto notNull =
      runQuarry({"query", "--format", "csv",
                 from() + " | WHERE li IS NOT NULL AND id < 3 | SORT id | KEEP id"});
  ASSERT_EQ(notNull.exitCode, 0) << notNull.err;
  EXPECT_EQ(notNull.out, "id\n1\n2\n");
  // DuckDB: SELECT count(*) FROM ... WHERE li IS NULL -> 715 (never from statistics).
  const auto counted =
      runQuarry({"query", "--format", "csv", from() + " | WHERE li IS NULL | STATS n = COUNT(*)"});
  ASSERT_EQ(counted.exitCode, 0) << counted.err;
  EXPECT_EQ(counted.out, "n\n715\n");
}

TEST(ListQuery, ListsPassThroughEvalRenameDropAndTopN) {
  const auto run = runQuarry({"query", "--format", "csv",
                              from() + " | EVAL t = li | RENAME ls AS strings | DROP ld, li"
                                       " | SORT id DESC | LIMIT 2 | KEEP id, t, strings"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // 4999 % 7 = 1 (an empty list), 4999 % 11 = 5; 4998 % 7 = 0 (null), 4998 % 11 = 4.
  EXPECT_EQ(run.out,
            "id,t,strings\n"
            "4999,[],\"[s7, NULL, 'x,y']\"\n"
            "4998,,\"[s6, NULL, 'x,y']\"\n");
}

// ES|QL: a list sorts ascending by its least element, descending by its greatest
// (a list without a value as null). DuckDB: ORDER BY list_min(li) NULLS LAST, id
// LIMIT 4 / ORDER BY list_max(li) DESC NULLS LAST, id LIMIT 3.
TEST(ListQuery, SortByAListUsesItsMinimumOrMaximum) {
  const auto up =
      runQuarry({"query", "--format", "csv", from() + " | SORT li, id | LIMIT 4 | KEEP id"});
  ASSERT_EQ(up.exitCode, 0) << up.err;
  EXPECT_EQ(up.out, "id\n999\n1999\n2999\n3\n");
  const auto down = runQuarry(
      {"query", "--format", "csv", from() + " | SORT li DESC NULLS LAST, id | LIMIT 3 | KEEP id"});
  ASSERT_EQ(down.exitCode, 0) << down.err;
  EXPECT_EQ(down.out, "id\n4997\n4996\n4994\n");
}

TEST(ListQuery, TableRendersListsLeftAligned) {
  const auto run = runQuarry({"query", from() + " | WHERE id == 5 | KEEP li"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("[5, 6, NULL]"), std::string::npos) << run.out;
}

// ES|QL: "a scalar function given a multi-valued field returns null with a
// warning"; a field of one value is that value. ld is [x, NULL]: one value.
// DuckDB: SELECT id FROM ... WHERE len(list_filter(ld, x -> x IS NOT NULL)) = 1 AND
// list_filter(ld, x -> x IS NOT NULL)[1] > 4.0 AND id < 20 ORDER BY id.
TEST(ListQuery, AnOperatorTakesAListsOneValueAndWarnsOnSeveral) {
  const auto one = runQuarry(
      {"query", "--format", "csv", from() + " | WHERE ld > 4.0 AND id < 20 | SORT id | KEEP id"});
  ASSERT_EQ(one.exitCode, 0) << one.err;
  EXPECT_EQ(one.out, "id\n10\n11\n13\n14\n16\n17\n19\n");
  EXPECT_EQ(one.err, "");  // no list of ld has several values
  // li holds 3 values mostly: null, with a warning naming li + 1.
  const auto several =
      runQuarry({"query", "--format", "csv",
                 from() + " | EVAL x = li + 1 | WHERE id < 6 | SORT id | KEEP id, x"});
  ASSERT_EQ(several.exitCode, 0) << several.err;
  EXPECT_EQ(several.out, "id,x\n0,\n1,\n2,\n3,\n4,\n5,\n");
  EXPECT_NE(several.err.find("evaluation of [li + 1] failed, treating result as null."),
            std::string::npos)
      << several.err;
  EXPECT_NE(several.err.find("single-value function encountered multi-value"), std::string::npos)
      << several.err;
}

TEST(ListQuery, OtherUsesOfAListAreErrorsAtTheList) {
  struct Case {
    std::string pipe;
    std::string message;
  };
  const Case cases[] = {
      {" | WHERE li", "WHERE takes one value per row"},
      {" | STATS n = COUNT(*) BY li", "a BY key takes one value per row"},
      {" | EVAL x = CASE(id > 1, li, li)", "takes one value per row"},
      {" | EVAL x = TO_STRING(li)", "the function to_string takes one value per row"},
      {" | EVAL x = COALESCE(li, li)", "the function coalesce takes one value per row"},
  };
  for (const Case& c : cases) {
    const auto run = runQuarry({"query", from() + c.pipe});
    EXPECT_EQ(run.exitCode, 2) << c.pipe;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << c.pipe << ": " << run.err;
    EXPECT_NE(run.err.find("list<int32>") == std::string::npos ? run.err.find("list<string>") : 0,
              std::string::npos)
        << c.pipe << ": " << run.err;
  }
}

}  // namespace
}  // namespace quarry::cli
