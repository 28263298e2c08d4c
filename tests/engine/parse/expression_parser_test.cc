#include "quarry/engine/parse/expression_parser.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {
namespace {

/// Returns the expression fully parenthesized, so that tests read its shape.
std::string shape(const Expr& expr);

std::string shapeList(const std::vector<Expr>& list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + shape(list[i]);
  return out;
}

std::string shape(const Expr& expr) {
  if (const auto* binary = std::get_if<BinaryExpr>(&expr.node)) {
    static constexpr const char* kSymbols[] = {"OR", "AND", "==", "!=", "<", "<=", ">",
                                               ">=", "+",   "-",  "*",  "/", "%"};
    const std::string op = kSymbols[static_cast<int>(binary->op)];
    return "(" + shape(*binary->left) + " " + op + " " + shape(*binary->right) + ")";
  }
  if (const auto* unary = std::get_if<UnaryExpr>(&expr.node)) {
    return std::string(unary->op == UnaryOp::kNot ? "(NOT " : "(-") + shape(*unary->operand) + ")";
  }
  if (const auto* isNull = std::get_if<IsNullExpr>(&expr.node)) {
    return "(" + shape(*isNull->operand) + (isNull->negated ? " IS NOT NULL)" : " IS NULL)");
  }
  if (const auto* in = std::get_if<InExpr>(&expr.node)) {
    return "(" + shape(*in->operand) + (in->negated ? " NOT IN [" : " IN [") + shapeList(in->list) +
           "])";
  }
  if (const auto* call = std::get_if<CallExpr>(&expr.node)) {
    return call->function + "[" + shapeList(call->args) + "]";
  }
  return printExpr(expr);
}

std::string shapeOf(std::string_view text) {
  return shape(parseExpression(text));
}

QueryError expressionError(std::string_view text) {
  try {
    parseExpression(text);
  } catch (const QueryError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for " << text;
  return QueryError("none", 0, 0);
}

const Literal& literalOf(const Expr& expr) {
  return expr.as<Literal>();
}

// "Operator precedence as ES|QL/SQL: OR < AND < NOT < comparison/IS/IN/LIKE < + - <
// * / % < unary."
TEST(ExpressionParser, OrBindsLooserThanAnd) {
  EXPECT_EQ(shapeOf("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(shapeOf("a AND b OR c"), "((a AND b) OR c)");
}

TEST(ExpressionParser, AndBindsLooserThanNot) {
  EXPECT_EQ(shapeOf("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(shapeOf("NOT NOT a"), "(NOT (NOT a))");
}

TEST(ExpressionParser, NotBindsLooserThanComparisonsAndPredicates) {
  EXPECT_EQ(shapeOf("NOT a == b"), "(NOT (a == b))");
  EXPECT_EQ(shapeOf("NOT a IS NULL"), "(NOT (a IS NULL))");
  EXPECT_EQ(shapeOf("NOT a IN (1)"), "(NOT (a IN [1]))");
  EXPECT_EQ(shapeOf("NOT a LIKE 'x'"), "(NOT a LIKE \"x\")");
}

TEST(ExpressionParser, ComparisonBindsLooserThanArithmetic) {
  EXPECT_EQ(shapeOf("a + 1 < b * 2"), "((a + 1) < (b * 2))");
  EXPECT_EQ(shapeOf("a - b IS NOT NULL"), "((a - b) IS NOT NULL)");
  EXPECT_EQ(shapeOf("a % 2 IN (0, 1)"), "((a % 2) IN [0, 1])");
}

TEST(ExpressionParser, AdditiveBindsLooserThanMultiplicative) {
  EXPECT_EQ(shapeOf("a + b * c - d / e % f"), "((a + (b * c)) - ((d / e) % f))");
}

TEST(ExpressionParser, UnaryMinusBindsTightest) {
  EXPECT_EQ(shapeOf("-a * b"), "((-a) * b)");
  EXPECT_EQ(shapeOf("a - -b"), "(a - (-b))");
  EXPECT_EQ(shapeOf("- - a"), "(-(-a))");
}

TEST(ExpressionParser, BinaryOperatorsAssociateLeft) {
  EXPECT_EQ(shapeOf("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(shapeOf("a / b / c"), "((a / b) / c)");
  EXPECT_EQ(shapeOf("a OR b OR c"), "((a OR b) OR c)");
  EXPECT_EQ(shapeOf("a - (b - c)"), "(a - (b - c))");
}

TEST(ExpressionParser, ReadsEveryComparisonSpelling) {
  EXPECT_EQ(shapeOf("a = b"), "(a == b)");
  EXPECT_EQ(shapeOf("a == b"), "(a == b)");
  EXPECT_EQ(shapeOf("a != b"), "(a != b)");
  EXPECT_EQ(shapeOf("a <> b"), "(a != b)");
  EXPECT_EQ(shapeOf("a < b"), "(a < b)");
  EXPECT_EQ(shapeOf("a <= b"), "(a <= b)");
  EXPECT_EQ(shapeOf("a > b"), "(a > b)");
  EXPECT_EQ(shapeOf("a >= b"), "(a >= b)");
}

TEST(ExpressionParser, ComparisonsDoNotChain) {
  const QueryError error = expressionError("a < b < c");
  EXPECT_EQ(error.column(), 7);
  EXPECT_NE(error.hint().find("AND"), std::string::npos);
  EXPECT_NO_THROW(parseExpression("(a < b) == c"));
  EXPECT_THROW(parseExpression("a IS NULL IS NULL"), QueryError);
}

TEST(ExpressionParser, ReadsIsNullInAndLikeWithNegations) {
  const Expr isNotNull = parseExpression("x IS NOT NULL");
  EXPECT_TRUE(isNotNull.as<IsNullExpr>().negated);
  const Expr notIn = parseExpression("x NOT IN (1, 2, 3)");
  EXPECT_TRUE(notIn.as<InExpr>().negated);
  EXPECT_EQ(notIn.as<InExpr>().list.size(), 3u);
  const Expr like = parseExpression("name LIKE 'a*\\\\?'");
  EXPECT_FALSE(like.as<LikeExpr>().negated);
  EXPECT_EQ(like.as<LikeExpr>().pattern, "a*\\?");
  EXPECT_TRUE(parseExpression("name NOT LIKE \"b\"").as<LikeExpr>().negated);
}

TEST(ExpressionParser, ReadsRlikeAndNotRlikeAsPatternMatches) {
  const Expr rlike = parseExpression("name RLIKE \"a.*\"");
  EXPECT_TRUE(rlike.as<LikeExpr>().regex);
  EXPECT_FALSE(rlike.as<LikeExpr>().negated);
  EXPECT_EQ(rlike.as<LikeExpr>().pattern, "a.*");
  const Expr notRlike = parseExpression("name not rlike \"b\"");
  EXPECT_TRUE(notRlike.as<LikeExpr>().regex);
  EXPECT_TRUE(notRlike.as<LikeExpr>().negated);
  EXPECT_FALSE(parseExpression("name LIKE \"b\"").as<LikeExpr>().regex);
  EXPECT_NE(expressionError("name RLIKE 1").hint().find("RLIKE takes a quoted regular expression"),
            std::string::npos);
  EXPECT_NE(expressionError("a RLIKE \"x\" RLIKE \"y\"").message().find("do not chain"),
            std::string::npos);
  EXPECT_NE(expressionError("rlike == 1").message().find("reserved"), std::string::npos);
}

TEST(ExpressionParser, LikeTakesOnlyAStringPattern) {
  const QueryError error = expressionError("name LIKE other");
  EXPECT_NE(error.message().find("expected a string pattern after LIKE"), std::string::npos);
  EXPECT_NE(error.hint().find("\"a*\""), std::string::npos);
}

TEST(ExpressionParser, ReadsSearchedCase) {
  const Expr expr =
      parseExpression("CASE WHEN a > 1 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'none' END");
  const auto& caseExpr = expr.as<CaseExpr>();
  ASSERT_EQ(caseExpr.whens.size(), 2u);
  EXPECT_EQ(shape(*caseExpr.whens[1].condition), "(a > 0)");
  ASSERT_TRUE(caseExpr.otherwise.has_value());
  EXPECT_EQ(printExpr(**caseExpr.otherwise), "\"none\"");
  EXPECT_FALSE(parseExpression("case when a then 1 end").as<CaseExpr>().otherwise.has_value());
}

TEST(ExpressionParser, ReadsEsqlCaseCallAsTheSameNode) {
  EXPECT_EQ(parseExpression("case(a > 1, 'big', a > 0, 'small', 'none')"),
            parseExpression("CASE WHEN a > 1 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'none' END"));
  EXPECT_EQ(parseExpression("case(a, 1)"), parseExpression("CASE WHEN a THEN 1 END"));
  EXPECT_NE(expressionError("case(a)").message().find("needs a condition and a value"),
            std::string::npos);
}

TEST(ExpressionParser, CaseNeedsWhenAndEnd) {
  EXPECT_NE(expressionError("CASE a WHEN 1 THEN 2 END").message().find("expected WHEN after CASE"),
            std::string::npos);
  const QueryError noEnd = expressionError("CASE WHEN a THEN 1");
  EXPECT_NE(noEnd.message().find("expected END to close the CASE at line 1, column 1"),
            std::string::npos);
}

TEST(ExpressionParser, ReadsCallsWithAnyNameLowerCased) {
  const Expr expr = parseExpression("ROUND(x, 2)");
  EXPECT_EQ(expr.as<CallExpr>().function, "round");
  EXPECT_EQ(expr.as<CallExpr>().args.size(), 2u);
  EXPECT_EQ(shapeOf("coalesce(a, substring(s, 1, 2), date_trunc('month', d))"),
            "coalesce[a, substring[s, 1, 2], date_trunc[\"month\", d]]");
  EXPECT_TRUE(parseExpression("now()").as<CallExpr>().args.empty());
}

TEST(ExpressionParser, ReadsAggregatesAsCalls) {
  EXPECT_EQ(shapeOf("COUNT(*)"), "count[*]");
  EXPECT_EQ(shapeOf("count_distinct(a)"), "count_distinct[a]");
  EXPECT_EQ(shapeOf("sum(a * b) / count(a)"), "(sum[(a * b)] / count[a])");
  EXPECT_NE(expressionError("count(*, a)").message().find("only alone"), std::string::npos);
  EXPECT_THROW(parseExpression("a * *"), QueryError);
}

TEST(ExpressionParser, ReadsColumnNames) {
  EXPECT_EQ(parseExpression("a.b.c").as<ColumnRef>().name.parts,
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(parseExpression("_file.size").as<ColumnRef>().name.dotted(), "_file.size");
  EXPECT_EQ(parseExpression("`end`").as<ColumnRef>().name.parts[0], "end");
  // Keywords outside their place are column names.
  EXPECT_EQ(parseExpression("date").as<ColumnRef>().name.parts[0], "date");
  EXPECT_EQ(parseExpression("by + asc").as<BinaryExpr>().op, BinaryOp::kAdd);
}

TEST(ExpressionParser, ReservedWordsNeedBackquotesAsColumns) {
  const QueryError error = expressionError("end + 1");
  EXPECT_NE(error.message().find("reserved word 'end'"), std::string::npos);
  EXPECT_NE(error.hint().find("`end`"), std::string::npos);
}

TEST(ExpressionParser, ReadsScalarLiterals) {
  EXPECT_TRUE(std::holds_alternative<NullLiteral>(literalOf(parseExpression("null"))));
  EXPECT_EQ(std::get<BooleanLiteral>(literalOf(parseExpression("TRUE"))).value, true);
  EXPECT_EQ(std::get<BooleanLiteral>(literalOf(parseExpression("false"))).value, false);
  EXPECT_EQ(std::get<StringLiteral>(literalOf(parseExpression("'a\\tb'"))).value, "a\tb");
  EXPECT_EQ(std::get<DoubleLiteral>(literalOf(parseExpression("1.5e3"))).value, 1500.0);
}

TEST(ExpressionParser, ReadsIntegersUpToUint64) {
  EXPECT_EQ(std::get<IntegerLiteral>(literalOf(parseExpression("0"))).value, 0u);
  EXPECT_EQ(std::get<IntegerLiteral>(literalOf(parseExpression("18446744073709551615"))).value,
            18446744073709551615u);
  // The minimum int64 is a negation of an integer past INT64_MAX.
  const Expr minimum = parseExpression("-9223372036854775808");
  EXPECT_EQ(std::get<IntegerLiteral>(literalOf(*minimum.as<UnaryExpr>().operand)).value,
            9223372036854775808u);
}

// ES|QL: "A time span requires two elements: an integer value and a temporal unit."
TEST(ExpressionParser, ReadsAnIntegerAndAUnitAsATimeSpan) {
  const auto span = [](std::string_view text) {
    return std::get<TimeSpanLiteral>(literalOf(parseExpression(text)));
  };
  EXPECT_EQ(span("1 day"), (TimeSpanLiteral{1, TimeSpanUnit::kDay}));
  EXPECT_EQ(span("15 MINUTES"), (TimeSpanLiteral{15, TimeSpanUnit::kMinute}));
  EXPECT_EQ(span("3 mo"), (TimeSpanLiteral{3, TimeSpanUnit::kMonth}));
  EXPECT_EQ(span("250 ms"), (TimeSpanLiteral{250, TimeSpanUnit::kMillisecond}));
  EXPECT_EQ(span("2 yr"), (TimeSpanLiteral{2, TimeSpanUnit::kYear}));
  EXPECT_EQ(span("1 q"), (TimeSpanLiteral{1, TimeSpanUnit::kQuarter}));
  EXPECT_EQ(shapeOf("ts + 1 hour"), "(ts + 1 hour)");
  EXPECT_EQ(shapeOf("ts - 2 weeks > x"), "((ts - 2 weeks) > x)");
  EXPECT_EQ(shapeOf("date_trunc(1 year, ts)"), "date_trunc[1 year, ts]");
  // A word that names no unit is not taken: `1 x` stays a syntax error, `1.5 days` too.
  expressionError("1 x");
  expressionError("1.5 days");
  // A backquoted name is a column, never a unit.
  expressionError("1 `day`");
}

TEST(ExpressionParser, KeepsDecimalsExactAsDigitsAndScale) {
  EXPECT_EQ(std::get<DecimalLiteral>(literalOf(parseExpression("12.50"))),
            (DecimalLiteral{"1250", 2}));
  EXPECT_EQ(std::get<DecimalLiteral>(literalOf(parseExpression("0.001"))),
            (DecimalLiteral{"1", 3}));
  EXPECT_EQ(std::get<DecimalLiteral>(literalOf(parseExpression(".5"))), (DecimalLiteral{"5", 1}));
  // Past uint64, an integer is a decimal of scale 0.
  EXPECT_EQ(std::get<DecimalLiteral>(literalOf(parseExpression("18446744073709551616"))),
            (DecimalLiteral{"18446744073709551616", 0}));
  EXPECT_EQ(std::get<DecimalLiteral>(
                literalOf(parseExpression("12345678901234567890123456.789012345678"))),
            (DecimalLiteral{"12345678901234567890123456789012345678", 12}));
}

TEST(ExpressionParser, RejectsNumbersPastTheirType) {
  EXPECT_NE(expressionError("123456789012345678901234567890123456789")
                .message()
                .find("more than 38 digits"),
            std::string::npos);
  EXPECT_NE(expressionError("0.000000000000000000000000000000000000001")
                .message()
                .find("more than 38 digits"),
            std::string::npos);
  EXPECT_NE(expressionError("1e999").message().find("out of the range of a double"),
            std::string::npos);
}

TEST(ExpressionParser, ReadsTypedDateAndTimestampLiterals) {
  EXPECT_EQ(std::get<DateLiteral>(literalOf(parseExpression("DATE '1995-06-17'"))).value,
            Date::ofCivil(1995, 6, 17));
  EXPECT_EQ(std::get<DateLiteral>(literalOf(parseExpression("date '2000-02-29'"))).value,
            Date::ofCivil(2000, 2, 29));
  const auto timestamp =
      std::get<TimestampLiteral>(literalOf(parseExpression("TIMESTAMP '1995-06-17 10:00:00'")));
  EXPECT_EQ(timestamp.value.epochSeconds,
            Date::ofCivil(1995, 6, 17).daysSinceEpoch * 86400LL + 36000);
  EXPECT_EQ(timestamp.value.nanos, 0);
  const auto fraction = std::get<TimestampLiteral>(
      literalOf(parseExpression("timestamp '1970-01-01T00:00:01.000000123'")));
  EXPECT_EQ(fraction.value.epochSeconds, 1);
  EXPECT_EQ(fraction.value.nanos, 123);
  EXPECT_EQ(std::get<TimestampLiteral>(literalOf(parseExpression("TIMESTAMP '1970-01-01 00:01'")))
                .value.epochSeconds,
            60);
}

TEST(ExpressionParser, RejectsImpossibleDatesAndTimes) {
  for (const char* text : {"DATE '1995-02-29'", "DATE '1995-13-01'", "DATE '1995-6-17'",
                           "DATE '1995-06-17 '", "DATE ''"}) {
    const QueryError error = expressionError(text);
    EXPECT_NE(error.message().find("invalid DATE literal"), std::string::npos) << text;
    EXPECT_EQ(error.column(), 6) << text;  // the string, not the keyword
  }
  for (const char* text : {"TIMESTAMP '1995-06-17 24:00:00'", "TIMESTAMP '1995-06-17'",
                           "TIMESTAMP '1995-06-17 10:00:00.'", "TIMESTAMP '1995-06-17 10:60'",
                           "TIMESTAMP '1995-06-17 10:00:00.1234567891'"}) {
    EXPECT_NE(expressionError(text).message().find("invalid TIMESTAMP literal"), std::string::npos)
        << text;
  }
}

TEST(ExpressionParser, PositionsPointAtOperatorsAndFirstTokens) {
  const Expr expr = parseExpression("a +\n  round(b, 2) * -c");
  EXPECT_EQ(expr.position.line, 1);  // the '+'
  EXPECT_EQ(expr.position.column, 3);
  const auto& product = expr.as<BinaryExpr>().right->as<BinaryExpr>();
  EXPECT_EQ(expr.as<BinaryExpr>().right->position.line, 2);  // the '*'
  EXPECT_EQ(expr.as<BinaryExpr>().right->position.column, 15);
  EXPECT_EQ(product.left->position.column, 3);  // round
  EXPECT_EQ(product.left->as<CallExpr>().args[1].position.column, 12);
  EXPECT_EQ(product.right->position.column, 17);  // the unary '-'
  EXPECT_EQ(product.right->as<UnaryExpr>().operand->as<ColumnRef>().name.position.column, 18);
}

TEST(ExpressionParser, ReportsUnclosedParenthesesWhereTheyOpened) {
  const QueryError call = expressionError("round(x, 2");
  EXPECT_EQ(call.column(), 11);
  EXPECT_NE(call.message().find("to close the call of round at line 1, column 6"),
            std::string::npos);
  EXPECT_NE(call.message().find("found end of query"), std::string::npos);
  const QueryError group = expressionError("(a + b");
  EXPECT_NE(group.message().find("expected ')' to close '(' at line 1, column 1"),
            std::string::npos);
  EXPECT_FALSE(group.hint().empty());
  EXPECT_NE(expressionError("x IN (1, 2").message().find("to close the IN list"),
            std::string::npos);
}

TEST(ExpressionParser, TrailingCommaInACallGetsAHint) {
  const QueryError error = expressionError("round(x, )");
  EXPECT_EQ(error.column(), 10);
  EXPECT_EQ(error.hint(), "remove the trailing ','");
}

// ES|QL's inline cast: "The :: operator provides a convenient alternative syntax to
// the TO_<type> conversion functions"; it applies to a primary expression, so it
// binds tighter than unary minus, and chains.
TEST(ExpressionParser, InlineCastIsACallOfTheConversionFunction) {
  EXPECT_EQ(shapeOf("x::long"), "to_long[x]");
  EXPECT_EQ(shapeOf("-x::long"), "(-to_long[x])");
  EXPECT_EQ(shapeOf("x::long::string"), "to_string[to_long[x]]");
  EXPECT_EQ(shapeOf("(a + b)::int * 2"), "(to_integer[(a + b)] * 2)");
  EXPECT_EQ(shapeOf("f(x)::double + 1"), "(to_double[f[x]] + 1)");
  EXPECT_EQ(shapeOf("\"12\"::INTEGER"), "to_integer[\"12\"]");
  EXPECT_EQ(shapeOf("a::long < b::long"), "(to_long[a] < to_long[b])");
  for (const auto& [type, function] :
       std::vector<std::pair<std::string, std::string>>{{"boolean", "to_boolean"},
                                                        {"bool", "to_boolean"},
                                                        {"Integer", "to_integer"},
                                                        {"int", "to_integer"},
                                                        {"LONG", "to_long"},
                                                        {"unsigned_long", "to_unsigned_long"},
                                                        {"double", "to_double"},
                                                        {"keyword", "to_string"},
                                                        {"text", "to_string"},
                                                        {"string", "to_string"},
                                                        {"datetime", "to_datetime"},
                                                        {"date", "to_datetime"}}) {
    EXPECT_EQ(shapeOf("x::" + type), function + "[x]") << type;
  }
  // The cast is the call: the printed form is the function's.
  EXPECT_EQ(parseExpression("x::long"), parseExpression("to_long(x)"));
  EXPECT_EQ(printExpr(parseExpression("-x::long::string")), "-to_string(to_long(x))");
  // ES|QL's `::ip` is TO_IP (ip_functions.h).
  EXPECT_EQ(printExpr(parseExpression("x::ip")), "to_ip(x)");
}

TEST(ExpressionParser, InlineCastToATypeQuarryLacksIsAnError) {
  const QueryError unknown = expressionError("x::version");
  EXPECT_NE(unknown.message().find("cannot cast to 'version'"), std::string::npos) << unknown.message();
  EXPECT_NE(unknown.hint().find("long"), std::string::npos);
  EXPECT_EQ(unknown.column(), 4);
  EXPECT_NE(expressionError("x::").message().find("a type name after '::'"), std::string::npos);
  EXPECT_THROW(parseExpression("x::`long`"), QueryError);
  EXPECT_THROW(parseExpression("x::1"), QueryError);
  EXPECT_THROW(parseExpression("::long"), QueryError);
  std::string chain = "a";
  for (int i = 0; i < 5000; ++i) chain += "::long";
  EXPECT_NE(expressionError(chain).message().find("expression too deep"), std::string::npos);
}

TEST(ExpressionParser, RejectsDeepNestingWithoutCrashing) {
  const std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  EXPECT_NE(expressionError(deep).message().find("nested too deeply"), std::string::npos);
  std::string longChain = "a";
  for (int i = 0; i < 100000; ++i) longChain += " + a";
  EXPECT_NE(expressionError(longChain).message().find("expression too deep"), std::string::npos);
  EXPECT_THROW(parseExpression(std::string(100000, '-') + "a"), QueryError);
  {
    std::string nots;
    for (int i = 0; i < 50000; ++i) nots += "NOT ";
    EXPECT_THROW(parseExpression(nots + "a"), QueryError);
  }
  // A long but legitimate OR chain stays within the limits.
  std::string ors = "a == 0";
  for (int i = 1; i < 500; ++i) ors += " OR a == " + std::to_string(i);
  EXPECT_NO_THROW(parseExpression(ors));
}

}  // namespace
}  // namespace quarry::engine
