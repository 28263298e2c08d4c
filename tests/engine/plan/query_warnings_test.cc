#include "quarry/engine/plan/query_warnings.h"

#include <gtest/gtest.h>

#include "quarry/engine/parse/query_parser.h"

namespace quarry::engine {
namespace {

std::vector<QueryWarning> warningsOf(const std::string& pipeline) {
  return queryWarnings(parseQuery("FROM \"t\" | " + pipeline));
}

// Issue 27: "A query using LIKE with `%` (SQL's wildcard) gets a hint that
// ES|QL's wildcard is `*`." ES|QL's LIKE: "`*` matches zero or more characters.
// `?` matches one character."
TEST(QueryWarnings, ALikeWithSqlWildcardsAndNoEsqlOnesIsWarnedAbout) {
  const std::vector<QueryWarning> warnings = warningsOf("WHERE url LIKE \"%google%\"");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message,
            "LIKE \"%google%\" has no ES|QL wildcard: its % and _ match themselves");
  EXPECT_EQ(warnings[0].hint,
            "ES|QL's LIKE wildcards are * (any run of characters) and ? (one character); for SQL's "
            "meaning write LIKE \"*google*\"");
  EXPECT_EQ(warnings[0].line, 1);
  EXPECT_EQ(warnings[0].column, 22);  // the LIKE
}

TEST(QueryWarnings, UnderscoreAndNotLikeAreWarnedAboutToo) {
  const std::vector<QueryWarning> warnings = warningsOf("WHERE s NOT LIKE \"a_c\\\\\\\\\"");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message,
            "NOT LIKE \"a_c\\\\\\\\\" has no ES|QL wildcard: its % and _ match themselves");
  EXPECT_NE(warnings[0].hint.find("write NOT LIKE \"a?c\\\\\\\\\""), std::string::npos)
      << warnings[0].hint;
}

TEST(QueryWarnings, PatternsWithEsqlWildcardsOrNoSqlOnesAreNot) {
  EXPECT_TRUE(warningsOf("WHERE s LIKE \"*google*\"").empty());
  EXPECT_TRUE(warningsOf("WHERE s LIKE \"100%*\"").empty());  // % beside a *: meant literally
  EXPECT_TRUE(warningsOf("WHERE s LIKE \"a_?\"").empty());
  EXPECT_TRUE(warningsOf("WHERE s LIKE \"abc\"").empty());
  EXPECT_TRUE(warningsOf("WHERE s == \"%\" | EVAL x = \"_\"").empty());
  EXPECT_TRUE(warningsOf("WHERE s RLIKE \"100%|a_b\"").empty());  // a regular expression
  // An escaped * or ? is no wildcard: the % is still SQL's.
  EXPECT_EQ(warningsOf("WHERE s LIKE \"\"\"%\\*\"\"\"").size(), 1u);
}

TEST(QueryWarnings, EveryLikeOfThePipelineIsLookedAtInOrder) {
  const std::vector<QueryWarning> warnings = warningsOf(
      "WHERE a LIKE \"x%\" OR b LIKE \"y*\"\n"
      "| EVAL c = CASE WHEN d LIKE \"%z\" THEN 1 ELSE 0 END, e = NOT (f LIKE \"_\")\n"
      "| STATS n = COUNT(*) BY g = h LIKE \"%%\"\n"
      "| SORT i LIKE \"j_\"");
  ASSERT_EQ(warnings.size(), 5u);
  EXPECT_NE(warnings[0].message.find("\"x%\""), std::string::npos);
  EXPECT_NE(warnings[1].message.find("\"%z\""), std::string::npos);
  EXPECT_EQ(warnings[1].line, 2);
  EXPECT_NE(warnings[2].message.find("\"_\""), std::string::npos);
  EXPECT_NE(warnings[3].message.find("\"%%\""), std::string::npos);
  EXPECT_NE(warnings[4].message.find("\"j_\""), std::string::npos);
  EXPECT_EQ(warnings[4].line, 4);
}

}  // namespace
}  // namespace quarry::engine
