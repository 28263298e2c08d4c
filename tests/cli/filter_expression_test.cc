// The --filter expression language of `quarry print` / `quarry convert`
// (cli/filter_expression.h), parsed against the schema of parquet-testing's
// alltypes_plain.parquet: id INT32, bool_col BOOLEAN, bigint_col INT64,
// float_col FLOAT, double_col DOUBLE, string_col BYTE_ARRAY, timestamp_col INT96.

#include "quarry/cli/filter_expression.h"

#include <gtest/gtest.h>

#include <variant>

#include "quarry/cli/inspected_file.h"
#include "quarry/common/error.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

using parquet::FilterPredicate;

class FilterExpression : public ::testing::Test {
 protected:
  void SetUp() override {
    QUARRY_SKIP_WITHOUT_TESTDATA();
    file_.emplace(InspectedFile::open(
        (quarry::testing::parquetTestingDir() / "data" / "alltypes_plain.parquet").string()));
  }
  FilterPredicate parse(std::string_view text) {
    return parseFilterExpression(text, file_->schema());
  }
  std::string error(std::string_view text) {
    try {
      parse(text);
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::optional<InspectedFile> file_;
};

TEST_F(FilterExpression, ComparisonsAndCombinatorsMapOntoFilterPredicate) {
  EXPECT_EQ(parse("id > 3 AND bool_col = true").toString(), "and(gt(id, 3), eq(bool_col, true))");
  EXPECT_EQ(parse("NOT (double_col <= 1.5 OR string_col IS NULL)").toString(),
            "not(or(ltEq(double_col, 1.5), isNull(string_col)))");
  EXPECT_EQ(parse("id != 1 or id <> 2 or id >= 3 or id < 4").toString(),
            "or(notEq(id, 1), notEq(id, 2), gtEq(id, 3), lt(id, 4))");
  EXPECT_EQ(parse("string_col IS NOT NULL").toString(), "isNotNull(string_col)");
  EXPECT_EQ(parse("id NOT IN (1, 2)").toString(), "not(in(id, 1, 2))");
}

TEST_F(FilterExpression, AndBindsTighterThanOr) {
  EXPECT_EQ(parse("id = 1 OR id = 2 AND bool_col = false").toString(),
            "or(eq(id, 1), and(eq(id, 2), eq(bool_col, false)))");
  EXPECT_EQ(parse("(id = 1 OR id = 2) AND bool_col = false").toString(),
            "and(or(eq(id, 1), eq(id, 2)), eq(bool_col, false))");
}

// query-controls.txt: "Each alternative is a distinct type, so an int64_t literal
// is never an int32_t one": a number takes the type its column asks for.
TEST_F(FilterExpression, LiteralsTakeTheTypeOfTheirColumn) {
  EXPECT_TRUE(std::holds_alternative<int32_t>(parse("id = 7").literals()[0]));
  EXPECT_TRUE(std::holds_alternative<int64_t>(parse("bigint_col = 7").literals()[0]));
  EXPECT_TRUE(std::holds_alternative<float>(parse("float_col > -2").literals()[0]));
  EXPECT_TRUE(std::holds_alternative<double>(parse("double_col > 1e3").literals()[0]));
  EXPECT_TRUE(std::holds_alternative<std::string>(parse("string_col = '1'").literals()[0]));
  const auto in = parse("bigint_col IN (10, 20, 30)");
  ASSERT_EQ(in.literals().size(), 3u);
  EXPECT_TRUE(std::holds_alternative<int64_t>(in.literals()[2]));
  const auto instant = parse("timestamp_col >= '2009-03-01 00:01:00.5'");
  ASSERT_TRUE(std::holds_alternative<Instant>(instant.literals()[0]));
  EXPECT_EQ(std::get<Instant>(instant.literals()[0]).epochSeconds, 1235865660);
  EXPECT_EQ(std::get<Instant>(instant.literals()[0]).nanos, 500'000'000);
}

TEST_F(FilterExpression, QuotesKeywordsAndDottedNames) {
  EXPECT_EQ(parse("string_col = 'it''s'").toString(), "eq(string_col, 'it's')");
  EXPECT_EQ(parse("string_col = \"a b\"").toString(), "eq(string_col, 'a b')");
  EXPECT_EQ(parse("id > 1 and not id in (5)").toString(), "and(gt(id, 1), not(in(id, 5)))");
  EXPECT_EQ(parse("a.b.c IS NULL").toString(), "isNull(a.b.c)");
  EXPECT_EQ(parse("`my col`.x IS NULL").toString(), "isNull(my col.x)");
}

TEST_F(FilterExpression, SyntaxErrorsNameThePositionAndWhatWasExpected) {
  EXPECT_EQ(
      error("id >"),
      "--filter: expected a literal (a number, 'text', TRUE or FALSE) at position 5, found the "
      "end of the expression");
  EXPECT_EQ(error("(id = 1"),
            "--filter: expected ')' at position 8, found the end of the expression");
  EXPECT_EQ(error("id = 1 id = 2"),
            "--filter: expected AND, OR or the end at position 8, found 'id'");
  EXPECT_EQ(error(""),
            "--filter: expected a condition at position 1, found the end of the expression");
  EXPECT_EQ(error("id IS 3"), "--filter: expected NULL or NOT NULL at position 7, found '3'");
  EXPECT_EQ(error("AND id = 1"),
            "--filter: expected a column name, NOT or '(' at position 1, found 'AND'");
  EXPECT_EQ(error("id ~ 1"), "--filter: unexpected character '~' at position 4");
  EXPECT_EQ(error("string_col = 'abc"), "--filter: the quote opened at position 14 is not closed");
}

TEST_F(FilterExpression, DeepNestingIsRefusedNotOverflowed) {
  EXPECT_EQ(parse(std::string(50, '(') + "id = 1" + std::string(50, ')')).toString(), "eq(id, 1)");
  const std::string deep = std::string(100000, '(') + "id = 1" + std::string(100000, ')');
  EXPECT_EQ(error(deep), "--filter: NOT and parentheses nest deeper than 200 at position 201");
  std::string nots;
  for (int i = 0; i < 300; ++i) nots += "NOT ";
  EXPECT_NE(error(nots + "id = 1").find("nest deeper than 200"), std::string::npos);
}

TEST_F(FilterExpression, LiteralsTheColumnCannotTakeAreRejectedWithTheValue) {
  EXPECT_EQ(error("id = 3000000000"),
            "--filter: the literal at position 6 does not fit column 'id': expected a 32-bit "
            "integer, found 3000000000");
  EXPECT_EQ(error("id = 1.5"),
            "--filter: the literal at position 6 does not fit column 'id': expected a 32-bit "
            "integer, found 1.5");
  EXPECT_EQ(error("timestamp_col = 'noon'"),
            "--filter: the literal at position 17 does not fit column 'timestamp_col': expected a "
            "timestamp 'YYYY-MM-DD HH:MM:SS[.fraction]', found 'noon'");
}

}  // namespace
}  // namespace quarry::cli
