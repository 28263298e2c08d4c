#include "quarry/cli/statistic_value.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace quarry::cli {
namespace {

using parquet::ConvertedType;
using parquet::LogicalType;
using parquet::PhysicalType;
using parquet::TimeUnit;
using Kind = RenderedValue::Kind;

template <typename T>
std::string littleEndian(T v) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &v, sizeof(T));
  return bytes;
}

std::string bytesOf(std::initializer_list<int> values) {
  std::string bytes;
  for (int v : values) {
    bytes += static_cast<char>(v);
  }
  return bytes;
}

ValueType physical(PhysicalType type, int32_t typeLength = 0) {
  ValueType t;
  t.physical = type;
  t.typeLength = typeLength;
  return t;
}

ValueType withLogical(PhysicalType type, LogicalType logical, int32_t typeLength = 0) {
  ValueType t = physical(type, typeLength);
  t.logical = logical;
  return t;
}

ValueType withConverted(PhysicalType type, ConvertedType converted, int32_t typeLength = 0) {
  ValueType t = physical(type, typeLength);
  t.converted = converted;
  return t;
}

LogicalType integer(int8_t width, bool isSigned) {
  LogicalType l;
  l.kind = LogicalType::Kind::INTEGER;
  l.bitWidth = width;
  l.isSigned = isSigned;
  return l;
}

LogicalType decimal(int32_t precision, int32_t scale) {
  LogicalType l;
  l.kind = LogicalType::Kind::DECIMAL;
  l.precision = precision;
  l.scale = scale;
  return l;
}

LogicalType temporal(LogicalType::Kind kind, TimeUnit unit, bool isAdjustedToUTC) {
  LogicalType l;
  l.kind = kind;
  l.unit = unit;
  l.isAdjustedToUTC = isAdjustedToUTC;
  return l;
}

LogicalType simple(LogicalType::Kind kind) {
  LogicalType l;
  l.kind = kind;
  return l;
}

std::string render(const std::string& bytes, const ValueType& type) {
  return renderValue(bytes, type).text;
}

TEST(StatisticValue, Int32IsSignedUnlessAnnotatedUnsigned) {
  const std::string allOnes = littleEndian<uint32_t>(0xFFFFFFFFu);
  EXPECT_EQ(render(allOnes, physical(PhysicalType::INT32)), "-1");
  EXPECT_EQ(render(allOnes, withLogical(PhysicalType::INT32, integer(32, true))), "-1");
  EXPECT_EQ(render(allOnes, withLogical(PhysicalType::INT32, integer(32, false))), "4294967295");
  EXPECT_EQ(
      render(littleEndian<int32_t>(200), withConverted(PhysicalType::INT32, ConvertedType::UINT_8)),
      "200");
  EXPECT_EQ(render(allOnes, withConverted(PhysicalType::INT32, ConvertedType::UINT_32)),
            "4294967295");
  EXPECT_EQ(renderValue(allOnes, physical(PhysicalType::INT32)).kind, Kind::kNumber);
}

TEST(StatisticValue, Int64IsSignedUnlessAnnotatedUnsigned) {
  const std::string allOnes = littleEndian<uint64_t>(~0ULL);
  EXPECT_EQ(render(allOnes, physical(PhysicalType::INT64)), "-1");
  EXPECT_EQ(render(allOnes, withLogical(PhysicalType::INT64, integer(64, false))),
            "18446744073709551615");
  EXPECT_EQ(render(allOnes, withConverted(PhysicalType::INT64, ConvertedType::UINT_64)),
            "18446744073709551615");
  EXPECT_EQ(
      render(littleEndian(std::numeric_limits<int64_t>::min()), physical(PhysicalType::INT64)),
      "-9223372036854775808");
}

TEST(StatisticValue, DecimalOverIntegersAppliesTheScale) {
  EXPECT_EQ(render(littleEndian<int32_t>(12345), withLogical(PhysicalType::INT32, decimal(9, 2))),
            "123.45");
  EXPECT_EQ(render(littleEndian<int32_t>(-5), withLogical(PhysicalType::INT32, decimal(9, 3))),
            "-0.005");
  EXPECT_EQ(render(littleEndian<int32_t>(7), withLogical(PhysicalType::INT32, decimal(9, 0))), "7");
  EXPECT_EQ(render(littleEndian<int32_t>(0), withLogical(PhysicalType::INT32, decimal(9, 2))),
            "0.00");
  EXPECT_EQ(render(littleEndian(std::numeric_limits<int64_t>::min()),
                   withLogical(PhysicalType::INT64, decimal(18, 4))),
            "-922337203685477.5808");
}

TEST(StatisticValue, DecimalOverBytesIsBigEndianTwosComplement) {
  const auto flba16 = withLogical(PhysicalType::FIXED_LEN_BYTE_ARRAY, decimal(38, 2), 16);
  EXPECT_EQ(render(std::string(16, '\xFF'), flba16), "-0.01");
  EXPECT_EQ(render(bytesOf({0x01, 0x00}), withLogical(PhysicalType::BYTE_ARRAY, decimal(5, 1))),
            "25.6");
  std::string maxPositive(16, '\xFF');
  maxPositive[0] = '\x7F';
  const auto scale0 = withLogical(PhysicalType::FIXED_LEN_BYTE_ARRAY, decimal(38, 0), 16);
  EXPECT_EQ(render(maxPositive, scale0), "170141183460469231731687303715884105727");
  std::string minNegative(16, '\0');
  minNegative[0] = '\x80';
  EXPECT_EQ(render(minNegative, scale0), "-170141183460469231731687303715884105728");
  // Zero-length bytes encode no number.
  EXPECT_EQ(renderValue("", flba16).kind, Kind::kHex);
}

TEST(StatisticValue, FloatingPointShowsNanSignedZeroAndInfinities) {
  const auto f = physical(PhysicalType::FLOAT);
  const auto d = physical(PhysicalType::DOUBLE);
  EXPECT_EQ(render(littleEndian<uint32_t>(0x7FC00000u), f), "NaN");
  EXPECT_EQ(renderValue(littleEndian<uint32_t>(0x7FC00000u), f).kind, Kind::kOther);
  EXPECT_EQ(render(littleEndian(-0.0f), f), "-0.0");
  EXPECT_EQ(render(littleEndian(1.5f), f), "1.5");
  EXPECT_EQ(render(littleEndian(0.1f), f), "0.1");
  EXPECT_EQ(render(littleEndian(1e20f), f), "1e+20");
  EXPECT_EQ(render(littleEndian(std::numeric_limits<float>::infinity()), f), "Infinity");
  EXPECT_EQ(render(littleEndian(0.1), d), "0.1");
  EXPECT_EQ(render(littleEndian(-0.0), d), "-0.0");
  EXPECT_EQ(render(littleEndian(-std::numeric_limits<double>::infinity()), d), "-Infinity");
  EXPECT_EQ(render(littleEndian<uint64_t>(0xFFF8000000000000ULL), d), "NaN");
  EXPECT_EQ(renderValue(littleEndian(2.0), d).kind, Kind::kNumber);
}

TEST(StatisticValue, Float16IsDecodedFromItsTwoBytes) {
  const auto half =
      withLogical(PhysicalType::FIXED_LEN_BYTE_ARRAY, simple(LogicalType::Kind::FLOAT16), 2);
  EXPECT_EQ(render(littleEndian<uint16_t>(0x3C00), half), "1.0");
  EXPECT_EQ(render(littleEndian<uint16_t>(0xC000), half), "-2.0");
  EXPECT_EQ(render(littleEndian<uint16_t>(0x3555), half), "0.33325195");
  EXPECT_EQ(render(littleEndian<uint16_t>(0x7BFF), half), "65504.0");
  EXPECT_EQ(render(littleEndian<uint16_t>(0x0001), half), "5.9604645e-08");
  EXPECT_EQ(render(littleEndian<uint16_t>(0x8000), half), "-0.0");
  EXPECT_EQ(render(littleEndian<uint16_t>(0x7C00), half), "Infinity");
  EXPECT_EQ(render(littleEndian<uint16_t>(0xFC00), half), "-Infinity");
  EXPECT_EQ(render(littleEndian<uint16_t>(0x7E00), half), "NaN");
  EXPECT_EQ(render(littleEndian<uint16_t>(0xFE01), half), "NaN");
  EXPECT_EQ(renderValue("\x01", half).kind, Kind::kHex);
}

TEST(StatisticValue, DateIsDaysSinceTheEpoch) {
  const auto date = withLogical(PhysicalType::INT32, simple(LogicalType::Kind::DATE));
  EXPECT_EQ(render(littleEndian<int32_t>(0), date), "1970-01-01");
  EXPECT_EQ(render(littleEndian<int32_t>(-1), date), "1969-12-31");
  EXPECT_EQ(render(littleEndian<int32_t>(18262), date), "2020-01-01");
  EXPECT_EQ(render(littleEndian<int32_t>(11016), date), "2000-02-29");
  EXPECT_EQ(render(littleEndian<int32_t>(2932896), date), "9999-12-31");
  EXPECT_EQ(render(littleEndian<int32_t>(-719528), date), "0000-01-01");
  EXPECT_EQ(
      render(littleEndian<int32_t>(0), withConverted(PhysicalType::INT32, ConvertedType::DATE)),
      "1970-01-01");
}

TEST(StatisticValue, TimestampIsIsoWithTheDigitsOfItsUnit) {
  using LK = LogicalType::Kind;
  EXPECT_EQ(
      render(littleEndian<int64_t>(1577836800123),
             withLogical(PhysicalType::INT64, temporal(LK::TIMESTAMP, TimeUnit::MILLIS, true))),
      "2020-01-01T00:00:00.123Z");
  EXPECT_EQ(
      render(littleEndian<int64_t>(-1),
             withLogical(PhysicalType::INT64, temporal(LK::TIMESTAMP, TimeUnit::MICROS, true))),
      "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(
      render(littleEndian<int64_t>(1),
             withLogical(PhysicalType::INT64, temporal(LK::TIMESTAMP, TimeUnit::NANOS, false))),
      "1970-01-01T00:00:00.000000001");
  EXPECT_EQ(
      render(littleEndian(std::numeric_limits<int64_t>::min()),
             withLogical(PhysicalType::INT64, temporal(LK::TIMESTAMP, TimeUnit::NANOS, false))),
      "1677-09-21T00:12:43.145224192");
  // The legacy annotation means UTC-adjusted.
  EXPECT_EQ(render(littleEndian<int64_t>(86400000000),
                   withConverted(PhysicalType::INT64, ConvertedType::TIMESTAMP_MICROS)),
            "1970-01-02T00:00:00.000000Z");
}

TEST(StatisticValue, TimeOfDayUsesItsUnitAndFallsBackToTheNumberOutOfRange) {
  using LK = LogicalType::Kind;
  EXPECT_EQ(render(littleEndian<int32_t>(3723004),
                   withLogical(PhysicalType::INT32, temporal(LK::TIME, TimeUnit::MILLIS, true))),
            "01:02:03.004");
  EXPECT_EQ(render(littleEndian<int64_t>(3723000004),
                   withLogical(PhysicalType::INT64, temporal(LK::TIME, TimeUnit::MICROS, false))),
            "01:02:03.000004");
  EXPECT_EQ(render(littleEndian<int64_t>(-1),
                   withLogical(PhysicalType::INT64, temporal(LK::TIME, TimeUnit::NANOS, false))),
            "-1");
}

TEST(StatisticValue, Int96IsNanosOfDayThenJulianDay) {
  std::string bytes = littleEndian<int64_t>(3'600'000'000'001LL) + littleEndian<int32_t>(2454833);
  EXPECT_EQ(render(bytes, physical(PhysicalType::INT96)), "2009-01-01T01:00:00.000000001");
  std::string badNanos = littleEndian<int64_t>(-1) + littleEndian<int32_t>(2454833);
  EXPECT_EQ(renderValue(badNanos, physical(PhysicalType::INT96)).kind, Kind::kHex);
}

TEST(StatisticValue, UuidIsFormattedInGroups) {
  const auto uuid =
      withLogical(PhysicalType::FIXED_LEN_BYTE_ARRAY, simple(LogicalType::Kind::UUID), 16);
  EXPECT_EQ(render(bytesOf({0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                            0xcc, 0xdd, 0xee, 0xff}),
                   uuid),
            "00112233-4455-6677-8899-aabbccddeeff");
}

TEST(StatisticValue, StringsAreTextWhenWellFormedUtf8AndHexOtherwise) {
  const auto text = withLogical(PhysicalType::BYTE_ARRAY, simple(LogicalType::Kind::STRING));
  EXPECT_EQ(renderValue("h\xC3\xA9llo", text).kind, Kind::kString);
  EXPECT_EQ(render("h\xC3\xA9llo", text), "h\xC3\xA9llo");
  EXPECT_EQ(renderValue("\xFF"
                        "a",
                        text)
                .kind,
            Kind::kHex);
  EXPECT_EQ(render("\xFF"
                   "a",
                   text),
            "0xff61");
  // A surrogate encoded in UTF-8 is not well-formed.
  EXPECT_EQ(render("\xED\xA0\x80", text), "0xeda080");
  EXPECT_EQ(render("", text), "");
  EXPECT_EQ(render("abc", withConverted(PhysicalType::BYTE_ARRAY, ConvertedType::UTF8)), "abc");
}

TEST(StatisticValue, UnannotatedBinaryIsTextOnlyWithoutControlCharacters) {
  const auto binary = physical(PhysicalType::BYTE_ARRAY);
  EXPECT_EQ(renderValue("abc", binary).kind, Kind::kString);
  EXPECT_EQ(render(bytesOf({0x00, 0x01}), binary), "0x0001");
  EXPECT_EQ(render("abc", withLogical(PhysicalType::BYTE_ARRAY, simple(LogicalType::Kind::BSON))),
            "0x616263");
  EXPECT_EQ(render("ab", physical(PhysicalType::FIXED_LEN_BYTE_ARRAY, 2)), "ab");
}

TEST(StatisticValue, IntervalShowsItsThreeParts) {
  const std::string bytes =
      littleEndian<uint32_t>(1) + littleEndian<uint32_t>(2) + littleEndian<uint32_t>(3);
  EXPECT_EQ(
      render(bytes, withConverted(PhysicalType::FIXED_LEN_BYTE_ARRAY, ConvertedType::INTERVAL, 12)),
      "months=1 days=2 millis=3");
}

TEST(StatisticValue, BooleanIsOneByte) {
  EXPECT_EQ(render("\x01", physical(PhysicalType::BOOLEAN)), "true");
  EXPECT_EQ(render(std::string(1, '\0'), physical(PhysicalType::BOOLEAN)), "false");
  EXPECT_EQ(render("\x02", physical(PhysicalType::BOOLEAN)), "0x02");
}

TEST(StatisticValue, BytesOfTheWrongLengthAreHex) {
  EXPECT_EQ(render(bytesOf({1, 2, 3}), physical(PhysicalType::INT32)), "0x010203");
  EXPECT_EQ(render(bytesOf({1, 2, 3, 4}), physical(PhysicalType::INT64)), "0x01020304");
  EXPECT_EQ(render(bytesOf({1, 2}), physical(PhysicalType::DOUBLE)), "0x0102");
  EXPECT_EQ(render("", physical(PhysicalType::FLOAT)), "0x");
}

TEST(StatisticValue, DroppedAnnotationRendersThePhysicalType) {
  parquet::SchemaNode leaf;
  leaf.physicalType = PhysicalType::INT32;
  leaf.logicalType = simple(LogicalType::Kind::DATE);
  leaf.annotationDropped = true;
  EXPECT_EQ(render(littleEndian<int32_t>(5), ValueType::ofLeaf(leaf)), "5");
  leaf.annotationDropped = false;
  EXPECT_EQ(render(littleEndian<int32_t>(5), ValueType::ofLeaf(leaf)), "1970-01-06");
}

TEST(StatisticValue, TextFormQuotesEscapesAndCutsLongValues) {
  EXPECT_EQ(formatForText({Kind::kString, "a\n\"b\\"}), "\"a\\x0a\\\"b\\\\\"");
  EXPECT_EQ(formatForText({Kind::kString, std::string(100, 'x')}, 10),
            "\"xxxxxxxxxx\"... (100 bytes)");
  EXPECT_EQ(formatForText({Kind::kHex, "0x" + std::string(80, 'a')}, 10),
            "0xaaaaaaaa... (40 bytes)");
  EXPECT_EQ(formatForText({Kind::kNumber, "12"}), "12");
}

}  // namespace
}  // namespace quarry::cli
