#include "quarry/formats/orc/encoding/timezone.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/orc/encoding/posix_tz_rule.h"

namespace quarry::orc {
namespace {

constexpr int64_t kHour = 3600;

/// Skips loudly when the system has no IANA time zone database.
#define SKIP_WITHOUT_TZDATA()                                                               \
  do {                                                                                      \
    const char* dir = std::getenv("TZDIR");                                                 \
    if (!std::filesystem::exists(std::filesystem::path(dir ? dir : "/usr/share/zoneinfo") / \
                                 "America/Los_Angeles")) {                                  \
      GTEST_SKIP() << "SKIPPED LOUDLY: no tzdata (install the tzdata package)";             \
    }                                                                                       \
  } while (false)

TEST(TimezoneTest, UtcNeedsNoDatabase) {
  const Timezone& utc = Timezone::utc();
  EXPECT_EQ(utc.name(), "UTC");
  EXPECT_EQ(utc.utcOffsetAt(0), 0);
  EXPECT_EQ(utc.orcEpoch(), 1420070400);  // 2015-01-01 00:00:00 UTC
  EXPECT_EQ(utc.localToUtc(123456789), 123456789);
  EXPECT_EQ(&Timezone::byName("UTC"), &utc);
}

TEST(TimezoneTest, ReadsJavaFixedOffsetIds) {
  EXPECT_EQ(Timezone::byName("GMT+8").utcOffsetAt(0), 8 * kHour);
  EXPECT_EQ(Timezone::byName("GMT-05:30").utcOffsetAt(0), -5 * kHour - 1800);
  EXPECT_EQ(Timezone::byName("GMT+8").orcEpoch(), 1420070400 - 8 * kHour);
}

TEST(TimezoneTest, FollowsLosAngelesAcrossDaylightSavingTime) {
  SKIP_WITHOUT_TZDATA();
  const Timezone& la = Timezone::byName("America/Los_Angeles");
  // DST began 2015-03-08 at 02:00 PST = 10:00 UTC.
  EXPECT_EQ(la.utcOffsetAt(1425808800 - 1), -8 * kHour);
  EXPECT_EQ(la.utcOffsetAt(1425808800), -7 * kHour);
  EXPECT_EQ(la.orcEpoch(), 1420070400 + 8 * kHour);
  EXPECT_EQ(la.utcToLocal(1435777200), 1435752000);  // 2015-07-01 19:00Z is noon PDT
  EXPECT_EQ(la.localToUtc(1435752000), 1435777200);
}

TEST(TimezoneTest, ReadsSkippedWallTimesWithTheOffsetBeforeTheJump) {
  SKIP_WITHOUT_TZDATA();
  // 2015-03-08 02:30 never happened in Los Angeles; read as PST it is 10:30 UTC
  // (03:30 PDT).
  const int64_t local = 1425781800;
  EXPECT_EQ(writerLocalToUtcSeconds(local, "America/Los_Angeles"), local + 8 * kHour);
}

TEST(TimezoneTest, ReadsRepeatedWallTimesAsTheEarlierInstant) {
  SKIP_WITHOUT_TZDATA();
  // 2015-11-01 01:30 happened twice: at 08:30 UTC (PDT) and 09:30 UTC (PST).
  const int64_t local = 1446341400;
  EXPECT_EQ(writerLocalToUtcSeconds(local, "America/Los_Angeles"), local + 7 * kHour);
}

TEST(TimezoneTest, UsesTheFooterRuleAfterTheTransitionTable) {
  SKIP_WITHOUT_TZDATA();
  const Timezone& la = Timezone::byName("America/Los_Angeles");
  EXPECT_EQ(la.utcOffsetAt(4118126400), -7 * kHour);  // 2100-07-01
  EXPECT_EQ(la.utcOffsetAt(4102444800), -8 * kHour);  // 2100-01-01
  const Timezone& sydney = Timezone::byName("Australia/Sydney");
  EXPECT_EQ(sydney.utcOffsetAt(4103654400), 11 * kHour);  // 2100-01-15: summer
  EXPECT_EQ(sydney.utcOffsetAt(4119292800), 10 * kHour);  // 2100-07-15: winter
}

TEST(TimezoneTest, UsesLocalMeanTimeBeforeTheFirstTransition) {
  SKIP_WITHOUT_TZDATA();
  // Los Angeles kept LMT -7:52:58 until 1883.
  EXPECT_EQ(Timezone::byName("America/Los_Angeles").utcOffsetAt(-3029443200), -28378);
}

TEST(TimezoneTest, CachesZones) {
  SKIP_WITHOUT_TZDATA();
  EXPECT_EQ(&Timezone::byName("Europe/Berlin"), &Timezone::byName("Europe/Berlin"));
}

TEST(TimezoneTest, NamesAMissingZoneInItsError) {
  for (const std::string name : {"Mars/Olympus_Mons", "../../etc/passwd", "/etc/passwd", ""}) {
    try {
      Timezone::byName(name);
      FAIL() << name;
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("time zone " + name +
                                           " is not in the time zone "
                                           "database"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(TimezoneTest, RejectsBytesThatAreNotTzif) {
  const std::vector<uint8_t> notTzif = {'T', 'Z', 'i', 'x', 0, 0, 0};
  EXPECT_THROW(Timezone::fromTzif("bad", notTzif), IoError);
  std::vector<uint8_t> header = {'T', 'Z', 'i', 'f', '2'};
  header.resize(44, 0);
  header[39] = 1;  // typecnt 1, but no body follows
  EXPECT_THROW(Timezone::fromTzif("cut", header), IoError);
}

TEST(PosixTzRuleTest, ParsesFixedAndDaylightRules) {
  const auto fixed = PosixTzRule::parse("<+0330>-3:30");
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->utcOffsetAt(0), 3 * kHour + 1800);
  const auto eastern = PosixTzRule::parse("EST5EDT,M3.2.0/2,M11.1.0/2");
  ASSERT_TRUE(eastern);
  EXPECT_EQ(eastern->utcOffsetAt(4118126400), -4 * kHour);
  EXPECT_EQ(eastern->utcOffsetAt(4102444800), -5 * kHour);
  // Israel: DST from the Friday before the last Sunday of March at 02:00 (written
  // as Thursday 26:00) to the last Sunday of October.
  const auto israel = PosixTzRule::parse("IST-2IDT,M3.4.4/26,M10.5.0");
  ASSERT_TRUE(israel);
  EXPECT_EQ(israel->utcOffsetAt(4118126400), 3 * kHour);
  EXPECT_EQ(israel->utcOffsetAt(4102444800), 2 * kHour);
  // Jn never counts February 29: J60 is March 1 in 2096, a leap year.
  const auto julian = PosixTzRule::parse("AAA0BBB,J60/0,J300/0");
  ASSERT_TRUE(julian);
  const int64_t march1st2096 = 3981398400;
  EXPECT_EQ(julian->utcOffsetAt(march1st2096 - 1), 0);
  EXPECT_EQ(julian->utcOffsetAt(march1st2096), kHour);
}

TEST(PosixTzRuleTest, RejectsMalformedStrings) {
  for (const char* text : {"", "PST", "P8", "PST8PDT,M13.1.0,M11.1.0", "PST8PDT,M3.2.0",
                           "PST8PDT,M3.2.0,M11.1.0x", "<+03", "EST5EDT,J0,J300"}) {
    EXPECT_FALSE(PosixTzRule::parse(text)) << text;
  }
}

}  // namespace
}  // namespace quarry::orc
