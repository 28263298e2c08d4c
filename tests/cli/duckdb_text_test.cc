#include "quarry/cli/duckdb_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

#include "quarry/common/error.h"

namespace quarry::cli {
namespace {

// The expected strings are what DuckDB 1.5 prints for CAST(x AS VARCHAR).

TEST(DuckDbText, DoublesUsePlainNotationForExponentsFromMinus4To15) {
  EXPECT_EQ(duckDbDouble(0.1), "0.1");
  EXPECT_EQ(duckDbDouble(100.0), "100.0");
  EXPECT_EQ(duckDbDouble(-1.5), "-1.5");
  EXPECT_EQ(duckDbDouble(123456789012.0), "123456789012.0");
  EXPECT_EQ(duckDbDouble(1e15), "1000000000000000.0");
  EXPECT_EQ(duckDbDouble(9.999e15), "9999000000000000.0");
  EXPECT_EQ(duckDbDouble(0.0001), "0.0001");
  EXPECT_EQ(duckDbDouble(123.456), "123.456");
}

TEST(DuckDbText, DoublesUseScientificNotationWithATwoDigitSignedExponentOutside) {
  EXPECT_EQ(duckDbDouble(1e16), "1e+16");
  EXPECT_EQ(duckDbDouble(1.5e16), "1.5e+16");
  EXPECT_EQ(duckDbDouble(1e-5), "1e-05");
  EXPECT_EQ(duckDbDouble(1.25e-7), "1.25e-07");
  EXPECT_EQ(duckDbDouble(1e300), "1e+300");
  EXPECT_EQ(duckDbDouble(12345678901234567890.0), "1.2345678901234567e+19");
  EXPECT_EQ(duckDbDouble(5e-324), "5e-324");
  EXPECT_EQ(duckDbDouble(1.7976931348623157e308), "1.7976931348623157e+308");
}

TEST(DuckDbText, SignedZeroInfinityAndNanKeepTheirSign) {
  EXPECT_EQ(duckDbDouble(0.0), "0.0");
  EXPECT_EQ(duckDbDouble(-0.0), "-0.0");
  EXPECT_EQ(duckDbDouble(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(duckDbDouble(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(duckDbDouble(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(duckDbDouble(-std::numeric_limits<double>::quiet_NaN()), "-nan");
  EXPECT_EQ(duckDbFloat(-std::numeric_limits<float>::infinity()), "-inf");
}

TEST(DuckDbText, FloatsUseTheShortestDigitsOfTheFloatNotOfItsDouble) {
  EXPECT_EQ(duckDbFloat(0.1f), "0.1");
  EXPECT_EQ(duckDbFloat(3.0f), "3.0");
  EXPECT_EQ(duckDbFloat(1e7f), "10000000.0");
  EXPECT_EQ(duckDbFloat(123456789.0f), "123456790.0");
  EXPECT_EQ(duckDbFloat(1e16f), "1e+16");
  EXPECT_EQ(duckDbFloat(1.5e-5f), "1.5e-05");
  EXPECT_EQ(duckDbFloat(3.4028235e38f), "3.4028235e+38");
  EXPECT_EQ(duckDbFloat(1e-45f), "1e-45");
}

// DuckDB's Grisu falls back to the value widened to double when it cannot prove
// the float's shortest digits: a tie, or a shortest decimal on the interval's bound.
TEST(DuckDbText, FloatsWhoseShortestDigitsAreATieOrABoundPrintAsTheirDouble) {
  EXPECT_EQ(duckDbFloat(2731571.75f), "2731571.75");
  EXPECT_EQ(duckDbFloat(-370735.875f), "-370735.875");
  EXPECT_EQ(duckDbFloat(36622392.0f), "36622392.0");
  EXPECT_EQ(duckDbFloat(6036831744.0f), "6036831744.0");
  EXPECT_EQ(duckDbFloat(1234567.125f), "1234567.1");
  EXPECT_EQ(duckDbFloat(8589973504.0f), "8589974000.0");
}

TEST(DuckDbText, DatesBeforeYearOneCarryTheBcMarker) {
  EXPECT_EQ(duckDbDate(Date{0}), "1970-01-01");
  EXPECT_EQ(duckDbDate(Date::ofCivil(2020, 1, 2)), "2020-01-02");
  EXPECT_EQ(duckDbDate(Date::ofCivil(-43, 3, 15)), "0044-03-15 (BC)");  // year -43 is 44 BC
  EXPECT_EQ(duckDbDate(Date::ofCivil(0, 12, 31)), "0001-12-31 (BC)");
  EXPECT_EQ(duckDbDate(Date::ofCivil(1, 1, 1)), "0001-01-01");
  EXPECT_EQ(duckDbDate(Date::ofCivil(294247, 1, 10)), "294247-01-10");
}

TEST(DuckDbText, TimesTrimTrailingFractionZerosAtTheirUnit) {
  EXPECT_EQ(duckDbTime(0, 6), "00:00:00");
  EXPECT_EQ(duckDbTime(45'296'500'000'000, 6), "12:34:56.5");
  EXPECT_EQ(duckDbTime(3'723'123'456'789, 6), "01:02:03.123456");
  EXPECT_EQ(duckDbTime(3'723'123'456'789, 9), "01:02:03.123456789");
  EXPECT_EQ(duckDbTime(86'400'000'000'000, 6), "24:00:00");
}

TEST(DuckDbText, TimestampsFloorNegativeInstantsAndPutBcBeforeTheTime) {
  EXPECT_EQ(duckDbTimestamp(1'767'225'600, 123'456'000, 6), "2026-01-01 00:00:00.123456");
  EXPECT_EQ(duckDbTimestamp(1'767'225'600, 120'000'000, 6), "2026-01-01 00:00:00.12");
  EXPECT_EQ(duckDbTimestamp(-1, 999'999'000, 6), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(duckDbTimestamp(-9'223'372'037, 1, 9), "1677-09-21 00:12:43.000000001");
  EXPECT_EQ(duckDbTimestamp(-9'357'363'680'510, 448'384'000, 6),
            "294555-12-13 (BC) 14:58:10.448384");
}

TEST(DuckDbText, IntervalsNameTheirNonZeroPartsAndEndWithTheTime) {
  EXPECT_EQ(duckDbInterval(Interval{0, 0, 0}), "00:00:00");
  EXPECT_EQ(duckDbInterval(Interval{1, 2, 3}), "1 month 2 days 00:00:00.003");
  EXPECT_EQ(duckDbInterval(Interval{14, 1, 90'000'500}), "1 year 2 months 1 day 25:00:00.5");
  EXPECT_EQ(duckDbInterval(Interval{24, 0, 0}), "2 years");
  EXPECT_EQ(duckDbInterval(Interval{0, 1, 0}), "1 day");
}

TEST(DuckDbText, BlobsEscapeEveryByteButPrintableAsciiOtherThanQuotesAndBackslash) {
  EXPECT_EQ(duckDbBlob(std::string("\x00\xff"
                                   "ab \x7f\\'\"",
                                   9)),
            "\\x00\\xFFab \\x7F\\x5C\\x27\\x22");
  EXPECT_EQ(duckDbBlob(""), "");
}

TEST(DuckDbText, NestedValuesAreQuotedWhenDuckDbCouldNotReadThemBack) {
  EXPECT_FALSE(needsQuotesInNested("a b"));
  EXPECT_FALSE(needsQuotesInNested("a\\b"));
  EXPECT_FALSE(needsQuotesInNested("null!"));
  EXPECT_FALSE(
      needsQuotesInNested("\xc2\xa0"
                          "a"));  // only ASCII white space counts
  EXPECT_TRUE(needsQuotesInNested(""));
  EXPECT_TRUE(needsQuotesInNested("NuLl"));
  EXPECT_TRUE(needsQuotesInNested(" a"));
  EXPECT_TRUE(needsQuotesInNested("a\t"));
  EXPECT_TRUE(needsQuotesInNested("\va"));
  for (char special : std::string("\"'(),:=[]{}")) {
    EXPECT_TRUE(needsQuotesInNested(std::string("a") + special + "b")) << special;
  }
  std::string out;
  appendQuotedInNested("it's a\\b", out);
  EXPECT_EQ(out, "'it\\'s a\\\\b'");
}

/// Little-endian WKB of a POINT (type 1) or LINESTRING (type 2) of `values`.
std::string wkb(uint32_t type, std::initializer_list<double> values) {
  std::string out(1, '\x01');
  out.append(reinterpret_cast<const char*>(&type), 4);
  if (type == 2) {
    const uint32_t points = static_cast<uint32_t>(values.size() / 2);
    out.append(reinterpret_cast<const char*>(&points), 4);
  }
  for (double v : values) out.append(reinterpret_cast<const char*>(&v), 8);
  return out;
}

// Issue 26, item 10: "GEOMETRY and GEOGRAPHY columns print as WKB bytes where
// DuckDB 1.5 prints WKT". Each expected text is DuckDB 1.5.6's for the same WKB.
TEST(DuckDbText, GeometriesPrintAsWktWithDoubleDigitsLessATrailingPointZero) {
  EXPECT_EQ(duckDbGeometry(wkb(1, {30, 10})), "POINT (30 10)");
  EXPECT_EQ(duckDbGeometry(wkb(1, {-0.0, 1e15})), "POINT (-0 1000000000000000)");
  EXPECT_EQ(duckDbGeometry(wkb(2, {1e16, 1e-5, 123456.789, 0.1})),
            "LINESTRING (1e+16 1e-05, 123456.789 0.1)");
  EXPECT_EQ(duckDbGeometry(wkb(1, {-35.94721410461716, -30.731931592053808})),
            "POINT (-35.94721410461716 -30.731931592053808)");
  EXPECT_EQ(duckDbGeometry(wkb(1, {std::numeric_limits<double>::infinity(), 2.5})),
            "POINT (inf 2.5)");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(duckDbGeometry(wkb(1, {nan, 100})), "POINT (nan 100)");
  EXPECT_EQ(duckDbGeometry(wkb(1, {nan, nan})), "POINT EMPTY");
  EXPECT_THROW(duckDbGeometry(wkb(2, {1, 2}).substr(0, 12)), CorruptFile);
}

}  // namespace
}  // namespace quarry::cli
