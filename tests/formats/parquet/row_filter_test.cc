#include "quarry/formats/parquet/row_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "tests/formats/parquet/in_memory_row_group.h"

// The examples of query-controls.txt, "Predicate literals by column type" and
// "Literals the column cannot hold", one test each, and the three-valued logic.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;
using Kind = LogicalType::Kind;

constexpr int64_t kDay = 86'400;
constexpr int64_t kJan2026 = 20'454;  // epoch day of 2026-01-01

Decimal dec(Bytes unscaled, int32_t scale) { return Decimal{std::move(unscaled), scale}; }

/// Columns d DATE, ts TIMESTAMP(MICROS, true), dec DECIMAL(9, 2) over BYTE_ARRAY whose
/// row A (0) stores 1.25 as 7D and row B (1) as 00 7D, and u INT(32, false); row 3 is null.
InMemoryRowGroup specExampleTable() {
  const int64_t micros = kJan2026 * kDay * 1'000'000;
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("d", PhysicalType::INT32), logical(Kind::DATE)),
           {le<int32_t>(kJan2026), le<int32_t>(kJan2026 + 1), le<int32_t>(kJan2026 - 1), std::nullopt});
  t.column(withLogical(leafElement("ts", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::MICROS, true)),
           {le<int64_t>(micros), le<int64_t>(micros + 1), le<int64_t>(micros - 1), std::nullopt});
  t.column(withLogical(leafElement("dec", PhysicalType::BYTE_ARRAY), decimalType(9, 2)),
           {bytes({0x7D}), bytes({0x00, 0x7D}), bytes({0x00, 0xC8}), std::nullopt});
  t.column(withLogical(leafElement("u", PhysicalType::INT32), intType(32, false)),
           {le<int32_t>(1), le<int32_t>(-1), le<int32_t>(-294'967'296), std::nullopt});
  return t;
}

TEST(RowFilterSpecExamplesTest, EqDateTakesTheDateGetDateReturns) {
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::eq("d", Date::ofCivil(2026, 1, 1))), Rows{0});
}

TEST(RowFilterSpecExamplesTest, EqDateTakesTheEpochDayGetIntReturns) {
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::eq("d", int32_t{20454})), Rows{0});
}

TEST(RowFilterSpecExamplesTest, EqDateWithALongThrows) {
  auto t = specExampleTable();
  EXPECT_THROW(t.bindOnly(P::eq("d", int64_t{20454})), InvalidArgument);
}

TEST(RowFilterSpecExamplesTest, EqDecimalWithAStringThrows) {
  auto t = specExampleTable();
  try {
    t.bindOnly(P::eq("dec", "1.25"));
    FAIL();
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'dec'"), std::string::npos) << m;
    EXPECT_NE(m.find("quarry::Decimal"), std::string::npos) << m;  // names what it takes
  }
}

TEST(RowFilterSpecExamplesTest, EqDecimalMatchesEveryEncodingOfTheNumber) {
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::eq("dec", dec({0x7D}, 2))), (Rows{0, 1}));
}

TEST(RowFilterSpecExamplesTest, EqDecimalBytesMatchesOnlyTheRowStoringThem) {
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::eq("dec", Bytes{0x7D})), Rows{0});
}

TEST(RowFilterSpecExamplesTest, LtDecimalComparesTheNumbers) {
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::lt("dec", dec({0x00, 0xC8}, 2))), (Rows{0, 1}));
}

TEST(RowFilterSpecExamplesTest, LtDecimalWithBytesThrowsNamingTheDecimalLiteral) {
  auto t = specExampleTable();
  try {
    t.bindOnly(P::lt("dec", Bytes{0x7D}));
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("quarry::Decimal"), std::string::npos) << e.what();
  }
}

TEST(RowFilterSpecExamplesTest, LtUnsignedMinusOneIsAllOnesComparedUnsigned) {
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::lt("u", int32_t{-1})), (Rows{0, 2}));
}

TEST(RowFilterSpecExamplesTest, LtTimestampFinerThanMicrosReturnsRowsUpToTheMicro) {
  auto t = specExampleTable();
  const Instant literal{kJan2026 * kDay, 500};  // 2026-01-01T00:00:00.000000500Z
  EXPECT_EQ(t.select(P::lt("ts", literal)), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::ltEq("ts", literal)), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::gt("ts", literal)), Rows{1});
  EXPECT_EQ(t.select(P::gtEq("ts", literal)), Rows{1});
}

TEST(RowFilterSpecExamplesTest, EqTimestampFinerThanMicrosThrows) {
  auto t = specExampleTable();
  EXPECT_THROW(t.bindOnly(P::eq("ts", Instant{kJan2026 * kDay, 500})), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::notEq("ts", Instant{kJan2026 * kDay, 500})), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::in("ts", Instant{0, 0}, Instant{kJan2026 * kDay, 500})), InvalidArgument);
}

TEST(RowFilterSpecExamplesTest, UnsignedLiteralIsTheStoredBitPattern) {
  // 4_000_000_000 in a UINT_32 column is the int -294_967_296, above every positive int.
  auto t = specExampleTable();
  EXPECT_EQ(t.select(P::eq("u", int32_t{-294'967'296})), Rows{2});
  EXPECT_EQ(t.select(P::gt("u", int32_t{2'000'000'000})), (Rows{1, 2}));
}

// "Literals the column cannot hold"

TEST(RowFilterCannotHoldTest, EqualityThrowsNamingColumnBoundAndLiteral) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("ts", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::MICROS, true)),
           {le<int64_t>(0)});
  // Instant.parse("2024-05-01T12:00:00.000000500Z")
  const Instant literal{Date::ofCivil(2024, 5, 1).daysSinceEpoch * kDay + 12 * 3600, 500};
  try {
    t.bindOnly(P::eq("ts", literal));
    FAIL();
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'ts'"), std::string::npos) << m;
    EXPECT_NE(m.find("microseconds within the INT64 range"), std::string::npos) << m;
    EXPECT_NE(m.find("2024-05-01T12:00:00.000000500Z"), std::string::npos) << m;
  }
}

TEST(RowFilterCannotHoldTest, OrderedIsAnsweredExactlySnappedToTheUnit) {
  const int64_t noon = (Date::ofCivil(2024, 5, 1).daysSinceEpoch * kDay + 12 * 3600) * 1'000'000;
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("ts", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::MICROS, true)),
           {le<int64_t>(noon - 1), le<int64_t>(noon), le<int64_t>(noon + 1), std::nullopt});
  const Instant literal{noon / 1'000'000, 500};
  EXPECT_EQ(t.select(P::lt("ts", literal)), (Rows{0, 1}));
}

TEST(RowFilterCannotHoldTest, PastTheCarrierMatchesEveryNonNullRowOrNone) {
  // C++'s Date holds an int32 epoch day, so it cannot pass a DATE column's carrier;
  // Date{INT32_MAX} stands in for LocalDate.MAX with the same outcome.
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("d", PhysicalType::INT32), logical(Kind::DATE)),
           {le<int32_t>(0), std::nullopt, le<int32_t>(-5)});
  t.column(withLogical(leafElement("tn", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::NANOS, true)),
           {le<int64_t>(0), std::nullopt, le<int64_t>(std::numeric_limits<int64_t>::max())});
  t.column(withLogical(leafElement("tm", PhysicalType::INT32), timeType(Kind::TIME, TimeUnit::MILLIS, true)),
           {le<int32_t>(0), std::nullopt, le<int32_t>(1000)});
  const Date max{std::numeric_limits<int32_t>::max()};
  EXPECT_EQ(t.select(P::lt("d", max)), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::gt("d", max)), Rows{});
  // An Instant past the int64 nanoseconds: every non-null row or none, never a null row.
  const Instant far{std::numeric_limits<int64_t>::max() / 2, 0};
  EXPECT_EQ(t.select(P::lt("tn", far)), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::ltEq("tn", far)), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::gt("tn", far)), Rows{});
  EXPECT_EQ(t.select(P::gtEq("tn", far)), Rows{});
  EXPECT_EQ(t.select(P::gt("tn", Instant{-far.epochSeconds, 0})), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::not_(P::gt("tn", far))), (Rows{0, 2}));
  EXPECT_EQ(t.select(P::not_(P::lt("tn", far))), Rows{});
  EXPECT_THROW(t.bindOnly(P::eq("tn", far)), InvalidArgument);
  // A TIME past the INT32 milliseconds: ordered is decided, equality throws.
  const TimeOfDay huge{int64_t{1} << 60};
  EXPECT_EQ(t.select(P::lt("tm", huge)), (Rows{0, 2}));
  EXPECT_THROW(t.bindOnly(P::eq("tm", huge)), InvalidArgument);
}

TEST(RowFilterCannotHoldTest, FixedWidthByteStringsCompareOtherWidthsAsGiven) {
  InMemoryRowGroup t;
  t.column(leafElement("code", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2),
           {bytes({0x00, 0xC8}), bytes({0x00, 0xC9}), bytes({0x01, 0x00}), std::nullopt});
  EXPECT_EQ(t.select(P::lt("code", Bytes{0x00, 0xC9, 0x00})), (Rows{0, 1}));
  EXPECT_EQ(t.select(P::gt("code", Bytes{0x00})), (Rows{0, 1, 2}));
  EXPECT_THROW(t.bindOnly(P::eq("code", Bytes{0x00, 0xC8, 0x00})), InvalidArgument);
  EXPECT_EQ(t.select(P::eq("code", Bytes{0x00, 0xC8})), Rows{0});
  EXPECT_EQ(t.select(P::in("code", Bytes{0x00, 0xC8}, Bytes{0x00, 0xC9})), (Rows{0, 1}));
}

TEST(RowFilterCannotHoldTest, FixedWidthDecimalPastItsWidthMatchesEveryNonNullRowOrNone) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("dec", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), decimalType(4, 1)),
           {bytes({0x7F, 0xFF}), bytes({0x80, 0x00}), std::nullopt, bytes({0x00, 0x01})});
  const Decimal above = dec({0x01, 0x00, 0x00}, 1);  // 6553.6 > 3276.7
  const Decimal below = dec({0xFE, 0xFF, 0xFF}, 1);  // -6553.7 < -3276.8
  EXPECT_EQ(t.select(P::lt("dec", above)), (Rows{0, 1, 3}));
  EXPECT_EQ(t.select(P::ltEq("dec", above)), (Rows{0, 1, 3}));
  EXPECT_EQ(t.select(P::gt("dec", above)), Rows{});
  EXPECT_EQ(t.select(P::gtEq("dec", above)), Rows{});
  EXPECT_EQ(t.select(P::lt("dec", below)), Rows{});
  EXPECT_EQ(t.select(P::gt("dec", below)), (Rows{0, 1, 3}));
  EXPECT_THROW(t.bindOnly(P::eq("dec", above)), InvalidArgument);
}

/// `v` as `width` big-endian two's complement bytes.
Bytes bigEndian(__int128 v, size_t width) {
  Bytes out(width);
  for (size_t i = 0; i < width; ++i)
    out[width - 1 - i] = static_cast<uint8_t>(static_cast<unsigned __int128>(v) >> (8 * i));
  return out;
}

TEST(RowFilterDecimalTest, FixedWidthDecimalsOfEveryWidthCompareAsNumbers) {
  // FIXED_LEN_BYTE_ARRAY decimals of 1 to 16 bytes (chDB writes them): each
  // comparison of values from the most negative to the most positive the
  // precision holds must select the rows a comparison of the numbers does.
  for (size_t width = 1; width <= 16; ++width) {
    SCOPED_TRACE("width " + std::to_string(width));
    const int precision =
        std::min(38, static_cast<int>(std::floor((8 * width - 1) * std::log10(2.0))));
    __int128 top = 1;
    for (int d = 0; d < precision; ++d) top *= 10;
    top -= 1;
    const std::vector<__int128> values{-top, -top / 3, -256, -255, -1,      0,  1,
                                       127,  128,      255,  256,  top / 3, top};
    std::vector<Raw> raw;
    std::vector<__int128> kept;
    for (const __int128 v : values) {
      if (v < -top || v > top) continue;
      const Bytes b = bigEndian(v, width);
      raw.push_back(std::string(b.begin(), b.end()));
      kept.push_back(v);
    }
    InMemoryRowGroup t;
    t.column(withLogical(
                 leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, static_cast<int32_t>(width)),
                 decimalType(precision, 0)),
             raw);
    for (const __int128 key : kept) {
      const Decimal literal = dec(bigEndian(key, 16), 0);
      Rows lt, eq, gtEq;
      for (size_t r = 0; r < kept.size(); ++r) {
        if (kept[r] < key) lt.push_back(static_cast<int64_t>(r));
        if (kept[r] == key) eq.push_back(static_cast<int64_t>(r));
        if (kept[r] >= key) gtEq.push_back(static_cast<int64_t>(r));
      }
      EXPECT_EQ(t.select(P::lt("x", literal)), lt);
      EXPECT_EQ(t.select(P::eq("x", literal)), eq);
      EXPECT_EQ(t.select(P::gtEq("x", literal)), gtEq);
      EXPECT_EQ(t.select(P::in("x", literal, dec(bigEndian(0, 1), 0))).size(), key == 0 ? 1u : 2u);
    }
  }
}

TEST(RowFilterCannotHoldTest, AnnotationsNeverBoundALiteral) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("i8", PhysicalType::INT32), intType(8, true)), {le<int32_t>(100), le<int32_t>(-3)});
  t.column(withLogical(leafElement("d2", PhysicalType::INT32), decimalType(3, 2)), {le<int32_t>(123), le<int32_t>(12345)});
  t.column(withLogical(leafElement("t", PhysicalType::INT32), timeType(Kind::TIME, TimeUnit::MILLIS, true)),
           {le<int32_t>(0), le<int32_t>(90'000'000)});
  EXPECT_EQ(t.select(P::eq("i8", int32_t{1000})), Rows{});
  EXPECT_EQ(t.select(P::eq("d2", dec({0x30, 0x39}, 2))), Rows{1});  // 123.45 beyond precision 3
  EXPECT_EQ(t.select(P::eq("t", TimeOfDay{int64_t{90'000} * 1'000'000'000})), Rows{1});  // 25:00
}

TEST(RowFilterCannotHoldTest, DecimalRescalesPaddingAndDroppingTrailingZeros) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("d4", PhysicalType::INT64), decimalType(10, 4)),
           {le<int64_t>(999'900), le<int64_t>(999'901), std::nullopt});
  EXPECT_EQ(t.select(P::eq("d4", dec({0x27, 0x0F}, 2))), Rows{0});               // 99.99 -> 99.9900
  EXPECT_EQ(t.select(P::eq("d4", dec({0x00, 0x98, 0x92, 0x98}, 5))), Rows{0});   // 99.99000
  EXPECT_THROW(t.bindOnly(P::eq("d4", dec({0x00, 0x98, 0x92, 0x99}, 5))), InvalidArgument);  // 99.99001
  EXPECT_EQ(t.select(P::lt("d4", dec({0x00, 0x98, 0x92, 0x99}, 5))), Rows{0});
  EXPECT_EQ(t.select(P::gt("d4", dec({0x00, 0x98, 0x92, 0x99}, 5))), Rows{1});
  EXPECT_EQ(t.select(P::gtEq("d4", dec({0x00, 0x98, 0x92, 0x99}, 5))), Rows{1});
  EXPECT_EQ(t.select(P::ltEq("d4", dec({0x00, 0x98, 0x92, 0x99}, 5))), Rows{0});
  // Negative literals snap the other way: -0.00005 on scale 4 lies between -0.0001 and 0.
  EXPECT_EQ(t.select(P::gt("d4", dec({0xFB}, 5))), (Rows{0, 1}));
}

// Three-valued logic

TEST(RowFilterThreeValuedTest, ComparisonNeverMatchesANullRowNorDoesItsNegation) {
  InMemoryRowGroup t;
  t.column(leafElement("x", PhysicalType::INT32), {le<int32_t>(1), std::nullopt, le<int32_t>(2)});
  t.column(leafElement("y", PhysicalType::INT32), {std::nullopt, le<int32_t>(5), le<int32_t>(5)});
  EXPECT_EQ(t.select(P::eq("x", 1)), Rows{0});
  EXPECT_EQ(t.select(P::not_(P::eq("x", 1))), Rows{2});
  EXPECT_EQ(t.select(P::notEq("x", 1)), Rows{2});
  EXPECT_EQ(t.select(P::not_(P::not_(P::eq("x", 1)))), Rows{0});
  EXPECT_EQ(t.select(P::isNull("x")), Rows{1});
  EXPECT_EQ(t.select(P::not_(P::isNull("x"))), (Rows{0, 2}));
  // Kleene and / or: unknown or true is true, unknown and false is false.
  EXPECT_EQ(t.select(P::or_(P::eq("x", 1), P::eq("y", 5))), (Rows{0, 1, 2}));
  EXPECT_EQ(t.select(P::not_(P::and_(P::eq("x", 7), P::eq("y", 5)))), (Rows{0, 2}));  // row 1 stays unknown
  EXPECT_EQ(t.select(P::not_(P::or_(P::eq("x", 7), P::eq("y", 5)))), Rows{});
  EXPECT_EQ(t.select(P::and_(P::gt("x", 0), P::eq("y", 5))), Rows{2});
  EXPECT_EQ(t.select(P::in("x", 2, 3)), Rows{2});
  EXPECT_EQ(t.select(P::not_(P::in("x", 2, 3))), Rows{0});
}

TEST(RowFilterThreeValuedTest, NullStructMakesItsLeafNullToo) {
  InMemoryRowGroup t;
  t.structColumn("address", leafElement("city", PhysicalType::BYTE_ARRAY), {2, 0, 1, 2},
                 {"Oslo", "Rome"});
  EXPECT_EQ(t.select(P::isNull("address")), Rows{1});
  EXPECT_EQ(t.select(P::isNotNull("address")), (Rows{0, 2, 3}));
  EXPECT_EQ(t.select(P::isNull("address.city")), (Rows{1, 2}));
  EXPECT_EQ(t.select(P::eq("address.city", "Rome")), Rows{3});
  EXPECT_EQ(t.select(P::notEq("address.city", "Rome")), Rows{0});
  EXPECT_THROW(t.bindOnly(P::eq("address", "Rome")), InvalidArgument);
  EXPECT_THROW(t.bindOnly(P::eq("city", "Rome")), InvalidArgument);
}

// intersects: row-group level, by bounding-box overlap

TEST(RowFilterIntersectsTest, KeepsOrDropsTheWholeRowGroupByBoundingBoxOverlap) {
  InMemoryRowGroup t;
  t.column(withLogical(leafElement("g", PhysicalType::BYTE_ARRAY), logical(Kind::GEOMETRY)), {bytes({1}), std::nullopt});
  t.column(withLogical(leafElement("gg", PhysicalType::BYTE_ARRAY), logical(Kind::GEOGRAPHY)), {bytes({1}), bytes({2})});
  RowGroup meta;
  meta.columns.resize(2);
  auto setBox = [&](size_t column, double xmin, double ymin, double xmax, double ymax) {
    ColumnMetaData m;
    GeospatialStatistics stats;
    BoundingBox box;
    box.xmin = xmin;
    box.xmax = xmax;
    box.ymin = ymin;
    box.ymax = ymax;
    stats.bbox = box;
    m.geospatial_statistics = stats;
    meta.columns[column].meta_data = m;
  };
  setBox(0, 10, 10, 20, 20);
  setBox(1, 170, -10, -170, 10);  // a GEOGRAPHY box across the antimeridian
  auto run = [&](const FilterPredicate& p) {
    const auto rows = selectRows(BoundPredicate::bind(p, t.schema()), t.group(), &meta);
    return Rows(rows.begin(), rows.end());
  };
  EXPECT_EQ(run(P::intersects("g", 15, 15, 30, 30)), (Rows{0, 1}));
  EXPECT_EQ(run(P::intersects("g", 21, 0, 30, 30)), Rows{});
  EXPECT_EQ(run(P::intersects("gg", 175, 0, 179, 1)), (Rows{0, 1}));
  EXPECT_EQ(run(P::intersects("gg", -179, 0, -175, 1)), (Rows{0, 1}));
  EXPECT_EQ(run(P::intersects("gg", 0, 0, 10, 1)), Rows{});
  EXPECT_EQ(run(P::and_(P::intersects("g", 15, 15, 30, 30), P::isNotNull("g"))), Rows{0});
}

}  // namespace
}  // namespace quarry::parquet
