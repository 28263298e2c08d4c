// The math functions (math_functions.h): ES|QL's results and types, null for a
// null argument, for a value outside a function's domain and for a result that
// is not finite where ES|QL refuses one; GREATEST and LEAST in the arguments'
// common type, null when any argument is null.

#include "quarry/engine/expr/math_functions.h"

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

/// One column of each numeric type (a null in each), strings, booleans and instants.
Table values() {
  Table t;
  t.add("i", DataType::int32(), {int32_t{4}, int32_t{-9}, std::monostate{}, int32_t{0}});
  t.add("l", DataType::int64(), {int64_t{100}, int64_t{-1}, int64_t{0}, std::monostate{}});
  t.add("u", DataType::uint64(),
        {uint64_t{16}, std::numeric_limits<uint64_t>::max(), std::monostate{}, uint64_t{0}});
  t.add("d", DataType::float64(), {2.25, std::nan(""), -0.0, std::monostate{}});
  t.add("q", DataType::decimal(9, 2), {Int128{225}, Int128{-125}, std::monostate{}, Int128{-1}});
  t.add("s", DataType::string(),
        {std::string("z"), std::string("\xc3\xa9t\xc3\xa9"), std::monostate{}, std::string("")});
  t.add("b", DataType::boolean(), {uint8_t{1}, uint8_t{0}, uint8_t{0}, std::monostate{}});
  t.add("day", DataType::date(), {int32_t{0}, int32_t{1}, int32_t{2}, int32_t{3}});
  t.add("ts", DataType::timestamp(TimeUnit::kMicros, false),
        {int64_t{43'200'000'000}, int64_t{0}, std::monostate{}, int64_t{86'400'000'000 * 3}});
  return t;
}

TEST(MathFunctions, DoubleFunctionsTakeEveryNumberTypeAsADouble) {
  const Table t = values();
  EXPECT_EQ(eval("sqrt(i)", t), (V{"2", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval("sqrt(l)", t), (V{"10", "NULL", "0", "NULL"}));
  EXPECT_EQ(eval("sqrt(u)", t), (V{"4", "4294967296", "NULL", "0"}));
  EXPECT_EQ(eval("sqrt(d)", t), (V{"1.5", "nan", "-0", "NULL"}));
  EXPECT_EQ(eval("sqrt(q)", t), (V{"1.5", "NULL", "NULL", "NULL"}));
  for (const char* f : {"sqrt(i)", "cbrt(l)", "exp(u)", "log(q)", "log10(d)", "signum(i)", "sin(q)",
                        "pow(i, l)", "log(u, q)", "atan2(d, i)", "pi()"}) {
    EXPECT_EQ(bindText(f, t.schema)->type, DataType::float64()) << f;
  }
}

TEST(MathFunctions, ValuesAreTheCLibrarysAndEsqls) {
  EXPECT_EQ(eval1("pow(2, 10)"), "1024");
  EXPECT_EQ(eval1("pow(4, 0.5)"), "2");
  EXPECT_EQ(eval1("pow(2, -1)"), "0.5");
  EXPECT_EQ(eval1("pow(0, 0)"), "1");
  EXPECT_EQ(eval1("cbrt(8)"), "2");
  // glibc's cbrt, which DuckDB's calls too, is not correctly rounded here (Java's gives -3.0).
  EXPECT_EQ(eval1("cbrt(-27)"), "-3.0000000000000004");
  EXPECT_EQ(eval1("exp(0)"), "1");
  EXPECT_EQ(eval1("log10(1000)"), "3");
  EXPECT_EQ(eval1("log(1)"), "0");
  EXPECT_EQ(eval1("log(e())"), "1");
  EXPECT_EQ(eval1("log(2, 8)"), "3");
  EXPECT_EQ(eval1("log(10, 0.001)"), "-3");
  EXPECT_EQ(eval1("log(0.5, 4)"), "-2");
  EXPECT_EQ(eval1("sin(0)"), "0");
  EXPECT_EQ(eval1("cos(0)"), "1");
  EXPECT_EQ(eval1("tan(0)"), "0");
  EXPECT_EQ(eval1("asin(1)"), "1.5707963267948966");
  EXPECT_EQ(eval1("acos(-1)"), "3.141592653589793");
  EXPECT_EQ(eval1("atan(1)"), "0.7853981633974483");
  EXPECT_EQ(eval1("atan2(1, 1)"), "0.7853981633974483");
  EXPECT_EQ(eval1("atan2(0, -1)"), "3.141592653589793");  // y first, as ES|QL and C
  EXPECT_EQ(eval1("sinh(0)"), "0");
  EXPECT_EQ(eval1("cosh(0)"), "1");
  EXPECT_EQ(eval1("tanh(1000)"), "1");
  EXPECT_EQ(eval1("exp(1000)"), "inf");  // ES|QL's EXP does not refuse an infinity
}

TEST(MathFunctions, ZeroArgumentConstantsGiveOneValuePerRow) {
  EXPECT_EQ(eval1("pi()"), "3.141592653589793");
  EXPECT_EQ(eval1("PI()"), "3.141592653589793");
  EXPECT_EQ(eval1("e()"), "2.718281828459045");
  EXPECT_EQ(eval1("tau()"), "6.283185307179586");
  EXPECT_EQ(eval("tau() / 2 - pi()", values()), (V{"0", "0", "0", "0"}));
  EXPECT_THROW(eval1("pi(1)"), QueryError);
}

// ES|QL: null (with a warning quarry does not give) where the C library would give
// NaN or a pole, or where the result would not be finite.
TEST(MathFunctions, DomainErrorsAndNonFiniteResultsAreNull) {
  for (const char* f : {"sqrt(-1)", "sqrt(-0.01)", "sqrt(exp(1000))", "log(0)", "log(-1)", "log10(0)",
                        "log10(-5)", "log(2, 0)", "log(2, -8)", "log(1, 5)", "log(0, 5)", "log(-2, 8)",
                        "asin(1.0001)", "asin(-2)", "acos(2)", "acos(-1.5)", "pow(2, 1024)",
                        "pow(0, -1)", "pow(-8, 1.0 / 3)", "pow(-10, 309)", "sinh(1000)", "sinh(-1000)",
                        "cosh(1000)"}) {
    EXPECT_EQ(eval1(f), "NULL") << f;
  }
  // The edges of each domain are values.
  EXPECT_EQ(eval1("sqrt(0)"), "0");
  EXPECT_EQ(eval1("sqrt(-0.0e0)"), "-0");
  EXPECT_EQ(eval1("log(2, 1)"), "0");
  EXPECT_EQ(eval1("asin(-1)"), "-1.5707963267948966");
  EXPECT_EQ(eval1("acos(1)"), "0");
  EXPECT_EQ(eval1("pow(-8, 3)"), "-512");
  EXPECT_EQ(eval1("pow(10, 308)"), "1e+308");
  // Per row: the other rows keep their values.
  EXPECT_EQ(eval("log10(i)", values()), (V{"0.6020599913279624", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(eval("log(l, i)", values()), (V{"0.3010299956639812", "NULL", "NULL", "NULL"}));
  // NaN is no domain error (ES|QL's checks are comparisons, which NaN fails): NaN in, NaN out.
  EXPECT_EQ(eval("log(d, 8)", values()), (V{"2.564266937027182", "nan", "NULL", "NULL"}));
  EXPECT_EQ(eval("asin(d)", values())[1], "nan");
  EXPECT_EQ(eval("asin(q / 2)", values()), (V{"NULL", "-0.6751315329370317", "NULL", "-0.005000020833567712"}));
}

TEST(MathFunctions, NullInGivesNullOut) {
  for (const char* f : {"sqrt(NULL)", "pow(NULL, 2)", "pow(2, NULL)", "log(NULL, 2)", "log(2, NULL)",
                        "atan2(NULL, 1)", "floor(NULL)", "ceil(NULL)", "signum(NULL)", "greatest(NULL)",
                        "greatest(1, NULL)", "least(NULL, \"a\")", "tanh(NULL)"}) {
    EXPECT_EQ(eval1(f), "NULL") << f;
  }
  EXPECT_EQ(bindText("sqrt(NULL)", values().schema)->type, DataType::float64());
  EXPECT_EQ(eval("pow(i, 2)", values()), (V{"16", "81", "NULL", "0"}));
  EXPECT_EQ(eval("atan2(d, i)", values()), (V{"0.5123894603107377", "nan", "NULL", "NULL"}));
}

TEST(MathFunctions, FloorAndCeilKeepIntegersAndGiveDecimalsScaleZero) {
  const Table t = values();
  EXPECT_EQ(eval("floor(i)", t), (V{"4", "-9", "NULL", "0"}));
  EXPECT_EQ(eval("ceil(u)", t), (V{"16", "18446744073709551615", "NULL", "0"}));
  EXPECT_EQ(bindText("floor(i)", t.schema)->type, DataType::int32());
  EXPECT_EQ(bindText("ceil(l)", t.schema)->type, DataType::int64());
  EXPECT_EQ(bindText("floor(u)", t.schema)->type, DataType::uint64());
  EXPECT_EQ(bindText("floor(d)", t.schema)->type, DataType::float64());
  // decimal(9,2) -> decimal(9,0), as DuckDB's FLOOR and CEIL: 2.25 -1.25 null -0.01.
  EXPECT_EQ(bindText("floor(q)", t.schema)->type, DataType::decimal(9, 0));
  EXPECT_EQ(eval("floor(q)", t), (V{"2", "-2", "NULL", "-1"}));
  EXPECT_EQ(eval("ceil(q)", t), (V{"3", "-1", "NULL", "0"}));
  EXPECT_EQ(eval1("floor(-1.25)"), "-2");
  EXPECT_EQ(eval1("ceil(9.99)"), "10");
  EXPECT_EQ(eval1("floor(7.00)"), "7");
  EXPECT_EQ(eval("floor(d)", t), (V{"2", "nan", "-0", "NULL"}));
  EXPECT_EQ(eval("ceil(d)", t), (V{"3", "nan", "-0", "NULL"}));
  EXPECT_EQ(eval1("ceil(-0.5e0)"), "-0");
  EXPECT_EQ(eval1("floor(-0.5e0)"), "-1");
}

// Java's Math.signum, which ES|QL's SIGNUM calls: -1.0, 1.0, or the argument itself
// for either zero and NaN.
TEST(MathFunctions, SignumIsADoubleKeepingZerosAndNan) {
  const Table t = values();
  EXPECT_EQ(eval("signum(i)", t), (V{"1", "-1", "NULL", "0"}));
  EXPECT_EQ(eval("signum(d)", t), (V{"1", "nan", "-0", "NULL"}));
  EXPECT_EQ(eval("signum(q)", t), (V{"1", "-1", "NULL", "-1"}));
  EXPECT_EQ(eval("signum(u)", t), (V{"1", "1", "NULL", "0"}));
}

TEST(MathFunctions, GreatestAndLeastTakeTheCommonType) {
  const Table t = values();
  EXPECT_EQ(eval("greatest(i, l)", t), (V{"100", "-1", "NULL", "NULL"}));
  EXPECT_EQ(bindText("greatest(i, l)", t.schema)->type, DataType::int64());
  EXPECT_EQ(eval("least(i, 3)", t), (V{"3", "-9", "NULL", "0"}));
  EXPECT_EQ(bindText("least(i, 3)", t.schema)->type, DataType::int32());
  EXPECT_EQ(eval("greatest(i, d)", t), (V{"4", "nan", "NULL", "NULL"}));  // NaN above every double
  EXPECT_EQ(eval("least(i, d)", t), (V{"2.25", "-9", "NULL", "NULL"}));
  EXPECT_EQ(bindText("greatest(i, q)", t.schema)->type, DataType::decimal(12, 2));
  EXPECT_EQ(eval("greatest(i, q)", t), (V{"4.00", "-1.25", "NULL", "0.00"}));
  EXPECT_EQ(eval1("greatest(1, 5, 3, 2)"), "5");
  EXPECT_EQ(eval1("least(1, 5, -3, 2)"), "-3");
  EXPECT_EQ(eval1("greatest(7)"), "7");
  // Of equal values the first wins, as DuckDB's: -0.0 and 0.0 are equal.
  EXPECT_EQ(eval1("greatest(-0.0e0, 0.0e0)"), "-0");
  EXPECT_EQ(eval1("least(0.0e0, -0.0e0)"), "0");
  // uint64 with a signed integer: decimal(20,0), which holds both (type_rules.h).
  EXPECT_EQ(bindText("greatest(u, i)", t.schema)->type, DataType::decimal(20, 0));
  EXPECT_EQ(eval("greatest(u, i)", t), (V{"16", "18446744073709551615", "NULL", "0"}));
}

TEST(MathFunctions, GreatestAndLeastOrderStringsBooleansAndInstants) {
  const Table t = values();
  // Bytes compare unsigned: "é" (C3 A9) is above "z".
  EXPECT_EQ(eval("greatest(s, \"m\")", t), (V{"z", "\xc3\xa9t\xc3\xa9", "NULL", "m"}));
  EXPECT_EQ(eval("least(s, \"m\", \"\xe6\x97\xa5\")", t), (V{"m", "m", "NULL", ""}));
  EXPECT_EQ(bindText("least(s, \"m\")", t.schema)->type, DataType::string());
  EXPECT_EQ(eval("greatest(b, false)", t), (V{"true", "false", "false", "NULL"}));
  EXPECT_EQ(eval("least(b, true)", t), (V{"true", "false", "false", "NULL"}));
  // A date joins a timestamp at its midnight.
  EXPECT_EQ(bindText("greatest(day, ts)", t.schema)->type, DataType::timestamp(TimeUnit::kMicros, false));
  EXPECT_EQ(eval("greatest(day, ts)", t),
            (V{"TIMESTAMP '1970-01-01 12:00:00'", "TIMESTAMP '1970-01-02 00:00:00'", "NULL",
               "TIMESTAMP '1970-01-04 00:00:00'"}));
  EXPECT_EQ(eval("least(day, DATE '1970-01-02')", t),
            (V{"DATE '1970-01-01'", "DATE '1970-01-02'", "DATE '1970-01-02'", "DATE '1970-01-02'"}));
}

TEST(MathFunctions, WrongArgumentsAreQueryErrorsNamingTheFunctionAndArgument) {
  const Table t = values();
  const auto message = [&](const std::string& text) {
    try {
      bindText(text, t.schema);
    } catch (const QueryError& e) {
      return std::string(e.what());
    }
    return std::string("bound");
  };
  EXPECT_NE(message("sqrt(s)").find("sqrt: argument 1 (s) must be a number, got string"), std::string::npos)
      << message("sqrt(s)");
  EXPECT_NE(message("sqrt(s)").find("hint: call it as sqrt(number)"), std::string::npos);
  EXPECT_NE(message("pow(2, b)").find("pow: argument 2 (b) must be a number, got boolean"), std::string::npos);
  EXPECT_NE(message("floor(day)").find("floor: argument 1 (day) must be a number, got date"), std::string::npos);
  EXPECT_NE(message("pow(2)").find("pow: expected 2 arguments, got 1"), std::string::npos);
  EXPECT_NE(message("log(1, 2, 3)").find("log: expected 1 to 2 arguments, got 3"), std::string::npos);
  EXPECT_NE(message("sqrt()").find("sqrt: expected 1 argument, got 0"), std::string::npos);
  EXPECT_NE(message("greatest()").find("greatest: expected at least 1 argument"), std::string::npos);
  EXPECT_NE(message("greatest(i, s)").find("greatest: argument 2 (s) of type string does not mix with int32"),
            std::string::npos)
      << message("greatest(i, s)");
  EXPECT_NE(message("least(b, 1)").find("least: argument 2 (1) of type int32 does not mix with boolean"),
            std::string::npos);
  EXPECT_NE(message("greatest(day, s)").find("does not mix"), std::string::npos);
  EXPECT_NE(message("sin(\"0\")").find("must be a number"), std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
