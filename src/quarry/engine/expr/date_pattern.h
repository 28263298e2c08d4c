#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/expr/civil_calendar.h"

/// The patterns of Java's DateTimeFormatter, which ES|QL's DATE_FORMAT and
/// DATE_PARSE take, in the locale ES|QL uses (English names) and in UTC (the
/// time zone ES|QL queries run in by default).
///
///   G        era: AD / BC (GGGG Anno Domini, GGGGG A)
///   u, y     year (y: of the era, so 1 BC is year 1); yy two digits (parsed
///            as 2000-2099), yyyy four (a longer year gets a '+', as Java's)
///   M, L     month: M 1, MM 01, MMM Jan, MMMM January, MMMMM J
///   Q, q     quarter: Q 1, QQ 01, QQQ Q1, QQQQ 1st quarter
///   d, D     day of the month; day of the year (D, DD, DDD: at least that many digits)
///   E        day of the week: E EE EEE Mon, EEEE Monday, EEEEE M
///   a        AM / PM
///   H, k     hour of the day 0-23, 1-24;  h, K  hour of AM / PM 1-12, 0-11
///   m, s     minute, second
///   S...     fraction of the second, as many digits as letters (truncated)
///   n, A, N  nano of the second, milli of the day, nano of the day
///   X, x, Z  offset: X..XXX "Z" in UTC; x +00, xx +0000, xxx +00:00;
///            Z..ZZZ +0000, ZZZZ GMT, ZZZZZ Z
///   O, VV    GMT; the zone id Z
///   'text'   literal text ('' is a quote); any character but a letter is itself
///
/// Any other letter, a letter repeated more times than Java takes it, and
/// Java's optional sections `[ ]` (and its reserved `#{}`) are refused when the
/// pattern is compiled, naming the letter.
///
/// Example: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" formats 2024-06-01 12:00:00 UTC as
/// 2024-06-01T12:00:00.000Z, and parses it back.
namespace quarry::engine {

class DatePattern {
 public:
  /// Compiles `pattern`; throws InvalidArgument naming what it cannot take.
  explicit DatePattern(std::string_view pattern);

  /// Appends the instant `at` (a day and a time of day, read in UTC) as the
  /// pattern writes it.
  void format(const DayAndNanos& at, std::string& out) const;

  /// Reads `text`, all of it, as the pattern writes an instant: milliseconds
  /// since 1970-01-01 UTC (a field the pattern lacks is that of 1970-01-01
  /// 00:00:00 UTC, as ES|QL's DATE_PARSE fills it in), or nullopt when the text
  /// does not match or names no real date (Java's strict resolution: February
  /// 30 is not a date, and a day of the week must be the date's).
  std::optional<int64_t> parseMillis(std::string_view text) const;

 private:
  struct Element {
    char letter = 0;  // 0 for literal text
    int count = 0;
    std::string text;  // literal text
  };
  std::vector<Element> elements_;
};

/// ES|QL's text of a datetime, the ISO 8601 form TO_STRING and DATE_FORMAT
/// without a pattern give: 2024-06-01T12:00:00.000Z. The fraction has 3 digits,
/// or up to 9 (trailing zeros dropped, at least 3) when `nanosPrecision` (ES|QL's
/// date_nanos); `zulu` adds the Z of a UTC instant. A year past 9999 has a '+'.
std::string isoDatetimeText(const DayAndNanos& at, bool nanosPrecision, bool zulu);

}  // namespace quarry::engine
