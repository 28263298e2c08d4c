#include "quarry/cli/temporal_format.h"

#include <gtest/gtest.h>

#include <limits>

namespace quarry::cli {
namespace {

using parquet::TimeUnit;

TEST(TemporalFormat, DatesFollowTheProlepticGregorianCalendar) {
  EXPECT_EQ(formatDate(0), "1970-01-01");
  EXPECT_EQ(formatDate(-1), "1969-12-31");
  EXPECT_EQ(formatDate(59), "1970-03-01");
  EXPECT_EQ(formatDate(-25508), "1900-03-01");  // 1900 is not a leap year
  EXPECT_EQ(formatDate(11016), "2000-02-29");   // 2000 is
  EXPECT_EQ(formatDate(-719528), "0000-01-01");
  EXPECT_EQ(formatDate(-719529), "-0001-12-31");
}

TEST(TemporalFormat, TimestampsCoverTheWholeInt64Range) {
  EXPECT_EQ(formatTimestamp(std::numeric_limits<int64_t>::max(), TimeUnit::NANOS),
            "2262-04-11T23:47:16.854775807");
  EXPECT_EQ(formatTimestamp(std::numeric_limits<int64_t>::min(), TimeUnit::NANOS),
            "1677-09-21T00:12:43.145224192");
  EXPECT_EQ(formatTimestamp(-1, TimeUnit::MILLIS), "1969-12-31T23:59:59.999");
  // Far past the year 9999, the year simply grows more digits.
  EXPECT_EQ(formatTimestamp(std::numeric_limits<int64_t>::max(), TimeUnit::MILLIS).substr(0, 10),
            "292278994-");
}

TEST(TemporalFormat, TimeOfDayHasTheDigitsOfItsUnit) {
  EXPECT_EQ(formatTimeOfDay(0, TimeUnit::MILLIS), "00:00:00.000");
  EXPECT_EQ(formatTimeOfDay(unitsPerDay(TimeUnit::MICROS) - 1, TimeUnit::MICROS),
            "23:59:59.999999");
  EXPECT_EQ(formatTimeOfDay(1, TimeUnit::NANOS), "00:00:00.000000001");
}

}  // namespace
}  // namespace quarry::cli
