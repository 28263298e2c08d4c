#include "quarry/engine/expr/expression_binder.h"

#include <gtest/gtest.h>

#include "expr_test_support.h"
#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using testing::bindText;

Schema lineitem() {
  return {{"l_quantity", DataType::decimal(15, 2)},
          {"l_discount", DataType::decimal(15, 2)},
          {"l_shipdate", DataType::date()},
          {"l_returnflag", DataType::string()},
          {"i", DataType::int32()},
          {"big", DataType::int64()},
          {"u", DataType::uint64()},
          {"d", DataType::float64()},
          {"flag", DataType::boolean()},
          {"ts_utc", DataType::timestamp(TimeUnit::kMicros, true)},
          {"ts_local", DataType::timestamp(TimeUnit::kMillis, false)},
          {"a.b", DataType::int64()},
          {"_file.path", DataType::string()}};
}

QueryError bindError(const std::string& text) {
  try {
    bindText(text, lineitem());
  } catch (const QueryError& e) {
    return e;
  }
  ADD_FAILURE() << "no QueryError for " << text;
  return QueryError("none", 0, 0);
}

DataType typeOf(const std::string& text) {
  return bindText(text, lineitem())->type;
}

TEST(ExpressionBinderTest, ResolvesColumnsByDottedName) {
  const BoundExprPtr b = bindText("a.b", lineitem());
  EXPECT_EQ(b->kind, BoundExpr::Kind::kColumn);
  EXPECT_EQ(b->column, 11);
  EXPECT_EQ(b->name, "a.b");
  EXPECT_EQ(b->type, DataType::int64());
  EXPECT_EQ(bindText("_file.path", lineitem())->column, 12);
}

TEST(ExpressionBinderTest, UnknownColumnPointsAtTheNameAndSuggestsTheClosest) {
  const QueryError e = bindError("l_quantity > 1 AND l_quantty < 5");
  EXPECT_EQ(e.line(), 1);
  EXPECT_EQ(e.column(), 20);
  EXPECT_NE(e.message().find("unknown column l_quantty"), std::string::npos) << e.what();
  EXPECT_EQ(e.hint(), "did you mean l_quantity?");
}

TEST(ExpressionBinderTest, UnknownColumnFarFromAnyListsSome) {
  const QueryError e = bindError("zzzzzzzzzzzz");
  EXPECT_NE(e.hint().find("the columns are: l_quantity, l_discount"), std::string::npos)
      << e.hint();
}

TEST(ExpressionBinderTest, IntegerLiteralsTakeTheSmallestType) {
  // "integer -> int32 if it fits else int64 (else uint64, else decimal(38,0))"
  EXPECT_EQ(typeOf("2147483647"), DataType::int32());
  EXPECT_EQ(typeOf("2147483648"), DataType::int64());
  EXPECT_EQ(typeOf("9223372036854775808"), DataType::uint64());
  EXPECT_EQ(typeOf("100000000000000000000"), DataType::decimal(38, 0));
  // "Unary minus folds into literals (so -2147483648 is int32)"
  EXPECT_EQ(typeOf("-2147483648"), DataType::int32());
  EXPECT_EQ(typeOf("-2147483649"), DataType::int64());
  EXPECT_EQ(typeOf("-9223372036854775808"), DataType::int64());
  EXPECT_EQ(bindText("-2147483648", lineitem())->kind, BoundExpr::Kind::kLiteral);
  EXPECT_EQ(typeOf("-9223372036854775809"), DataType::decimal(38, 0));
}

TEST(ExpressionBinderTest, DecimalAndDoubleLiterals) {
  EXPECT_EQ(typeOf("12.50"), DataType::decimal(4, 2));
  EXPECT_EQ(typeOf("0.05"), DataType::decimal(3, 2));
  EXPECT_EQ(typeOf("-0.5"), DataType::decimal(2, 1));
  EXPECT_EQ(typeOf("1.5e3"), DataType::float64());
  EXPECT_EQ(typeOf("DATE '2020-01-31'"), DataType::date());
  EXPECT_EQ(typeOf("TIMESTAMP '2020-01-31 10:00:00'"),
            DataType::timestamp(TimeUnit::kMicros, false));
  EXPECT_EQ(typeOf("TIMESTAMP '2020-01-31 10:00:00.123456789'"),
            DataType::timestamp(TimeUnit::kNanos, false));
}

TEST(ExpressionBinderTest, ArithmeticTypesFollowDuckDb) {
  EXPECT_EQ(typeOf("i + i"), DataType::int32());
  EXPECT_EQ(typeOf("i + big"), DataType::int64());
  EXPECT_EQ(typeOf("u + u"), DataType::uint64());
  EXPECT_EQ(typeOf("u + big"), DataType::decimal(38, 0));
  EXPECT_EQ(typeOf("i / 2"), DataType::int32());  // integer division
  EXPECT_EQ(typeOf("l_quantity / 2"), DataType::float64());
  EXPECT_EQ(typeOf("d + i"), DataType::float64());
  // DECIMAL(10,2) + DECIMAL(12,3) -> DECIMAL(13,3); BIGINT + DECIMAL(4,1) -> DECIMAL(21,1)
  EXPECT_EQ(typeOf("l_quantity + l_discount"), DataType::decimal(16, 2));
  EXPECT_EQ(typeOf("big + 1.5"), DataType::decimal(21, 1));
  // (15,2) * (15,2): p1 + p2 = 30 > 18 with both inputs <= 18 -> 18 (DuckDB).
  EXPECT_EQ(typeOf("l_quantity * l_discount"), DataType::decimal(18, 4));
  EXPECT_EQ(typeOf("5.5 % 2"), DataType::decimal(11, 1));
  EXPECT_EQ(typeOf("-u"), DataType::decimal(20, 0));
  EXPECT_EQ(typeOf("NULL + i"), DataType::int32());
}

TEST(ExpressionBinderTest, ComparingIncompatibleTypesIsAQueryErrorWithAHint) {
  const QueryError e = bindError("l_returnflag == 5");
  EXPECT_EQ(e.column(), 14);
  EXPECT_NE(e.message().find("cannot compare l_returnflag (string) with 5 (int32)"),
            std::string::npos)
      << e.message();
  EXPECT_EQ(e.hint(), "compare with a string literal: \"5\"");
  EXPECT_NE(bindError("l_shipdate > \"2020-01-01\"").hint().find("DATE 'YYYY-MM-DD'"),
            std::string::npos);
  // "UTC-adjusted vs local timestamps do not compare (a type error at bind time)."
  EXPECT_NE(bindError("ts_utc < ts_local").hint().find("UTC-adjusted"), std::string::npos);
  EXPECT_NE(bindError("l_returnflag + 1").message().find("cannot compute"), std::string::npos);
  EXPECT_NE(bindError("NOT i").message().find("NOT needs a boolean"), std::string::npos);
  EXPECT_NE(bindError("i AND flag").message().find("AND needs booleans"), std::string::npos);
  EXPECT_NE(bindError("i LIKE \"a*\"").message().find("LIKE needs a string"), std::string::npos);
  EXPECT_NE(bindError("i IN (1, \"x\")").message().find("cannot compare"), std::string::npos);
  EXPECT_NE(bindError("CASE WHEN flag THEN 1 ELSE \"x\" END").message().find("do not mix"),
            std::string::npos);
}

// ES|QL refuses a LIKE pattern whose escape character is "not followed by special
// wildcard char": a query error at the LIKE, with how to write the pattern.
TEST(ExpressionBinderTest, LikePatternWithABadEscapeIsAQueryError) {
  const QueryError e = bindError("l_returnflag LIKE \"100\\\\%\"");
  EXPECT_NE(e.message().find("LIKE pattern \"100\\\\%\" escapes '%'"), std::string::npos)
      << e.message();
  EXPECT_EQ(e.column(), 14);
  EXPECT_NE(e.hint().find("wildcards are * and ?"), std::string::npos);
  EXPECT_NE(
      bindError("l_returnflag NOT LIKE \"\"\"a\\\"\"\"").message().find("ends with an escape"),
      std::string::npos);
}

// "An invalid regex is an error naming the pattern and RE2's message", at the RLIKE.
TEST(ExpressionBinderTest, RlikePatternRe2CannotReadIsAQueryError) {
  const QueryError e = bindError("l_returnflag RLIKE \"(A\"");
  EXPECT_NE(e.message().find("RLIKE pattern \"(A\" is not a regular expression RE2 reads: "
                             "missing ): (A"),
            std::string::npos)
      << e.message();
  EXPECT_EQ(e.column(), 14);
  EXPECT_NE(e.hint().find("RE2's syntax"), std::string::npos);
  EXPECT_NE(bindError("i RLIKE \"1\"").message().find("RLIKE needs a string"), std::string::npos);
}

TEST(ExpressionBinderTest, TimestampLiteralTakesTheUtcFlagOfTheColumnItIsComparedWith) {
  const BoundExprPtr b = bindText("ts_utc >= TIMESTAMP '2020-01-01 00:00:00'", lineitem());
  EXPECT_TRUE(b->children[1]->type.utcAdjusted);
  const BoundExprPtr l = bindText("ts_local >= TIMESTAMP '2020-01-01 00:00:00'", lineitem());
  EXPECT_FALSE(l->children[1]->type.utcAdjusted);
  EXPECT_EQ(typeOf("ts_utc IN (TIMESTAMP '2020-01-01 00:00:00')"), DataType::boolean());
}

TEST(ExpressionBinderTest, FunctionsAndAggregates) {
  EXPECT_EQ(typeOf("length(l_returnflag)"), DataType::int64());
  EXPECT_EQ(typeOf("round(l_quantity, 1)"), DataType::decimal(15, 1));
  EXPECT_EQ(typeOf("round(l_quantity)"), DataType::decimal(15, 0));
  EXPECT_EQ(typeOf("round(l_quantity, 5)"), DataType::decimal(15, 2));
  EXPECT_EQ(typeOf("coalesce(i, big, 1.5)"), DataType::decimal(20, 1));
  EXPECT_EQ(typeOf("date_trunc(\"month\", l_shipdate)"), DataType::date());
  EXPECT_EQ(typeOf("date_trunc(\"month\", ts_utc)"), DataType::timestamp(TimeUnit::kMicros, true));
  EXPECT_EQ(typeOf("date_extract(\"dow\", ts_utc)"), DataType::int64());

  QueryError e = bindError("sum(i) > 1");
  EXPECT_EQ(e.message(), "aggregate sum is only allowed in STATS");
  EXPECT_EQ(e.column(), 1);
  e = bindError("lenght(l_returnflag)");
  EXPECT_EQ(e.message(), "unknown function lenght");
  EXPECT_EQ(e.hint(), "did you mean length?");
  EXPECT_NE(bindError("date_trunc(\"fortnight\", l_shipdate)").hint().find("1 year, 1 quarter"),
            std::string::npos);
  EXPECT_NE(bindError("round(d, i)").message().find("integer literal"), std::string::npos);
  EXPECT_NE(bindError("length(i)").message().find("must be a string"), std::string::npos);
  EXPECT_NE(bindError("substring(l_returnflag)").message().find("expected 2 to 3 arguments"),
            std::string::npos);
  EXPECT_NE(bindError("count(*)").message().find("only allowed in STATS"), std::string::npos);
}

TEST(ExpressionBinderTest, ToStringIsCanonical) {
  const auto text = [](const std::string& e) { return bindText(e, lineitem())->toString(); };
  EXPECT_EQ(text("l_quantity > 24"), "(l_quantity > 24)");
  EXPECT_EQ(text("l_shipdate >= DATE '1994-01-01' AND l_discount < 0.07"),
            "((l_shipdate >= DATE '1994-01-01') AND (l_discount < 0.07))");
  EXPECT_EQ(text("NOT flag OR i IS NOT NULL"), "((NOT flag) OR (i IS NOT NULL))");
  EXPECT_EQ(text("i NOT IN (1, -2, NULL)"), "(i NOT IN (1, -2, NULL))");
  EXPECT_EQ(text("l_returnflag LIKE \"A*\""), "(l_returnflag LIKE \"A*\")");
  EXPECT_EQ(text("l_returnflag NOT RLIKE \"A|R\""), "(l_returnflag NOT RLIKE \"A|R\")");
  EXPECT_EQ(text("CASE WHEN i > 1 THEN \"x\" ELSE \"y\" END"),
            "CASE WHEN (i > 1) THEN \"x\" ELSE \"y\" END");
  EXPECT_EQ(text("round(d * 2, 1)"), "round((d * 2), 1)");
  EXPECT_EQ(text("-(i)"), "(-i)");
  EXPECT_EQ(text("a.b + 1"), "(a.b + 1)");
  EXPECT_EQ(text("ts_utc > TIMESTAMP '2020-01-01 10:00:00.5'"),
            "(ts_utc > TIMESTAMP '2020-01-01 10:00:00.5')");
  EXPECT_EQ(text("d == 1.5e0 OR flag == TRUE"), "((d == 1.5e+00) OR (flag == TRUE))");
}

}  // namespace
}  // namespace quarry::engine
