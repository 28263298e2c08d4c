#include "quarry/formats/parquet/bound_predicate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "quarry/common/error.h"
#include "tests/formats/parquet/in_memory_row_group.h"

// query-controls.txt, "Predicate literals by column type": every row of the table,
// each accepted literal type matching the right rows and every other literal type
// throwing at binding (reader creation).
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;
using Kind = LogicalType::Kind;
using LT = LiteralType;

std::vector<PredicateLiteral> oneOfEveryType() {
  return {true,          int32_t{1},     int64_t{1},        1.0f,          1.0,
          std::string("a"), Bytes{0x01}, Date{1},           TimeOfDay{1},  Instant{1, 0},
          LocalDateTime{1, 0}, Decimal{{0x01}, 0}, Uuid{}, Interval{1, 2, 3}};
}

/// Expects every literal type outside `accepted` to throw InvalidArgument naming the column.
void expectRefusesAllBut(InMemoryRowGroup& t, const std::string& column, std::set<LT> accepted) {
  for (const auto& literal : oneOfEveryType()) {
    if (accepted.count(literalType(literal))) continue;
    try {
      t.bindOnly(std::visit([&](const auto& v) { return P::eq(column, v); }, literal));
      ADD_FAILURE() << column << " took a " << literalTypeName(literalType(literal));
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + column + "'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(literalTypeName(literalType(literal))), std::string::npos)
          << e.what();
    }
  }
}

float nanF() { return std::numeric_limits<float>::quiet_NaN(); }
double nanD() { return std::numeric_limits<double>::quiet_NaN(); }

TEST(PredicateLiteralTableTest, BooleanTakesBoolOrderedFalseBeforeTrue) {
  InMemoryRowGroup t;
  t.column(leafElement("b", PhysicalType::BOOLEAN), {le<uint8_t>(1), le<uint8_t>(0), std::nullopt});
  EXPECT_EQ(t.select(P::eq("b", true)), Rows{0});
  EXPECT_EQ(t.select(P::notEq("b", true)), Rows{1});
  EXPECT_EQ(t.select(P::lt("b", true)), Rows{1});
  EXPECT_EQ(t.select(P::gtEq("b", false)), (Rows{0, 1}));
  expectRefusesAllBut(t, "b", {LT::kBool});
}

TEST(PredicateLiteralTableTest, Int32TakesIntSigned) {
  InMemoryRowGroup t;
  t.column(leafElement("i", PhysicalType::INT32), {le<int32_t>(-5), le<int32_t>(7), std::nullopt});
  EXPECT_EQ(t.select(P::lt("i", 0)), Rows{0});
  EXPECT_EQ(t.select(P::in("i", 7, 8)), Rows{1});
  expectRefusesAllBut(t, "i", {LT::kInt32});
}

TEST(PredicateLiteralTableTest, Int64TakesLongSigned) {
  InMemoryRowGroup t;
  t.column(leafElement("l", PhysicalType::INT64), {le<int64_t>(-5), le<int64_t>(int64_t{1} << 40)});
  EXPECT_EQ(t.select(P::gt("l", int64_t{0})), Rows{1});
  expectRefusesAllBut(t, "l", {LT::kInt64});
}

TEST(PredicateLiteralTableTest, FloatTakesFloatInTotalOrder) {
  InMemoryRowGroup t;
  t.column(leafElement("f", PhysicalType::FLOAT),
           {le(-0.0f), le(0.0f), le(nanF()), le(-INFINITY), le(1.0f), std::nullopt, le(INFINITY)});
  EXPECT_EQ(t.select(P::eq("f", nanF())), Rows{2});
  EXPECT_EQ(t.select(P::gt("f", 1e30f)), (Rows{2, 6}));  // NaN sorts above +inf
  EXPECT_EQ(t.select(P::gt("f", INFINITY)), Rows{2});
  EXPECT_EQ(t.select(P::lt("f", 0.0f)), (Rows{0, 3}));    // -0.0 < +0.0
  EXPECT_EQ(t.select(P::eq("f", 0.0f)), Rows{1});
  EXPECT_EQ(t.select(P::eq("f", -0.0f)), Rows{0});
  EXPECT_EQ(t.select(P::notEq("f", nanF())), (Rows{0, 1, 3, 4, 6}));
  expectRefusesAllBut(t, "f", {LT::kFloat});
}

TEST(PredicateLiteralTableTest, DoubleTakesDoubleInTotalOrder) {
  InMemoryRowGroup t;
  t.column(leafElement("x", PhysicalType::DOUBLE), {le(-0.0), le(0.0), le(nanD()), le(2.5), std::nullopt});
  EXPECT_EQ(t.select(P::eq("x", -nanD())), Rows{2});  // every NaN equals every other
  EXPECT_EQ(t.select(P::ltEq("x", -0.0)), Rows{0});
  EXPECT_EQ(t.select(P::gtEq("x", 0.0)), (Rows{1, 2, 3}));
  expectRefusesAllBut(t, "x", {LT::kDouble});
}

TEST(PredicateLiteralTableTest, ByteArrayTakesBytesAndStringUnsignedLexicographic) {
  InMemoryRowGroup t;
  t.column(leafElement("s", PhysicalType::BYTE_ARRAY),
           {std::string("apple"), std::string("caf\xC3\xA9"), std::string("\xFF"), std::string(""), std::nullopt});
  EXPECT_EQ(t.select(P::eq("s", "apple")), Rows{0});
  EXPECT_EQ(t.select(P::gt("s", "cafe")), (Rows{1, 2}));  // 0xC3 and 0xFF sort above ASCII
  EXPECT_EQ(t.select(P::lt("s", Bytes{0x61})), Rows{3});
  EXPECT_EQ(t.select(P::eq("s", Bytes{0xFF})), Rows{2});
  // A row of ill-formed UTF-8 matches no String literal, not even U+FFFD.
  EXPECT_EQ(t.select(P::eq("s", "\xEF\xBF\xBD")), Rows{});
  expectRefusesAllBut(t, "s", {LT::kBytes, LT::kString});
}

TEST(PredicateLiteralTableTest, FixedLenByteArrayTakesBytesOfItsWidth) {
  InMemoryRowGroup t;
  t.column(leafElement("c", PhysicalType::FIXED_LEN_BYTE_ARRAY, 3), {bytes({1, 2, 3}), bytes({0xFF, 0, 0})});
  EXPECT_EQ(t.select(P::gt("c", Bytes{1, 2, 3})), Rows{1});
  EXPECT_THROW(t.bindOnly(P::eq("c", Bytes{1, 2})), InvalidArgument);
  expectRefusesAllBut(t, "c", {LT::kBytes});
}

TEST(PredicateLiteralTableTest, Int96TakesInstantAndTwelveBytes) {
  // 1970-01-02T00:00Z under two encodings: Julian day 2440589 + 0 ns, and day
  // 2440588 + 86400e9 ns (the nanoseconds of the day are not bounded by one day).
  const std::string a = int96(0, 2'440'589);
  const std::string b = int96(int64_t{86'400} * 1'000'000'000, 2'440'588);
  InMemoryRowGroup t;
  t.column(leafElement("x", PhysicalType::INT96), {a, b, int96(1, 2'440'588), std::nullopt});
  EXPECT_EQ(t.select(P::eq("x", Instant{86'400, 0})), (Rows{0, 1}));
  EXPECT_EQ(t.select(P::lt("x", Instant{86'400, 0})), Rows{2});
  EXPECT_EQ(t.select(P::eq("x", Bytes(a.begin(), a.end()))), Rows{0});
  EXPECT_THROW(t.bindOnly(P::eq("x", Bytes{1, 2, 3})), InvalidArgument);
  try {
    t.bindOnly(P::lt("x", Bytes(a.begin(), a.end())));
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("quarry::Instant"), std::string::npos) << e.what();
  }
  // An Instant past every INT96 encoding: equality throws, ordered decides.
  const Instant far{std::numeric_limits<int64_t>::max(), 0};
  EXPECT_THROW(t.bindOnly(P::eq("x", far)), InvalidArgument);
  EXPECT_EQ(t.select(P::lt("x", far)), (Rows{0, 1, 2}));
  expectRefusesAllBut(t, "x", {LT::kInstant, LT::kBytes});
}

TEST(PredicateLiteralTableTest, SignedIntegerAnnotationTakesThePhysicalLiteral) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("i8", PhysicalType::INT32), intType(8, true)), {le<int32_t>(-1), le<int32_t>(5)});
  t.column(withLogical(leafElement("i64", PhysicalType::INT64), intType(64, true)), {le<int64_t>(-1), le<int64_t>(5)});
  EXPECT_EQ(t.select(P::lt("i8", 0)), Rows{0});
  EXPECT_EQ(t.select(P::lt("i64", int64_t{0})), Rows{0});
  expectRefusesAllBut(t, "i8", {LT::kInt32});
  expectRefusesAllBut(t, "i64", {LT::kInt64});
}

TEST(PredicateLiteralTableTest, UnsignedIntegerAnnotationComparesByMagnitude) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("u8", PhysicalType::INT32), intType(8, false)), {le<int32_t>(200), le<int32_t>(3)});
  t.column(withLogical(leafElement("u64", PhysicalType::INT64), intType(64, false)),
           {le<int64_t>(-1), le<int64_t>(3)});
  EXPECT_EQ(t.select(P::gt("u8", 100)), Rows{0});
  EXPECT_EQ(t.select(P::gt("u64", int64_t{std::numeric_limits<int64_t>::max()})), Rows{0});
  EXPECT_EQ(t.select(P::eq("u64", int64_t{-1})), Rows{0});  // UINT64_MAX's bit pattern
  EXPECT_EQ(t.select(P::lt("u64", int64_t{-1})), Rows{1});
  expectRefusesAllBut(t, "u8", {LT::kInt32});
  expectRefusesAllBut(t, "u64", {LT::kInt64});
}

TEST(PredicateLiteralTableTest, LegacyUint32ConvertedTypeComparesUnsigned) {
  SchemaElement e = leafElement("u", PhysicalType::INT32);
  e.converted_type = ConvertedType::UINT_32;
  InMemoryRowGroup t;
  t.column(e, {le<int32_t>(-294'967'296), le<int32_t>(1)});
  EXPECT_EQ(t.select(P::gt("u", 1)), Rows{0});
}

TEST(PredicateLiteralTableTest, DateTakesDateAndTheEpochDay) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("d", PhysicalType::INT32), logical(Kind::DATE)), {le<int32_t>(-1), le<int32_t>(3)});
  EXPECT_EQ(t.select(P::lt("d", Date{0})), Rows{0});
  EXPECT_EQ(t.select(P::eq("d", 3)), Rows{1});
  expectRefusesAllBut(t, "d", {LT::kInt32, LT::kDate});
}

TEST(PredicateLiteralTableTest, TimeTakesTimeOfDayInTheColumnsUnit) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("ms", PhysicalType::INT32), timeType(Kind::TIME, TimeUnit::MILLIS, true)),
           {le<int32_t>(1000), le<int32_t>(1001)});
  t.column(withLogical(leafElement("us", PhysicalType::INT64), timeType(Kind::TIME, TimeUnit::MICROS, false)),
           {le<int64_t>(1000), le<int64_t>(1001)});
  t.column(withLogical(leafElement("ns", PhysicalType::INT64), timeType(Kind::TIME, TimeUnit::NANOS, true)),
           {le<int64_t>(1000), le<int64_t>(1001)});
  EXPECT_EQ(t.select(P::eq("ms", TimeOfDay{1'000'000'000})), Rows{0});
  EXPECT_EQ(t.select(P::gt("ms", TimeOfDay{1'000'000'001})), Rows{1});
  EXPECT_THROW(t.bindOnly(P::eq("ms", TimeOfDay{1'000'000'001})), InvalidArgument);
  EXPECT_EQ(t.select(P::eq("us", TimeOfDay{1'001'000})), Rows{1});
  EXPECT_EQ(t.select(P::eq("ns", TimeOfDay{1001})), Rows{1});
  EXPECT_EQ(t.select(P::eq("us", int64_t{1000})), Rows{0});
  expectRefusesAllBut(t, "ms", {LT::kInt32, LT::kTimeOfDay});
  expectRefusesAllBut(t, "us", {LT::kInt64, LT::kTimeOfDay});
}

TEST(PredicateLiteralTableTest, UtcTimestampTakesInstantInEveryUnit) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("ms", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::MILLIS, true)),
           {le<int64_t>(-1), le<int64_t>(1500)});
  t.column(withLogical(leafElement("ns", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::NANOS, true)),
           {le<int64_t>(-1), le<int64_t>(1'500'000'000)});
  SchemaElement legacy = leafElement("legacy", PhysicalType::INT64);
  legacy.converted_type = ConvertedType::TIMESTAMP_MICROS;
  t.column(legacy, {le<int64_t>(-1), le<int64_t>(1'500'000)});
  EXPECT_EQ(t.select(P::eq("ms", Instant{-1, 999'000'000})), Rows{0});  // 1969-12-31T23:59:59.999Z
  EXPECT_EQ(t.select(P::eq("ms", Instant{1, 500'000'000})), Rows{1});
  EXPECT_EQ(t.select(P::lt("ns", Instant{0, 0})), Rows{0});
  EXPECT_EQ(t.select(P::eq("legacy", Instant{1, 500'000'000})), Rows{1});
  EXPECT_EQ(t.select(P::eq("ms", int64_t{1500})), Rows{1});
  expectRefusesAllBut(t, "ms", {LT::kInt64, LT::kInstant});
  expectRefusesAllBut(t, "legacy", {LT::kInt64, LT::kInstant});
}

TEST(PredicateLiteralTableTest, LocalTimestampTakesLocalDateTime) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("t", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::MICROS, false)),
           {le<int64_t>(1'000'001), le<int64_t>(5)});
  EXPECT_EQ(t.select(P::eq("t", LocalDateTime{1, 1000})), Rows{0});
  EXPECT_EQ(t.select(P::lt("t", LocalDateTime{0, 5001})), Rows{1});
  expectRefusesAllBut(t, "t", {LT::kInt64, LT::kLocalDateTime});
}

TEST(PredicateLiteralTableTest, TimestampOverTwelveBytesTakesInstantAndItsBytes) {
  const std::string a = int96(0, 2'440'589);
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("t", PhysicalType::FIXED_LEN_BYTE_ARRAY, 12),
                       timeType(Kind::TIMESTAMP, TimeUnit::NANOS, true)),
           {a, int96(5, 2'440'588)});
  EXPECT_EQ(t.select(P::eq("t", Instant{86'400, 0})), Rows{0});
  EXPECT_EQ(t.select(P::lt("t", Instant{86'400, 0})), Rows{1});
  EXPECT_EQ(t.select(P::eq("t", Bytes(a.begin(), a.end()))), Rows{0});
  EXPECT_THROW(t.bindOnly(P::gt("t", Bytes(a.begin(), a.end()))), InvalidArgument);
  expectRefusesAllBut(t, "t", {LT::kBytes, LT::kInstant});
}

TEST(PredicateLiteralTableTest, DecimalOnIntegersTakesDecimalAndTheUnscaledInteger) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("d32", PhysicalType::INT32), decimalType(9, 2)), {le<int32_t>(125), le<int32_t>(-1)});
  t.column(withLogical(leafElement("d64", PhysicalType::INT64), decimalType(18, 2)), {le<int64_t>(125), le<int64_t>(-1)});
  EXPECT_EQ(t.select(P::eq("d32", Decimal{{0x7D}, 2})), Rows{0});
  EXPECT_EQ(t.select(P::eq("d32", 125)), Rows{0});
  EXPECT_EQ(t.select(P::lt("d64", Decimal{{0x00}, 0})), Rows{1});
  EXPECT_EQ(t.select(P::eq("d64", int64_t{125})), Rows{0});
  // Past the INT32 carrier: equality throws, ordered decides.
  const Decimal big{{0x01, 0x00, 0x00, 0x00, 0x00}, 2};
  EXPECT_THROW(t.bindOnly(P::eq("d32", big)), InvalidArgument);
  EXPECT_EQ(t.select(P::lt("d32", big)), (Rows{0, 1}));
  expectRefusesAllBut(t, "d32", {LT::kInt32, LT::kDecimal});
  expectRefusesAllBut(t, "d64", {LT::kInt64, LT::kDecimal});
}

TEST(PredicateLiteralTableTest, DecimalOnBinaryTakesDecimalAndBytes) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("f", PhysicalType::FIXED_LEN_BYTE_ARRAY, 4), decimalType(9, 2)),
           {bytes({0, 0, 0, 0x7D}), bytes({0xFF, 0xFF, 0xFF, 0xFF})});
  t.column(withLogical(leafElement("b", PhysicalType::BYTE_ARRAY), decimalType(40, 2)),
           {bytes({0x7D}), bytes({0xFF})});
  EXPECT_EQ(t.select(P::eq("f", Decimal{{0x7D}, 2})), Rows{0});
  EXPECT_EQ(t.select(P::lt("f", Decimal{{0x00}, 2})), Rows{1});
  EXPECT_EQ(t.select(P::eq("f", Bytes{0, 0, 0, 0x7D})), Rows{0});
  EXPECT_THROW(t.bindOnly(P::eq("f", Bytes{0x7D})), InvalidArgument);  // n bytes only
  EXPECT_EQ(t.select(P::eq("b", Decimal{{0xFF}, 2})), Rows{1});
  EXPECT_EQ(t.select(P::eq("b", Bytes{0x00, 0x7D})), Rows{});  // the padded encoding is another literal
  EXPECT_THROW(t.bindOnly(P::eq("b", Decimal{{0x7D}, 3})), InvalidArgument);  // 0.125 on scale 2
  expectRefusesAllBut(t, "f", {LT::kBytes, LT::kDecimal});
  expectRefusesAllBut(t, "b", {LT::kBytes, LT::kDecimal});
}

TEST(PredicateLiteralTableTest, TextAnnotationsTakeStringAndBytes) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("s", PhysicalType::BYTE_ARRAY), logical(Kind::STRING)), {std::string("b")});
  t.column(withLogical(leafElement("e", PhysicalType::BYTE_ARRAY), logical(Kind::ENUM)), {std::string("B")});
  t.column(withLogical(leafElement("j", PhysicalType::BYTE_ARRAY), logical(Kind::JSON)), {std::string("{}")});
  EXPECT_EQ(t.select(P::gt("s", "a")), Rows{0});
  EXPECT_EQ(t.select(P::eq("e", "B")), Rows{0});
  EXPECT_EQ(t.select(P::eq("j", Bytes{'{', '}'})), Rows{0});
  for (const char* c : {"s", "e", "j"}) expectRefusesAllBut(t, c, {LT::kBytes, LT::kString});
}

TEST(PredicateLiteralTableTest, BsonTakesBytesOnly) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("x", PhysicalType::BYTE_ARRAY), logical(Kind::BSON)), {bytes({5, 0, 0, 0, 0})});
  EXPECT_EQ(t.select(P::ltEq("x", Bytes{5, 0, 0, 0, 0})), Rows{0});
  try {
    t.bindOnly(P::eq("x", "text"));
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("quarry::Bytes"), std::string::npos) << e.what();
  }
  expectRefusesAllBut(t, "x", {LT::kBytes});
}

TEST(PredicateLiteralTableTest, GeometryTakesBytesForEqualityAndIntersects) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("g", PhysicalType::BYTE_ARRAY), logical(Kind::GEOMETRY)), {bytes({1, 1}), std::nullopt});
  t.column(withLogical(leafElement("gg", PhysicalType::BYTE_ARRAY), logical(Kind::GEOGRAPHY)), {bytes({1}), bytes({2})});
  EXPECT_EQ(t.select(P::eq("g", Bytes{1, 1})), Rows{0});
  EXPECT_THROW(t.bindOnly(P::lt("g", Bytes{1})), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::gtEq("gg", Bytes{1})), InvalidArgument);
  // Row-group level: without bounding-box statistics every row is kept.
  EXPECT_EQ(t.select(P::intersects("g", 0, 0, 1, 1)), (Rows{0, 1}));
  EXPECT_THROW(t.bindOnly(P::not_(P::intersects("g", 0, 0, 1, 1))), InvalidArgument);
  InMemoryRowGroup n;
  n.column(leafElement("i", PhysicalType::INT32), {le<int32_t>(1)});
  EXPECT_THROW(n.bindOnly(P::intersects("i", 0, 0, 1, 1)), InvalidArgument);
  expectRefusesAllBut(t, "g", {LT::kBytes});
}

TEST(PredicateLiteralTableTest, UuidTakesUuidAndSixteenBytes) {
  Uuid a;
  a.bytes[15] = 1;
  Uuid b;
  b.bytes[0] = 0xF0;
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("u", PhysicalType::FIXED_LEN_BYTE_ARRAY, 16), logical(Kind::UUID)),
           {std::string(a.bytes.begin(), a.bytes.end()), std::string(b.bytes.begin(), b.bytes.end())});
  EXPECT_EQ(t.select(P::eq("u", a)), Rows{0});
  EXPECT_EQ(t.select(P::gt("u", a)), Rows{1});  // unsigned bytes
  EXPECT_EQ(t.select(P::eq("u", Bytes(b.bytes.begin(), b.bytes.end()))), Rows{1});
  EXPECT_THROW(t.bindOnly(P::eq("u", Bytes{1})), InvalidArgument);
  expectRefusesAllBut(t, "u", {LT::kBytes, LT::kUuid});
}

TEST(PredicateLiteralTableTest, Float16TakesFloatAndTwoBytes) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("h", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(Kind::FLOAT16)),
           {le<uint16_t>(0x3C00), le<uint16_t>(0x7E00), le<uint16_t>(0x8000), le<uint16_t>(0x0000),
            le<uint16_t>(0x7C01)});
  EXPECT_EQ(t.select(P::eq("h", 1.0f)), Rows{0});
  EXPECT_EQ(t.select(P::eq("h", nanF())), (Rows{1, 4}));  // every NaN
  EXPECT_EQ(t.select(P::lt("h", 0.0f)), Rows{2});
  EXPECT_EQ(t.select(P::lt("h", 0.1f)), (Rows{2, 3}));
  EXPECT_THROW(t.bindOnly(P::eq("h", 0.1f)), InvalidArgument);  // no half represents it
  EXPECT_EQ(t.select(P::eq("h", Bytes{0x00, 0x7E})), Rows{1});  // one NaN encoding
  EXPECT_THROW(t.bindOnly(P::eq("h", Bytes{0x00})), InvalidArgument);
  try {
    t.bindOnly(P::gt("h", Bytes{0x00, 0x3C}));
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("float"), std::string::npos) << e.what();
  }
  expectRefusesAllBut(t, "h", {LT::kBytes, LT::kFloat});
}

TEST(PredicateLiteralTableTest, IntervalTakesIntervalAndTwelveBytesWithoutOrder) {
  const Interval hour{0, 1, 3'600'000};
  std::string stored = le(hour.months) + le(hour.days) + le(hour.millis);
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("iv", PhysicalType::FIXED_LEN_BYTE_ARRAY, 12), logical(Kind::INTERVAL)),
           {stored, le<uint32_t>(0) + le<uint32_t>(0) + le<uint32_t>(0)});
  EXPECT_EQ(t.select(P::eq("iv", hour)), Rows{0});
  EXPECT_EQ(t.select(P::notEq("iv", hour)), Rows{1});
  EXPECT_EQ(t.select(P::in("iv", Bytes(stored.begin(), stored.end()))), Rows{0});
  EXPECT_THROW(t.bindOnly(P::lt("iv", hour)), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::gt("iv", Bytes(12, 0))), InvalidArgument);
  expectRefusesAllBut(t, "iv", {LT::kBytes, LT::kInterval});
}

TEST(PredicateLiteralTableTest, NullTypeTakesThePhysicalLiteralWithoutOrder) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("n", PhysicalType::INT32), logical(Kind::UNKNOWN)), {std::nullopt, std::nullopt});
  EXPECT_EQ(t.select(P::eq("n", 1)), Rows{});
  EXPECT_EQ(t.select(P::isNull("n")), (Rows{0, 1}));
  EXPECT_THROW(t.bindOnly(P::lt("n", 1)), InvalidArgument);
  expectRefusesAllBut(t, "n", {LT::kInt32});
}

TEST(PredicateLiteralTableTest, VariantTakesNullTestsOnlyOnTheGroupAndItsLeaves) {
  SchemaElement v;
  v.name = "v";
  v.repetition_type = FieldRepetitionType::OPTIONAL;
  v.num_children = 2;
  v.logicalType = logical(Kind::VARIANT);
  SchemaElement metadata = leafElement("metadata", PhysicalType::BYTE_ARRAY);
  metadata.repetition_type = FieldRepetitionType::REQUIRED;
  SchemaElement value = leafElement("value", PhysicalType::BYTE_ARRAY);
  InMemoryRowGroup t;
  t.column(leafElement("id", PhysicalType::INT32), {le<int32_t>(1), le<int32_t>(2)});
  t.nullSubtree({v, metadata, value}, 2);
  EXPECT_EQ(t.select(P::isNull("v")), (Rows{0, 1}));
  EXPECT_EQ(t.select(P::isNotNull("v.value")), Rows{});
  EXPECT_THROW(t.bindOnly(P::eq("v.value", Bytes{1})), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::eq("v.metadata", "x")), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::eq("v", Bytes{1})), InvalidArgument);
}

TEST(PredicateColumnFormTest, UnknownAmbiguousAndRepeatedNamesAreRejected) {
  SchemaElement list;
  list.name = "tags";
  list.repetition_type = FieldRepetitionType::OPTIONAL;
  list.num_children = 1;
  list.converted_type = ConvertedType::LIST;
  SchemaElement repeated;
  repeated.name = "list";
  repeated.repetition_type = FieldRepetitionType::REPEATED;
  repeated.num_children = 1;
  InMemoryRowGroup t;
  t.column(leafElement("id", PhysicalType::INT32), {le<int32_t>(1), le<int32_t>(2)});
  t.nullSubtree({list, repeated, leafElement("element", PhysicalType::INT32)}, 1);
  EXPECT_EQ(t.select(P::isNull("tags")), (Rows{0, 1}));  // a LIST group takes null tests
  EXPECT_THROW(t.bindOnly(P::eq("tags.list.element", 1)), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::isNull("tags.list")), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::eq("tags", 1)), InvalidArgument);
  try {
    t.bindOnly(P::eq("nope", 1));
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "Column not found: nope");
  }
}

TEST(PredicateBindingTest, TotalOrderKeyFollowsDoubleCompare) {
  EXPECT_LT(totalOrderKey(-INFINITY), totalOrderKey(-1.0));
  EXPECT_LT(totalOrderKey(-1.0), totalOrderKey(-0.0));
  EXPECT_LT(totalOrderKey(-0.0), totalOrderKey(0.0));
  EXPECT_LT(totalOrderKey(0.0), totalOrderKey(1e-300));
  EXPECT_LT(totalOrderKey(INFINITY), totalOrderKey(nanD()));
  EXPECT_EQ(totalOrderKey(nanD()), totalOrderKey(-nanD()));
}

TEST(PredicateBindingTest, TwosComplementComparesAcrossLengths) {
  EXPECT_EQ(compareTwosComplement("\x7D", std::string("\x00\x7D", 2)), 0);
  EXPECT_EQ(compareTwosComplement("\xFF", "\xFF\xFF"), 0);
  EXPECT_LT(compareTwosComplement("\x80", "\x7F"), 0);
  EXPECT_GT(compareTwosComplement(std::string("\x01\x00", 2), "\x7F"), 0);
  EXPECT_LT(compareTwosComplement("\xFE\xFF", "\xFF"), 0);
}

}  // namespace
}  // namespace quarry::parquet
