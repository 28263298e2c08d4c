#include "quarry/engine/parse/query_printer.h"

#include <gtest/gtest.h>

#include "quarry/engine/parse/query_parser.h"

namespace quarry::engine {
namespace {

std::string canonical(std::string_view text) {
  return printQuery(parseQuery(text));
}

std::string canonicalExpr(std::string_view text) {
  return printExpr(parseExpression(text));
}

// Queries covering every command and expression form; each must print to text
// that parses back to an equal tree, and print the same again.
const char* const kCorpus[] = {
    R"(FROM "data/*.parquet")",
    R"(FROM "a.orc", 's3://b/k/*.orc' WITH {"format": "orc", "schema_resolution": "strict"})",
    R"(FROM "t" WITH {"schema_resolution": "first_file_wins"} | LIMIT 0)",
    R"(FROM "t" | WHERE x > 5 AND NOT y IS NULL OR z IN (1, 2) | LIMIT 10)",
    R"(FROM "t" | WHERE (a OR b) AND (c OR NOT d) | WHERE NOT (a AND b))",
    R"(FROM "t" | EVAL r = round(x, 2), s = -a - -b * (c + d), m = a % 3 / 2)",
    R"(FROM "t" | EVAL n = -(-x), p = -(a + b), q = - - 5)",
    R"(FROM "t" | STATS c = COUNT(*), COUNT(x), COUNT_DISTINCT(y), MIN(a), MAX(a), SUM(a), AVG(a) BY k, m = date_trunc('month', d))",
    R"(FROM "t" | STATS BY k, _file.path)",
    R"(FROM "t" | SORT c DESC, k NULLS FIRST, x ASC NULLS LAST, y DESC NULLS LAST)",
    R"(FROM "t" | KEEP a.b, `weird name`, `a``b`, _file.path, _file.size | DROP x | RENAME a AS b, `c d` AS e)",
    R"(FROM "t" | WHERE d >= DATE '1995-06-17' AND t < TIMESTAMP '1995-06-17 10:00:00.125' AND u == TIMESTAMP '2000-01-01 00:00')",
    R"(FROM "t" | WHERE s LIKE 'a*' AND s NOT LIKE 'b\\?*' AND s LIKE "100%" AND s LIKE """c\*""" AND s RLIKE "a.*" AND NOT s NOT RLIKE """\(b\)c""" AND x NOT IN (1, -2, 3.5) AND y IS NOT NULL)",
    R"(FROM "t" | EVAL c = CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE NULL END, e = case(a, 1, 2))",
    R"(FROM "t" | EVAL d = 12.50, e = 18446744073709551615, f = 123456789012345678901234567890, g = 1.5e3, h = 0.000)",
    R"(FROM "t" | EVAL h = "quote \" backslash \\ newline \n tab \t nul \0 e\u00e9", i = '\'')",
    R"(FROM "t" | EVAL x = 2.5e-300, y = 1e308, z = .5, w = TRUE, v = FALSE, u = null)",
    R"(FROM "t" | WHERE (a == b) == c AND (a IS NULL) IS NOT NULL AND (NOT a) == b)",
    R"(FROM "t" | WHERE a - (b - c) == (a - b) - c AND a / (b * c) > 0)",
    R"(FROM "t" | KEEP `and`, `by`, `end`, date, asc, `1st`, `été`)",
    R"(FROM "t" | STATS `by` = count(*) BY by)",
    R"(ROW a = 1, `b c` = "x", d = -2.5 | EVAL e = a + 1)",
    R"(FROM "t" | STATS r = sum(a) / count(a) WHERE b > 1 OR c IS NULL, m = round(avg(p), 2), c = count(*) WHERE s LIKE "x*" BY k)",
    R"(FROM "t" | KEEP l_*, *_date, `COUNT(*)`, * | DROP *x*)",
    R"(FROM "t" | EVAL a = date_trunc(15 minutes, ts), b = ts + 1 day, c = ts - 3 months, d = bucket(ts, 1 week) | WHERE ts > TIMESTAMP '2024-01-01 00:00' - 90 s)",
    R"(FROM "t" | EVAL a = x::long, b = -y::int::string, c = (x + 1)::double, d = to_datetime(s)::date | WHERE now() > date_parse("yyyy", s) AND date_diff("day", a, now()) > 1 AND date_format("HH:mm", d) == "12:00")",
    R"(FROM "t" | MV_EXPAND a.b | MV_EXPAND `c d`)",
    R"(FROM "t" | LOOKUP JOIN "zones.parquet" ON zone | LOOKUP JOIN "dir/*.orc" ON a, `b c`, s.x)",
    R"(FROM "t" | SAMPLE 0.1 | SAMPLE .5 SEED 18446744073709551615 | SAMPLE 1e-7)",
    R"(FROM "t" | DISSECT msg "%{a} [%{+a}] \"%{b}\"" APPEND_SEPARATOR = "," | GROK `m s` "%{IP:ip} %{NUMBER:n:int}")",
    R"(FROM "t" | WHERE abs(x) > 1 AND length(to_lower(s)) < 3 AND starts_with(to_upper(s), "A") AND date_extract('year', d) == 1995 AND coalesce(a, b, 0) > substring(s, 1, 2))",
};

TEST(QueryPrinter, EveryCorpusQueryRoundTrips) {
  for (const char* text : kCorpus) {
    SCOPED_TRACE(text);
    const Query query = parseQuery(text);
    const std::string printed = printQuery(query);
    const Query reparsed = parseQuery(printed);
    EXPECT_EQ(reparsed, query) << printed;
    EXPECT_EQ(printQuery(reparsed), printed);
  }
}

TEST(QueryPrinter, WritesKeywordsUpperAndFunctionsLower) {
  EXPECT_EQ(
      canonical(
          R"(from "t" | where a is not null and b not in (1) | stats c = Count(*) by k | sort c desc | limit 3)"),
      R"(FROM "t" | WHERE a IS NOT NULL AND b NOT IN (1) | STATS c = count(*) BY k | SORT c DESC NULLS FIRST | LIMIT 3)");
}

TEST(QueryPrinter, WritesParenthesesOnlyWherePrecedenceNeedsThem) {
  EXPECT_EQ(canonicalExpr("((a + (b * c)))"), "a + b * c");
  EXPECT_EQ(canonicalExpr("(a + b) * c"), "(a + b) * c");
  EXPECT_EQ(canonicalExpr("a - (b - c)"), "a - (b - c)");
  EXPECT_EQ(canonicalExpr("(a - b) - c"), "a - b - c");
  EXPECT_EQ(canonicalExpr("(a OR b) AND c"), "(a OR b) AND c");
  EXPECT_EQ(canonicalExpr("a OR (b AND c)"), "a OR b AND c");
  EXPECT_EQ(canonicalExpr("NOT (a == b)"), "NOT a == b");
  EXPECT_EQ(canonicalExpr("(NOT a) == b"), "(NOT a) == b");
  EXPECT_EQ(canonicalExpr("-(a * b)"), "-(a * b)");
  EXPECT_EQ(canonicalExpr("(-a) * b"), "-a * b");
  EXPECT_EQ(canonicalExpr("- (- a)"), "-(-a)");
}

TEST(QueryPrinter, WritesEqualityAsDoubleEqualsAndCaseInSqlForm) {
  EXPECT_EQ(canonicalExpr("a = 1"), "a == 1");
  EXPECT_EQ(canonicalExpr("a <> 1"), "a != 1");
  EXPECT_EQ(canonicalExpr("case(a, 1, b, 2, 3)"), "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END");
}

TEST(QueryPrinter, WritesLiteralsExactly) {
  EXPECT_EQ(canonicalExpr("12.50"), "12.50");
  EXPECT_EQ(canonicalExpr("0.001"), "0.001");
  EXPECT_EQ(canonicalExpr(".5"), "0.5");
  EXPECT_EQ(canonicalExpr("007"), "7");
  EXPECT_EQ(canonicalExpr("1.5e3"), "1.5e+03");
  EXPECT_EQ(canonicalExpr("0.1e0"), "1e-01");
  EXPECT_EQ(canonicalExpr("'it\\'s'"), "\"it's\"");
  EXPECT_EQ(canonicalExpr("'\\u0001'"), "\"\\u0001\"");
  EXPECT_EQ(canonicalExpr("DATE '0001-01-01'"), "DATE '0001-01-01'");
  EXPECT_EQ(canonicalExpr("TIMESTAMP '1995-06-17T10:00'"), "TIMESTAMP '1995-06-17 10:00:00'");
  EXPECT_EQ(canonicalExpr("TIMESTAMP '1995-06-17 10:00:00.500'"),
            "TIMESTAMP '1995-06-17 10:00:00.5'");
  EXPECT_EQ(canonicalExpr("1 DAY"), "1 day");
  EXPECT_EQ(canonicalExpr("15 min"), "15 minutes");
  EXPECT_EQ(canonicalExpr("0 h"), "0 hours");
}

TEST(QueryPrinter, BackquotesNamesThatAreNotBareWords) {
  EXPECT_EQ(printIdentifier(Identifier{{"a", "b"}, {}}), "a.b");
  EXPECT_EQ(printIdentifier(Identifier{{"a.b"}, {}}), "`a.b`");
  EXPECT_EQ(printIdentifier(Identifier{{"weird name"}, {}}), "`weird name`");
  EXPECT_EQ(printIdentifier(Identifier{{"tick`"}, {}}), "`tick```");
  EXPECT_EQ(printIdentifier(Identifier{{"NULL"}, {}}), "`NULL`");
  EXPECT_EQ(printIdentifier(Identifier{{"9lives"}, {}}), "`9lives`");
  EXPECT_EQ(printIdentifier(Identifier{{"date"}, {}}), "date");
}

TEST(QueryPrinter, EqualityIgnoresWhereNodesWereWritten) {
  EXPECT_EQ(parseQuery("FROM \"t\" | WHERE a>1"), parseQuery("FROM   \"t\"\n|\n WHERE  a  >  1"));
  EXPECT_NE(parseQuery("FROM \"t\" | WHERE a > 1"), parseQuery("FROM \"t\" | WHERE a > 2"));
}

}  // namespace
}  // namespace quarry::engine
