#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "expr_test_support.h"
#include "quarry/common/error.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"

/// The arithmetic fast paths (a literal converted once instead of broadcast,
/// decimals in int64, decimals read as doubles inside a double loop) must give
/// exactly what the general path gives: values, nulls and error texts. Each
/// test names the case the fast path must hand back to the general one.
namespace quarry::engine {
namespace {

using testing::column;
using testing::eval;
using testing::renderAll;
using testing::Table;
using V = std::vector<std::string>;

constexpr int64_t kTwo53 = int64_t{1} << 53;

Block broadcast(const Scalar& value, const DataType& type, size_t n) {
  Block out(type);
  for (size_t i = 0; i < n; ++i) out.appendScalar(value);
  return out;
}

/// arithmeticWithConstant against arithmeticBlocks over the broadcast constant:
/// equal renderings and validity, or the same error text.
void expectSameAsBroadcast(BinaryOp op, const Block& column, const Scalar& value,
                           const DataType& valueType, const DataType& resultType,
                           bool expectFast = true) {
  for (const bool constantOnLeft : {false, true}) {
    const Block constant = broadcast(value, valueType, column.size());
    std::string generalError;
    std::string fastError;
    Block general;
    std::optional<Block> fast;
    try {
      general = constantOnLeft ? arithmeticBlocks(op, constant, column, resultType)
                               : arithmeticBlocks(op, column, constant, resultType);
    } catch (const InvalidArgument& e) {
      generalError = e.what();
    }
    try {
      fast = arithmeticWithConstant(op, column, value, valueType, constantOnLeft, resultType);
    } catch (const InvalidArgument& e) {
      fastError = e.what();
    }
    SCOPED_TRACE(std::string("constant on ") + (constantOnLeft ? "left " : "right ") +
                 literalToString(value, valueType) + " result " + resultType.toString());
    if (expectFast) {
      EXPECT_TRUE(fast || !fastError.empty()) << "the fast path declined";
    } else {
      EXPECT_FALSE(fast) << "the fast path should decline";
    }
    if (!fast && fastError.empty()) continue;  // the evaluator runs the general path
    EXPECT_EQ(fastError, generalError);
    if (!generalError.empty()) continue;
    EXPECT_EQ(fast->type(), general.type());
    EXPECT_EQ(renderAll(*fast), renderAll(general));
    ASSERT_EQ(fast->size(), general.size());
    for (size_t i = 0; i < general.size(); ++i) EXPECT_EQ(fast->isNull(i), general.isNull(i)) << i;
  }
}

TEST(ArithmeticFastPathTest, LiteralOperandGivesTheBroadcastResultForEveryOperator) {
  const Block ints = column(DataType::int32(), {int32_t{7}, int32_t{-7}, std::monostate{},
                                                int32_t{0}, std::numeric_limits<int32_t>::max()});
  const Block decimals =
      column(DataType::decimal(15, 2),
             {Int128{1050}, Int128{-25}, std::monostate{}, Int128{0}, Int128{999999999999999}});
  const Block doubles = column(DataType::float64(),
                               {1.5, std::nan(""), -0.0, std::monostate{},
                                std::numeric_limits<double>::infinity()});
  for (const BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSubtract, BinaryOp::kMultiply,
                            BinaryOp::kDivide, BinaryOp::kModulo}) {
    SCOPED_TRACE(binaryOpText(op));
    for (const auto& [value, type] : std::vector<std::pair<Scalar, DataType>>{
             {int32_t{1}, DataType::int32()},
             {int32_t{0}, DataType::int32()},
             {int32_t{-1}, DataType::int32()},
             {int32_t{2147483647}, DataType::int32()},
             {Int128{5}, DataType::decimal(2, 2)},
             {Int128{-125}, DataType::decimal(4, 3)},
             {Int128{0}, DataType::decimal(1, 1)},
             {-0.0, DataType::float64()},
             {0.5, DataType::float64()},
             {std::nan(""), DataType::float64()}}) {
      for (const Block* block : {&ints, &decimals, &doubles}) {
        const std::optional<DataType> result = arithmeticResultType(op, block->type(), type);
        ASSERT_TRUE(result);
        expectSameAsBroadcast(op, *block, value, type, *result);
      }
    }
  }
}

TEST(ArithmeticFastPathTest, ConstantThatDoesNotConvertTakesTheGeneralPath) {
  // 10^37 at scale 2 needs 40 digits: converting the literal fails, so the
  // general path runs and raises the error a broadcast literal raises.
  const Block decimals = column(DataType::decimal(15, 2), {Int128{100}});
  const Scalar big = pow10Int128(37);
  const DataType bigType = DataType::decimal(38, 0);
  const DataType result = *arithmeticResultType(BinaryOp::kAdd, decimals.type(), bigType);
  expectSameAsBroadcast(BinaryOp::kAdd, decimals, big, bigType, result, false);
  EXPECT_THROW(arithmeticBlocks(BinaryOp::kAdd, decimals, broadcast(big, bigType, 1), result),
               InvalidArgument);
  // An empty block and a null constant also go to the general path.
  EXPECT_FALSE(arithmeticWithConstant(BinaryOp::kAdd, Block(DataType::decimal(15, 2)),
                                      Scalar(Int128{1}), DataType::decimal(1, 0), false,
                                      DataType::decimal(16, 2)));
  EXPECT_FALSE(arithmeticWithConstant(BinaryOp::kAdd, decimals, Scalar(), DataType::decimal(1, 0),
                                      false, DataType::decimal(16, 2)));
}

Table decimalTable() {
  Table t;
  // Declared decimal(18,0); the last value has 19 digits (a file may exceed its
  // declared precision): it fits no int64 step and must reach the Int128 path.
  t.add("a", DataType::decimal(18, 0),
        {Int128{999999999999999999}, Int128{-999999999999999999}, std::monostate{}, Int128{0},
         Int128{9300000000000000000ULL}});
  t.add("b", DataType::decimal(18, 0),
        {Int128{999999999999999999}, Int128{-1}, Int128{5}, std::monostate{}, Int128{0}});
  t.add("p", DataType::decimal(15, 2),
        {Int128{1050}, Int128{-25}, std::monostate{}, Int128{0}, Int128{99}});
  return t;
}

TEST(ArithmeticFastPathTest, DecimalsBeyondInt64GoToTheInt128Path) {
  const Table t = decimalTable();
  // "decimal + -: precision max(p1-s1,p2-s2)+scale+1": decimal(19,0); the sums pass 10^18.
  EXPECT_EQ(eval("a + b", t), (V{"1999999999999999998", "-1000000000000000000", "NULL", "NULL",
                                 "9300000000000000000"}));
  EXPECT_EQ(eval("a + 0", t), (V{"999999999999999999", "-999999999999999999", "NULL", "0",
                                 "9300000000000000000"}));
  EXPECT_EQ(eval("0 - a", t), (V{"-999999999999999999", "999999999999999999", "NULL", "0",
                                 "-9300000000000000000"}));
  // Negation keeps decimal(18,0): the 19-digit value overflows it, and is null.
  EXPECT_EQ(eval("-a", t), (V{"-999999999999999999", "999999999999999999", "NULL", "0", "NULL"}));
  EXPECT_EQ(eval("p - 1", t), (V{"9.50", "-1.25", "NULL", "-1.00", "-0.01"}));
  EXPECT_EQ(eval("1 - p", t), (V{"-9.50", "1.25", "NULL", "1.00", "0.01"}));
  EXPECT_EQ(eval("p * p", t), (V{"110.2500", "0.0625", "NULL", "0.0000", "0.9801"}));
  EXPECT_EQ(eval("a % 7", t), (V{"0", "0", "NULL", "0", "3"}));
  EXPECT_EQ(eval("a % 0", t), (V{"NULL", "NULL", "NULL", "NULL", "NULL"}));
}

TEST(ArithmeticFastPathTest, DecimalOverflowAtTheInt64BoundaryIsNullOnThatRowOnly) {
  // "decimal *: precision 18 when p1 + p2 passes 18 but both inputs are <= 18":
  // 999999999999999999 * 999999999999999999 overflows int64 and decimal(18,0). The
  // int64 path hands the block to the Int128 one, which nulls only that row.
  const Table t = decimalTable();
  EXPECT_EQ(eval("a * b", t), (V{"NULL", "999999999999999999", "NULL", "NULL", "0"}));
  EXPECT_EQ(eval("a * 10", t), (V{"NULL", "NULL", "NULL", "0", "NULL"}));
  EXPECT_EQ(eval("10 * a", t), eval("a * 10", t));
  Table small;
  small.add("x", DataType::decimal(18, 0), {Int128{500000000000000000}, std::monostate{}});
  // Product exactly 10^18: fits int64, not decimal(18,0).
  EXPECT_EQ(eval("x * 2", small), (V{"NULL", "NULL"}));
  // A null position never fails, whatever its stored zero meets.
  EXPECT_EQ(eval("x * 1", small), (V{"500000000000000000", "NULL"}));
}

TEST(ArithmeticFastPathTest, IntegerOverflowWithALiteralIsNull) {
  Table t;
  t.add("i", DataType::int32(), {int32_t{7}, std::monostate{}});
  EXPECT_EQ(eval("i + 2147483647", t), (V{"NULL", "NULL"}));
  EXPECT_EQ(eval("2147483647 + i", t), (V{"NULL", "NULL"}));
  EXPECT_EQ(eval("i + 2147483640", t), (V{"2147483647", "NULL"}));
  EXPECT_EQ(eval("i / 0", t), (V{"NULL", "NULL"}));
  EXPECT_EQ(eval("0 / i", t), (V{"0", "NULL"}));
  Table m;
  m.add("i", DataType::int32(), {std::numeric_limits<int32_t>::min(), int32_t{3}});
  EXPECT_EQ(eval("-i", m), (V{"NULL", "-3"}));
}

TEST(ArithmeticFastPathTest, DecimalReadAsDoubleMatchesTheCast) {
  // "decimal with double: double": the decimal is converted per value inside
  // the loop; the result must be the cast's bit for bit.
  const std::vector<Int128> unscaled = {Int128{kTwo53 - 1},
                                        Int128{kTwo53},
                                        Int128{kTwo53 + 1},
                                        -Int128{kTwo53 + 1},
                                        Int128{999999999999999999},
                                        -Int128{999999999999999999},
                                        Int128{1},
                                        Int128{0}};
  std::vector<Scalar> values(unscaled.begin(), unscaled.end());
  values.push_back(std::monostate{});
  for (const int32_t scale : {0, 2, 18}) {
    const DataType type = DataType::decimal(18, scale);
    Table table;
    table.add("q", type, values);
    table.add("d", DataType::float64(),
              std::vector<Scalar>(values.size(), Scalar(double{1.0})));
    const Block product = evaluate(*testing::bindText("d * q", table.schema), table.page());
    const Block cast = castBlock(table.blocks[0], DataType::float64());
    for (size_t i = 0; i < unscaled.size(); ++i) {
      const double expected = decimalToDoubleWide(unscaled[i], scale);
      // Below 2^53 the cast is one correctly rounded division: the nearest double.
      const std::string text = decimalToString(unscaled[i], scale);
      const double nearest = std::strtod(text.c_str(), nullptr);
      if (unscaled[i] < kTwo53 && unscaled[i] > -Int128{kTwo53}) {
        EXPECT_EQ(decimalToDouble(unscaled[i], scale), nearest) << text;
      } else {
        EXPECT_EQ(decimalToDouble(unscaled[i], scale), expected) << text;
      }
      EXPECT_EQ(product.values<double>()[i], cast.values<double>()[i]) << text;
      EXPECT_EQ(cast.values<double>()[i], decimalToDouble(unscaled[i], scale)) << text;
    }
    EXPECT_TRUE(product.isNull(unscaled.size()));
  }
}

TEST(ArithmeticFastPathTest, DoubleWithDecimalKeepsNanNegativeZeroAndNullDivision) {
  Table t;
  t.add("d", DataType::float64(), {std::nan(""), -0.0, 1.0, 2.5, std::monostate{}});
  t.add("q", DataType::decimal(15, 2), {Int128{100}, Int128{0}, Int128{0}, Int128{-50},
                                         Int128{1}});
  EXPECT_EQ(eval("d * q", t), (V{"nan", "-0", "0", "-1.25", "NULL"}));
  EXPECT_EQ(eval("d * (1 - q)", t), (V{"nan", "-0", "1", "3.75", "NULL"}));
  // "division or modulo by zero -> null", the zero a decimal 0.00.
  EXPECT_EQ(eval("d / q", t), (V{"nan", "NULL", "NULL", "-5", "NULL"}));
  EXPECT_EQ(eval("q / d", t), (V{"nan", "NULL", "0", "-0.2", "NULL"}));
  EXPECT_EQ(eval("d + 0.0", t), (V{"nan", "0", "1", "2.5", "NULL"}));
  EXPECT_EQ(eval("d % 2", t), (V{"nan", "-0", "1", "0.5", "NULL"}));
  EXPECT_EQ(eval("2 / d", t), (V{"nan", "NULL", "2", "0.8", "NULL"}));  // -0.0 is a zero
}

TEST(ArithmeticFastPathTest, EmptyPageGivesAnEmptyBlockOfTheResultType) {
  Table t;
  t.add("q", DataType::decimal(15, 2), {});
  t.add("i", DataType::int32(), {});
  EXPECT_EQ(eval("q + 99999999999999999999999999999999999999", t), V{});
  EXPECT_EQ(eval("1 - q", t), V{});
  EXPECT_EQ(eval("i * 3", t), V{});
}

}  // namespace
}  // namespace quarry::engine
