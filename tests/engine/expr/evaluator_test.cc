#include "quarry/engine/expr/evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "expr_test_support.h"
#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using testing::eval;
using testing::eval1;
using testing::Table;
using V = std::vector<std::string>;

Table numbers() {
  Table t;
  t.add("i", DataType::int32(), {int32_t{7}, int32_t{-7}, std::monostate{}, int32_t{0}});
  t.add("j", DataType::int32(), {int32_t{2}, int32_t{2}, int32_t{3}, int32_t{0}});
  t.add("big", DataType::int64(),
        {int64_t{9007199254740993}, int64_t{-1}, int64_t{0}, std::numeric_limits<int64_t>::max()});
  t.add("d", DataType::float64(), {9007199254740992.0, std::nan(""), -0.0, 1.5});
  t.add("q", DataType::decimal(10, 2), {Int128{1050}, Int128{-25}, std::monostate{}, Int128{0}});
  t.add("u", DataType::uint64(),
        {uint64_t{1}, std::numeric_limits<uint64_t>::max(), uint64_t{0}, uint64_t{5}});
  t.add(
      "s", DataType::string(),
      {std::string("abc"), std::string("\xc3\xa9t\xc3\xa9"), std::monostate{}, std::string("ABC")});
  return t;
}

TEST(EvaluatorTest, ColumnsAndLiterals) {
  EXPECT_EQ(eval("i", numbers()), (V{"7", "-7", "NULL", "0"}));
  EXPECT_EQ(eval("42", numbers()), (V{"42", "42", "42", "42"}));
  EXPECT_EQ(eval("\"x\"", numbers()), (V{"x", "x", "x", "x"}));
  EXPECT_EQ(eval("NULL", numbers()), (V{"NULL", "NULL", "NULL", "NULL"}));
}

TEST(EvaluatorTest, IntegerArithmeticKeepsNullsAndDividesTowardZero) {
  EXPECT_EQ(eval("i + j", numbers()), (V{"9", "-5", "NULL", "0"}));
  EXPECT_EQ(eval("i * j - 1", numbers()), (V{"13", "-15", "NULL", "-1"}));
  // "/ on integers is integer division truncating toward zero"; "division or modulo by zero ->
  // null"
  EXPECT_EQ(eval("i / j", numbers()), (V{"3", "-3", "NULL", "NULL"}));
  // "% integer modulo (sign of the dividend)"
  EXPECT_EQ(eval("i % j", numbers()), (V{"1", "-1", "NULL", "NULL"}));
  EXPECT_EQ(eval("i + big", numbers())[0], "9007199254741000");
  EXPECT_EQ(eval("-i", numbers()), (V{"-7", "7", "NULL", "0"}));
  EXPECT_EQ(eval1("NULL + 1"), "NULL");
  EXPECT_EQ(eval1("-9223372036854775808 / -2"), "4611686018427387904");
}

TEST(EvaluatorTest, IntegerOverflowIsNull) {
  // ES|QL's + - * and negation are Math.addExact and its kin, whose
  // ArithmeticException is "treating result as null" with a warning (the
  // warning: warnings_test.cc).
  EXPECT_EQ(eval1("2147483647 + 1"), "NULL");
  EXPECT_EQ(eval1("2147483646 + 1"), "2147483647");
  EXPECT_EQ(eval1("-2147483648 * -1"), "NULL");
  EXPECT_EQ(eval1("-(-2147483648)"), "NULL");
  EXPECT_EQ(eval1("-9223372036854775808 / -1"), "NULL");
  EXPECT_EQ(eval1("-9223372036854775808 % -1"), "0");
  EXPECT_EQ(eval("big + 1", numbers()), (V{"9007199254740994", "0", "1", "NULL"}));
  // uint64 - uint64 below zero underflows.
  EXPECT_EQ(eval("u - 18446744073709551615", numbers()), (V{"NULL", "0", "NULL", "NULL"}));
}

TEST(EvaluatorTest, UnsignedMixedWithSignedIsExact) {
  EXPECT_EQ(eval("u - 2", numbers())[1], "18446744073709551613");
  EXPECT_EQ(eval("u + big", numbers())[1], "18446744073709551614");
}

TEST(EvaluatorTest, DecimalArithmeticIsExactWithDuckDbScales) {
  EXPECT_EQ(eval("q + 1", numbers()), (V{"11.50", "0.75", "NULL", "1.00"}));
  EXPECT_EQ(eval("q * q", numbers()), (V{"110.2500", "0.0625", "NULL", "0.0000"}));
  EXPECT_EQ(eval("q - 0.125", numbers()), (V{"10.375", "-0.375", "NULL", "-0.125"}));
  EXPECT_EQ(eval("q / 2", numbers()), (V{"5.25", "-0.125", "NULL", "0"}));  // double
  EXPECT_EQ(eval("q % 4", numbers()), (V{"2.50", "-0.25", "NULL", "0.00"}));
  EXPECT_EQ(eval1("0.1 + 0.2 == 0.3"), "true");
  // Precision capped at 38: a value that does not fit overflows, and is null.
  EXPECT_EQ(eval1("99999999999999999999999999999999999999 + 1"), "NULL");
  EXPECT_EQ(eval1("9999999999999999999.0 * 9999999999999999999.0 * 10000000000.0"), "NULL");
}

TEST(EvaluatorTest, DoubleArithmeticAndDivisionByZeroIsNull) {
  EXPECT_EQ(eval("d * 2", numbers()), (V{"18014398509481984", "nan", "-0", "3"}));
  EXPECT_EQ(eval1("1.5e0 / 0"), "NULL");
  EXPECT_EQ(eval1("7.5e0 % 2"), "1.5");
}

TEST(EvaluatorTest, ComparisonsAreExactAcrossNumericTypes) {
  // int64 vs double compares exactly: 2^53 + 1 > 2^53 though (double)(2^53 + 1) == 2^53.
  EXPECT_EQ(eval("big > d", numbers()), (V{"true", "false", "false", "true"}));
  EXPECT_EQ(eval("big == d", numbers()), (V{"false", "false", "true", "false"}));  // 0 == -0.0
  EXPECT_EQ(eval("u > -1", numbers()), (V{"true", "true", "true", "true"}));
  EXPECT_EQ(eval("u == 18446744073709551615", numbers()), (V{"false", "true", "false", "false"}));
  EXPECT_EQ(eval("q == 10.5", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval("q < 0", numbers()), (V{"false", "true", "NULL", "false"}));
  EXPECT_EQ(eval("q > 1.5e0", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval1("0.30000000000000000000000000000000000001 > 0"), "true");
  EXPECT_EQ(eval1("12345678901234567890123456789012345678 > 1.5"), "true");
}

TEST(EvaluatorTest, NanIsGreatestAndEqualToItselfAndNegativeZeroEqualsZero) {
  // "NaN compares greater than every other double and equal to itself; -0.0 == +0.0"
  Table t;
  t.add("x", DataType::float64(),
        {std::nan(""), std::nan(""), -0.0, std::numeric_limits<double>::infinity()});
  t.add("y", DataType::float64(),
        {std::nan(""), std::numeric_limits<double>::infinity(), 0.0, std::nan("")});
  EXPECT_EQ(eval("x == y", t), (V{"true", "false", "true", "false"}));
  EXPECT_EQ(eval("x > y", t), (V{"false", "true", "false", "false"}));
  EXPECT_EQ(eval("x < y", t), (V{"false", "false", "false", "true"}));
  EXPECT_EQ(eval("x >= y", t), (V{"true", "true", "true", "false"}));
  EXPECT_EQ(eval("x != y", t), (V{"false", "true", "false", "true"}));
  EXPECT_EQ(eval("x > 9223372036854775807", t), (V{"true", "true", "false", "true"}));
}

TEST(EvaluatorTest, StringsCompareAsUnsignedBytes) {
  EXPECT_EQ(eval("s > \"b\"", numbers()), (V{"false", "true", "NULL", "false"}));  // 0xC3 > 'b'
  EXPECT_EQ(eval("s == \"abc\"", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval("s < \"abcd\"", numbers()), (V{"true", "false", "NULL", "true"}));
}

TEST(EvaluatorTest, DatesAndTimestampsCompareByInstant) {
  Table t;
  t.add("dt", DataType::date(), {int32_t{18262}, int32_t{18263}});  // 2020-01-01, 2020-01-02
  t.add("ms", DataType::timestamp(TimeUnit::kMillis, true),
        {int64_t{1577836800000}, int64_t{1577836800001}});
  t.add("ns", DataType::timestamp(TimeUnit::kNanos, true),
        {int64_t{1577836800000000000}, int64_t{1577836800000000000}});
  EXPECT_EQ(eval("dt == ms", t), (V{"true", "false"}));
  EXPECT_EQ(eval("ms > ns", t), (V{"false", "true"}));
  EXPECT_EQ(eval("dt > ns", t), (V{"false", "true"}));
  EXPECT_EQ(eval("ms >= TIMESTAMP '2020-01-01 00:00:00.001'", t), (V{"false", "true"}));
  EXPECT_EQ(eval("dt < DATE '2020-01-02'", t), (V{"true", "false"}));
}

Table truthTable() {
  Table t;
  const Scalar T = uint8_t{1};
  const Scalar F = uint8_t{0};
  const Scalar N = std::monostate{};
  t.add("a", DataType::boolean(), {T, T, T, F, F, F, N, N, N});
  t.add("b", DataType::boolean(), {T, F, N, T, F, N, T, F, N});
  return t;
}

TEST(EvaluatorTest, ThreeValuedLogicTruthTables) {
  // "false AND null = false, true OR null = true"
  EXPECT_EQ(eval("a AND b", truthTable()),
            (V{"true", "false", "NULL", "false", "false", "false", "NULL", "false", "NULL"}));
  EXPECT_EQ(eval("a OR b", truthTable()),
            (V{"true", "true", "true", "true", "false", "NULL", "true", "NULL", "NULL"}));
  EXPECT_EQ(eval("NOT a", truthTable()),
            (V{"false", "false", "false", "true", "true", "true", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval1("NULL AND FALSE"), "false");
  EXPECT_EQ(eval1("NULL OR TRUE"), "true");
  EXPECT_EQ(eval1("NULL AND TRUE"), "NULL");
  EXPECT_EQ(eval1("NOT NULL"), "NULL");
}

TEST(EvaluatorTest, IsNullAndIn) {
  EXPECT_EQ(eval("i IS NULL", numbers()), (V{"false", "false", "true", "false"}));
  EXPECT_EQ(eval("i IS NOT NULL", numbers()), (V{"true", "true", "false", "true"}));
  EXPECT_EQ(eval("i IN (7, 0)", numbers()), (V{"true", "false", "NULL", "true"}));
  // "x IN (1, NULL) is null when no match"
  EXPECT_EQ(eval("i IN (7, NULL)", numbers()), (V{"true", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval("i NOT IN (7, NULL)", numbers()), (V{"false", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval("i NOT IN (7, 1.5)", numbers()), (V{"false", "true", "NULL", "true"}));
  EXPECT_EQ(eval("s IN (\"ABC\", \"abc\")", numbers()), (V{"true", "false", "NULL", "true"}));
}

// ES|QL's LIKE: "`*` matches zero or more characters. `?` matches one character."
TEST(EvaluatorTest, LikeMatchesEsqlWildcardsOnCharacters) {
  EXPECT_EQ(eval("s LIKE \"a*\"", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval("s LIKE \"?t?\"", numbers()),
            (V{"false", "true", "NULL", "false"}));  // é is one character
  EXPECT_EQ(eval("s LIKE \"*B*\"", numbers()), (V{"false", "false", "NULL", "true"}));
  EXPECT_EQ(eval("s NOT LIKE \"*c\"", numbers()), (V{"false", "true", "NULL", "true"}));
  EXPECT_EQ(eval("s LIKE \"abc\"", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval1("\"abxcd\" LIKE \"a*c?\""), "true");
  EXPECT_EQ(eval1("\"ac\" LIKE \"a*c?\""), "false");
  EXPECT_EQ(eval1("\"aaab\" LIKE \"*a*ab\""), "true");
  EXPECT_EQ(eval1("\"\" LIKE \"*\""), "true");
  EXPECT_EQ(eval1("\"x\" LIKE \"\""), "false");
  EXPECT_EQ(eval1("NULL LIKE \"*\""), "NULL");
}

// SQL's wildcards are ordinary characters to ES|QL's LIKE.
TEST(EvaluatorTest, LikeTakesPercentAndUnderscoreLiterally) {
  EXPECT_EQ(eval("s LIKE \"%\"", numbers()), (V{"false", "false", "NULL", "false"}));
  EXPECT_EQ(eval("s LIKE \"a_c\"", numbers()), (V{"false", "false", "NULL", "false"}));
  EXPECT_EQ(eval1("\"100%\" LIKE \"100%\""), "true");
  EXPECT_EQ(eval1("\"a_c\" LIKE \"a_c\""), "true");
  EXPECT_EQ(eval1("\"abc\" LIKE \"a_c\""), "false");
}

// ES|QL's LIKE reference: "Matching the exact characters `*` and `.` will require
// escaping. The escape character is backslash `\`. Since also backslash is a
// special character in string literals, it will require further escaping."
TEST(EvaluatorTest, LikeEscapesWildcardsWithABackslash) {
  EXPECT_EQ(eval1("\"foo * bar\" LIKE \"foo \\\\* bar\""), "true");
  EXPECT_EQ(eval1("\"foo x bar\" LIKE \"foo \\\\* bar\""), "false");
  EXPECT_EQ(eval1("\"foo * bar\" LIKE \"\"\"foo \\* bar\"\"\""), "true");
  EXPECT_EQ(eval1("\"a?\" LIKE \"\"\"a\\?\"\"\""), "true");
  EXPECT_EQ(eval1("\"ab\" LIKE \"\"\"a\\?\"\"\""), "false");
  EXPECT_EQ(eval1("\"a\\\\b\" LIKE \"\"\"a\\\\*\"\"\""), "true");
}

// ES|QL's RLIKE: "Use `RLIKE` to filter data based on string patterns using
// regular expressions"; the whole value must match. A null value gives null.
TEST(EvaluatorTest, RlikeMatchesTheWholeValueAndIsNullOnNull) {
  EXPECT_EQ(eval("s RLIKE \"a.*\"", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval("s RLIKE \"b\"", numbers()), (V{"false", "false", "NULL", "false"}));
  EXPECT_EQ(eval("s RLIKE \".t.\"", numbers()),
            (V{"false", "true", "NULL", "false"}));  // é is one character
  EXPECT_EQ(eval("s NOT RLIKE \"[a-z]+\"", numbers()), (V{"false", "true", "NULL", "true"}));
  EXPECT_EQ(eval1("NULL RLIKE \".*\""), "NULL");
  EXPECT_EQ(eval1("\"foo ( bar\" RLIKE \"foo \\\\( bar\""), "true");
  EXPECT_EQ(eval1("\"foo ( bar\" RLIKE \"\"\"foo \\( bar\"\"\""), "true");
}

TEST(EvaluatorTest, CaseTakesTheFirstTrueConditionInTheCommonType) {
  EXPECT_EQ(eval("CASE WHEN i > 0 THEN 1 WHEN i < 0 THEN 2.5 END", numbers()),
            (V{"1.0", "2.5", "NULL", "NULL"}));
  EXPECT_EQ(eval("CASE WHEN i IS NULL THEN \"none\" WHEN i > 0 THEN \"pos\" ELSE \"other\" END",
                 numbers()),
            (V{"pos", "other", "none", "other"}));
  EXPECT_EQ(eval("CASE WHEN NULL THEN 1 ELSE 2 END", numbers()), (V{"2", "2", "2", "2"}));
  EXPECT_EQ(eval("CASE WHEN i > 0 THEN \"a\" WHEN i < 0 THEN \"b\" ELSE \"c\" END", numbers()),
            (V{"a", "b", "c", "c"}));
  // A branch is evaluated only on the rows that take it: i * 1000000000 would overflow int32.
  EXPECT_EQ(eval("CASE WHEN i > 100 THEN i * 1000000000 ELSE j END", numbers()),
            (V{"2", "2", "3", "0"}));
  EXPECT_EQ(
      eval("CASE WHEN i < 0 THEN big * 2 ELSE -1 END", numbers()),  // big * 2 overflows on row 4
      (V{"-1", "-2", "-1", "-1"}));
  EXPECT_EQ(eval("CASE WHEN i >= 0 THEN big * 2 ELSE -1 END", numbers()),
            (V{"18014398509481986", "-1", "-1", "NULL"}));
}

TEST(EvaluatorTest, NumericFunctions) {
  EXPECT_EQ(eval("abs(i)", numbers()), (V{"7", "7", "NULL", "0"}));
  EXPECT_EQ(eval("abs(q)", numbers()), (V{"10.50", "0.25", "NULL", "0.00"}));
  EXPECT_EQ(eval("abs(d)", numbers())[2], "0");
  EXPECT_EQ(eval1("abs(-2147483648)"), "NULL");  // overflows: null, with a warning
  // DuckDB rounds half away from zero.
  EXPECT_EQ(eval1("round(2.5e0)"), "3");
  EXPECT_EQ(eval1("round(-2.5e0)"), "-3");
  EXPECT_EQ(eval1("round(1.255, 1)"), "1.3");
  EXPECT_EQ(eval1("round(-1.25, 1)"), "-1.3");
  EXPECT_EQ(eval1("round(-1.25)"), "-1");
  EXPECT_EQ(eval1("round(15, -1)"), "20");
  EXPECT_EQ(eval1("round(-15, -1)"), "-20");
  EXPECT_EQ(eval1("round(1234.5678e0, -2)"), "1200");
  EXPECT_EQ(eval1("round(1.23456e0, 2)"), "1.23");
  EXPECT_EQ(eval("round(q, 1)", numbers()), (V{"10.5", "-0.3", "NULL", "0.0"}));
}

// LENGTH counts characters, not bytes, eight bytes at a time: a character of 1 to 4 bytes at every
// position of strings of every length up to 44; a stray byte a file may hold is counted as the
// byte-at-a-time rule does (a lead byte or 0xFF one character, a continuation byte none).
TEST(EvaluatorTest, LengthCountsCharactersAtEveryPositionAndLength) {
  const std::vector<std::string> characters = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                               "\xff"};
  std::vector<Scalar> texts;
  V expected;
  for (const std::string& c : characters) {
    for (size_t before = 0; before <= 36; ++before) {
      for (size_t after : {size_t{0}, size_t{1}, size_t{7}}) {
        texts.push_back(std::string(before, 'x') + c + std::string(after, 'y'));
        expected.push_back(std::to_string(before + 1 + after));
      }
    }
  }
  texts.push_back(
      std::string("\x80\x80"
                  "abcdefgh"));
  expected.push_back("8");
  Table t;
  t.add("s", DataType::string(), texts);
  EXPECT_EQ(eval("length(s)", t), expected);
}

// LENGTH of a dictionary block: per entry once when there are no more entries than rows, else
// per row through the ids; a null row stays null whatever its id says.
TEST(EvaluatorTest, LengthOfDictionaryBlocks) {
  auto dictionary = std::make_shared<ByteDictionary>();
  for (const char* value :
       {"abc", "\xc3\xa9t\xc3\xa9", "", "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xacz"}) {
    dictionary->append(value);
  }
  Table t;
  t.schema.push_back(Field{"s", DataType::string()});
  t.blocks.push_back(Block::fromDictionary(DataType::string(), dictionary, {3, 0, 1, 3, 2, 1},
                                           {1, 1, 1, 1, 1, 0}));
  EXPECT_EQ(eval("length(s)", t), (V{"4", "3", "3", "4", "0", "NULL"}));
  Table few;  // two rows of a four-entry dictionary
  few.schema.push_back(Field{"s", DataType::string()});
  few.blocks.push_back(Block::fromDictionary(DataType::string(), dictionary, {1, 3}));
  EXPECT_EQ(eval("length(s)", few), (V{"3", "4"}));
}

// LENGTH of plain values after the first byte that is not ASCII (each counted), before it (byte
// lengths), and of the value that holds it.
TEST(EvaluatorTest, LengthAroundTheFirstByteThatIsNotAscii) {
  Table t;
  t.add("s", DataType::string(),
        {std::string("plain ascii"), std::monostate{}, std::string("ab\xc3\xa9"),
         std::string("xyz"), std::string("\xf0\x9f\x98\x80!"), std::string("")});
  EXPECT_EQ(eval("length(s)", t), (V{"11", "NULL", "3", "3", "2", "0"}));
}

TEST(EvaluatorTest, StringFunctions) {
  EXPECT_EQ(eval("length(s)", numbers()), (V{"3", "3", "NULL", "3"}));
  EXPECT_EQ(eval("to_upper(s)", numbers()), (V{"ABC", "\xc3\x89T\xc3\x89", "NULL", "ABC"}));
  EXPECT_EQ(eval("to_lower(s)", numbers()), (V{"abc", "\xc3\xa9t\xc3\xa9", "NULL", "abc"}));
  EXPECT_EQ(eval1("to_upper(\"\xce\xb1\xd0\xb6\")"),
            "\xce\x91\xd0\x96");  // Greek alpha, Cyrillic zhe
  EXPECT_EQ(eval("starts_with(s, \"ab\")", numbers()), (V{"true", "false", "NULL", "false"}));
  EXPECT_EQ(eval("substring(s, 2)", numbers()), (V{"bc", "t\xc3\xa9", "NULL", "BC"}));
  EXPECT_EQ(eval("substring(s, 2, 1)", numbers()), (V{"b", "t", "NULL", "B"}));
  // DuckDB: substring('hello', 0, 2) = 'h', ('hello', -3, 2) = 'll', ('hello', -10, 8) = 'hel'.
  EXPECT_EQ(eval1("substring(\"hello\", 0, 2)"), "h");
  EXPECT_EQ(eval1("substring(\"hello\", -3, 2)"), "ll");
  EXPECT_EQ(eval1("substring(\"hello\", -10, 8)"), "hel");
  EXPECT_EQ(eval1("substring(\"hello\", 9)"), "");
  EXPECT_EQ(eval1("substring(\"hello\", 2, NULL)"), "NULL");
  EXPECT_THROW(eval1("substring(\"hello\", 2, -1)"), InvalidArgument);
  EXPECT_EQ(eval("coalesce(i, j, 0)", numbers()), (V{"7", "-7", "3", "0"}));
  EXPECT_EQ(eval("coalesce(q, 1)", numbers()), (V{"10.50", "-0.25", "1.00", "0.00"}));
  EXPECT_EQ(eval1("coalesce(NULL, NULL)"), "NULL");
  // replace(s, regex, replacement): ES|QL's REPLACE, every match; null in, null out.
  EXPECT_EQ(eval("replace(s, \"[bB]\", \"-\")", numbers()),
            (V{"a-c", "\xc3\xa9t\xc3\xa9", "NULL", "A-C"}));
  EXPECT_EQ(eval("replace(s, \"(.)(.)\", \"$2$1\")", numbers()),
            (V{"bac", "t\xc3\xa9\xc3\xa9", "NULL", "BAC"}));
  EXPECT_EQ(eval1("replace(NULL, \"a\", \"b\")"), "NULL");
  EXPECT_THROW(eval("replace(s, s, \"x\")", numbers()), QueryError);  // the regex must be a literal
  EXPECT_THROW(eval1("replace(\"a\", \"(\", \"x\")"), QueryError);
}

TEST(EvaluatorTest, DateTruncAndExtract) {
  Table t;
  // 2024-01-10 05:06:07.5 UTC (a Wednesday), and a date before the epoch, 1969-12-31 (Wednesday).
  t.add("ts", DataType::timestamp(TimeUnit::kMicros, true),
        {int64_t{1704863167500000}, int64_t{-1}});
  t.add("dt", DataType::date(), {int32_t{19732}, int32_t{-1}});
  EXPECT_EQ(eval("date_trunc(\"week\", ts)", t),
            (V{"TIMESTAMP '2024-01-08 00:00:00'", "TIMESTAMP '1969-12-29 00:00:00'"}));
  EXPECT_EQ(eval("date_trunc(\"quarter\", ts)", t),
            (V{"TIMESTAMP '2024-01-01 00:00:00'", "TIMESTAMP '1969-10-01 00:00:00'"}));
  EXPECT_EQ(eval("date_trunc(\"second\", ts)", t),
            (V{"TIMESTAMP '2024-01-10 05:06:07'", "TIMESTAMP '1969-12-31 23:59:59'"}));
  EXPECT_EQ(eval("date_trunc(\"month\", dt)", t),
            (V{"DATE '2024-01-01'", "DATE '1969-12-01'"}));  // a date truncates to a date
  EXPECT_EQ(eval("date_extract(\"year\", ts)", t), (V{"2024", "1969"}));
  EXPECT_EQ(eval("date_extract(\"second\", ts)", t), (V{"7", "59"}));
  EXPECT_EQ(eval("date_extract(\"hour\", ts)", t), (V{"5", "23"}));
  EXPECT_EQ(eval("date_extract(\"dow\", dt)", t), (V{"3", "3"}));  // Sunday = 0
  EXPECT_EQ(eval("date_extract(\"doy\", dt)", t), (V{"10", "365"}));
  EXPECT_EQ(eval("date_extract(\"quarter\", dt)", t), (V{"1", "4"}));
  EXPECT_EQ(eval1("date_extract(\"doy\", DATE '2024-03-01')"), "61");
  EXPECT_EQ(eval1("date_extract(\"dow\", DATE '2024-01-07')"), "0");
  // ES|QL's ChronoField names; its day_of_week counts from Monday = 1.
  EXPECT_EQ(eval("date_extract(\"minute_of_hour\", ts)", t), (V{"6", "59"}));
  EXPECT_EQ(eval("date_extract(\"hour_of_day\", ts)", t), (V{"5", "23"}));
  EXPECT_EQ(eval("date_extract(\"day_of_week\", dt)", t), (V{"3", "3"}));
  EXPECT_EQ(eval1("date_extract(\"day_of_week\", DATE '2024-01-07')"), "7");
  EXPECT_EQ(eval("date_extract(\"minute_of_day\", ts)", t), (V{"306", "1439"}));
  EXPECT_EQ(eval("date_extract(\"epoch_day\", dt)", t), (V{"19732", "-1"}));
  EXPECT_THROW(eval1("date_extract(\"fortnight\", DATE '2024-01-07')"), QueryError);
}

// ES|QL's DATE_TRUNC: "Rounds down a date to the closest interval" given as a time span.
TEST(EvaluatorTest, DateTruncRoundsDownToATimeSpan) {
  Table t;
  // 2024-01-10 05:06:07.5 UTC (a Wednesday), and one microsecond before the epoch.
  t.add("ts", DataType::timestamp(TimeUnit::kMicros, true),
        {int64_t{1704863167500000}, int64_t{-1}});
  t.add("dt", DataType::date(), {int32_t{19732}, int32_t{-1}});
  EXPECT_EQ(eval("date_trunc(15 minutes, ts)", t),
            (V{"TIMESTAMP '2024-01-10 05:00:00'", "TIMESTAMP '1969-12-31 23:45:00'"}));
  EXPECT_EQ(eval("date_trunc(250 ms, ts)", t),
            (V{"TIMESTAMP '2024-01-10 05:06:07.5'", "TIMESTAMP '1969-12-31 23:59:59.75'"}));
  EXPECT_EQ(eval("date_trunc(1 week, ts)", t),  // Monday
            (V{"TIMESTAMP '2024-01-08 00:00:00'", "TIMESTAMP '1969-12-29 00:00:00'"}));
  // Other day and week counts: multiples of their length since 1970-01-01.
  EXPECT_EQ(eval("date_trunc(2 weeks, ts)", t),
            (V{"TIMESTAMP '2024-01-04 00:00:00'", "TIMESTAMP '1969-12-18 00:00:00'"}));
  EXPECT_EQ(eval("date_trunc(3 days, dt)", t), (V{"DATE '2024-01-09'", "DATE '1969-12-29'"}));
  // Months and years: multiples of the count from year 0 (3 months are quarters).
  EXPECT_EQ(eval("date_trunc(1 quarter, ts)", t),
            (V{"TIMESTAMP '2024-01-01 00:00:00'", "TIMESTAMP '1969-10-01 00:00:00'"}));
  EXPECT_EQ(eval("date_trunc(5 months, dt)", t), (V{"DATE '2023-10-01'", "DATE '1969-08-01'"}));
  EXPECT_EQ(eval("date_trunc(10 years, dt)", t), (V{"DATE '2020-01-01'", "DATE '1960-01-01'"}));
  // A unit's name reads as one of it; BUCKET with a span is the same rounding.
  EXPECT_EQ(eval("date_trunc(\"hour\", ts)", t), eval("date_trunc(1 hour, ts)", t));
  EXPECT_EQ(eval("bucket(ts, 1 hour)", t), eval("date_trunc(1 hour, ts)", t));
  EXPECT_EQ(eval1("date_trunc(1 day, NULL)"), "NULL");
  EXPECT_THROW(eval("date_trunc(0 days, ts)", t), QueryError);
  EXPECT_THROW(eval("date_trunc(-1 day, ts)", t), QueryError);
  EXPECT_THROW(eval("date_trunc(\"fortnight\", ts)", t), QueryError);
  EXPECT_THROW(eval("bucket(ts, 5)", t), QueryError);
  EXPECT_THROW(eval("date_trunc(1 day, 5)", t), QueryError);
}

// ES|QL: time spans work "with arithmetic operators such as + and -".
TEST(EvaluatorTest, TimeSpansMoveDatesAndTimestamps) {
  Table t;
  t.add("ts", DataType::timestamp(TimeUnit::kMicros, false),
        {int64_t{1706659200000000}, std::monostate{}});          // 2024-01-31 00:00:00
  t.add("dt", DataType::date(), {int32_t{19753}, int32_t{-1}});  // 2024-01-31, 1969-12-31
  EXPECT_EQ(eval("ts + 1 month", t), (V{"TIMESTAMP '2024-02-29 00:00:00'", "NULL"}));  // clamped
  EXPECT_EQ(eval("1 month + ts", t), eval("ts + 1 month", t));
  EXPECT_EQ(eval("ts - 1 year + 90 minutes", t), (V{"TIMESTAMP '2023-01-31 01:30:00'", "NULL"}));
  EXPECT_EQ(eval("ts + -2 hours", t), (V{"TIMESTAMP '2024-01-30 22:00:00'", "NULL"}));
  EXPECT_EQ(eval("dt + 1 day", t), (V{"DATE '2024-02-01'", "DATE '1970-01-01'"}));
  EXPECT_EQ(eval("dt - 1 quarter", t), (V{"DATE '2023-10-31'", "DATE '1969-09-30'"}));
  // A date moved by less than a day is a timestamp.
  EXPECT_EQ(eval("dt + 12 hours", t),
            (V{"TIMESTAMP '2024-01-31 12:00:00'", "TIMESTAMP '1969-12-31 12:00:00'"}));
  EXPECT_THROW(eval("ts + 9223372036854775807 days", t), InvalidArgument);
  EXPECT_THROW(eval1("5 + 1 day"), QueryError);
  EXPECT_THROW(eval1("1 day"), QueryError);  // a span alone is no value
  EXPECT_THROW(eval1("1 day - DATE '2024-01-01'"), QueryError);
}

// ES|QL's TO_DATETIME: a number is "milliseconds since the Unix epoch".
TEST(EvaluatorTest, ToDatetimeReadsMillisecondsAndStrings) {
  EXPECT_EQ(eval1("to_datetime(1700000000123)"), "TIMESTAMP '2023-11-14 22:13:20.123'");
  EXPECT_EQ(eval1("to_datetime(-1)"), "TIMESTAMP '1969-12-31 23:59:59.999'");
  EXPECT_EQ(eval1("to_datetime(1.9e3)"), "TIMESTAMP '1970-01-01 00:00:01.9'");
  EXPECT_EQ(eval1("to_datetime(\"2024-06-01T12:30:00Z\")"), "TIMESTAMP '2024-06-01 12:30:00'");
  EXPECT_EQ(eval1("to_datetime(\"2024-06-01\")"), "TIMESTAMP '2024-06-01 00:00:00'");
  EXPECT_EQ(eval1("to_datetime(\"June 1st\")"), "NULL");  // unparsable, as ES|QL
  EXPECT_EQ(eval1("to_datetime(DATE '2024-06-01')"), "TIMESTAMP '2024-06-01 00:00:00'");
  EXPECT_EQ(eval1("to_datetime(NULL)"), "NULL");
  EXPECT_THROW(eval1("to_datetime(1e300)"), InvalidArgument);
  EXPECT_THROW(eval1("to_datetime(TRUE)"), QueryError);
}

}  // namespace
}  // namespace quarry::engine

namespace quarry::engine {
namespace {

// Comparisons with a literal take a fast path (the literal converted once to the
// column's type when exact); coalesce(literal) is not a literal and takes the
// general path. Both must agree on every column, literal and operator.
TEST(EvaluatorTest, LiteralComparisonFastPathAgreesWithTheGeneralPath) {
  Table t;
  t.add("i", DataType::int32(), {int32_t{7}, int32_t{-1}, std::monostate{}, int32_t{0}});
  t.add("big", DataType::int64(),
        {int64_t{9007199254740993}, int64_t{-1}, std::numeric_limits<int64_t>::min(),
         int64_t{2147483648}});
  t.add("u", DataType::uint64(),
        {uint64_t{0}, std::numeric_limits<uint64_t>::max(), uint64_t{7}, uint64_t{1}});
  t.add("d", DataType::float64(), {9007199254740992.0, std::nan(""), -0.0, 10.5});
  t.add("q", DataType::decimal(10, 2), {Int128{1050}, Int128{-100}, std::monostate{}, Int128{12}});
  t.add("dt", DataType::date(), {int32_t{18262}, int32_t{18263}, std::monostate{}, int32_t{0}});
  // Local, so that coalesce(TIMESTAMP ...) (not adjusted to UTC: not a literal) binds too.
  t.add("ts", DataType::timestamp(TimeUnit::kMillis, false),
        {int64_t{1577836800000}, int64_t{1577836800001}, int64_t{1577923200000}, std::monostate{}});
  t.add("s", DataType::string(),
        {std::string("abc"), std::string(""), std::string("abd"), std::monostate{}});
  const std::vector<std::string> columns = {"i", "big", "u", "d", "q", "dt", "ts", "s"};
  const std::vector<std::string> literals = {"0",
                                             "7",
                                             "-1",
                                             "2147483648",
                                             "9007199254740993",
                                             "18446744073709551615",
                                             "10.5",
                                             "0.125",
                                             "0.12",
                                             "1.5e0",
                                             "1.05e1",
                                             "DATE '2020-01-02'",
                                             "TIMESTAMP '2020-01-01 00:00:00.001'",
                                             "TIMESTAMP '2020-01-01 00:00:00.0015'",
                                             "\"abc\"",
                                             "NULL"};
  const std::vector<std::string> ops = {"==", "!=", "<", "<=", ">", ">="};
  int checked = 0;
  for (const std::string& c : columns) {
    for (const std::string& l : literals) {
      for (const std::string& op : ops) {
        const std::string fast = c + " " + op + " " + l;
        const std::string general = c + " " + op + " coalesce(" + l + ")";
        const std::string fastFlipped = l + " " + op + " " + c;
        const std::string generalFlipped = "coalesce(" + l + ") " + op + " " + c;
        try {
          testing::bindText(fast, t.schema);
        } catch (const QueryError&) {
          continue;  // not comparable
        }
        EXPECT_EQ(eval(fast, t), eval(general, t)) << fast;
        EXPECT_EQ(eval(fastFlipped, t), eval(generalFlipped, t)) << fastFlipped;
        if (op == "==") {
          const std::string in = c + " IN (" + l + ", 1.5e300)";
          const std::string inGeneral = c + " IN (coalesce(" + l + "), coalesce(1.5e300))";
          if (c != "s" && c != "dt" && c != "ts") {  // 1.5e300 is a number
            EXPECT_EQ(eval(in, t), eval(inGeneral, t)) << in;
          }
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

}  // namespace
}  // namespace quarry::engine
