#include "quarry/cli/temporal_format.h"

namespace quarry::cli {

using parquet::TimeUnit;

namespace {

std::string padded(int64_t v, int width) {
  std::string digits = std::to_string(v);
  if (static_cast<int>(digits.size()) < width) {
    digits.insert(0, width - digits.size(), '0');
  }
  return digits;
}

int fractionDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS:
      return 3;
    case TimeUnit::MICROS:
      return 6;
    case TimeUnit::NANOS:
      return 9;
  }
  return 3;
}

}  // namespace

int64_t unitsPerDay(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS:
      return 86'400'000LL;
    case TimeUnit::MICROS:
      return 86'400'000'000LL;
    case TimeUnit::NANOS:
      return 86'400'000'000'000LL;
  }
  return 86'400'000LL;
}

std::string formatDate(int64_t daysSinceEpoch) {
  // Howard Hinnant's civil_from_days: shift to an era starting 0000-03-01 so
  // that the leap day ends each 400-year era, then read year, month and day off
  // the day's position in its era. Exact for every day an int64 timestamp in
  // milliseconds can reach.
  const int64_t z = daysSinceEpoch + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t dayOfEra = z - era * 146097;
  const int64_t yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
  const int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
  const int64_t mp = (5 * dayOfYear + 2) / 153;
  const int64_t day = dayOfYear - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const std::string yearText = year < 0 ? "-" + padded(-year, 4) : padded(year, 4);
  return yearText + "-" + padded(month, 2) + "-" + padded(day, 2);
}

std::string formatTimeOfDay(int64_t units, TimeUnit unit) {
  const int digits = fractionDigits(unit);
  int64_t perSecond = 1;
  for (int i = 0; i < digits; ++i) {
    perSecond *= 10;
  }
  const int64_t seconds = units / perSecond;
  const int64_t fraction = units % perSecond;
  return padded(seconds / 3600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":" +
         padded(seconds % 60, 2) + "." + padded(fraction, digits);
}

std::string formatTimestamp(int64_t count, TimeUnit unit) {
  const int64_t perDay = unitsPerDay(unit);
  // Floor division written so that no intermediate overflows near INT64_MIN.
  int64_t remainder = count % perDay;
  int64_t days = count / perDay;
  if (remainder < 0) {
    remainder += perDay;
    days -= 1;
  }
  return formatDate(days) + "T" + formatTimeOfDay(remainder, unit);
}

}  // namespace quarry::cli
