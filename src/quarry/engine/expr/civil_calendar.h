#pragma once

#include <array>
#include <cstdint>

/// The proleptic Gregorian calendar over int64 day numbers (days since
/// 1970-01-01), which the date and time functions, DATE_FORMAT / DATE_PARSE
/// and TO_STRING share. Floor division throughout, so that an instant before
/// 1970 falls on the day it belongs to: floorDiv(-1, 86'400'000) is day -1,
/// 1969-12-31.
namespace quarry::engine {

struct Civil {
  int64_t year;
  unsigned month;  // 1..12
  unsigned day;    // 1..31
};

inline int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

inline int64_t floorMod(int64_t a, int64_t b) {
  return a - floorDiv(a, b) * b;
}

/// The date of day `z` since 1970-01-01, over int64's range (Howard Hinnant's
/// civil_from_days).
inline Civil civilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = floorDiv(z, 146097);
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

/// The inverse of civilFromDays (days_from_civil).
inline int64_t daysFromCivil(int64_t year, unsigned month, unsigned day) {
  const int64_t y = year - (month <= 2 ? 1 : 0);
  const int64_t era = floorDiv(y, 400);
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

inline bool isLeapYear(int64_t year) {
  return floorMod(year, 4) == 0 && (floorMod(year, 100) != 0 || floorMod(year, 400) == 0);
}

inline unsigned daysInMonth(int64_t year, unsigned month) {
  static constexpr std::array<unsigned, 12> kDays = {31, 28, 31, 30, 31, 30,
                                                     31, 31, 30, 31, 30, 31};
  return month == 2 && isLeapYear(year) ? 29 : kDays[month - 1];
}

/// An instant split into its day and the nanoseconds into that day.
struct DayAndNanos {
  int64_t day;
  int64_t nanosOfDay;  // 0 .. 86'399'999'999'999
};

/// `value` in units of which there are `perSecond` per second (1'000, 1'000'000
/// or 1'000'000'000) since 1970-01-01 00:00, as its day and time of day.
inline DayAndNanos splitInstant(int64_t value, int64_t perSecond) {
  const int64_t perDay = perSecond * 86'400;
  const int64_t day = floorDiv(value, perDay);
  return {day, (value - day * perDay) * (1'000'000'000 / perSecond)};
}

}  // namespace quarry::engine
