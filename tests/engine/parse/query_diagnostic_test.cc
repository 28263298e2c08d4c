#include "quarry/engine/parse/query_diagnostic.h"

#include <gtest/gtest.h>

#include "quarry/engine/parse/query_parser.h"

namespace quarry::engine {
namespace {

std::string rendered(std::string_view query) {
  try {
    parseQuery(query);
  } catch (const QueryError& error) {
    return renderQueryError(error, query);
  }
  ADD_FAILURE() << "no error for " << query;
  return {};
}

TEST(QueryDiagnostic, ShowsTheLineWithACaretAndTheHint) {
  EXPECT_EQ(rendered(R"(FROM "t" | LIMIT ten)"),
            "error: LIMIT takes a non-negative integer, found 'ten'\n"
            "  at line 1, column 18:\n"
            "  FROM \"t\" | LIMIT ten\n"
            "                   ^\n"
            "hint: LIMIT takes a whole number of rows, e.g. LIMIT 10\n");
}

TEST(QueryDiagnostic, RendersAWarningAsAnErrorHeadedWarning) {
  const std::string query = R"(FROM "t" | WHERE u LIKE "%x")";
  EXPECT_EQ(renderQueryWarning(QueryWarning{"a message", 1, 20, "a hint"}, query),
            "warning: a message\n"
            "  at line 1, column 20:\n"
            "  FROM \"t\" | WHERE u LIKE \"%x\"\n"
            "                     ^\n"
            "hint: a hint\n");
}

TEST(QueryDiagnostic, ShowsOnlyTheLineOfAMultiLineQuery) {
  EXPECT_EQ(rendered("FROM \"t\"\r\n| WHERE x >\r\n| LIMIT 1"),
            "error: expected an expression, found '|'\n"
            "  at line 3, column 1:\n"
            "  | LIMIT 1\n"
            "  ^\n");
}

TEST(QueryDiagnostic, KeepsTabsAndCountsCodePointsBeforeTheCaret) {
  EXPECT_EQ(
      rendered("FROM \"\xC3\xA9t\xC3\xA9\"\t| FOO"),
      "error: unknown command 'FOO' after '|'\n"
      "  at line 1, column 14:\n"
      "  FROM \"\xC3\xA9t\xC3\xA9\"\t| FOO\n"
      "            \t  ^\n"
      "hint: commands are WHERE, EVAL, STATS, SORT, KEEP, DROP, RENAME, LIMIT, MV_EXPAND, DISSECT, "
      "GROK, SAMPLE and LOOKUP JOIN\n");
}

TEST(QueryDiagnostic, PutsTheCaretPastTheEndForAMissingToken) {
  const std::string text = rendered(R"(FROM "t" | KEEP a,)");
  EXPECT_NE(text.find("  FROM \"t\" | KEEP a,\n                    ^\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("hint: remove the trailing ','"), std::string::npos);
}

TEST(QueryDiagnostic, SurvivesPositionsOutsideTheText) {
  const std::string text = renderQueryError(QueryError("odd", 9, 40, "h"), "FROM \"t\"");
  EXPECT_NE(text.find("at line 9, column 40"), std::string::npos);
  EXPECT_NE(text.find("hint: h"), std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
