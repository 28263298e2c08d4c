// The conversion functions (conversion_functions.h) against ES|QL's reference:
// "Boolean true will be converted to integer 1, false to 0"; TO_INTEGER and
// TO_LONG round a double as Java's Math.round (DataTypeConverter.safeToInt);
// TO_UNSIGNED_LONG truncates (BigDecimal.toBigInteger); a string that is no
// number, and a value out of range, give null (ES|QL adds a warning); TO_BOOLEAN
// of a string is "true" in any case, of a number != 0; TO_STRING of a double is
// Java's Double.toString and of a datetime the ISO text with Z and milliseconds.

#include "quarry/engine/expr/conversion_functions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "expr_test_support.h"
#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using testing::bindText;
using testing::eval;
using testing::eval1;
using testing::Table;
using V = std::vector<std::string>;

Table values() {
  Table t;
  t.add("i", DataType::int32(), {int32_t{4}, int32_t{-9}, std::monostate{}, int32_t{0}});
  t.add("l", DataType::int64(),
        {int64_t{3'000'000'000}, int64_t{-1}, int64_t{0}, std::monostate{}});
  t.add("u", DataType::uint64(),
        {uint64_t{16}, std::numeric_limits<uint64_t>::max(), std::monostate{}, uint64_t{0}});
  t.add("d", DataType::float64(), {2.5, std::nan(""), -0.0, std::monostate{}});
  t.add("q", DataType::decimal(9, 2), {Int128{225}, Int128{-125}, Int128{-250}, Int128{-1}});
  t.add("s", DataType::string(),
        {std::string("\xc3\xa9t\xc3\xa9"), std::string(""), std::monostate{}, std::string("TRuE")});
  t.add("b", DataType::boolean(), {uint8_t{1}, uint8_t{0}, std::monostate{}, uint8_t{1}});
  t.add("day", DataType::date(), {int32_t{0}, int32_t{1}, int32_t{30}, std::monostate{}});
  t.add("ms", DataType::timestamp(TimeUnit::kMillis, true),
        {int64_t{1'717'243'200'123}, int64_t{-1}, std::monostate{}, int64_t{0}});
  t.add("us", DataType::timestamp(TimeUnit::kMicros, true),
        {int64_t{1'717'243'200'123'450}, int64_t{1500}, int64_t{-1500}, int64_t{0}});
  t.add("local", DataType::timestamp(TimeUnit::kMicros, false),
        {int64_t{1'717'243'200'000'000}, std::monostate{}, int64_t{1}, int64_t{0}});
  t.add("bin", DataType::binary(),
        {std::string("x"), std::string(""), std::monostate{}, std::string("y")});
  return t;
}

TEST(ConversionFunctions, ResultTypesAreTheTargets) {
  const Table t = values();
  for (const char* column : {"i", "l", "u", "d", "q", "s", "b"}) {
    SCOPED_TRACE(column);
    EXPECT_EQ(bindText(std::string("to_string(") + column + ")", t.schema)->type,
              DataType::string());
    EXPECT_EQ(bindText(std::string("to_integer(") + column + ")", t.schema)->type,
              DataType::int32());
    EXPECT_EQ(bindText(std::string("to_long(") + column + ")", t.schema)->type, DataType::int64());
    EXPECT_EQ(bindText(std::string("to_unsigned_long(") + column + ")", t.schema)->type,
              DataType::uint64());
    EXPECT_EQ(bindText(std::string("to_double(") + column + ")", t.schema)->type,
              DataType::float64());
    EXPECT_EQ(bindText(std::string("to_boolean(") + column + ")", t.schema)->type,
              DataType::boolean());
  }
  EXPECT_EQ(bindText("TO_LONG(null)", t.schema)->type, DataType::int64());
  EXPECT_EQ(eval1("to_long(null)"), "NULL");
}

// ES|QL: "Boolean true will be converted to integer 1, false to 0" (and 1.0 / 0.0 for TO_DOUBLE).
TEST(ConversionFunctions, BooleansAreOneAndZero) {
  const Table t = values();
  EXPECT_EQ(eval("to_integer(b)", t), (V{"1", "0", "NULL", "1"}));
  EXPECT_EQ(eval("to_long(b)", t), (V{"1", "0", "NULL", "1"}));
  EXPECT_EQ(eval("to_unsigned_long(b)", t), (V{"1", "0", "NULL", "1"}));
  EXPECT_EQ(eval("to_double(b)", t), (V{"1", "0", "NULL", "1"}));
  EXPECT_EQ(eval("to_string(b)", t), (V{"true", "false", "NULL", "true"}));
}

// DataTypeConverter.safeToInt(double): out of range is an error (null), else Math.round,
// which rounds halves toward positive infinity.
TEST(ConversionFunctions, DoublesRoundHalfUpAndOutOfRangeIsNull) {
  EXPECT_EQ(eval("to_integer(d)", values()), (V{"3", "NULL", "0", "NULL"}));
  EXPECT_EQ(eval1("to_integer(-2.5e0)"), "-2");
  EXPECT_EQ(eval1("to_integer(-1.5e0)"), "-1");
  EXPECT_EQ(eval1("to_integer(-0.5e0)"), "0");
  EXPECT_EQ(eval1("to_integer(2.4999e0)"), "2");
  EXPECT_EQ(eval1("to_integer(0.49999999999999994e0)"), "0");  // not floor(x + 0.5), which is 1
  EXPECT_EQ(eval1("to_integer(2147483647e0)"), "2147483647");
  EXPECT_EQ(eval1("to_integer(2147483647.4e0)"), "NULL");  // x > Integer.MAX_VALUE
  EXPECT_EQ(eval1("to_integer(-2147483648.4e0)"), "NULL");
  EXPECT_EQ(eval1("to_integer(-2147483648e0)"), "-2147483648");
  EXPECT_EQ(eval1("to_integer(3e9)"), "NULL");
  EXPECT_EQ(eval1("to_long(3e9)"), "3000000000");
  EXPECT_EQ(eval1("to_long(-2.5e0)"), "-2");
  EXPECT_EQ(eval1("to_long(9.3e18)"), "NULL");
  EXPECT_EQ(eval1("to_long(-9.3e18)"), "NULL");
  EXPECT_EQ(eval1("to_long(-9223372036854775808e0)"), "-9223372036854775808");
  EXPECT_EQ(eval1("to_long(1e308 * 10)"), "NULL");  // Infinity
}

TEST(ConversionFunctions, IntegersOutOfTheTargetsRangeAreNull) {
  const Table t = values();
  EXPECT_EQ(eval("to_integer(l)", t), (V{"NULL", "-1", "0", "NULL"}));
  EXPECT_EQ(eval("to_integer(u)", t), (V{"16", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval("to_long(u)", t), (V{"16", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval("to_unsigned_long(i)", t), (V{"4", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval("to_unsigned_long(l)", t), (V{"3000000000", "NULL", "0", "NULL"}));
  EXPECT_EQ(eval("to_unsigned_long(u)", t), (V{"16", "18446744073709551615", "NULL", "0"}));
  EXPECT_EQ(eval("to_long(i)", t), (V{"4", "-9", "NULL", "0"}));
}

// quarry's decimals (ES|QL has none): their exact value, rounded as Math.round would
// round it (to_integer, to_long) or truncated (to_unsigned_long).
TEST(ConversionFunctions, DecimalsRoundExactly) {
  const Table t = values();
  EXPECT_EQ(eval("to_integer(q)", t), (V{"2", "-1", "-2", "0"}));
  EXPECT_EQ(eval("to_long(q)", t), (V{"2", "-1", "-2", "0"}));
  EXPECT_EQ(eval("to_unsigned_long(q)", t), (V{"2", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval("to_double(q)", t), (V{"2.25", "-1.25", "-2.5", "-0.01"}));
  EXPECT_EQ(eval("to_string(q)", t), (V{"2.25", "-1.25", "-2.50", "-0.01"}));
  EXPECT_EQ(eval("to_boolean(q)", t), (V{"true", "true", "true", "true"}));
  EXPECT_EQ(eval1("to_integer(2.50)"), "3");
  EXPECT_EQ(eval1("to_integer(-2.50)"), "-2");
}

// EsqlDataTypeConverter.stringToInt: Integer.parseInt, else Double.parseDouble then safeToInt.
TEST(ConversionFunctions, StringsParseAsIntegersElseAsDoubles) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"\"12\"", "12"},
           {"\"+12\"", "12"},
           {"\"-7\"", "-7"},
           {"\"2.5\"", "3"},
           {"\"-2.5\"", "-2"},
           {"\" 12 \"", "12"},
           {"\"\\t4.5\\n\"", "5"},
           {"\"1e3\"", "1000"},
           {"\"1.5f\"", "2"},
           {"\".5\"", "1"},
           {"\"5.\"", "5"},
           {"\"2147483647\"", "2147483647"},
           {"\"-2147483648\"", "-2147483648"},
           {"\"2147483648\"", "NULL"},
           {"\"abc\"", "NULL"},
           {"\"\"", "NULL"},
           {"\" \"", "NULL"},
           {"\"0x10\"", "NULL"},
           {"\"1,000\"", "NULL"},
           {"\"NaN\"", "NULL"},
           {"\"Infinity\"", "NULL"},
           {"\"1e400\"", "NULL"},
           {"\"e5\"", "NULL"},
           {"\"1e\"", "NULL"},
           {"\"\\u0663\"", "NULL"},  // an Arabic-Indic three
       }) {
    EXPECT_EQ(eval1("to_integer(" + text + ")"), expected) << text;
  }
  EXPECT_EQ(eval1("to_long(\"9223372036854775807\")"), "9223372036854775807");
  EXPECT_EQ(eval1("to_long(\"-9223372036854775808\")"), "-9223372036854775808");
  EXPECT_EQ(eval1("to_long(\"9223372036854775808\")"), "NULL");
  EXPECT_EQ(eval1("to_long(\"1.5e18\")"), "1500000000000000000");
  EXPECT_EQ(eval("to_integer(s)", values()), (V{"NULL", "NULL", "NULL", "NULL"}));
}

// safeToUnsignedLong(String): new BigDecimal(x).toBigInteger(), in [0, 2^64).
TEST(ConversionFunctions, UnsignedLongTruncatesTowardZero) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"\"18446744073709551615\"", "18446744073709551615"},
           {"\"18446744073709551616\"", "NULL"},
           {"\"1.9\"", "1"},
           {"\"-0.5\"", "0"},
           {"\"-1\"", "NULL"},
           {"\"1e3\"", "1000"},
           {"\"1.8e19\"", "18000000000000000000"},
           {"\"12e-1\"", "1"},
           {"\" 1\"", "NULL"},
           {"\"abc\"", "NULL"},
           {"1.9e0", "1"},
           {"-0.5e0", "0"},
           {"-1e0", "NULL"},
           {"18446744073709551616e0", "NULL"},
           {"-0.01", "0"},
           {"-1", "NULL"},
       }) {
    EXPECT_EQ(eval1("to_unsigned_long(" + text + ")"), expected) << text;
  }
}

TEST(ConversionFunctions, ToDoubleParsesJavasDecimalText) {
  EXPECT_EQ(eval1("to_double(\"1.5\")"), "1.5");
  EXPECT_EQ(eval1("to_double(\" -2 \")"), "-2");
  EXPECT_EQ(eval1("to_double(\"-0\")"), "-0");
  EXPECT_EQ(eval1("to_double(\"1e-400\")"), "0");  // underflow is zero, as Java's
  EXPECT_EQ(eval1("to_double(\"1e400\")"), "NULL");
  EXPECT_EQ(eval1("to_double(\"NaN\")"), "NULL");
  EXPECT_EQ(eval1("to_double(\"-Infinity\")"), "NULL");
  EXPECT_EQ(eval1("to_double(\"x\")"), "NULL");
  const Table t = values();
  EXPECT_EQ(eval("to_double(u)", t), (V{"16", "18446744073709551616", "NULL", "0"}));
  EXPECT_EQ(eval("to_double(d)", t), (V{"2.5", "nan", "-0", "NULL"}));
}

// "If the input parameter is of a date type, its value will be interpreted as
// milliseconds since the Unix epoch."
TEST(ConversionFunctions, DatesAndTimestampsAreMilliseconds) {
  const Table t = values();
  EXPECT_EQ(eval("to_long(day)", t), (V{"0", "86400000", "2592000000", "NULL"}));
  EXPECT_EQ(eval("to_integer(day)", t),
            (V{"0", "86400000", "NULL", "NULL"}));  // 30 days pass int32
  EXPECT_EQ(eval("to_long(ms)", t), (V{"1717243200123", "-1", "NULL", "0"}));
  EXPECT_EQ(eval("to_long(us)", t),
            (V{"1717243200123", "1", "-2", "0"}));  // the instant's millisecond
  EXPECT_EQ(eval("to_double(day)", t), (V{"0", "86400000", "2.592e+09", "NULL"}));
  EXPECT_EQ(eval("to_unsigned_long(ms)", t), (V{"1717243200123", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval1("to_long(to_datetime(1717243200123))"), "1717243200123");
}

// Boolean.parseBoolean for strings; != 0 for numbers.
TEST(ConversionFunctions, ToBooleanIsTrueForTrueInAnyCaseAndNonZeroNumbers) {
  const Table t = values();
  EXPECT_EQ(eval("to_boolean(s)", t), (V{"false", "false", "NULL", "true"}));
  for (const char* no :
       {"\"false\"", "\"\"", "\"yes\"", "\"1\"", "\" true\"", "\"true \"", "\"t\""}) {
    EXPECT_EQ(eval1(std::string("to_boolean(") + no + ")"), "false") << no;
  }
  EXPECT_EQ(eval1("to_boolean(\"TRUE\")"), "true");
  EXPECT_EQ(eval("to_boolean(i)", t), (V{"true", "true", "NULL", "false"}));
  EXPECT_EQ(eval("to_boolean(u)", t), (V{"true", "true", "NULL", "false"}));
  EXPECT_EQ(eval("to_boolean(d)", t), (V{"true", "true", "false", "NULL"}));  // NaN != 0; -0.0 == 0
}

// Java's Double.toString: plain from 1.0E-3 up to 1.0E7, else computerized
// scientific notation; at least one digit after the point.
TEST(ConversionFunctions, ToStringWritesDoublesAsJava) {
  EXPECT_EQ(eval("to_string(d)", values()), (V{"2.5", "NaN", "-0.0", "NULL"}));
  for (const auto& [value, text] : std::vector<std::pair<double, std::string>>{
           {1.0, "1.0"},
           {100.0, "100.0"},
           {0.001, "0.001"},
           {0.0001, "1.0E-4"},
           {1e7, "1.0E7"},
           {9999999.0, "9999999.0"},
           {123456789.0, "1.23456789E8"},
           {-1.5e-10, "-1.5E-10"},
           {1e21, "1.0E21"},
           {0.1 + 0.2, "0.30000000000000004"},
           {std::numeric_limits<double>::infinity(), "Infinity"},
           {-std::numeric_limits<double>::infinity(), "-Infinity"},
           {std::numeric_limits<double>::max(), "1.7976931348623157E308"},
       }) {
    EXPECT_EQ(javaDoubleText(value), text) << value;
  }
}

// ES|QL writes a datetime as ISO 8601 with milliseconds and Z; a date_nanos with
// up to nine fraction digits.
TEST(ConversionFunctions, ToStringWritesInstantsAsEsql) {
  const Table t = values();
  EXPECT_EQ(eval("to_string(day)", t), (V{"1970-01-01T00:00:00.000Z", "1970-01-02T00:00:00.000Z",
                                          "1970-01-31T00:00:00.000Z", "NULL"}));
  EXPECT_EQ(eval("to_string(ms)", t), (V{"2024-06-01T12:00:00.123Z", "1969-12-31T23:59:59.999Z",
                                         "NULL", "1970-01-01T00:00:00.000Z"}));
  EXPECT_EQ(eval("to_string(us)", t), (V{"2024-06-01T12:00:00.12345Z", "1970-01-01T00:00:00.0015Z",
                                         "1969-12-31T23:59:59.9985Z", "1970-01-01T00:00:00.000Z"}));
  // A local (wall-clock) timestamp is no instant: no Z.
  EXPECT_EQ(eval("to_string(local)", t),
            (V{"2024-06-01T12:00:00.000", "NULL", "1970-01-01T00:00:00.000001",
               "1970-01-01T00:00:00.000"}));
  EXPECT_EQ(eval1("to_string(to_datetime(253402300800000))"), "+10000-01-01T00:00:00.000Z");
  EXPECT_EQ(eval1("to_string(to_datetime(-62135596800001))"), "0000-12-31T23:59:59.999Z");
}

TEST(ConversionFunctions, ToStringKeepsStringsAndWritesNumbers) {
  const Table t = values();
  EXPECT_EQ(eval("to_string(s)", t), (V{"\xc3\xa9t\xc3\xa9", "", "NULL", "TRuE"}));
  EXPECT_EQ(eval("to_string(i)", t), (V{"4", "-9", "NULL", "0"}));
  EXPECT_EQ(eval("to_string(u)", t), (V{"16", "18446744073709551615", "NULL", "0"}));
  EXPECT_EQ(eval1("to_string(-9223372036854775808)"), "-9223372036854775808");
  EXPECT_EQ(eval1("length(to_string(123))"), "3");
}

TEST(ConversionFunctions, TypesWithoutAConversionAreQueryErrors) {
  const Table t = values();
  for (const char* text : {"to_integer(bin)", "to_string(bin)", "to_boolean(day)", "to_boolean(ms)",
                           "to_double(bin)", "to_integer()", "to_long(i, l)"}) {
    EXPECT_THROW(bindText(text, t.schema), QueryError) << text;
  }
  try {
    bindText("to_integer(bin)", t.schema);
  } catch (const QueryError& e) {
    EXPECT_NE(
        std::string(e.what()).find("to_integer: cannot convert bin of type binary to an integer"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace quarry::engine
