#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// ES|QL's time spans: an integer and a unit, `1 day`, `15 minutes`, `3 months`.
/// The parser reads them as literals (ast.h's TimeSpanLiteral); DATE_TRUNC and
/// BUCKET take one as their span, and `+` / `-` add one to a date or a timestamp.
namespace quarry::engine {

/// Fixed units (millisecond to hour; ES|QL's TIME_DURATION) and calendar units
/// (day to year; ES|QL's DATE_PERIOD), in increasing length.
enum class TimeSpanUnit : uint8_t {
  kMillisecond,
  kSecond,
  kMinute,
  kHour,
  kDay,
  kWeek,
  kMonth,
  kQuarter,
  kYear,
};

/// The unit `word` names, in any case: ES|QL's names, plurals and abbreviations
/// (ms; s, sec; min; h; d; w; mo; q; y, yr), or nullopt.
std::optional<TimeSpanUnit> timeSpanUnit(std::string_view word);

/// The unit's singular name: "minute".
const char* timeSpanUnitName(TimeSpanUnit unit);

/// A span as bound: a signed count of units.
struct TimeSpan {
  int64_t count = 0;
  TimeSpanUnit unit = TimeSpanUnit::kDay;
  bool operator==(const TimeSpan&) const = default;

  /// True for day, week, month, quarter and year: spans a calendar measures.
  bool isCalendar() const { return unit >= TimeSpanUnit::kDay; }
  /// The length of a millisecond to day span (days are 86,400 s long in UTC) in
  /// `perSecond` units, or nullopt when it overflows int64 or the unit is longer.
  std::optional<int64_t> fixedLength(int64_t perSecond) const;
  /// Returns the span as the language writes it: "1 minute", "15 minutes".
  std::string toString() const;
};

}  // namespace quarry::engine
