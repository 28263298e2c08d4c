#include "quarry/common/values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace quarry {
namespace {

TEST(DateTest, CivilRoundTripsAroundTheEpochAndFarAway) {
  EXPECT_EQ(Date::ofCivil(1970, 1, 1).daysSinceEpoch, 0);
  EXPECT_EQ(Date::ofCivil(2026, 1, 1).daysSinceEpoch, 20454);  // the spec's example
  EXPECT_EQ(Date{20454}.toString(), "2026-01-01");
  EXPECT_EQ(Date{-1}.toString(), "1969-12-31");
  EXPECT_EQ(Date::ofCivil(2000, 2, 29).toString(), "2000-02-29");
  EXPECT_EQ(Date{Date::ofCivil(-44, 3, 15)}.toString(), "-0044-03-15");
}

TEST(InstantTest, NegativeUnitsFloorToTheEarlierSecond) {
  const Instant i = Instant::ofEpochUnits(-1, 1000);
  EXPECT_EQ(i.epochSeconds, -1);
  EXPECT_EQ(i.nanos, 999'000'000);
  EXPECT_EQ(i.toString(3), "1969-12-31 23:59:59.999");
  EXPECT_EQ(Instant::ofEpochUnits(1'767'225'600'000'000, 1'000'000).toString(6),
            "2026-01-01 00:00:00.000000");
}

TEST(InstantTest, TheInt64LimitsConvertWithoutOverflow) {
  // A corrupt or extreme timestamp must still convert: seconds * units would
  // overflow for INT64_MIN if the remainder were computed from the quotient.
  const Instant min = Instant::ofEpochUnits(INT64_MIN, 1'000'000);
  EXPECT_EQ(min.epochSeconds, -9'223'372'036'855);
  EXPECT_EQ(min.nanos, 224'192'000);
  const Instant max = Instant::ofEpochUnits(INT64_MAX, 1'000'000'000);
  EXPECT_EQ(max.epochSeconds, 9'223'372'036);
  EXPECT_EQ(max.nanos, 854'775'807);
  EXPECT_FALSE(min.toString(6).empty());
  EXPECT_FALSE(max.toString(9).empty());
}

TEST(TimeOfDayTest, RendersFractionDigits) {
  EXPECT_EQ(TimeOfDay{(13 * 3600 + 5 * 60 + 7) * 1'000'000'000LL + 120'000'000}.toString(3),
            "13:05:07.120");
  EXPECT_EQ(TimeOfDay{0}.toString(0), "00:00:00");
}

TEST(DecimalTest, RendersTwosComplementUnscaledValuesWithScale) {
  EXPECT_EQ((Decimal{{0x7D}, 2}).toString(), "1.25");
  EXPECT_EQ((Decimal{{0x00, 0x7D}, 2}).toString(), "1.25");
  EXPECT_EQ((Decimal{{0xFB, 0x1E}, 2}).toString(), "-12.50");
  EXPECT_EQ((Decimal{{0x05}, 3}).toString(), "0.005");
  EXPECT_EQ((Decimal{{0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0}).toString(),
            "-170141183460469231731687303715884105728");
}

TEST(UuidTest, RendersCanonicalForm) {
  Uuid u;
  for (int i = 0; i < 16; ++i) u.bytes[i] = static_cast<uint8_t>(i * 17);
  EXPECT_EQ(u.toString(), "00112233-4455-6677-8899-aabbccddeeff");
}

TEST(Float16Test, WidensExactlyIncludingSubnormalsInfinityAndNaN) {
  EXPECT_EQ(Float16{0x3C00}.toFloat(), 1.0f);
  EXPECT_EQ(Float16{0xC000}.toFloat(), -2.0f);
  EXPECT_EQ(Float16{0x0001}.toFloat(), std::ldexp(1.0f, -24));
  EXPECT_EQ(Float16{0x7BFF}.toFloat(), 65504.0f);
  EXPECT_TRUE(std::isinf(Float16{0x7C00}.toFloat()));
  EXPECT_TRUE(std::isnan(Float16{0x7E00}.toFloat()));
  EXPECT_TRUE(std::signbit(Float16{0x8000}.toFloat()));
}

}  // namespace
}  // namespace quarry
