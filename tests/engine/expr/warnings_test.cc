// ES|QL's warnings (issue 27): "a scalar function given a value it cannot
// convert returns null with a warning". The ES|QL reference: "Line 1:27:
// evaluation of [to_integer(s)] failed, treating result as null. Only first 20
// failures recorded." followed by the failures' messages. quarry gives the same
// nulls as before and counts the rows where a call that can fail (or / and %)
// gave null although no argument was null, one test per family that warns.

#include "quarry/engine/expr/warnings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "expr_test_support.h"
#include "quarry/engine/expr/evaluator.h"

namespace quarry::engine {
namespace {

using testing::bindText;
using testing::render;
using testing::renderAll;
using testing::Table;
using V = std::vector<std::string>;

struct Evaluated {
  V values;
  Warnings warnings;
};

Evaluated evalWarning(const std::string& text, const Table& table) {
  Evaluated out;
  const BoundExprPtr bound = bindText(text, table.schema);
  out.values = renderAll(evaluate(*bound, table.page(), out.warnings));
  return out;
}

Table strings(const std::vector<Scalar>& values) {
  Table t;
  t.add("s", DataType::string(), values);
  return t;
}

/// The one entry of `w`, checked to be the only one.
const Warnings::Entry& only(const Warnings& w) {
  EXPECT_EQ(w.entries().size(), 1u);
  return w.entries().at(0);
}

TEST(WarningsTest, ConversionOfTextThatIsNoNumberWarnsAtTheCall) {
  const Evaluated r = evalWarning(
      "to_integer(s)", strings({std::string("abc"), std::string("12"), std::monostate{}}));
  EXPECT_EQ(r.values, (V{"NULL", "12", "NULL"}));  // the nulls as before
  const Warnings::Entry& e = only(r.warnings);
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(e.column, 1);
  EXPECT_EQ(e.expression, "to_integer(s)");
  EXPECT_EQ(e.failures, 1u);  // the null string is null in, not a failure
  EXPECT_EQ(e.messages, (V{"Cannot parse number [abc]"}));
  EXPECT_EQ(r.warnings.lines(),
            (V{"Line 1:1: evaluation of [to_integer(s)] failed, treating result as null. Only "
               "first 20 failures recorded.",
               "Line 1:1: Cannot parse number [abc]"}));
}

TEST(WarningsTest, ConversionOutOfRangeNamesTheValueAndTheTarget) {
  Table t;
  t.add("d", DataType::float64(), {3e10, 1.0, std::nan("")});
  const Evaluated r = evalWarning("  to_integer(d)", t);
  EXPECT_EQ(r.values, (V{"NULL", "1", "NULL"}));
  const Warnings::Entry& e = only(r.warnings);
  EXPECT_EQ(e.column, 3);
  EXPECT_EQ(e.failures, 2u);
  EXPECT_EQ(e.messages, (V{"[3.0E10] out of [integer] range", "[NaN] out of [integer] range"}));
  // A string that reads as a number but does not fit is out of range too.
  const Evaluated big = evalWarning("to_long(s)", strings({std::string("1e30")}));
  EXPECT_EQ(only(big.warnings).messages, (V{"[1e30] out of [long] range"}));
}

TEST(WarningsTest, CastWarnsAsItsConversionAtTheDoubleColon) {
  const Evaluated r = evalWarning("s::double", strings({std::string("x1")}));
  EXPECT_EQ(r.values, (V{"NULL"}));
  const Warnings::Entry& e = only(r.warnings);
  EXPECT_EQ(e.column, 2);  // where `::` is written
  EXPECT_EQ(e.expression, "to_double(s)");
  EXPECT_EQ(e.messages, (V{"Cannot parse number [x1]"}));
}

TEST(WarningsTest, DatetimeAndIpOfTextThatIsNoneWarn) {
  const Table t = strings({std::string("2024-13-01"), std::string("10.0.0.256")});
  const Evaluated date = evalWarning("to_datetime(s)", t);
  EXPECT_EQ(date.values, (V{"NULL", "NULL"}));
  EXPECT_EQ(only(date.warnings).messages,
            (V{"failed to parse date field [2024-13-01] with format [strict_date_optional_time]",
               "failed to parse date field [10.0.0.256] with format [strict_date_optional_time]"}));
  const Evaluated ip = evalWarning("to_ip(s)", t);
  EXPECT_EQ(only(ip.warnings).failures, 2u);
  EXPECT_EQ(only(ip.warnings).messages.at(1), "'10.0.0.256' is not an IP string literal.");
}

TEST(WarningsTest, MathOutsideItsDomainWarns) {
  Table t;
  t.add("x", DataType::float64(), {-4.0, 4.0, 0.0});
  const Evaluated r = evalWarning("sqrt(x)", t);
  EXPECT_EQ(r.values, (V{"NULL", "2", "0"}));
  EXPECT_EQ(only(r.warnings).messages, (V{"Square root of negative number [-4.0]"}));
  const Evaluated log = evalWarning("log10(x)", t);
  EXPECT_EQ(only(log.warnings).failures, 2u);  // -4 and 0
}

TEST(WarningsTest, DivisionByZeroWarnsWithAConstantOrAColumnDivisor) {
  Table t;
  t.add("a", DataType::int32(), {int32_t{7}, int32_t{8}, std::monostate{}});
  t.add("b", DataType::int32(), {int32_t{0}, int32_t{2}, int32_t{0}});
  const Evaluated columns = evalWarning("a / b", t);
  EXPECT_EQ(columns.values, (V{"NULL", "4", "NULL"}));
  const Warnings::Entry& e = only(columns.warnings);
  EXPECT_EQ(e.column, 3);  // the operator
  EXPECT_EQ(e.expression, "a / b");
  EXPECT_EQ(e.failures, 1u);  // the third row's a is null
  EXPECT_EQ(e.messages, (V{"/ by zero"}));
  const Evaluated constant = evalWarning("a % 0", t);
  EXPECT_EQ(only(constant.warnings).failures, 2u);
  // A null divisor is null in, not a failure.
  EXPECT_TRUE(evalWarning("a / null", t).warnings.empty());
}

// ES|QL's + - * and negation are Java's Math.addExact and its kin, listed with
// `warnExceptions = ArithmeticException`: an overflow is null with Java's
// message ("integer overflow", "long overflow"), which quarry follows with the
// values.
TEST(WarningsTest, IntegerOverflowWarnsNamingTheTypeAndTheValues) {
  Table t;
  t.add("i", DataType::int32(), {int32_t{2147483647}, int32_t{5}, std::monostate{}});
  t.add("l", DataType::int64(), {int64_t{1}, std::numeric_limits<int64_t>::max(), int64_t{0}});
  const Evaluated plus = evalWarning("i + 1", t);
  EXPECT_EQ(plus.values, (V{"NULL", "6", "NULL"}));
  EXPECT_EQ(only(plus.warnings).failures, 1u);  // the null i is null in
  EXPECT_EQ(only(plus.warnings).messages, (V{"integer overflow: 2147483647 + 1"}));
  // The constant on the left, and two columns.
  EXPECT_EQ(only(evalWarning("1 + i", t).warnings).messages,
            (V{"integer overflow: 1 + 2147483647"}));
  const Evaluated times = evalWarning("l * i", t);
  EXPECT_EQ(times.values, (V{"2147483647", "NULL", "NULL"}));
  EXPECT_EQ(only(times.warnings).messages, (V{"long overflow: 9223372036854775807 * 5"}));
  // Negation and abs of the least value; MIN / -1.
  Table least;
  least.add("m", DataType::int32(), {std::numeric_limits<int32_t>::min(), int32_t{-3}});
  const Evaluated negated = evalWarning("-m", least);
  EXPECT_EQ(negated.values, (V{"NULL", "3"}));
  EXPECT_EQ(only(negated.warnings).messages, (V{"integer overflow: -(-2147483648)"}));
  EXPECT_EQ(only(evalWarning("abs(m)", least).warnings).messages,
            (V{"integer overflow: abs(-2147483648)"}));
  EXPECT_EQ(only(evalWarning("m / -1", least).warnings).messages,
            (V{"integer overflow: -2147483648 / -1"}));
  // A decimal overflows its precision.
  Table d;
  d.add("p", DataType::decimal(18, 0), {Int128{999999999999999999}, Int128{2}});
  const Evaluated decimal = evalWarning("p * 10", d);
  EXPECT_EQ(decimal.values, (V{"NULL", "20"}));
  EXPECT_EQ(only(decimal.warnings).messages,
            (V{"decimal(18,0) overflow: 999999999999999999 * 10"}));
  // Double arithmetic does not fail: no warning, no null.
  EXPECT_TRUE(evalWarning("l * 1e308 * 10.0", t).warnings.empty());
}

TEST(WarningsTest, RowsThatDoNotFailLeaveNoWarning) {
  const Evaluated r =
      evalWarning("to_integer(s) + length(s)", strings({std::string("1"), std::monostate{}}));
  EXPECT_EQ(r.values, (V{"2", "NULL"}));
  EXPECT_TRUE(r.warnings.empty());
}

TEST(WarningsTest, OnlyTheFirstTwentyFailuresAreDescribed) {
  std::vector<Scalar> values;
  for (int i = 0; i < 30; ++i) values.push_back(std::string("v") + std::to_string(i));
  const Table t = strings(values);
  const BoundExprPtr bound = bindText("to_long(s)", t.schema);
  Warnings warnings;
  evaluate(*bound, t.page(), warnings);
  evaluate(*bound, t.page(), warnings);  // a second page: counted, not described
  const Warnings::Entry& e = only(warnings);
  EXPECT_EQ(e.failures, 60u);
  EXPECT_EQ(e.recorded, Warnings::kMaxRecorded);
  ASSERT_EQ(e.messages.size(), 20u);
  EXPECT_EQ(e.messages.front(), "Cannot parse number [v0]");
  EXPECT_EQ(e.messages.back(), "Cannot parse number [v19]");
  EXPECT_EQ(warnings.wanted(*bound->warningSite), 0u);
  EXPECT_EQ(warnings.lines().size(), 21u);
}

TEST(WarningsTest, SameMessagesAreRecordedOnce) {
  const Evaluated r = evalWarning(
      "to_integer(s)", strings({std::string("abc"), std::string("abc"), std::string("abc")}));
  EXPECT_EQ(only(r.warnings).failures, 3u);
  EXPECT_EQ(only(r.warnings).recorded, 3u);
  EXPECT_EQ(only(r.warnings).messages, (V{"Cannot parse number [abc]"}));
}

// Drivers fill their own Warnings; the query's merges them: counts add, the
// expressions in the order of the query text, at most 20 messages each.
TEST(WarningsTest, MergeAddsCountsAndKeepsTwentyMessagesInTextOrder) {
  const WarningSite late{2, 5, "sqrt(x)"};
  const WarningSite early{1, 9, "to_ip(s)"};
  Warnings a;
  Warnings b;
  std::vector<std::string> first;
  std::vector<std::string> second;
  for (int i = 0; i < 15; ++i) first.push_back("a" + std::to_string(i));
  for (int i = 0; i < 15; ++i) second.push_back("b" + std::to_string(i));
  a.add(late, 100, first);
  b.add(late, 7, second);
  b.add(early, 1, {"m"});
  a.merge(b);
  ASSERT_EQ(a.entries().size(), 2u);
  EXPECT_EQ(a.entries()[0].expression, "to_ip(s)");
  const Warnings::Entry& merged = a.entries()[1];
  EXPECT_EQ(merged.failures, 107u);
  EXPECT_EQ(merged.recorded, 20u);
  ASSERT_EQ(merged.messages.size(), 20u);
  EXPECT_EQ(merged.messages[14], "a14");
  EXPECT_EQ(merged.messages[15], "b0");
}

TEST(WarningsTest, EvaluatingWithoutASinkGivesTheSameNulls) {
  const Table t = strings({std::string("abc")});
  const BoundExprPtr bound = bindText("to_integer(s)", t.schema);
  EXPECT_EQ(render(evaluate(*bound, t.page()), 0), "NULL");
}

}  // namespace
}  // namespace quarry::engine
